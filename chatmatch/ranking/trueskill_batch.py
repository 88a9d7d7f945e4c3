"""TrueSkill over many game orders at once (numpy): what makes many shuffles cheap.

Every shuffle is an independent replay of the same games from fresh ratings; here all the
shuffles advance together, one game position at a time, each with its own game. The
update is TrueSkill's two-player closed form (Herbrich et al. 2007), the same as
:func:`chatmatch.ranking.trueskill_rank.rate_pair` and ``trueskill.rate_1vs1``; the
normal CDF is scipy's exact one where the ``trueskill`` library uses a 1e-7 approximation,
so ratings agree with the library to about 1e-6 (tests/ranking/test_trueskill_shuffles.py).
Cost: one vectorised step per game position, whatever the number of shuffles.
"""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np
import trueskill
from scipy.special import log_ndtr, ndtr

_LOG_SQRT_2PI = 0.5 * np.log(2 * np.pi)


def _pdf_over_cdf(x: np.ndarray) -> np.ndarray:
    """N(x) / Phi(x), computed in log space so it stays finite far in the left tail."""
    out: np.ndarray = np.exp(-0.5 * x * x - _LOG_SQRT_2PI - log_ndtr(x))
    return out


def _pdf(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.exp(-0.5 * x * x - _LOG_SQRT_2PI)
    return out


def _v_w(t: np.ndarray, eps: np.ndarray, drawn: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """TrueSkill's V and W functions: the win form where ``drawn`` is false, else the draw form."""
    x = t - eps
    v_win = _pdf_over_cdf(x)
    w_win = v_win * (v_win + x)
    abs_t = np.abs(t)
    a, b = eps - abs_t, -eps - abs_t
    with np.errstate(divide="ignore", invalid="ignore"):
        denom = ndtr(a) - ndtr(b)
        v_draw = np.where(denom > 0, (_pdf(b) - _pdf(a)) / denom, a) * np.where(t < 0, -1.0, 1.0)
        w_draw = v_draw ** 2 + (a * _pdf(a) - b * _pdf(b)) / denom
    return np.where(drawn, v_draw, v_win), np.where(drawn, w_draw, w_win)


def play_shuffles(outcomes: Sequence[tuple[str, str, Optional[str]]], orders: np.ndarray,
                  env: trueskill.TrueSkill, bots: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Final ``(mu, sigma)``, each shaped (shuffles, bots), after replaying ``outcomes``
    (player a, player b, winner or None) in each row of ``orders`` (game indices)."""
    index = {b: i for i, b in enumerate(bots)}
    first = np.array([index[w if w is not None else a] for a, b, w in outcomes], dtype=np.intp)
    second = np.array([index[(b if w == a else a) if w is not None else b]
                       for a, b, w in outcomes], dtype=np.intp)
    drawn = np.array([w is None for _, _, w in outcomes])
    k = orders.shape[0]
    rows = np.arange(k)
    mu = np.full((k, len(bots)), float(env.mu))
    var = np.full((k, len(bots)), float(env.sigma) ** 2)
    margin = trueskill.calc_draw_margin(env.draw_probability, 2, env)
    for step in range(orders.shape[1]):
        g = orders[:, step]
        f, s, d = first[g], second[g], drawn[g]
        var_f = var[rows, f] + env.tau ** 2
        var_s = var[rows, s] + env.tau ** 2
        c2 = 2 * env.beta ** 2 + var_f + var_s
        c = np.sqrt(c2)
        v, w = _v_w((mu[rows, f] - mu[rows, s]) / c, margin / c, d)
        mu[rows, f] += var_f / c * v
        mu[rows, s] -= var_s / c * v
        var[rows, f] = var_f * (1 - var_f / c2 * w)
        var[rows, s] = var_s * (1 - var_s / c2 * w)
    return mu, np.sqrt(var)

"""Correlations of two rankings (or of two sets of numbers): Kendall tau-b, Spearman rho and
Pearson r, with p-values, and their vectorised forms over many rankings at once
(:func:`tau_b_rows`, :func:`rho_rows`). Used by every agreement measure: the analysis of a
run against a human ranking, the annotations, the validity lab.

Both are computed by scipy on the bots the two sides share. Kendall's tau-b corrects for
ties (two bots sharing a rank), as does Spearman's rho (average ranks). Values are NaN when
one side gives every bot the same rank (a correlation is undefined then).

Orientation: ranks are "lower is better", scores "higher is better"; :func:`compare`
turns both into "higher is better" first, so +1 always means full agreement.

p-values (two-sided, H0: no association). A few bots give few pairs, where the usual
large-sample approximations are poor, so:

- Kendall tau without ties on either side: scipy's exact null distribution
  (``kendalltau(method="exact")``), for any number of bots;
- Kendall tau with ties (two bots sharing a rank), and Spearman rho, with at most
  :data:`EXACT_MAX_N` bots: an exact permutation test (``scipy.stats.permutation_test``
  enumerating every ordering of one side; ties are kept as they are, so the p-value is
  exact given the ties; two-sided = twice the smaller one-sided p, capped at 1);
- otherwise scipy's asymptotic p-value.

``Correlation.p_method`` says which one was used. With fewer than :data:`MIN_BOTS` bots
no p-value can go below 0.05 (:func:`few_bots_note` says so; the CLI and the report show it).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
from scipy import stats

#: fewer bots than this: a warning (no p-value can be small; the paper's smallest subsets: 4)
MIN_BOTS = 4
#: exact permutation p-values (every ordering enumerated) up to this many bots
EXACT_MAX_N = 8


@dataclass(frozen=True)
class Correlation:
    value: float
    p_value: float
    n: int
    #: "exact", "exact permutation", "asymptotic" or "" (no p-value asked for)
    p_method: str = ""

    def fmt(self) -> str:
        return "n/a" if math.isnan(self.value) else f"{self.value:+.3f}"

    def fmt_p(self) -> str:
        return "n/a" if math.isnan(self.p_value) else f"{self.p_value:.3g}"


def tau_b_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kendall tau-b along the last axis: every row of ``x`` (shape ``(..., n)``) against
    ``y``, one ranking of the ``n`` items (shape ``(n,)``) or one a row (the shape of
    ``x``). NaN where a row or ``y`` ranks every item the same."""
    sx = np.sign(x[..., :, None] - x[..., None, :])
    sy = np.sign(y[..., :, None] - y[..., None, :])
    num = (sx * sy).sum(axis=(-2, -1))
    den = np.sqrt((sx != 0).sum(axis=(-2, -1)) * (sy != 0).sum(axis=(-2, -1)).astype(float))
    with np.errstate(invalid="ignore", divide="ignore"):
        tau: np.ndarray = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
    return tau


def rho_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Spearman rho (Pearson of average ranks) of every row of ``x`` against that of ``y``."""
    rx = stats.rankdata(x, axis=1)
    ry = stats.rankdata(y, axis=1)
    rx -= rx.mean(axis=1, keepdims=True)
    ry -= ry.mean(axis=1, keepdims=True)
    den = np.linalg.norm(rx, axis=1) * np.linalg.norm(ry, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out: np.ndarray = np.where(den > 0, (rx * ry).sum(axis=1) / np.where(den > 0, den, 1.0),
                                   np.nan)
    return out


def _pair(x: Sequence[float], y: Sequence[float]) -> None:
    if len(x) != len(y):
        raise ValueError(f"need two sequences of the same length, got {len(x)} and {len(y)}")


#: a vectorised statistic for :func:`scipy.stats.permutation_test`: ``statistic(x, axis=-1)``
Statistic = Callable[..., np.ndarray]


def _tau_b_batch(y: np.ndarray) -> Statistic:
    """Kendall tau-b of every row of ``x`` (shape ``(..., n)``) against ``y``: vectorised."""

    def statistic(x: np.ndarray, axis: int = -1) -> np.ndarray:
        return tau_b_rows(np.moveaxis(x, axis, -1), y)

    return statistic


def _rho_batch(y: np.ndarray) -> Statistic:
    """Spearman rho (Pearson of average ranks) of every row of ``x`` against ``y``."""
    ry = stats.rankdata(y)
    ry = (ry - ry.mean()) / np.linalg.norm(ry - ry.mean())

    def statistic(x: np.ndarray, axis: int = -1) -> np.ndarray:
        rx = stats.rankdata(np.moveaxis(x, axis, -1), axis=-1)
        rx = rx - rx.mean(axis=-1, keepdims=True)
        rho: np.ndarray = (rx * ry).sum(axis=-1) / np.linalg.norm(rx, axis=-1)
        return rho

    return statistic


def _permutation_p(statistic: Statistic, x: Sequence[float]) -> float:
    # scipy-stubs types n_resamples as int, but SciPy documents np.inf (every permutation:
    # the exact test)
    res = stats.permutation_test(  # type: ignore[call-overload]
        (np.asarray(x, dtype=float),), statistic, vectorized=True,
        permutation_type="pairings", n_resamples=np.inf)
    return float(min(1.0, res.pvalue))


def _correlation(value: float, n: int, p: tuple[float, str] | None) -> Correlation:
    if p is None or math.isnan(value):
        return Correlation(value, math.nan, n)
    return Correlation(value, p[0], n, p[1])


def kendall(x: Sequence[float], y: Sequence[float], *, p_value: bool = True) -> Correlation:
    """Kendall's tau-b of two equally long sequences (ties handled) and its p-value (see the
    module docstring: exact for few bots)."""
    _pair(x, y)
    if len(x) < 2:
        return Correlation(math.nan, math.nan, len(x))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant input: NaN is the answer
        res = stats.kendalltau(x, y, variant="b")
        value = float(res.statistic)
        if not p_value or math.isnan(value):
            return _correlation(value, len(x), None)
        if len(set(x)) == len(x) and len(set(y)) == len(y):
            p = (float(stats.kendalltau(x, y, method="exact").pvalue), "exact")
        elif len(x) <= EXACT_MAX_N:
            p = (_permutation_p(_tau_b_batch(np.asarray(y, dtype=float)), x), "exact permutation")
        else:
            p = (float(res.pvalue), "asymptotic")
    return _correlation(value, len(x), p)


def spearman(x: Sequence[float], y: Sequence[float], *, p_value: bool = True) -> Correlation:
    """Spearman's rho and its p-value (exact permutation test up to EXACT_MAX_N bots)."""
    _pair(x, y)
    if len(x) < 2:
        return Correlation(math.nan, math.nan, len(x))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = stats.spearmanr(x, y)
        value = float(res.statistic)
        if not p_value or math.isnan(value):
            return _correlation(value, len(x), None)
        if len(x) <= EXACT_MAX_N:
            p = (_permutation_p(_rho_batch(np.asarray(y, dtype=float)), x), "exact permutation")
        else:
            p = (float(res.pvalue), "asymptotic")
    return _correlation(value, len(x), p)


def pearson(x: Sequence[float], y: Sequence[float]) -> Correlation:
    _pair(x, y)
    if len(x) < 2:
        return Correlation(math.nan, math.nan, len(x))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = stats.pearsonr(x, y)
    return Correlation(float(res.statistic), float(res.pvalue), len(x), "asymptotic")


def few_bots_note(n: int) -> str | None:
    """A warning when ``n`` bots are too few for the correlation to mean much, else None."""
    if n >= MIN_BOTS:
        return None
    smallest = 2 / math.factorial(n) if n >= 2 else math.nan
    return (f"only {n} bots compared: Kendall tau and Spearman rho can take only a few values, "
            f"and no p-value can be below {min(1.0, smallest):.2g} (the exact two-sided minimum "
            f"for {n} bots); compare at least {MIN_BOTS} bots before reading much into it")


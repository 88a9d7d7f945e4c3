"""Bradley-Terry with style covariates: who wins once length (and style) is held equal.

As Chatbot Arena's style control: P(a beats b) = sigmoid(s_a - s_b + sum_k beta_k * d_k),
where d_k is the game's difference a minus b in covariate k (a scored dimension's raw
value, standardised over the games: ``turn_length``, ``markdown``, proactivity's question
rate, ...). The bots' strengths ``s`` are the ranking: what each bot is worth once the
covariates are accounted for; ``beta`` says how much a covariate by itself wins games.
Fitted by L2-penalised logistic regression (scikit-learn, lbfgs; ``prior`` plays the role of
bt's virtual ties: penalty 1/C with C = 1/prior on the strengths and the betas); a tied
game counts as half a win each. The plain Bradley-Terry strengths are kept beside it
(``meta.uncontrolled``), so a report can show both. Bootstrap intervals as bt.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np
from pydantic import Field
from sklearn.linear_model import LogisticRegression

from chatmatch.errors import ChatmatchError
from chatmatch.ranking.base import RANKERS, Ranking
from chatmatch.ranking.bradley_terry import bootstrap, fit_bt, outcomes, ranking_with_ci
from chatmatch.ranking.params import BradleyTerryParams
from chatmatch.records import GameResult

Game = tuple[str, str, float, tuple[float, ...]]


class BTStyleParams(BradleyTerryParams):
    #: scored dimensions whose raw values are held equal (list them with weight 0)
    covariates: list[str] = Field(default_factory=lambda: ["turn_length"], min_length=1)


class StyleError(ChatmatchError):
    """A covariate that is not among the scored dimensions."""


def style_games(results: Sequence[GameResult], covariates: Sequence[str]) -> list[Game]:
    """(a, b, score of a, covariate differences a - b) per game in game-id order."""
    out = []
    for r in sorted(results, key=lambda r: r.game_id):
        a, b = r.players
        missing = [c for c in covariates if c not in r.raw[a]] if not r.forfeit else []
        if missing:
            raise StyleError(f"ranking bt-style: covariate {missing[0]} is not a scored "
                             f"dimension of game {r.game_id}; add it to the tournament "
                             f"file's scoring.dimensions, with scoring.weights: "
                             f"{{{missing[0]}: 0}} (it should decide no point), and run "
                             "`chatmatch run` on that file again: the stored games are "
                             "re-scored, not re-played")
        diff = tuple(0.0 if r.forfeit else _d(r.raw[a][c], r.raw[b][c]) for c in covariates)
        out.append((a, b, r.score_of(a), diff))
    return out


def _d(x: float, y: float) -> float:
    return x - y if math.isfinite(x) and math.isfinite(y) else 0.0


def fit_style(games: Sequence[Game], bots: Sequence[str], prior: float,
              k: int) -> tuple[dict[str, float], list[float]]:
    """(log-strengths with mean 0, betas per standard deviation of each covariate)."""
    if not games:
        return {b: 0.0 for b in bots}, [0.0] * k
    idx = {b: i for i, b in enumerate(bots)}
    x = np.zeros((2 * len(games), len(bots) + k))
    y = np.tile([1, 0], len(games))
    w = np.zeros(2 * len(games))
    d = np.array([g[3] for g in games], dtype=float).reshape(len(games), k)
    sd = d.std(axis=0)
    sd = np.where(sd > 0, sd, 1.0)
    for n, (a, b, s, _) in enumerate(games):
        for row, weight in ((2 * n, s), (2 * n + 1, 1.0 - s)):
            x[row, idx[a]], x[row, idx[b]] = 1.0, -1.0
            x[row, len(bots):] = d[n] / sd
            w[row] = weight
    keep = w > 0
    if len(set(y[keep].tolist())) < 2:  # every game went one way: a tiny mirrored game
        i = int(np.flatnonzero(keep)[0])  # (-x, the other label) says what (x, y) says
        x, y, w = np.vstack([x, -x[i:i + 1]]), np.append(y, 1 - y[i]), np.append(w, 1e-6)
        keep = w > 0
    c = 1.0 / prior if prior > 0 else 1e6
    reg = LogisticRegression(C=c, fit_intercept=False, max_iter=1000)
    reg.fit(x[keep], y[keep], sample_weight=w[keep])
    coef = reg.coef_[0]
    s = coef[:len(bots)] - coef[:len(bots)].mean()
    return {b: float(s[idx[b]]) for b in bots}, [float(v) for v in coef[len(bots):]]


@RANKERS.register("bt-style", description="Bradley-Terry with style covariates held equal "
                  "(length control), bootstrap CIs", params=BTStyleParams)
def rank_bt_style(results: Sequence[GameResult], bots: Sequence[str], p: BTStyleParams,
                  seed: int = 0) -> Ranking:
    games = style_games(results, p.covariates)
    k = len(p.covariates)
    scores, betas = fit_style(games, bots, p.prior, k)
    reps = p.bootstrap if games else 0
    boot = bootstrap(games, bots, lambda g: fit_style(g, bots, p.prior, k)[0], reps, seed)  # type: ignore[arg-type]
    plain = fit_bt(outcomes(results), bots, p.prior)
    meta = {"prior": p.prior, "seed": seed, "ties": "half a win each",
            "score": "log strength with the covariates held equal, mean 0",
            "covariates": dict(zip(p.covariates, (round(b, 4) for b in betas))),
            "uncontrolled": {b: round(v, 4) for b, v in plain.items()}}
    return ranking_with_ci("bt-style", scores, boot, bots, p.ci, results, meta, "log_strength")

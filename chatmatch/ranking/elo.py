"""Elo ranking: every game, in game-id order, moves the two ratings by
``k * (S - E)`` with ``E = 1 / (1 + 10 ** ((R_other - R_self) / scale))`` and S = 1, 0.5 or 0
(a tie is half a win; a forfeit is a loss). Ratings start at ``initial``.

Elo depends on the game order, so the point estimate uses the canonical game-id order and
the confidence intervals come from ``bootstrap`` resamples of the games with replacement
(in the resampled order), drawn by ``numpy.random.default_rng(seed)``.
"""

from __future__ import annotations

from typing import Sequence

from chatmatch.ranking.base import RANKERS, Ranking
from chatmatch.ranking.bradley_terry import bootstrap, outcomes, ranking_with_ci
from chatmatch.ranking.params import EloParams as EloParams
from chatmatch.records import GameResult


def elo_ratings(games: Sequence[tuple[str, str, float]], bots: Sequence[str], k: float = 16.0,
                initial: float = 1000.0, scale: float = 400.0) -> dict[str, float]:
    """Ratings after playing ``games`` ((a, b, score of a)) in the given order."""
    r = {b: float(initial) for b in bots}
    for a, b, s in games:
        # the exponent is clamped: 10 ** 400 overflows, and the result is 0 or 1 anyway
        expected = 1.0 / (1.0 + 10 ** max(-300.0, min(300.0, (r[b] - r[a]) / scale)))
        delta = k * (s - expected)
        r[a] += delta
        r[b] -= delta
    return r


@RANKERS.register("elo", description="Elo ratings over the games, bootstrap CIs", params=EloParams)
def rank_elo(results: Sequence[GameResult], bots: Sequence[str], p: EloParams,
             seed: int = 0) -> Ranking:
    games = outcomes(results)

    def fit(g: Sequence[tuple[str, str, float]]) -> dict[str, float]:
        return elo_ratings(g, bots, p.k, p.initial, p.scale)

    boot = bootstrap(games, bots, fit, p.bootstrap if games else 0, seed)
    return ranking_with_ci("elo", fit(games), boot, bots, p.ci, results,
                           {"k": p.k, "initial": p.initial, "scale": p.scale, "seed": seed,
                            "order": "game id"}, "elo")

"""Game points (paper, section 2.2.1): per dimension, the bot with the better raw score wins
that dimension's point, times the dimension's weight; a tie gives the point to nobody.
Raw scores within :data:`chatmatch.common.numbers.RAW_TIE_REL` (1e-5 relative, an absolute
floor for values below 1) are a tie, so float noise between CPUs never moves a point.

A dimension may not apply to a bot in a game (consistency of a bot that was never asked a
repeated question: there was nothing to be consistent about). The scorer lists such bots
in ``DimensionScore.not_applicable`` (their raw value is NaN); when either bot is listed,
nobody wins that dimension's point. This differs from a plain NaN, which means "no score"
(fluency of a bot that said nothing scoreable) and loses to any number.
The game score is the sum (at most 7 with unit weights); the game is won, tied or lost on it.

A forfeited game (a bot failed and the policy said forfeit) is lost by the failing bot:
the other bot gets every dimension's point.
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import numpy as np

from chatmatch.common.numbers import RAW_TIE_REL, raw_tie
from chatmatch.records import DimensionScore, Forfeit, GameResult


def dimension_winner(a_val: float, b_val: float, higher_is_better: bool) -> int:
    """+1 if the first value is better, -1 if the second, 0 for a tie (values equal under
    :func:`chatmatch.common.numbers.raw_tie`, or two NaNs).

    A NaN (no defined score, e.g. perplexity of a bot that never produced a scorable turn)
    loses to any number.
    """
    a_nan, b_nan = math.isnan(a_val), math.isnan(b_val)
    if a_nan or b_nan:
        return 0 if a_nan and b_nan else (-1 if a_nan else 1)
    if raw_tie(a_val, b_val):
        return 0
    better = a_val > b_val if higher_is_better else a_val < b_val
    return 1 if better else -1


def dimension_winners(a: Any, b: Any, higher_is_better: bool) -> Any:
    """:func:`dimension_winner` element by element over numpy arrays (broadcast): +1, -1 or
    0 under the same tie and NaN rules (used where millions of pairs are compared)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    with np.errstate(invalid="ignore", over="ignore"):
        tie = (a == b) | (np.abs(a - b) <= RAW_TIE_REL * np.maximum(1.0, np.maximum(abs(a), abs(b))))
        better = (a > b) if higher_is_better else (a < b)
    return np.where(nan_a | nan_b, np.where(nan_a & nan_b, 0, np.where(nan_a, -1, 1)),
                    np.where(tie, 0, np.where(better, 1, -1)))


def award_points(game_id: str, players: tuple[str, str], raw: Mapping[str, Mapping[str, float]],
                 higher_is_better: Mapping[str, bool], weights: Mapping[str, float],
                 not_applicable: Mapping[str, Sequence[str]] | None = None) -> GameResult:
    """Points per bot and dimension; a dimension that does not apply to either bot
    (``not_applicable``: dimension -> bots) is a tie."""
    a, b = players
    na = {d: sorted(set(bots) & {a, b}) for d, bots in (not_applicable or {}).items()}
    na = {d: bots for d, bots in na.items() if bots}
    points: dict[str, dict[str, float]] = {a: {}, b: {}}
    for dim, hib in higher_is_better.items():
        w = float(weights.get(dim, 1.0))
        verdict = 0 if dim in na else dimension_winner(float(raw[a][dim]), float(raw[b][dim]), hib)
        points[a][dim] = w if verdict > 0 else 0.0
        points[b][dim] = w if verdict < 0 else 0.0
    return GameResult(game_id, players, {p: dict(raw[p]) for p in players}, points,
                      dict(higher_is_better), not_applicable=na)


def reweight(result: GameResult, weights: Mapping[str, float]) -> GameResult:
    """The same game with other dimension weights (e.g. a "minus x" ablation); a forfeit
    stays as it is."""
    if result.forfeit:
        return result
    return award_points(result.game_id, result.players, result.raw, result.higher_is_better,
                        weights, result.not_applicable)


def result_from_scores(game_id: str, players: tuple[str, str],
                       scores: Mapping[str, DimensionScore],
                       weights: Mapping[str, float]) -> GameResult:
    raw = {p: {d: float(s.raw.get(p, math.nan)) for d, s in scores.items()} for p in players}
    hib = {d: s.higher_is_better for d, s in scores.items()}
    na = {d: list(s.not_applicable) for d, s in scores.items() if s.not_applicable}
    return award_points(game_id, players, raw, hib, weights, na)


def forfeit_result(game_id: str, players: tuple[str, str], loser: str, reason: str,
                   dimensions: Mapping[str, bool], weights: Mapping[str, float]) -> GameResult:
    winner = players[1] if loser == players[0] else players[0]
    points = {winner: {d: float(weights.get(d, 1.0)) for d in dimensions},
              loser: {d: 0.0 for d in dimensions}}
    raw = {p: {d: math.nan for d in dimensions} for p in players}
    return GameResult(game_id, players, raw, points, dict(dimensions),
                      forfeit=Forfeit(loser, reason))

"""Game points (paper, section 2.2.1): per dimension, the bot with the better raw score wins
that dimension's point, times the dimension's weight; a tie gives the point to nobody.

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
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from chatmatch.scoring.base import DimensionScore

#: raw scores closer than this are a tie (guards against float noise)
TIE_TOLERANCE = 1e-9


@dataclass(frozen=True)
class GameResult:
    """The verdict on one game: raw scores and points per bot and dimension."""

    game_id: str
    players: tuple[str, str]
    raw: dict[str, dict[str, float]]
    points: dict[str, dict[str, float]]
    higher_is_better: dict[str, bool] = field(default_factory=dict)
    forfeit: dict[str, str] | None = None  # {"bot": ..., "reason": ...}
    #: dimension -> bots it did not apply to (no point is awarded on that dimension)
    not_applicable: dict[str, list[str]] = field(default_factory=dict)

    @property
    def total(self) -> dict[str, float]:
        return {p: float(sum(self.points[p].values())) for p in self.players}

    @property
    def winner(self) -> str | None:
        a, b = self.players
        ta, tb = self.total[a], self.total[b]
        if abs(ta - tb) <= TIE_TOLERANCE:
            return None
        return a if ta > tb else b

    def score_of(self, bot: str) -> float:
        """1 for a win, 0.5 for a tie, 0 for a loss."""
        w = self.winner
        return 0.5 if w is None else float(w == bot)

    def to_json(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "players": list(self.players), "raw": self.raw,
                "points": self.points, "higher_is_better": self.higher_is_better,
                "total": self.total, "winner": self.winner, "forfeit": self.forfeit,
                "not_applicable": self.not_applicable}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "GameResult":
        return cls(game_id=d["game_id"], players=(d["players"][0], d["players"][1]),
                   raw={k: dict(v) for k, v in d["raw"].items()},
                   points={k: dict(v) for k, v in d["points"].items()},
                   higher_is_better=dict(d.get("higher_is_better", {})),
                   forfeit=d.get("forfeit"),
                   not_applicable={k: list(v) for k, v in (d.get("not_applicable") or {}).items()})

    def reweighted(self, weights: Mapping[str, float]) -> "GameResult":
        """The same game with other dimension weights (e.g. a "minus x" ablation)."""
        if self.forfeit:
            return self
        return award_points(self.game_id, self.players, self.raw, self.higher_is_better, weights,
                            self.not_applicable)


def dimension_winner(a_val: float, b_val: float, higher_is_better: bool) -> int:
    """+1 if the first value is better, -1 if the second, 0 for a tie (or two NaNs).

    A NaN (no defined score, e.g. perplexity of a bot that never produced a scorable turn)
    loses to any number.
    """
    a_nan, b_nan = math.isnan(a_val), math.isnan(b_val)
    if a_nan or b_nan:
        return 0 if a_nan and b_nan else (-1 if a_nan else 1)
    if abs(a_val - b_val) <= TIE_TOLERANCE * max(1.0, abs(a_val), abs(b_val)):
        return 0
    better = a_val > b_val if higher_is_better else a_val < b_val
    return 1 if better else -1


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
                      forfeit={"bot": loser, "reason": reason})

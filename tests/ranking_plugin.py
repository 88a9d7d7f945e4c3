"""Ranking methods "of another package", for tests/ranking/test_ranker_plugins.py: ``rank_by_wins``
has its own parameter model (the test registers it as ``by-wins``, as a plugin module does
when imported, for the length of one test); ``rank_by_name`` takes no parameters."""

from __future__ import annotations

from typing import Sequence

from pydantic import Field

from chatmatch.common.validation import StrictModel
from chatmatch.ranking import Ranking, RankRow
from chatmatch.ranking.base import competition_ranks, win_tie_loss
from chatmatch.records import GameResult


class WinsParams(StrictModel):
    """Score = wins * per_win + ties * per_tie."""

    per_win: float = Field(default=1.0, gt=0.0)
    per_tie: float = Field(default=0.0, ge=0.0)


def rank_by_wins(results: Sequence[GameResult], bots: Sequence[str], p: WinsParams,
                 seed: int = 0) -> Ranking:
    games = win_tie_loss(results, bots)
    score = {b: games[b].won * p.per_win + games[b].tied * p.per_tie for b in bots}
    order = sorted(bots, key=lambda b: (-score[b], b))
    ranks = competition_ranks([score[b] for b in order])
    rows = tuple(RankRow(b, r, score[b], games[b]) for b, r in zip(order, ranks))
    return Ranking("by-wins", rows, len(results), meta={"params": p.model_dump()})


def rank_by_name(results: Sequence[GameResult], bots: Sequence[str], params: None,
                 seed: int = 0) -> Ranking:
    assert params is None
    rows = tuple(RankRow(b, i + 1, float(-i)) for i, b in enumerate(sorted(bots)))
    return Ranking("by-name", rows, len(results))

"""A ranking read back from ``rankings/METHOD.json`` (what ``chatmatch run`` and ``chatmatch
rank`` wrote), used by the view instead of ranking again when the file is fresh: written
after the last result line and resting on as many games as the run has now. Anything that
does not read as a ranking of this run's bots is None (the view then ranks itself)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from chatmatch.common.safeio import read_text_bounded
from chatmatch.records import (GameTally, IntervalStats, MethodStats, PointsStats,
                               TrueSkillStats, none_to_nan)
from chatmatch.ranking import Ranking
from chatmatch.ranking.base import RankRow

_TALLY = ("games", "won", "tied", "lost", "forfeits", "game_points")
_NOT_LABEL = {"bot", "rank", "score", "tied_with", "ci_low", "ci_high", "rank_ci_low",
              "rank_ci_high", *_TALLY}


def _stats(d: Mapping[str, Any]) -> MethodStats | None:
    if "match_points" in d:
        return PointsStats(float(d["match_points"]), int(d["matches_won"]),
                           int(d["matches_tied"]), int(d["matches_lost"]))
    if "mu" in d:
        return TrueSkillStats(none_to_nan(d["mu"]), none_to_nan(d["sigma"]),
                              none_to_nan(d["conservative"]), none_to_nan(d["mean_rank"]),
                              int(d["rank_min"]), int(d["rank_max"]), tuple(map(int, d["ranks"])))
    labels = [k for k in d if k not in _NOT_LABEL]
    if len(labels) != 1:
        return None
    opt = {k: d.get(k) for k in ("ci_low", "ci_high", "rank_ci_low", "rank_ci_high")}
    return IntervalStats(labels[0], none_to_nan(d[labels[0]]), **opt)


def _row(d: Mapping[str, Any]) -> RankRow:
    tally = GameTally(games=int(d["games"]), won=int(d["won"]), tied=int(d["tied"]),
                      lost=int(d["lost"]), forfeits=int(d["forfeits"]),
                      game_points=float(d["game_points"]))
    return RankRow(str(d["bot"]), int(d["rank"]), none_to_nan(d["score"]), tally, _stats(d),
                   tuple(map(str, d.get("tied_with") or ())))


def stored_ranking(run_dir: Path, method: str, bots: Sequence[str], games: int,
                   results_mtime: int) -> Ranking | None:
    """The stored ranking by ``method`` when it is fresh and reads whole, else None."""
    path = run_dir / "rankings" / f"{method}.json"
    try:
        if path.stat().st_mtime_ns < results_mtime:
            return None
        import json
        doc = json.loads(read_text_bounded(path))
        rows = tuple(_row(d) for d in doc["ranking"])
        if doc["method"] != method or int(doc["games"]) != games \
                or sorted(r.bot for r in rows) != sorted(bots):
            return None
        expected = doc.get("expected_games")
        return Ranking(method, rows, games, None if expected is None else int(expected),
                       dict(doc.get("meta") or {}))
    except (OSError, ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None

"""The tables of a run as data, for the two pages that draw them from one set of Jinja2
templates (``chatmatch/analysis/templates``): the self-contained ``report.html`` and the
``chatmatch view`` app. Every number that rests on games carries those games' ids and the
query that selects them (:func:`select_games`), so the app can link each number to the
games behind it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from chatmatch.ranking import Ranking
from chatmatch.records import GameResult, ScoreRecord
from chatmatch.scoring.details import turn_notes
from chatmatch.scoring.points import dimension_winner
from chatmatch.transcript import Transcript


@dataclass(frozen=True)
class Cell:
    """A number of a table and the games it counts (``query``: the filter that lists them)."""

    value: Any
    games: int = 0
    query: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Board:
    """A leaderboard as drawn: headers, rows (rank shown with ``=`` when tied), the groups
    of bots the ranking cannot tell apart, whether it rests on every scheduled game."""

    method: str
    headers: list[str]
    rows: list[list[Any]]
    tied: list[tuple[str, ...]]
    games: int
    expected: int | None

    @property
    def complete(self) -> bool:
        return self.expected is None or self.games >= self.expected


def board(r: Ranking) -> Board:
    headers, rows = r.leaderboard()
    groups: dict[frozenset[str], tuple[str, ...]] = {}
    for x in r.rows:
        if x.tied_with:
            group = (x.bot, *x.tied_with)
            groups.setdefault(frozenset(group), group)
    return Board(r.method, headers, rows, list(groups.values()), r.games, r.expected_games)


def dimension_table(results: Sequence[GameResult], order: Sequence[str]
                    ) -> tuple[list[str], dict[str, bool], list[tuple[str, list[Cell], list[float]]]]:
    """(dimensions, higher is better per dimension, rows): per bot, the games in which it
    won each dimension (a :class:`Cell`) and its mean raw score per game."""
    dims: dict[str, bool] = {}
    for r in results:
        for d, hib in r.higher_is_better.items():
            dims[d] = dims.get(d, False) or hib
    wins = {b: {d: 0 for d in dims} for b in order}
    raw: dict[str, dict[str, list[float]]] = {b: {d: [] for d in dims} for b in order}
    for r in results:
        for p in r.players:
            for d, v in r.points[p].items():
                wins[p][d] += int(v > 0)
            for d, v in r.raw[p].items():
                if d in dims and not math.isnan(v):
                    raw[p][d].append(v)
    rows = [(b, [Cell(wins[b][d], wins[b][d], {"bot": b, "dim": d}) for d in dims],
             [sum(raw[b][d]) / len(raw[b][d]) if raw[b][d] else math.nan for d in dims])
            for b in order]
    return list(dims), dims, rows


def head_to_head(results: Sequence[GameResult], order: Sequence[str]
                 ) -> list[tuple[str, list[Cell | None]]]:
    """Per bot (row), the game points it scored against each opponent (column), with the
    games they played; None on the diagonal and where two bots have not met."""
    pts: dict[tuple[str, str], float] = {}
    n: dict[tuple[str, str], int] = {}
    for r in results:
        a, b = r.players
        for me, other in ((a, b), (b, a)):
            pts[me, other] = pts.get((me, other), 0.0) + r.total[me]
            n[me, other] = n.get((me, other), 0) + 1
    return [(b, [Cell(pts[b, o], n[b, o], {"bot": b, "vs": o}) if (b, o) in n else None
                 for o in order]) for b in order]


def select_games(results: Sequence[GameResult], bot: str | None = None, vs: str | None = None,
                 dim: str | None = None) -> list[GameResult]:
    """The games of ``bot`` (against ``vs``; in which it won dimension ``dim``)."""
    out = []
    for r in results:
        if bot is not None and bot not in r.players:
            continue
        if vs is not None and (vs not in r.players or vs == bot):
            continue
        winners = [bot] if bot is not None else list(r.players)
        if dim is not None and all(r.points[w].get(dim, 0.0) <= 0 for w in winners):
            continue
        out.append(r)
    return out


def selection_title(bot: str | None = None, vs: str | None = None, dim: str | None = None) -> str:
    """What :func:`select_games` with the same arguments lists, in words (a page's heading)."""
    if bot is None:
        what = f"games of {vs}" if vs is not None else "all games"
        return what + (f" in which a bot won {dim}" if dim is not None else "")
    return (f"games of {bot}" + (f" against {vs}" if vs is not None else "")
            + (f" in which {bot} won {dim}" if dim is not None else ""))


@dataclass(frozen=True)
class Verdict:
    """One dimension of one game: raw scores, points, who won it and why."""

    dimension: str
    raw: tuple[float, float]
    points: tuple[float, float]
    winner: str | None
    why: str
    turns: Mapping[str, list[int]]


def verdicts(result: GameResult, scores: ScoreRecord | None,
             transcript: Transcript | None) -> list[Verdict]:
    """Per dimension of ``result``: the raw scores, the points, the winner, the rule that
    decided it, and the turns of each bot that scored on it (from the score record)."""
    notes = turn_notes(scores)
    a, b = result.players
    turns_of: dict[str, dict[str, list[int]]] = {}
    speakers = {t.index: t.speaker for t in transcript.turns} if transcript else {}
    for index, ns in sorted(notes.items()):
        for note in ns:
            if note.scored:
                who = speakers.get(index, "")
                turns_of.setdefault(note.dimension, {}).setdefault(who, []).append(index)
    out = []
    for d, hib in result.higher_is_better.items():
        ra, rb = result.raw[a].get(d, math.nan), result.raw[b].get(d, math.nan)
        na = result.not_applicable.get(d, [])
        verdict = dimension_winner(ra, rb, hib)
        winner = a if result.points[a].get(d, 0) > 0 else b if result.points[b].get(d, 0) > 0 else None
        better = "higher" if hib else "lower"
        if na:
            why = f"does not apply to {', '.join(na)}: no point"
        elif verdict == 0:
            why = f"a tie ({better} is better)"
        else:
            why = f"{_fmt(ra)} vs {_fmt(rb)}: {better} is better"
        out.append(Verdict(d, (ra, rb), (result.points[a].get(d, 0.0), result.points[b].get(d, 0.0)),
                           winner, why, turns_of.get(d, {})))
    return out


def _fmt(v: float) -> str:
    return "n/a" if math.isnan(v) else f"{v:.3g}"


def compare_ranks(a: Ranking, b: Ranking) -> list[tuple[str, int | None, int | None, int | None]]:
    """(bot, rank in a, rank in b, places moved up from a to b) for every bot of either."""
    ra, rb = a.rank_of(), b.rank_of()
    bots = a.order() + [x for x in b.order() if x not in ra]
    return [(x, ra.get(x), rb.get(x), ra[x] - rb[x] if x in ra and x in rb else None)
            for x in bots]


def flipped_games(a: Sequence[GameResult], b: Sequence[GameResult]
                  ) -> list[tuple[GameResult, GameResult]]:
    """Games of the same id and players in both runs whose winner differs."""
    other = {r.game_id: r for r in b}
    return [(r, other[r.game_id]) for r in a if r.game_id in other
            and other[r.game_id].players == r.players and other[r.game_id].winner != r.winner]

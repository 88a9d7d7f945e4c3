"""Shared shapes of ranking methods: a row per bot, a ranking that says what it rests on;
and :data:`RANKERS`, the ranking methods by name.

A ranking method is a function ``(results, bots, params, seed) -> Ranking`` registered with
``@RANKERS.register("name", description=..., params=ParamsModel)``; ``params`` is its own
pydantic model, defined next to it and read from the YAML block ``ranking.<name>``
(``options=("shuffles",)``: top-level keys of ``ranking`` it also takes, as keywords). The
methods are found through the entry point group ``chatmatch.rankers``, chatmatch's own
(declared in its ``setup.cfg``) like another package's, and imported when first named;
``ranking.method`` may also be an import path ``package.module:function``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from chatmatch.common.numbers import round_sig, rounded
from chatmatch.common.registry import Registry
from chatmatch.common.display import csv_text
from chatmatch.records import GameResult, GameTally, MethodStats


#: the rank a table shows for a bot with no game: it is listed, not ranked
UNRANKED = "-"


@dataclass(frozen=True)
class RankRow:
    """A bot's place in a ranking: ``games`` (its wins, ties, losses) and ``stats`` (what
    the method computed; None for a method that adds nothing to the score)."""

    bot: str
    rank: int
    score: float  # the value the rank is ordered by (higher is better)
    games: GameTally = field(default_factory=GameTally)
    stats: MethodStats | None = None
    #: bots the ranking cannot tell this one from (chatmatch.ranking.ties); () when none
    tied_with: tuple[str, ...] = ()

    def flat(self) -> dict[str, Any]:
        """The method's statistics then the game tally, as one JSON object."""
        return {**(self.stats.to_json() if self.stats else {}), **self.games.to_json()}

    def columns(self) -> tuple[tuple[str, Any], ...]:
        """(leaderboard header, value): the method's columns, then the games'."""
        return (*(self.stats.columns() if self.stats else ()), *self.games.columns())

    def to_json(self) -> dict[str, Any]:
        tied = {"tied_with": list(self.tied_with)} if self.tied_with else {}  # old files: no key
        return {"bot": self.bot, "rank": self.rank, **tied, "score": self.score, **self.flat()}


@dataclass(frozen=True)
class Ranking:
    method: str
    rows: tuple[RankRow, ...]
    games: int  # how many game results this ranking rests on
    expected_games: int | None = None  # how many the schedule has (None: unknown)
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return self.expected_games is None or self.games >= self.expected_games

    def order(self) -> list[str]:
        return [r.bot for r in self.rows]

    def rank_of(self) -> dict[str, int]:
        return {r.bot: r.rank for r in self.rows}

    def shown_ranks(self) -> list[int | str]:
        """The rank each row shows in a table (:func:`rank_labels`): a bot listed with no
        game (added to a league whose budget is spent) is listed, not ranked:
        :data:`UNRANKED`. A method that counts no game for any bot shows every rank."""
        if not any(r.games.games for r in self.rows):
            return rank_labels([r.rank for r in self.rows])
        played = [r.rank for r in self.rows if r.games.games]
        # ranked among the bots that played: 1 + how many of them rank better
        shown = iter(rank_labels([1 + sum(o < k for o in played) for k in played]))
        return [next(shown) if r.games.games else UNRANKED for r in self.rows]

    def shown_rows(self) -> list[tuple[int | str, RankRow]]:
        """(shown rank, row) in table order: the ranked bots, then the bots listed with no
        game (wherever their method's score put them)."""
        pairs = list(zip(self.shown_ranks(), self.rows))
        return [x for x in pairs if x[0] != UNRANKED] + [x for x in pairs if x[0] == UNRANKED]

    def to_json(self) -> dict[str, Any]:
        """The ranking as written; scores and statistics rounded to the digits they are
        ranked on (:data:`chatmatch.common.numbers.SIG_DIGITS`), the same on every CPU."""
        return {"method": self.method, "games": self.games,
                "expected_games": self.expected_games, "complete": self.complete,
                "meta": self.meta, "ranking": [rounded(r.to_json()) for r in self.rows]}

    def to_csv(self) -> str:
        flat = [r.flat() for r in self.rows]
        keys: list[str] = []
        for f in flat:
            keys += [k for k, v in f.items() if k not in keys and not isinstance(v, (list, dict))]
        return csv_text(["rank", "bot", "score", *keys],
                        [[r.rank, r.bot, _fmt(r.score), *[_fmt(f.get(k, "")) for k in keys]]
                         for r, f in zip(self.rows, flat)])

    def leaderboard(self) -> tuple[list[str], list[list[Any]]]:
        """(headers, rows) of the leaderboard: rank, bot, the method's columns, the games'
        columns; a value the method did not compute is "". The terminal table and the HTML
        report both render this."""
        heads = [h for h, _ in self.rows[0].columns()] if self.rows else []
        shown = self.shown_rows()
        ranked = sum(label != UNRANKED for label, _ in shown)
        rows = [[label, r.bot, *(_cell(h, v, label, ranked) for h, v in r.columns())]
                for label, r in shown]
        return ["rank", "bot", *heads], rows


def rank_labels(ranks: Sequence[int]) -> list[int | str]:
    """Ranks as every table of chatmatch shows them: a rank two or more bots share is
    marked ``2=``; the ranks as they are when none is shared."""
    shared = {r for r in ranks if list(ranks).count(r) > 1}
    if not shared:
        return list(ranks)
    return [f"{r}=" if r in shared else str(r) for r in ranks]


#: the columns of a leaderboard that are ranks (a bot listed with no game has none)
RANK_COLUMNS = ("best", "worst")


def _cell(head: str, v: Any, label: int | str, ranked: int) -> Any:
    """A leaderboard cell as every table shows it: a float on the digits it is ranked on
    (:func:`round_sig`: float noise such as 7e-14 is 0), "" for a value the method did not
    compute; a rank column holds no rank for an unranked bot (listed with no game), and no
    rank below the ``ranked`` bots for the others (the unranked are not ranked among)."""
    if v is None or (label == UNRANKED and head in RANK_COLUMNS):
        return ""
    if head in RANK_COLUMNS and isinstance(v, int) and ranked:
        return min(v, ranked)
    return round_sig(v) if isinstance(v, float) else v


def _fmt(v: Any) -> Any:
    return f"{round_sig(v):.6g}" if isinstance(v, float) else v


def _same(a: Any, b: Any, tol: float) -> bool:
    if isinstance(a, tuple):
        return all(_same(x, y, tol) for x, y in zip(a, b))
    if isinstance(a, (int, float)):
        return bool(abs(a - b) <= tol)
    return bool(a == b)


def competition_ranks(keys: Sequence[Any], tol: float = 1e-9) -> list[int]:
    """Standard competition ranking ("1224") of keys already sorted best first; a key is a
    number or a tuple of numbers, equal keys (within ``tol``) share a rank."""
    ranks: list[int] = []
    for i, s in enumerate(keys):
        if i and _same(keys[i - 1], s, tol):
            ranks.append(ranks[-1])
        else:
            ranks.append(i + 1)
    return ranks


def ranked(scores: Mapping[str, float | tuple[float, ...]]) -> list[tuple[str, int]]:
    """(bot, rank) best first for ``scores`` (higher is better; a tuple compares in order):
    every method orders and ranks this way. Scores are compared at the digits a ranking
    writes (:data:`chatmatch.common.numbers.SIG_DIGITS` significant digits): bots whose
    written scores are equal share a rank and are listed by name, on every CPU."""
    keys = {b: rounded(tuple(v) if isinstance(v, tuple) else float(v)) for b, v in scores.items()}
    order = sorted(keys, key=lambda b: (tuple(-x for x in _tup(keys[b])), b))
    return list(zip(order, competition_ranks([keys[b] for b in order], tol=0.0)))


def _tup(v: float | tuple[float, ...]) -> tuple[float, ...]:
    return v if isinstance(v, tuple) else (v,)


#: ``(results, bots, params, seed) -> Ranking``; ``params``: the method's own model (or None)
Ranker = Callable[..., Ranking]

def _check_ranker(obj: object) -> str | None:
    if callable(obj) and not isinstance(obj, type):
        return None
    return (f"it is a {type(obj).__name__}, not a function; a ranking method is a function "
            "(results, bots, params, seed) -> Ranking.")


RANKERS: Registry[Ranker] = Registry("ranking method", group="chatmatch.rankers",
                                     provider="chatmatch", check=_check_ranker)


def win_tie_loss(results: Sequence[GameResult], bots: Sequence[str]) -> dict[str, GameTally]:
    """Per bot: games won/tied/lost, forfeits and summed game points."""
    table: dict[str, dict[str, Any]] = {
        b: {"games": 0, "won": 0, "tied": 0, "lost": 0, "forfeits": 0, "game_points": 0.0}
        for b in bots}
    for r in results:
        for p in r.players:
            row = table[p]
            row["games"] += 1
            row["game_points"] += r.total[p]
            s = r.score_of(p)
            row["won" if s == 1 else "tied" if s == 0.5 else "lost"] += 1
            if r.forfeited_by(p):
                row["forfeits"] += 1
    return {b: GameTally(**row) for b, row in table.items()}

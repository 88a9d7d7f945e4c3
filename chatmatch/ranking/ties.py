"""Ties shown as ties: bots the ranking cannot tell apart share a rank (``5=``) and name
each other in ``tied_with``. The ``ranking.ties`` block of a tournament YAML::

    ranking:
      ties:
        rule: record        # record (default), shuffles, or none
        share: 0.25         # rule shuffles: the swap share that makes a tie
        break_by: none      # none (default: tied bots share the rank) or game_points

Which neighbours are tied (neighbours in the method's order; a tie chains: if a~b and b~c,
all three are one group):

* always: the method gave them the same score (they already shared a rank before);
* ``record``: the same games won, tied and lost (not for the points table, which ranks by
  match points and then game points: bots are tied there only when both are equal). A method may still order two such bots
  (TrueSkill weighs whom they beat), but the games alone do not: on a held-out check
  two bots with the same 3-9 record were ranked 5 and 6 by 0.03 of conservative
  rating, and that order decided a discordant pair;
* ``shuffles`` (TrueSkill only; other methods fall back to ``record``): ``record``, and
  also neighbours whose order flips in at least ``share`` of the shuffled game orders
  (the rank TrueSkill gives each bot in every shuffle, ``ranks`` in the JSON): the order
  then rests on the order the games were replayed in as much as on the games;
* ``none``: the ranking exactly as the method made it (equal scores still share a rank,
  shown ``5=``, without ``tied_with``).

``break_by``: ``none`` gives every bot of a group the group's best rank (standard
competition ranking, "1224"); ``game_points`` orders a group by its bots' summed game
points (then the method's score) and gives them distinct ranks, for users who need a strict
order; ``tied_with`` still names the group. :func:`apply_ties` leaves a ranking without ties
exactly as it was (its JSON gains no key), so older run directories read and write the same.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal, Sequence

from pydantic import Field

from chatmatch.common.validation import StrictModel
from chatmatch.ranking.base import Ranking, RankRow
from chatmatch.records import PointsStats, TrueSkillStats


class TieRule(StrictModel):
    """The ``ranking.ties`` block (see the module docstring)."""

    rule: Literal["record", "shuffles", "none"] = "record"
    share: float = Field(default=0.25, gt=0.0, le=0.5)
    break_by: Literal["none", "game_points"] = "none"


def _record(r: RankRow) -> tuple[int, int, int, int]:
    return (r.games.games, r.games.won, r.games.tied, r.games.lost)


def _swap_share(a: RankRow, b: RankRow) -> float:
    sa, sb = a.stats, b.stats
    if not isinstance(sa, TrueSkillStats) or not isinstance(sb, TrueSkillStats) or not sa.ranks:
        return 0.0
    return sum(rb < ra for ra, rb in zip(sa.ranks, sb.ranks)) / len(sa.ranks)


def tied(a: RankRow, b: RankRow, rule: TieRule) -> bool:
    """Are neighbours ``a`` (above) and ``b`` tied under ``rule``?"""
    if a.rank == b.rank:
        return True
    if isinstance(a.stats, PointsStats):
        # the points table ranks by its own keys (match points, then game points): equal
        # keys already share a rank; the same game record with other match points is no tie
        return False
    if _record(a) == _record(b):
        return True
    return rule.rule == "shuffles" and _swap_share(a, b) >= rule.share


def groups(rows: Sequence[RankRow], rule: TieRule) -> list[list[RankRow]]:
    out: list[list[RankRow]] = []
    for r in rows:
        if out and tied(out[-1][-1], r, rule):
            out[-1].append(r)
        else:
            out.append([r])
    return out


def apply_ties(ranking: Ranking, rule: TieRule) -> Ranking:
    """``ranking`` with tied bots marked (and ranked) as ``rule`` says; ``rule: none``
    returns it as the method made it."""
    if rule.rule == "none":
        return ranking
    rows: list[RankRow] = []
    for group in groups(ranking.rows, rule):
        if len(group) > 1 and rule.break_by == "game_points":
            group = sorted(group, key=lambda r: (-r.games.game_points, -r.score, r.bot))
        first = len(rows) + 1
        names = [r.bot for r in group]
        for i, r in enumerate(group):
            others = tuple(n for n in names if n != r.bot)
            rank = first + i if rule.break_by == "game_points" else first
            rows.append(replace(r, rank=rank, tied_with=others))
    if all(not r.tied_with for r in rows):
        return ranking
    meta = {**ranking.meta, "ties": rule.model_dump(mode="json")}
    return Ranking(ranking.method, tuple(rows), ranking.games, ranking.expected_games, meta)


"""Ranking methods compared (paper, section 4.4.5): TrueSkill against league tables with
3/1/0 and 2/1/0 points per match win/tie/loss, all on the same stored games."""

from __future__ import annotations

from chatmatch.analysis.agreement import Variant, variant
from chatmatch.analysis.human import HumanRanking
from chatmatch.ranking.points import PointsRule
from chatmatch.run.storedrun import Run

#: the league-table rules of the paper
POINT_RULES = (PointsRule(win=3, tie=1, loss=0), PointsRule(win=2, tie=1, loss=0))


def method_table(data: Run, human: HumanRanking | None = None) -> list[Variant]:
    ts = data.ranking.trueskill
    by = f"mu-{ts.k:g}*sigma" if ts.rank_by == "conservative" else "mu"
    rows = [variant(f"trueskill ({data.ranking.shuffles} shuffles, by {by})",
                    data.rank(method="trueskill"), human)]
    for rule in POINT_RULES:
        label = f"points {rule.win:g}/{rule.tie:g}/{rule.loss:g}"
        rows.append(variant(label, data.rank(method="points", points=rule), human))
    return rows

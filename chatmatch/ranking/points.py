"""Points table (paper, section 2.2.2): per match (two games between the same bots), the
winner gets W points, a tie T each, the loser L (paper: 3/1/0 and 2/1/0).

The match winner is the bot that won more of the two games; with equal game wins, the bot
with more game points over both games; otherwise the match is a tie. A match whose second
game is missing is decided on the game that exists. Bots are ordered by match points, then
total game points, then name (for a stable table); equal points and game points share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Sequence

from chatmatch.ranking.base import RANKERS, Ranking, RankRow, ranked, win_tie_loss
from chatmatch.ranking.params import MAX_POINTS as MAX_POINTS
from chatmatch.ranking.params import PointsRule as PointsRule
from chatmatch.records import GameResult, PointsStats

def match_outcomes(results: Sequence[GameResult]) -> list[tuple[str, str, str | None]]:
    """(bot_a, bot_b, winner or None) for every match found in ``results``."""
    by_pair: dict[frozenset[str], list[GameResult]] = defaultdict(list)
    for r in results:
        by_pair[frozenset(r.players)].append(r)
    out: list[tuple[str, str, str | None]] = []
    for pair, games in by_pair.items():
        a, b = sorted(pair)
        wins = {a: sum(g.score_of(a) == 1 for g in games), b: sum(g.score_of(b) == 1 for g in games)}
        pts = {a: sum(g.total[a] for g in games), b: sum(g.total[b] for g in games)}
        if wins[a] != wins[b]:
            out.append((a, b, a if wins[a] > wins[b] else b))
        elif abs(pts[a] - pts[b]) > 1e-9:
            out.append((a, b, a if pts[a] > pts[b] else b))
        else:
            out.append((a, b, None))
    return sorted(out, key=lambda t: (t[0], t[1]))


@RANKERS.register("points", description="League table: W/T/L points per match (paper 3/1/0)",
                  params=PointsRule)
def rank_points(results: Sequence[GameResult], bots: Sequence[str], rule: PointsRule,
                seed: int = 0) -> Ranking:
    table = {b: {"match_points": 0.0, "matches_won": 0, "matches_tied": 0, "matches_lost": 0}
             for b in bots}
    for a, b, winner in match_outcomes(results):
        for p in (a, b):
            if winner is None:
                table[p]["match_points"] += rule.tie
                table[p]["matches_tied"] += 1
            elif winner == p:
                table[p]["match_points"] += rule.win
                table[p]["matches_won"] += 1
            else:
                table[p]["match_points"] += rule.loss
                table[p]["matches_lost"] += 1
    games = win_tie_loss(results, bots)
    keys = {b: (float(table[b]["match_points"]), games[b].game_points) for b in bots}
    rows = tuple(RankRow(b, r, float(table[b]["match_points"]), games[b], PointsStats(
        table[b]["match_points"], int(table[b]["matches_won"]), int(table[b]["matches_tied"]),
        int(table[b]["matches_lost"]))) for b, r in ranked(keys))
    return Ranking("points", rows, len(results),
                   meta={"win": rule.win, "tie": rule.tie, "loss": rule.loss})

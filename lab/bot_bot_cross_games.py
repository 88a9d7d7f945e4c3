# lab experiment, 2026-12-03: Would comparing bots side by side across games, instead of within each game, rank Spot The Bot's and the ladder's bots closer to people's order?
"""Within-game points or side-by-side comparison on bot-bot games?

In human-bot chats the person's scores follow the system's (lab/partner_mirroring.py), so
points against the partner cancel what a system earned. A bot-bot partner may follow a bot
too. This scores every Spot The Bot conversation (and the fault ladder's games) with the
lab's default scorers and ranks the bots two ways against the reference:

* **within games**: each bot's mean game points against its partners (the lab's
  tournament rankings use the same points, ranked by TrueSkill);
* **across games**: every side of every game plays the sides of the other bots' games
  (:func:`chatmatch.analysis.fed.cross_system_rates`), win rate per bot.

2026-12-03 (SmolLM2): within games (mean points) / across games, Spot The Bot convai2
+0.600 / +0.467, dailydialog +0.333 / +0.333, empathetic +0.800 / +0.800, the ladder
+1.000 / +1.000: no gain (the lab's TrueSkill ranking of the within-game points gives
convai2 +0.467 too, so side by side ties the lab's number and loses to mean points).

    CHATMATCH_DATA=/path/to/data PYTHONPATH=$PWD nice python lab/bot_bot_cross_games.py [--ngram-fluency]
"""

from __future__ import annotations

import math
import os
import statistics
from dataclasses import dataclass

import common

from chatmatch.analysis.fed import cross_system_rates
from chatmatch.records import DimensionScore
from chatmatch.scoring.engine import score_games
from chatmatch.scoring.points import result_from_scores
from chatmatch.stats.correlation import kendall
from chatmatch.validity.datasets.stb import load_stb
from chatmatch.validity.lab.ladder import play_ladder


@dataclass(frozen=True)
class Side:
    system: str


def sides(games, scores):
    """One pseudo-chat per side of every game: the side's raw scores as the 'System'."""
    out, per = [], []
    for game, sc in zip(games, scores):
        for p in game.players:
            out.append(Side(p))
            per.append({d: DimensionScore(d, {"System": float(s.raw.get(p, math.nan))},
                                          s.higher_is_better,
                                          not_applicable=("System",) if p in s.not_applicable else ())
                        for d, s in sc.items()})
    return out, per


def rank_both(games, scores, weights, reference):
    results = [result_from_scores(g.game_id, g.players, sc, weights) for g, sc in zip(games, scores)]
    within = common.mean_points(results, sorted({p for g in games for p in g.players}))
    chats, per = sides(games, scores)
    across: dict[str, list[float]] = {}
    for c, r in zip(chats, cross_system_rates(chats, per, weights)):
        across.setdefault(c.system, []).append(r)
    bots = sorted(set(within) & set(reference))

    def tau(values):
        return kendall([values[b] for b in bots], [reference[b] for b in bots]).value
    return tau(within), tau({b: statistics.fmean(v) for b, v in across.items()}), len(bots)


def main() -> None:
    ap = common.parser(__doc__, "the folder holding stb/MongoDump.zip")
    args = ap.parse_args()
    _, scorers, weights = common.scorers(ap, args, args.ngram_fluency)
    print(f"{'dataset':18s} {'bots':>4s} {'within games':>12s} {'across games':>12s}")
    for dom in load_stb(os.path.join(args.data, "stb")):
        scores = score_games(dom.games, scorers)
        w, a, n = rank_both(dom.games, scores, weights, dom.human_rankings()["win rate"])
        print(f"stb/{dom.domain:14s} {n:4d} {w:+12.3f} {a:+12.3f}")
    ladder = play_ladder("tournaments/ladder.yaml")
    scores = score_games(ladder.games, scorers)
    w, a, n = rank_both(ladder.games, scores, weights, ladder.references["construction"])
    print(f"{'ladder':18s} {n:4d} {w:+12.3f} {a:+12.3f}")


if __name__ == "__main__":
    main()

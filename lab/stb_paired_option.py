# lab experiment, 2026-12-03: Is a scorer option's whole-ranking gain on Spot The Bot more than the draw of games (paired bootstrap of the conversations)?
"""A paired bootstrap of Spot The Bot's whole ranking under two values of one scorer option.

The lab's Spot The Bot rows have no interval for the whole ranking: one order of a few
systems, where one swapped pair moves tau by 0.13 to 0.33. This scores every conversation
with the default scorers and once more with one option changed (``--dimension fluency
--option degenerate=worst``), then resamples the conversations with replacement within
each pair of systems (``--resamples``), ranks both score sets on the same resample with
the default ranking (TrueSkill, ``--shuffles`` shuffles for speed), and reports per domain
tau for each, their paired difference (median and 90 % interval) and the share of
resamples where the option is ahead, level or behind. It also counts the games in which
the changed dimension's point is tied under each value.

2026-12-03 (SmolLM2), ``--dimension fluency --option degenerate=worst`` against the
default ``share``, 200 resamples, 50 shuffles: convai2 +0.467 -> +0.733, paired difference
median +0.133 [+0.000, +0.267], ahead in 94 % of resamples, never behind; dailydialog
+0.333 -> +0.333 at 50 shuffles (+0.667 with the lab's 1000), median +0.000 [+0.000,
+0.333], ahead 38 %, level 62 %; empathetic +0.800 -> +0.800, ahead 6 %, level 94 %.
Fluency's point is tied in 0 -> 0 of 675 convai2 games, 0 -> 11 of 270 dailydialog
games, 0 -> 3 of 450 empathetic games: the convai2 gain is not saturation ties. With
``--option degenerate=keep`` (no penalty): convai2 +0.733, median +0.267, ahead 94 %;
dailydialog +0.667, ahead 54 %, level 46 %; empathetic level 91 %, behind 1 %.

    CHATMATCH_DATA=/path/to/data PYTHONPATH=$PWD nice python lab/stb_paired_option.py \
        --dimension fluency --option degenerate=worst [--resamples 200] [--shuffles 50]
"""

from __future__ import annotations

import os
import random
from collections import defaultdict

import common
import numpy as np
import yaml

from chatmatch.ranking.config import RankingConfig, rank
from chatmatch.scoring.build import build_scorers
from chatmatch.scoring.engine import score_games
from chatmatch.scoring.points import result_from_scores
from chatmatch.stats.correlation import kendall
from chatmatch.validity.datasets.stb import load_stb


def main() -> None:
    ap = common.parser(__doc__, "the folder holding stb/MongoDump.zip")
    ap.add_argument("--dimension", required=True)
    ap.add_argument("--option", required=True, help="key=value (a YAML scalar)")
    ap.add_argument("--resamples", type=int, default=200)
    ap.add_argument("--shuffles", type=int, default=50)
    args = ap.parse_args()
    cfg, scorers, weights = common.scorers(ap, args, args.ngram_fluency)
    key, _, value = args.option.partition("=")
    params = {**cfg.scoring.params,
              args.dimension: {**cfg.scoring.params.get(args.dimension, {}), key: yaml.safe_load(value)}}
    alt_cfg = cfg.scoring.model_copy(update={"params": params})
    alt = [s for s in build_scorers(alt_cfg, cfg.settings.runtime) if s.name == args.dimension]
    ranking = RankingConfig.model_validate({"shuffles": args.shuffles})

    print(f"{args.dimension}.{args.option} against the default; {args.resamples} paired resamples")
    print(f"{'domain':16s} {'default':>8s} {'option':>8s} {'diff median [5%, 95%]':>24s} "
          f"{'ahead/level/behind':>20s} {'ties default->option':>22s}")
    for dom in load_stb(os.path.join(args.data, "stb")):
        base = score_games(dom.games, scorers)
        other = score_games(dom.games, alt)
        alt_scores = [{**b, **o} for b, o in zip(base, other)]
        ref = dom.human_rankings()["win rate"]
        res = {name: [result_from_scores(g.game_id, g.players, s, weights)
                      for g, s in zip(dom.games, sc)]
               for name, sc in (("default", base), ("option", alt_scores))}
        bots = sorted({p for r in res["default"] for p in r.players} & set(ref))

        def tau(results):
            r = rank(results, bots, ranking, seed=0)
            pos = {row.bot: -row.rank for row in r.rows}
            return kendall([pos[b] for b in bots], [ref[b] for b in bots]).value

        ties = {n: sum(all(r.points[p].get(args.dimension, 0) == 0 for p in r.players) for r in rs)
                for n, rs in res.items()}
        full = {n: tau(rs) for n, rs in res.items()}
        by_pair: dict[frozenset[str], list[int]] = defaultdict(list)
        for i, r in enumerate(res["default"]):
            by_pair[frozenset(r.players)].append(i)
        diffs = []
        for k in range(args.resamples):
            rng = random.Random(k)
            idx = [i for pair in sorted(by_pair, key=sorted)
                   for i in rng.choices(by_pair[pair], k=len(by_pair[pair]))]
            diffs.append(tau([res["option"][i] for i in idx]) - tau([res["default"][i] for i in idx]))
        d = np.array(diffs)
        print(f"{dom.domain:16s} {full['default']:+8.3f} {full['option']:+8.3f} "
              f"{np.median(d):+8.3f} [{np.percentile(d, 5):+.3f}, {np.percentile(d, 95):+.3f}] "
              f"{(d > 1e-9).mean():6.0%}/{(abs(d) <= 1e-9).mean():4.0%}/{(d < -1e-9).mean():4.0%} "
              f"{ties['default']:8d} -> {ties['option']:d} of {len(dom.games)}", flush=True)


if __name__ == "__main__":
    main()

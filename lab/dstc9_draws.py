# lab experiment, 2026-12-03: How much does the rule's one seeded 50-chat draw of DSTC9 move its whole ranking, counted against the person and in cross-system games?
"""DSTC9's whole ranking over many seeded draws.

Scores every DSTC9 chat once (the lab's default scorers; ``--ngram-fluency`` by default,
since SmolLM2 over all 2,200 chats is hours cold on 2 cores), then for draws of ``--sample``
chats a system with seeds 0 .. ``--draws``-1 (as ``chatmatch validate --sample`` draws
them) prints the system tau with people's overall rating of the points against the person
and of the cross-system games, and people's own ranking on the draw against their ranking
on all chats.

2026-12-03 (n-gram fluency): all chats +0.527 / +0.709; 100 draws, medians +0.47 / +0.60,
cross-system above in 84; the seed-0 draw +0.091 / +0.345, and people's seed-0 ranking
against their all-chat ranking +0.53.

    CHATMATCH_DATA=/path/to/data PYTHONPATH=$PWD nice python lab/dstc9_draws.py [--lm] [--draws 100] [--sample 50]
"""

from __future__ import annotations

from pathlib import Path

import common
import numpy as np

from chatmatch.scoring.engine import score_games
from chatmatch.stats.correlation import kendall
from chatmatch.validity.datasets.dstc9 import OVERALL, load_dstc9
from chatmatch.validity.lab.fed import CROSS, SYSTEM_LEVEL, evaluate_fed


def main() -> None:
    ap = common.parser(__doc__, "the folder holding dstc9/", ngram_flag=False)
    ap.add_argument("--lm", action="store_true", help="the configured fluency LM, not the n-gram")
    ap.add_argument("--draws", type=int, default=100)
    ap.add_argument("--sample", type=int, default=50)
    args = ap.parse_args()
    _, scorers, weights = common.scorers(ap, args, not args.lm)
    data = load_dstc9(Path(args.data) / "dstc9")
    games = score_games([c.transcript() for c in data.chats], scorers)
    where = {(c.system, c.index): i for i, c in enumerate(data.chats)}

    def both(chats):
        refs = evaluate_fed(chats, [games[where[(c.system, c.index)]] for c in chats], weights,
                            dataset="dstc9", overall=OVERALL)["references"]
        nan = float("nan")  # a tau of None (constant values) counts as NaN, printed "nan"
        return (nan if refs[SYSTEM_LEVEL]["full"] is None else refs[SYSTEM_LEVEL]["full"],
                nan if refs[CROSS]["full"] is None else refs[CROSS]["full"])

    people = data.human_by_system(OVERALL)
    systems = sorted(people)
    print("all chats: points against the person %+.3f, cross-system games %+.3f" % both(list(data.chats)))
    rows = []
    for seed in range(args.draws):
        draw = data.sample(args.sample, seed)
        mine = draw.human_by_system(OVERALL)
        own = kendall([mine[s] for s in systems], [people[s] for s in systems]).value
        rows.append((*both(list(draw.chats)), own))
        if seed == 0:
            print("seed 0: %+.3f, %+.3f; people on the draw vs on all chats %+.2f" % rows[0])
    pts, cross, own = (np.array(c, dtype=float) for c in zip(*rows))
    for name, v in (("points against the person", pts), ("cross-system games", cross),
                    ("people: draw vs all chats", own)):
        print(f"{name}: median {np.median(v):+.2f} [5-95%: {np.percentile(v, 5):+.2f}, "
              f"{np.percentile(v, 95):+.2f}]")
    diff = cross - pts
    print(f"cross-system minus points: median {np.median(diff):+.2f}, above 0 in "
          f"{int((diff > 0).sum())} of {len(diff)}")


if __name__ == "__main__":
    main()

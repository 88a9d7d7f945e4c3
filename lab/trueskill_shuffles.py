# lab experiment, 2026-11-23: How many TrueSkill shuffles make the final ranking independent of the seed (chose the default)?
"""How much the final TrueSkill ranking depends on the shuffle seed, for 3..100 shuffles.

    .venv/bin/python lab/trueskill_shuffles.py [RUN_DIR ...] [--seeds 20]
        [--shuffles 3,10,30,100] [--synthetic 3]

For each stored run directory (its game results, as ``chatmatch rank`` reads them) and for
``--synthetic`` made-up 7-bot tournaments, the same results are ranked with ``--seeds``
different seeds at each number of shuffles. Reported per number of shuffles:

* modal: share of seeds that give the most frequent final order (1.00 = the seed no
  longer matters); distinct: how many different final orders the seeds gave;
* tau: mean Kendall tau between a seed's order and the modal order;
* worst bot: the largest range of final ranks one bot took over the seeds;
* s/rank: seconds for one ranking.

The synthetic tournaments: 7 bots (as in the paper) with strengths 0, .4, .8, .9, 1.4,
1.8, 2.2 (one near-tie pair, as real bots have), a double round robin (42 games), 7
dimensions a game; bot A wins a dimension with probability 1 / (1 + exp(sB - sA)), 10 %
of dimensions are tied (nobody's point). Each synthetic tournament has its own game
outcomes (seeded), so the rows average over tournaments.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Sequence

from chatmatch.ranking.trueskill_rank import TrueSkillParams, seed_spread
from chatmatch.records import GameResult
from chatmatch.run.storedrun import Run

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "ranking"))
from synthetic import synthetic_results  # noqa: E402

def kendall_tau(x: Sequence[str], y: Sequence[str]) -> float:
    pos = {b: i for i, b in enumerate(y)}
    n, agree = len(x), 0
    for i in range(n):
        for j in range(i + 1, n):
            agree += 1 if pos[x[i]] < pos[x[j]] else -1
    return agree / (n * (n - 1) / 2)


def measure(results: list[GameResult], bots: list[str], shuffles: int, seeds: int) -> dict[str, float]:
    t0 = time.perf_counter()
    spread = seed_spread(results, bots, TrueSkillParams(), list(range(seeds)), shuffles=shuffles)
    secs = (time.perf_counter() - t0) / seeds
    modal = spread.modal_order
    return {"modal": spread.modal_share, "distinct": spread.distinct,
            "tau": statistics.fmean(kendall_tau(o, modal) for o in spread.orders),
            "worst": max(max(r) - min(r) for r in spread.ranks.values()), "secs": secs}


def report(title: str, sets: list[tuple[list[GameResult], list[str]]], shuffles: list[int],
           seeds: int) -> None:
    n_games = sum(len(r) for r, _ in sets) / len(sets)
    print(f"\n{title}: {len(sets)} tournament(s), {len(sets[0][1])} bots, {n_games:.0f} games, "
          f"{seeds} seeds")
    print(f"{'shuffles':>8} {'modal':>6} {'distinct':>8} {'tau':>6} {'worst bot':>9} {'s/rank':>7}")
    for k in shuffles:
        rows = [measure(r, b, k, seeds) for r, b in sets]
        avg = {key: statistics.fmean(row[key] for row in rows) for key in rows[0]}
        worst = max(row["worst"] for row in rows)
        print(f"{k:8d} {avg['modal']:6.2f} {avg['distinct']:8.1f} {avg['tau']:6.3f} "
              f"{worst:9.0f} {avg['secs']:7.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="*", help="run directories to re-rank")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--shuffles", default="3,10,30,100")
    ap.add_argument("--synthetic", type=int, default=3, help="made-up 7-bot tournaments")
    args = ap.parse_args()
    shuffles = [int(x) for x in args.shuffles.split(",")]
    for run in args.runs:
        stored = Run.load(run)
        report(f"run {run}", [(list(stored.results), list(stored.bots))], shuffles, args.seeds)
    if args.synthetic:
        sets = [synthetic_results(random.Random(1000 + i)) for i in range(args.synthetic)]
        report("synthetic", sets, shuffles, args.seeds)


if __name__ == "__main__":
    main()

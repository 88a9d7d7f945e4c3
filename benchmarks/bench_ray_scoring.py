"""Scoring throughput against the number of Ray scoring workers, and the league projection.

    python benchmarks/bench_ray_scoring.py --bots 7 --turns 20 --workers 1 2 [--num-cpus 2]

Scores the games of ``bench_scoring.build_games(bots, turns, 0)`` with the default scoring
section (all seven dimensions, SmolLM2 fluency, ``engine: auto``; the fluency LM with
``processes: 1``, one process a worker), in chunks of 8 games as a run sends them:

* ``driver``: in this process (what ``executor: local`` does);
* ``N workers``: on N Ray scoring workers of a private local Ray
  (:mod:`chatmatch.executors.ray_scoring`), each holding one CPU.

The perplexity and embedding caches are off, so every run computes everything. "load s"
is the workers' start and model load, "score s" the scoring of every chunk after it;
turns/s counts every turn of the games over "score s". The last table projects the
scoring time of a default-budget 30- and 100-bot adaptive league of 200-turn games
(450 and 2,100 games: docs/league.md) at the best rate measured, per worker count.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ["CHATMATCH_PPL_CACHE"] = "0"
os.environ["CHATMATCH_EMBED_CACHE"] = "0"
sys.path.insert(0, str(Path(__file__).parent))
from bench_profile import load_avg  # noqa: E402
from bench_scoring import build_games  # noqa: E402

from chatmatch.config.settings import RayConfig  # noqa: E402
from chatmatch.executors.ray_scoring import start_scoring  # noqa: E402
from chatmatch.scoring.config import ScoringConfig  # noqa: E402
from chatmatch.scoring.engine import load_scorers, score_games  # noqa: E402
from chatmatch.scoring.build import build_scorers

CHUNK = 8
LEAGUES = {"30 bots, 450 games": 450 * 200, "100 bots, 2,100 games": 2100 * 200}


def scoring() -> ScoringConfig:
    return ScoringConfig(params={"fluency": {"processes": 1}})


def in_driver(games: list) -> tuple[float, float]:
    t0 = time.perf_counter()
    scorers = build_scorers(scoring())
    load_scorers(scorers)
    t1 = time.perf_counter()
    for i in range(0, len(games), CHUNK):
        score_games(games[i:i + CHUNK], scorers)
    return t1 - t0, time.perf_counter() - t1


def on_workers(games: list, workers: int, num_cpus: int) -> tuple[float, float]:
    import ray

    ray.init(num_cpus=num_cpus, include_dashboard=False, logging_level="ERROR")
    try:
        cfg = scoring()
        t0 = time.perf_counter()
        pool = start_scoring(cfg, RayConfig(scorers=workers), workers, build_scorers(cfg))
        t1 = time.perf_counter()
        for i in range(0, len(games), CHUNK):
            pool.submit(games[i:i + CHUNK])
        pool.drain()
        t2 = time.perf_counter()
        pool.close()
        return t1 - t0, t2 - t1
    finally:
        ray.shutdown()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", type=int, default=7)
    ap.add_argument("--turns", type=int, default=20)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--num-cpus", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--skip-driver", action="store_true")
    args = ap.parse_args()
    games = build_games(args.bots, args.turns, 0)
    turns = sum(len(g.turns) for g in games)
    print(f"{len(games)} games x {args.turns} turns ({turns:,} turns); {load_avg()} at the start",
          flush=True)
    rows = []
    if not args.skip_driver:
        rows.append(("driver", *in_driver(games)))
        print(f"  driver: {rows[-1][2]:.1f} s", flush=True)
    for n in args.workers:
        rows.append((f"{n} worker{'s' if n > 1 else ''}", *on_workers(games, n, args.num_cpus)))
        print(f"  {rows[-1][0]}: {rows[-1][2]:.1f} s", flush=True)
    print(f"{load_avg()} at the end\n")
    print("| scoring on | load s | score s | turns/s | x driver |")
    print("|---|---:|---:|---:|---:|")
    base = rows[0][2]
    for name, load, wall in rows:
        print(f"| {name} | {load:.1f} | {wall:.1f} | {turns / wall:.1f} | {base / wall:.2f} |")
    print("\n| league (200-turn games) | turns | " + " | ".join(r[0] for r in rows) + " |")
    print("|---|---:|" + "---:|" * len(rows))
    for league, n in LEAGUES.items():
        cells = " | ".join(f"{n / (turns / wall) / 60:.0f} min" for _, _, wall in rows)
        print(f"| {league} | {n:,} | {cells} |")


if __name__ == "__main__":
    main()

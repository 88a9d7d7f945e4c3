"""How long ``chatmatch compare --annotations`` takes to summarize judgements, and what the
vectorised bootstrap (chatmatch/annotate/bootstrap.py) saves over refitting Bradley-Terry
once per resample.

    .venv/bin/python benchmarks/bench_annotate.py [--repeat 3]

Synthetic judgements: 7 bots (as in the paper), a double round robin (42 games), each game
judged by 3 annotators on 8 questions (1,008 answers), answers drawn at random (seeded).
Columns: resamples; s summarize: median seconds of the whole summary (every question's
ranking, intervals, tau, p-values, alpha); s loop: median seconds of the same resamples
fitted one after another with chatmatch.ranking.bradley_terry.fit_bt, for one question
times 8; ratio: loop / vectorised.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from chatmatch.annotate.agreement import PRIOR, summarize  # noqa: E402
from chatmatch.annotate.questions import QUESTIONS  # noqa: E402
from chatmatch.annotate.store import Judgement  # noqa: E402
from chatmatch.common.tables import render_table  # noqa: E402
from chatmatch.ranking.bradley_terry import fit_bt  # noqa: E402


def judgements(bots: list[str], seed: int = 0) -> list[Judgement]:
    rng = random.Random(seed)
    out = []
    for k, (x, y) in enumerate(itertools.permutations(bots, 2)):
        for who in ("ann", "bob", "cy"):
            for q in QUESTIONS:
                out.append(Judgement(who, f"g{k}", q, f"g{k}", x, f"g{k}", y,
                                     rng.choice(["a", "b", "tie"]), "t", "t"))
    return out


def loop_seconds(js: list[Judgement], bots: list[str], reps: int) -> float:
    overall = [j for j in js if j.question == "overall"]
    items: dict[str, list[tuple[str, str, float]]] = {}
    for j in overall:
        items.setdefault(j.item, []).append((j.bot_a, j.bot_b, j.score_a))
    groups = list(items.values())
    rng = np.random.default_rng(0)
    t = time.perf_counter()
    for _ in range(reps):
        sample = [g for k in rng.integers(0, len(groups), len(groups)) for g in groups[k]]
        fit_bt(sample, bots, PRIOR)
    return (time.perf_counter() - t) * len(QUESTIONS)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    bots = [f"bot{i}" for i in range(7)]
    js = judgements(bots)
    ranks = {b: float(i + 1) for i, b in enumerate(bots)}
    wins = {q: {b: float(i) for i, b in enumerate(bots)} for q in QUESTIONS if q != "overall"}
    rows = []
    for reps in (200, 1000):
        fast = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            summarize(js, bots, "points", ranks, wins, "bench", reps=reps)
            fast.append(time.perf_counter() - t)
        slow = statistics.median(loop_seconds(js, bots, reps) for _ in range(args.repeat))
        rows.append([reps, f"{statistics.median(fast):.2f}", f"{slow:.2f}",
                     f"{slow / statistics.median(fast):.1f}x"])
    print(f"7 bots, 42 games, 3 annotators, {len(QUESTIONS)} questions ({len(js)} answers); "
          f"load average {os.getloadavg()[0]:.1f}")
    print(render_table(["resamples", "s summarize", "s loop (fit_bt)", "ratio"], rows))


if __name__ == "__main__":
    main()

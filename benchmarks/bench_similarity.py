"""Memory and time of the TF-IDF similarity behind diversity and consistency, by game length.

    .venv/bin/python benchmarks/bench_similarity.py [--turns 2000 8000 30000]

For each length, a fresh process builds one synthetic game (random sentences over a
3,000-word vocabulary; a fifth of the turns ask one of 200 questions, a tenth repeat an
earlier turn) and scores diversity, consistency and proactivity on it. Printed: wall
seconds of the scoring (imports excluded) and the process's peak resident memory (Python, numpy and sklearn
included). The similarity is computed in bounded blocks (``BLOCK_ENTRIES``), so memory
grows linearly with the game; a dense n x n matrix would need n^2 x 8 bytes (also printed).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, random, resource, sys, time
from chatmatch.scoring.consistency import Consistency
from chatmatch.scoring.diversity import Diversity
from chatmatch.scoring.proactivity import Proactivity
from chatmatch.transcript import make_transcript
n = int(sys.argv[1])
rng = random.Random(0)
words = [f"w{i}" for i in range(3000)] + "i you we the a is are do like tea".split()
qs = [" ".join(rng.choice(words) for _ in range(5)) + "?" for _ in range(200)]
texts = []
for i in range(n):
    r = rng.random()
    if r < 0.2:
        texts.append(rng.choice(qs))
    elif r < 0.3 and texts:
        texts.append(rng.choice(texts))
    else:
        texts.append(" ".join(rng.choice(words) for _ in range(rng.randint(3, 15))) + ".")
game = make_transcript("long", ("a", "b"), texts, seed_first=True)
import sklearn.feature_extraction.text  # imported before the clock starts
t0 = time.perf_counter()
for scorer in (Diversity(), Consistency(), Proactivity()):
    scorer.score_game(game)
print(json.dumps({"seconds": time.perf_counter() - t0,
                  "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, nargs="+", default=[2000, 8000, 30000])
    args = ap.parse_args()
    print(f"{'turns':>8} {'seconds':>8} {'peak RSS MiB':>13} {'dense matrix GiB':>17}")
    for n in args.turns:
        out = subprocess.run([sys.executable, "-c", CHILD, str(n)], capture_output=True,
                             text=True, cwd=ROOT, check=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{n:>8} {r['seconds']:>8.1f} {r['rss_mib']:>13.0f} {n * n * 8 / 2**30:>17.2f}")


if __name__ == "__main__":
    main()

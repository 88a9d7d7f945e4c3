"""Made-up tournaments for the ranking tests (and lab/trueskill_shuffles.py): 7 bots with
strengths 0, .4, .8, .9, 1.4, 1.8, 2.2 (one near-tie pair, as real bots have), a double
round robin (42 games), 7 dimensions a game; bot A wins a dimension with probability
1 / (1 + exp(sB - sA)), 10 % of dimensions are tied (nobody's point)."""

from __future__ import annotations

import math
import random
from itertools import permutations
from typing import Sequence

from chatmatch.records import GameResult

STRENGTHS = (0.0, 0.4, 0.8, 0.9, 1.4, 1.8, 2.2)
DIMENSIONS = ("fluency", "knowledge", "proactivity", "specificity", "diversity", "consistency",
              "relevance")


def synthetic_results(rng: random.Random, strengths: Sequence[float] = STRENGTHS) -> tuple[list[GameResult], list[str]]:
    bots = [f"bot{i}" for i in range(len(strengths))]
    s = dict(zip(bots, strengths))
    results = []
    for n, (a, b) in enumerate(permutations(bots, 2)):  # both orders: a double round robin
        points: dict[str, dict[str, float]] = {a: {}, b: {}}
        for d in DIMENSIONS:
            u = rng.random()
            pa = 1 / (1 + math.exp(s[b] - s[a]))
            tie = u < 0.1
            a_wins = not tie and rng.random() < pa
            points[a][d] = float(a_wins)
            points[b][d] = float(not tie and not a_wins)
        results.append(GameResult(f"g{n:03d}", (a, b), raw={a: {}, b: {}}, points=points))
    return results, bots

"""Big leagues on a budget: how many games each schedule needs to reach the full
round-robin's ranking, on simulated leagues with known strengths.

    .venv/bin/python benchmarks/bench_league.py [--bots 10,30,100] [--leagues 8]
        [--shares 0.1,0.2,...] [--bootstrap 20] [--run RUN_DIR [--truth a,b,...]]

The defaults take about 11 minutes on 2 shared cores (the 100-bot leagues most of it).

A simulated league: n bots with true strengths drawn from N(0, 1) (seeded); a game
between A and B is a tie with probability 0.1, else A wins with probability
1 / (1 + exp(sB - sA)) (Bradley-Terry). The full double round-robin (n(n-1) games) is
ranked by Bradley-Terry (chatmatch.ranking.bradley_terry, prior 0.5) and is the
reference. Each budgeted schedule (chatmatch.play.pairing: ``random``, ``swiss``,
``adaptive``) plays rounds of n/2 matches
(2 games each) with the same game outcomes a pair would have in the round-robin, and is
ranked the same way after each share of the round-robin's n-1 rounds in ``--shares``
and after the default budget of chatmatch.play.pairing (3 * ceil(log2 n) rounds, marked *).

Printed per n, schedule and budget (mean over ``--leagues`` leagues):

* games, and their share of the full round-robin;
* tau-full: Kendall tau-b between the schedule's ranking and the full round-robin's;
* tau-true: Kendall tau-b against the true strengths (the round-robin's own is on its row);
* CI width: mean width of the 95% bootstrap rank interval (``--bootstrap`` resamples);
* then, per schedule, the fewest games whose mean tau-full reached 0.8 and 0.9 ("-": not
  within the budgets tried).

``--run RUN_DIR``: the same on a real stored run (e.g. runs/demo): its games are the
round-robin; each schedule draws its games from them and is compared with the run's
Bradley-Terry ranking; ``--truth a,b,c`` names bots whose true order is known (best
first, e.g. a bot and its copies with more and more injected faults) for tau-true.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Sequence

import numpy as np
from scipy.stats import kendalltau

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from chatmatch.play.pairing import Match, Outcome, budget_rounds, default_budget, next_round  # noqa: E402
from chatmatch.ranking.bradley_terry import bootstrap, fit_bt  # noqa: E402

TIE = 0.1
SCHEDULES = ("random", "swiss", "adaptive")
THRESHOLDS = (0.8, 0.9)


def _tau(a: dict[str, float], b: dict[str, float]) -> float:
    bots = [x for x in a if x in b]
    t = kendalltau([a[x] for x in bots], [b[x] for x in bots]).statistic
    return 0.0 if t is None or math.isnan(t) else float(t)


def play_schedule(method: str, bots: Sequence[str], matches: list[Match],
                  legs: dict[int, list[Outcome]], checkpoints: Sequence[int],
                  seed: int) -> dict[int, list[Outcome]]:
    """The outcomes a schedule has played at each checkpoint (a number of games)."""
    played: set[int] = set()
    outcomes: list[Outcome] = []
    snaps: dict[int, list[Outcome]] = {}
    budget = max(checkpoints)
    for rnd in range(1, 10 * len(bots)):
        left = budget - len(outcomes)
        chosen = next_round(method, bots, matches, played, outcomes, left, seed, rnd)
        if not chosen:
            break
        for m in chosen:
            played.add(m.match_id)
            outcomes += legs[m.match_id]
        for c in checkpoints:
            if c not in snaps and len(outcomes) >= c:
                snaps[c] = list(outcomes)
    for c in checkpoints:
        snaps.setdefault(c, list(outcomes))
    return snaps


def simulate(n: int, league: int) -> tuple[list[str], dict[str, float], list[Match], dict[int, list[Outcome]]]:
    rng = np.random.default_rng(1000 * n + league)
    bots = [f"b{i:03d}" for i in range(n)]
    true = dict(zip(bots, rng.normal(0.0, 1.0, n)))
    matches, legs = [], {}
    for mid, (i, j) in enumerate((i, j) for i in range(n) for j in range(i + 1, n)):
        a, b = bots[i], bots[j]
        matches.append(Match(mid, a, b))
        out = []
        for starter, other in ((a, b), (b, a)):
            u = rng.random()
            p = 1 / (1 + math.exp(true[other] - true[starter]))
            out.append((starter, other, 0.5 if u < TIE else (1.0 if rng.random() < p else 0.0)))
        legs[mid] = out
    return bots, true, matches, legs


def ci_width(bots: Sequence[str], games: Sequence[Outcome], reps: int, seed: int) -> float:
    if reps <= 0:
        return float("nan")
    _, ranks = bootstrap(games, bots, lambda g: fit_bt(g, bots, 0.5, max_iter=300, tol=1e-8), reps, seed)
    lo, hi = np.percentile(ranks, 2.5, axis=0), np.percentile(ranks, 97.5, axis=0)
    return float(np.mean(hi - lo))


def rows_for(bots: Sequence[str], truth: dict[str, float] | None, matches: list[Match],
             legs: dict[int, list[Outcome]], budgets: Sequence[int], reps: int, seed: int,
             fit: Callable[[Sequence[Outcome]], dict[str, float]]) -> dict[tuple[str, int], tuple[float, float, float]]:
    full_games = [o for m in matches for o in legs[m.match_id]]
    full = fit(full_games)
    out = {("round-robin", len(full_games)): (1.0, _tau(full, truth) if truth else float("nan"),
                                              ci_width(bots, full_games, reps, seed))}
    for method in SCHEDULES:
        snaps = play_schedule(method, bots, matches, legs, budgets, seed)
        for c in budgets:
            s = fit(snaps[c])
            out[(method, c)] = (_tau(s, full), _tau(s, truth) if truth else float("nan"),
                                ci_width(bots, snaps[c], reps, seed))
    return out


def report(n: int, table: list[dict[tuple[str, int], tuple[float, float, float]]], budgets: Sequence[int],
           rounds: Sequence[str]) -> None:
    full = n * (n - 1)
    print(f"\n{n} bots (full round-robin: {full} games), mean of {len(table)} league(s)")
    print(f"{'schedule':12s} {'rounds':>6s} {'games':>6s} {'share':>6s} {'tau-full':>8s} {'tau-true':>8s} {'CI width':>8s}")
    keys = [("round-robin", full)] + [(m, c) for m in SCHEDULES for c in budgets]
    need: dict[tuple[str, float], int] = {}
    for key in keys:
        vals = [t[key] for t in table if key in t]
        tf, tt, w = (statistics.fmean(v[i] for v in vals) for i in range(3))
        rnd = "all" if key[0] == "round-robin" else rounds[budgets.index(key[1])]
        print(f"{key[0]:12s} {rnd:>6s} {key[1]:6d} {key[1] / full:6.0%} {tf:8.3f} {tt:8.3f} {w:8.2f}")
        for bar in THRESHOLDS:
            if key[0] != "round-robin" and tf >= bar:
                need.setdefault((key[0], bar), key[1])
    for m in SCHEDULES:
        cells = [f"{need[(m, bar)]} ({need[(m, bar)] / full:.0%})" if (m, bar) in need else "-"
                 for bar in THRESHOLDS]
        print(f"  {m:9s} games to reach tau-full " + ", ".join(
            f">= {bar}: {c}" for bar, c in zip(THRESHOLDS, cells)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="10,30,100")
    ap.add_argument("--leagues", type=int, default=8)
    ap.add_argument("--shares", default="0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9")
    ap.add_argument("--bootstrap", type=int, default=30)
    ap.add_argument("--run", type=Path, action="append", default=[])
    ap.add_argument("--truth", default="", help="with --run: bots whose true order is known, "
                    "best first (e.g. a fault ladder); tau-true is measured on them")
    args = ap.parse_args()
    shares = [float(x) for x in args.shares.split(",")]
    t0 = time.perf_counter()
    for n in [int(x) for x in args.bots.split(",") if x]:
        budgets, rounds = grid(n, shares)
        table = []
        for league in range(args.leagues):
            bots, true, matches, legs = simulate(n, league)
            fit = lambda g, bots=bots: fit_bt(g, bots, 0.5, max_iter=2000, tol=1e-10)  # noqa: E731
            table.append(rows_for(bots, true, matches, legs, budgets, args.bootstrap, league, fit))
        report(n, table, budgets, rounds)
    for run_dir in args.run:
        real_run(run_dir, shares, args.bootstrap, [b for b in args.truth.split(",") if b])
    print(f"\n({time.perf_counter() - t0:.0f} s)")
    return 0


def grid(n: int, shares: Sequence[float]) -> tuple[list[int], list[str]]:
    """(budgets in games, their labels in rounds) for n bots: each share of the n-1 rounds
    of a round-robin, and the default budget (label ending in *)."""
    per_round = (n // 2) * 2
    plan = {min(n * (n - 1), max(1, round(sh * (n - 1))) * per_round): str(max(1, round(sh * (n - 1))))
            for sh in shares}
    plan[default_budget("adaptive", n)] = f"{budget_rounds(n)}*"
    return sorted(plan), [plan[b] for b in sorted(plan)]


def real_run(run_dir: Path, shares: Sequence[float], reps: int, truth: Sequence[str]) -> None:
    """The schedules replayed on a stored run's games (its round-robin is the reference)."""
    from chatmatch.run.storedrun import Run

    run = Run.load(run_dir)
    bots = list(run.bots)
    by_pair: dict[frozenset[str], list[Outcome]] = {}
    for r in run.results:
        by_pair.setdefault(frozenset(r.players), []).append((r.players[0], r.players[1], r.score_of(r.players[0])))
    matches = [Match(i, *sorted(p)) for i, p in enumerate(sorted(by_pair, key=sorted))]
    legs = {m.match_id: by_pair[frozenset((m.a, m.b))] for m in matches}
    n = len(bots)
    budgets, rounds = grid(n, shares)
    fit = lambda g: fit_bt(g, bots, 0.5)  # noqa: E731
    known = {b: -float(i) for i, b in enumerate(truth)} or None
    table = [rows_for(bots, known, matches, legs, budgets, reps, seed, fit) for seed in range(4)]
    print(f"\nreal run {run_dir} ({run.name}), 4 pairing seeds; tau-true: "
          + (f"on the known order {' > '.join(truth)}" if truth else "n/a (no known order)"))
    report(n, table, budgets, rounds)


if __name__ == "__main__":
    raise SystemExit(main())

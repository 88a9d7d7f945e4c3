"""Parallel play on one machine (and on Ray) with the SmolLM2 bot.

    .venv/bin/python benchmarks/bench_parallel.py [--repeats 3] [--exchanges 2] [--no-ray]

Part 1: a tournament of the ``smollm2`` bot (greedy, ``--tokens`` new tokens) against four
instant bots (eliza, canned, echo, random-line): 20 games, the SmolLM2 bot in 8 of them.
The same tournament is played with ``concurrent_games`` 1, 4, 8, 20 (one loop: the games
waiting on SmolLM2 at a step are answered by one batched ``generate``), with ``workers: 2``
(two threads sharing the model), and once with ``executor: ray`` (SmolLM2 in a Ray actor,
its model load included: compare with the load line). Transcripts of every setting are
checked to be identical. One SmolLM2 object (one model) serves all local runs.

Part 2: when bots wait instead of compute (remote endpoints), ``workers`` overlaps them:
4 bots that sleep ``--sleep-ms`` per reply and are not thread-safe, 12 games.

Batched vs one-at-a-time generation alone is ``bench_generation.py``; fluency perplexity
batched vs one at a time is in ``bench_scoring.py``. Times are medians of ``--repeats``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from chatmatch.adapters import create_bot  # noqa: E402
from chatmatch.bot import Bot, History  # noqa: E402
from chatmatch.config.tournament import TournamentConfig  # noqa: E402
from chatmatch.run.tournament import run_tournament  # noqa: E402
from chatmatch.rundir.store import RunDir  # noqa: E402

INSTANT = [("eliza", "eliza"), ("canned", "canned"), ("echo", "echo"), ("random", "random-line")]
SETTINGS = [("concurrent_games 1", {"concurrent_games": 1}),
            ("concurrent_games 4", {"concurrent_games": 4}),
            ("concurrent_games 8", {"concurrent_games": 8}),
            ("concurrent_games 20", {"concurrent_games": 20}),
            ("concurrent_games 8, workers 2", {"concurrent_games": 8, "workers": 2})]


class SleepBot(Bot):
    """Waits ``sleep_s`` per reply, as a client of a remote endpoint would."""

    def __init__(self, name: str, sleep_s: float) -> None:
        super().__init__(name)
        self.sleep_s = sleep_s

    def reply(self, history: History) -> str:
        time.sleep(self.sleep_s)
        return f"{self.name} at turn {history.turn_index}"


def config(bots: list[dict[str, Any]], exchanges: int, extra: dict[str, Any]) -> TournamentConfig:
    return TournamentConfig.model_validate({
        "name": "bench-parallel", "exchanges": exchanges, "seed": 3, "record_timings": False,
        "bots": bots, "scoring": {"dimensions": ["proactivity", "diversity"]}, **extra})


def play(cfg: TournamentConfig, bots: dict[str, Bot] | None) -> tuple[float, dict[str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        run_tournament(cfg, Path(tmp) / "run", bots=bots)
        wall = time.perf_counter() - t0
        texts = {g: t.to_jsonl() for g, t in RunDir(Path(tmp) / "run").transcripts().items()}
    return wall, texts


def smollm2_part(repeats: int, exchanges: int, tokens: int, with_ray: bool) -> None:
    specs = [{"name": "smollm2", "adapter": "smollm2", "params": {"max_new_tokens": tokens}}]
    specs += [{"name": n, "adapter": a} for n, a in INSTANT]
    objs = {s["name"]: create_bot(s["name"], s["adapter"], dict(s.get("params", {}))) for s in specs}
    t0 = time.perf_counter()
    for b in objs.values():
        b.load()
    load = time.perf_counter() - t0
    play(config(specs, 1, {}), objs)  # warm-up
    walls: dict[str, list[float]] = {label: [] for label, _ in SETTINGS}
    reference: dict[str, str] | None = None
    for _ in range(repeats):  # settings interleaved, so that load changes hit all alike
        for label, extra in SETTINGS:
            wall, texts = play(config(specs, exchanges, extra), objs)
            reference = reference or texts
            assert texts == reference, f"{label}: transcripts differ from the first setting"
            walls[label].append(wall)
    print(f"\n## SmolLM2 vs 4 instant bots: 20 games x {exchanges} exchanges, {tokens} new "
          f"tokens, greedy; median of {repeats} (model load {load:.1f} s, not included)")
    print("| setting | wall s | speed-up vs concurrent_games 1 |")
    print("|---|---:|---:|")
    base = statistics.median(walls[SETTINGS[0][0]])
    for label, _ in SETTINGS:
        m = statistics.median(walls[label])
        print(f"| {label} | {m:.2f} | {base / m:.2f}x |")
    if with_ray:
        ray_row(specs, exchanges, reference, base)
    print("identical transcripts in every setting: True")


def ray_row(specs: list[dict[str, Any]], exchanges: int, reference: dict[str, str] | None,
            base: float) -> None:
    try:
        import ray
    except ImportError:
        print("| executor ray | skipped: ray not installed | |")
        return
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
    try:
        wall, texts = play(config(specs, exchanges, {"executor": "ray", "concurrent_games": 8}), None)
    finally:
        ray.shutdown()
    assert texts == reference, "ray: transcripts differ from the local run"
    print(f"| executor ray, concurrent_games 8 (1 run, incl. actor start + model load) | "
          f"{wall:.2f} | {base / wall:.2f}x |")


def latency_part(repeats: int, sleep_ms: float) -> None:
    names = ["a", "b", "c", "d"]
    specs = [{"name": n, "adapter": "echo"} for n in names]  # the YAML entries; objects below
    print(f"\n## Waiting bots: 4 bots sleeping {sleep_ms:g} ms per reply (not thread-safe), "
          f"12 games x 5 exchanges, concurrent_games 12; median of {repeats}")
    print("| workers | wall s | speed-up |")
    print("|---:|---:|---:|")
    base = 0.0
    for workers in (1, 2, 4):
        walls = []
        for _ in range(repeats):
            objs: dict[str, Bot] = {n: SleepBot(n, sleep_ms / 1000) for n in names}
            cfg = config(specs, 5, {"concurrent_games": 12, "workers": workers})
            walls.append(play(cfg, objs)[0])
        m = statistics.median(walls)
        base = base or m
        print(f"| {workers} | {m:.2f} | {base / m:.2f}x |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--exchanges", type=int, default=2)
    ap.add_argument("--tokens", type=int, default=20)
    ap.add_argument("--sleep-ms", type=float, default=20.0)
    ap.add_argument("--no-ray", action="store_true")
    ap.add_argument("--no-smollm2", action="store_true")
    args = ap.parse_args()
    import torch

    print(f"bench_parallel: {os.cpu_count()} CPUs, OMP_NUM_THREADS="
          f"{os.environ.get('OMP_NUM_THREADS')}, torch threads {torch.get_num_threads()}, "
          f"load average at start {os.getloadavg()[0]:.1f}")
    latency_part(args.repeats, args.sleep_ms)
    if not args.no_smollm2:
        smollm2_part(args.repeats, args.exchanges, args.tokens, not args.no_ray)
    print(f"load average at end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()

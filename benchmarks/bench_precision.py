"""Fluency LM precision and process layout: speed, and what it does to the fluency points.

    .venv/bin/python benchmarks/bench_precision.py                  # 42 chitchat games x 20 turns
    .venv/bin/python benchmarks/bench_precision.py --turns 200      # the 200-turn games (slow)
    .venv/bin/python benchmarks/bench_precision.py --run runs/demo  # a real bot-bot run instead

For each ``precision`` (fp32, bf16, int8) SmolLM2 scores every distinct credited turn of
the games (one process, the torch threads of this process), then the table compares it
with fp32 on what matters for the ranking: the share of games whose fluency point changes
hands (winner A -> B, or a win <-> a tie), and Spearman's rho of the per-turn perplexities.
A second table times "threads per process x processes" on a subsample: the parent loads
the model once and forks workers (copy-on-write weights), each scoring an interleaved share
of the length-sorted texts with ``torch.set_num_threads(threads)``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import sys
import time
from pathlib import Path
from typing import Sequence

from bench_scoring import build_games

from chatmatch.scoring.common import credited_turns
from chatmatch.scoring.fluency import Fluency
from chatmatch.scoring.lm import TransformersLM, get_lm
from chatmatch.scoring.points import dimension_winner
from chatmatch.scoring.text import normalise
from chatmatch.transcript import Transcript

PRECISIONS = ("fp32", "bf16", "int8")


class FixedLM:
    """Perplexities looked up in a table (to score games with precomputed values)."""

    name = "fixed"
    vocab_size = 0

    def __init__(self, table: dict[str, float | None]) -> None:
        self.table = table

    def perplexities(self, texts: Sequence[str]) -> list[float | None]:
        return [self.table[t] for t in texts]


def winners(games: Sequence[Transcript], table: dict[str, float | None]) -> list[int]:
    """Per game: +1 if the first player wins the fluency point, -1 the second, 0 a tie."""
    scores = Fluency(lm=FixedLM(table)).score_games(games)
    return [dimension_winner(s.raw[g.players[0]], s.raw[g.players[1]], False)
            for g, s in zip(games, scores)]


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    from scipy.stats import spearmanr

    return float(spearmanr(a, b).statistic)


_FORKED: list[TransformersLM] = []  # the model the forked workers inherit


def _worker(args: tuple[list[str], int]) -> int:
    import torch

    texts, threads = args
    torch.set_num_threads(threads)
    return len(_FORKED[0].perplexities(texts))


def layout_time(lm: TransformersLM, texts: list[str], threads: int, procs: int) -> float:
    """Wall seconds to score ``texts`` (uncached) with ``procs`` forked workers."""
    import torch

    lm.clear_cache()
    ordered = sorted(texts, key=len)
    shares = [ordered[i::procs] for i in range(procs)]
    start = time.perf_counter()
    if procs == 1:
        before = torch.get_num_threads()
        torch.set_num_threads(threads)
        lm.perplexities(ordered)
        torch.set_num_threads(before)
    else:
        _FORKED[:] = [lm]
        with mp.get_context("fork").Pool(procs) as pool:
            pool.map(_worker, [(share, threads) for share in shares])
    lm.clear_cache()
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bots", type=int, default=7)
    ap.add_argument("--turns", type=int, default=20,
                    help="turns per game (20 keeps `make bench` within minutes on 2 cores)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--run", type=Path, default=None, help="score the games of this run directory")
    ap.add_argument("--precisions", nargs="*", default=list(PRECISIONS))
    ap.add_argument("--layout-sample", type=int, default=200,
                    help="texts for the threads x processes table (0: skip it)")
    ap.add_argument("--save", type=Path, default=None, help="write per-text perplexities (JSON)")
    args = ap.parse_args(argv)
    if args.run is not None:
        from chatmatch.store import RunDir

        games = list(RunDir(args.run).transcripts().values())
        what = f"run {args.run}"
    else:
        games = build_games(args.bots, args.turns, args.seed)
        what = f"chitchat games x {args.turns} turns"
    texts = [normalise(t.text) for g in games for t in credited_turns(g)]
    distinct = list(dict.fromkeys(texts))
    print(f"{len(games)} {what}: {len(texts)} scored turns, {len(distinct)} distinct; "
          f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}", flush=True)
    tables: dict[str, dict[str, float | None]] = {}
    rows = []
    for precision in args.precisions:
        t0 = time.perf_counter()
        lm = get_lm("transformers", "smollm2", device="cpu", precision=precision)
        load = time.perf_counter() - t0
        assert isinstance(lm, TransformersLM)
        lm.clear_cache()
        t0 = time.perf_counter()
        values = lm.perplexities(distinct)
        wall = time.perf_counter() - t0
        tables[precision] = dict(zip(distinct, values))
        rows.append((precision, load, wall))
        print(f"  {precision}: load {load:.1f} s, score {wall:.1f} s "
              f"(load average {os.getloadavg()[0]:.1f})", flush=True)
    base = winners(games, tables["fp32"]) if "fp32" in tables else None
    print("\n| precision | load s | score s | turns/s | speed-up | flipped fluency points | "
          "Spearman rho vs fp32 | max rel. diff |\n|---|---:|---:|---:|---:|---:|---:|---:|")
    for precision, load, wall in rows:
        flips, rho, rel = "", "", ""
        if base is not None:
            w = winners(games, tables[precision])
            n = sum(a != b for a, b in zip(base, w))
            flips = f"{n} of {len(games)} ({100 * n / len(games):.1f}%)"
            pairs = [(tables["fp32"][t], tables[precision][t]) for t in distinct
                     if tables["fp32"][t] is not None]
            rho = f"{spearman([a for a, _ in pairs], [b for _, b in pairs]):.4f}"
            rel = f"{max(abs(b - a) / a for a, b in pairs):.1e}"
        fp32_wall = next((r[2] for r in rows if r[0] == "fp32"), math.nan)
        print(f"| {precision} | {load:.1f} | {wall:.1f} | {len(distinct) / wall:.1f} | "
              f"x{fp32_wall / wall:.2f} | {flips} | {rho} | {rel} |")
    if args.save:
        args.save.write_text(json.dumps({"games": [g.game_id for g in games], "ppl": tables}))
    if args.layout_sample:
        sample = distinct[: args.layout_sample]
        print(f"\nthreads per process x processes, {len(sample)} texts "
              f"(load average {os.getloadavg()[0]:.1f})")
        print("| precision | threads x processes | wall s | turns/s |\n|---|---|---:|---:|")
        for precision in args.precisions:
            lm = get_lm("transformers", "smollm2", device="cpu", precision=precision)
            assert isinstance(lm, TransformersLM)
            for threads, procs in ((2, 1), (1, 1), (1, 2)):
                wall = layout_time(lm, sample, threads, procs)
                print(f"| {precision} | {threads} x {procs} | {wall:.1f} | "
                      f"{len(sample) / wall:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

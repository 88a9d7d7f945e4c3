"""Fluency LM precision and process layout: speed, and what it does to the fluency points.

    .venv/bin/python benchmarks/bench_precision.py                  # 42 chitchat games x 20 turns
    .venv/bin/python benchmarks/bench_precision.py --turns 200      # the 200-turn games (slow)
    .venv/bin/python benchmarks/bench_precision.py --run runs/demo  # a real bot-bot run instead
    .venv/bin/python benchmarks/bench_precision.py --sets chitchat,long,short --precisions fp32 bf16-mixed

The LM runs in float32 only now (the bf16, bf16-mixed and int8 rows of docs/scale.md were
measured with earlier versions). For each ``precision`` (fp32) SmolLM2 scores every distinct credited turn of
the games (one process, the torch threads of this process), then the table compares it
with fp32 on what matters for the ranking: the share of games whose fluency point changes
hands (winner A -> B, or a win <-> a tie), Spearman's rho of the per-turn perplexities and
the relative error of a turn's perplexity (median / 95th percentile / largest). ``--sets``
adds ``bench_engines.py``'s long-turn and short-turn versions of the games (their texts are
timed too; flipped points per set). ``benchmarks/bench_bf16_layouts.py`` compares finer
bfloat16 layouts.
A second table times ``fluency.processes`` (1 and N worker processes of this process's
torch threads, ``chatmatch.runtime.lm.forward.ForwardPool``) on a subsample, worker start
included, and checks that the perplexities are identical.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import sys
import time
from pathlib import Path
from typing import Sequence

os.environ["CHATMATCH_PPL_CACHE"] = "0"  # time the LM, not the perplexity cache (runtime/lm/cache.py)

from bench_scoring import build_games

from chatmatch.scoring.common import credited_turns
from chatmatch.scoring.fluency import Fluency
from chatmatch.runtime.lm import TransformersLM, get_lm
from chatmatch.scoring.points import dimension_winner
from chatmatch.common.text import normalise
from chatmatch.transcript import Transcript

PRECISIONS = ("fp32",)  # the LM runs in float32 only (bf16, bf16-mixed, int8 removed)


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


def cpu_seconds() -> float:
    """CPU seconds of this process and its finished children (LM worker processes)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def layout_time(precision: str, texts: list[str], procs: int) -> tuple[float, float, list[float | None]]:
    """Wall and CPU seconds to score ``texts`` (uncached) with ``fluency.processes: procs``
    (the worker processes started and stopped inside the timing), and the values."""
    lm = get_lm("transformers", "smollm2", device="cpu", processes=procs)
    assert isinstance(lm, TransformersLM)
    lm.clear_cache()
    cpu, start = cpu_seconds(), time.perf_counter()
    values = lm.perplexities(texts)
    lm.close()  # reaps the workers, so that their CPU time is counted
    wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    lm.clear_cache()
    return wall, cpu, values


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
    ap.add_argument("--layout-procs", type=int, nargs="*", default=[2],
                    help="process counts to compare with 1 process")
    ap.add_argument("--save", type=Path, default=None, help="write per-text perplexities (JSON)")
    ap.add_argument("--sets", default="chitchat",
                    help="comma list of chitchat, long, short (bench_engines.py's game sets)")
    args = ap.parse_args(argv)
    if args.run is not None:
        from chatmatch.rundir.store import RunDir

        games = list(RunDir(args.run).transcripts().values())
        what = f"run {args.run}"
    else:
        games = build_games(args.bots, args.turns, args.seed)
        what = f"chitchat games x {args.turns} turns"
    sets = game_sets(games, args.sets)
    texts = [normalise(t.text) for s in sets.values() for g in s for t in credited_turns(g)]
    distinct = list(dict.fromkeys(texts))
    print(f"{len(games)} {what}: {len(texts)} scored turns, {len(distinct)} distinct; "
          f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}", flush=True)
    tables: dict[str, dict[str, float | None]] = {}
    rows = []
    for precision in args.precisions:
        t0 = time.perf_counter()
        lm = get_lm("transformers", "smollm2", device="cpu")
        load = time.perf_counter() - t0
        assert isinstance(lm, TransformersLM)
        lm.clear_cache()
        t0, c0 = time.perf_counter(), cpu_seconds()
        values = lm.perplexities(distinct)
        wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
        tables[precision] = dict(zip(distinct, values))
        rows.append((precision, load, wall, cpu))
        print(f"  {precision}: load {load:.1f} s, score {wall:.1f} s wall, {cpu:.1f} CPU s "
              f"(load average {os.getloadavg()[0]:.1f})", flush=True)
    print_table(rows, sets, tables, distinct)
    if args.save:
        args.save.write_text(json.dumps({"games": [g.game_id for g in games], "ppl": tables}))
    if args.layout_sample:
        sample = distinct[: args.layout_sample]
        print(f"\nfluency.processes, {len(sample)} texts, {_threads()} torch thread(s) a process "
              f"(load average {os.getloadavg()[0]:.1f})")
        print("| precision | processes | wall s | CPU s | turns/s (wall) | identical to 1 process |\n"
              "|---|---:|---:|---:|---:|---|")
        for precision in args.precisions:
            one = None
            for procs in (1, *args.layout_procs):
                wall, cpu, values = layout_time(precision, sample, procs)
                one = values if one is None else one
                print(f"| {precision} | {procs} | {wall:.1f} | {cpu:.1f} | {len(sample) / wall:.1f} | "
                      f"{'yes' if values == one else 'NO'} |", flush=True)
    return 0


def game_sets(games: list[Transcript], names: str) -> dict[str, list[Transcript]]:
    """The games, and (``long``, ``short``) bench_engines.py's reshaped versions of them."""
    from bench_engines import reshaped  # here: bench_engines imports this module

    out = {}
    for name in names.split(","):
        if name not in ("chitchat", "long", "short"):
            raise SystemExit(f"unknown set {name!r}; use chitchat, long or short")
        out[name] = games if name == "chitchat" else reshaped(games, name)
    return out


def print_table(rows: list[tuple[str, float, float, float]], sets: dict[str, list[Transcript]],
                tables: dict[str, dict[str, float | None]], distinct: list[str]) -> None:
    """Speed and fidelity against fp32 (flipped fluency points per game set)."""
    flip_heads = " | ".join(f"flipped fluency points ({k})" for k in sets)
    print(f"\n| precision | load s | score s (wall) | CPU s | CPU ms/turn | speed-up (CPU) | "
          f"{flip_heads} | Spearman rho vs fp32 | rel. diff median / p95 / max |\n"
          "|---|---:|---:|---:|---:|---:|" + "---:|" * len(sets) + "---:|---|")
    fp32_cpu = next((r[3] for r in rows if r[0] == "fp32"), math.nan)
    for precision, load, wall, cpu in rows:
        flips, rho, rel = ["" for _ in sets], "", ""
        if "fp32" in tables:
            flips = []
            for games in sets.values():
                base, w = winners(games, tables["fp32"]), winners(games, tables[precision])
                n = sum(a != b for a, b in zip(base, w))
                flips.append(f"{n} of {len(games)} ({100 * n / len(games):.1f}%)")
            pairs = [(tables["fp32"][t], tables[precision][t]) for t in distinct
                     if tables["fp32"][t] is not None]
            rho = f"{spearman([a for a, _ in pairs], [b for _, b in pairs]):.4f}"
            diffs = sorted(abs(b - a) / a for a, b in pairs)  # type: ignore[operator]
            rel = " / ".join(f"{100 * diffs[min(len(diffs) - 1, int(q * len(diffs)))]:.2g}%"
                             for q in (0.5, 0.95, 1.0))
        print(f"| {precision} | {load:.1f} | {wall:.1f} | {cpu:.1f} | "
              f"{1000 * cpu / len(distinct):.1f} | x{fp32_cpu / cpu:.2f} | {' | '.join(flips)} | "
              f"{rho} | {rel} |")


def _threads() -> int:
    import torch

    return torch.get_num_threads()


if __name__ == "__main__":
    sys.exit(main())

"""Processes and torch threads for the fluency LM: which layout scores texts fastest on
this machine, and are the perplexities identical, bit for bit?

    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_processes.py [--turns 40] [--layouts 1x2,1x1,auto]

Layouts (``PROCESSESxTHREADS``, or ``auto``, the default of ``fluency.processes``):

* ``1x2``: one process, two torch threads (torch's own default on 2 cores; chatmatch's
  default before ``processes: auto``);
* ``1x1``: one process, one torch thread;
* ``auto``: ``processes: auto``: one process a usable core, one torch thread each when the
  cores are shared out (chatmatch/runtime/lm/forward.py).

Each layout runs in its own fresh process on the same texts: the distinct credited turns
of 42 chitchat games (``--turns`` each, ``bench_scoring.build_games``, seed 0), scored by
SmolLM2 through ``TransformersLM``. Printed per layout: model load, the scoring call's
wall and CPU seconds (worker processes included), CPU ms per token, and whether every
perplexity equals the first layout's exactly. The last column projects the wall time of
the LM pass of ``chatmatch score`` on 42 games x 200 turns (7,891 distinct texts) at the
measured seconds per distinct text. The load average is printed: wall times on a busy machine say
little.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ["CHATMATCH_PPL_CACHE"] = "0"  # time the LM, not the perplexity cache (runtime/lm/cache.py)

#: distinct texts of 42 chitchat games x 200 turns (bench_engines.py)
TEXTS_42x200 = 7891


def texts_for(turns: int) -> list[str]:
    from bench_scoring import build_games

    from chatmatch.scoring.common import credited_turns

    games = build_games(7, turns, 0)
    return list(dict.fromkeys(t.text for g in games for t in credited_turns(g) if t.text.strip()))


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def measure(layout: str, texts: list[str], out: Any) -> None:
    """In a fresh process: load SmolLM2, score ``texts`` under ``layout``."""
    import torch

    from chatmatch.runtime.lm import SMOLLM2, TransformersLM, load_weights

    procs: int | str = "auto" if layout == "auto" else int(layout.split("x")[0])
    if layout != "auto":
        torch.set_num_threads(int(layout.split("x")[1]))
    t0 = time.perf_counter()
    model, tokenizer = load_weights(SMOLLM2)
    load = time.perf_counter() - t0
    lm = TransformersLM(model, tokenizer, name=SMOLLM2, processes=0 if procs == "auto" else int(procs))
    tokens = sum(len(lm._encode(t)) for t in texts)
    c0, w0 = cpu(), time.perf_counter()
    values = lm.perplexities(texts)
    lm.close()  # workers end here, so their CPU time is counted
    out.put((layout, load, time.perf_counter() - w0, cpu() - c0, tokens, values))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=40, help="turns a game (42 games)")
    ap.add_argument("--layouts", default="1x2,1x1,auto")
    args = ap.parse_args()
    texts = texts_for(args.turns)
    ctx = multiprocessing.get_context("spawn")
    print(f"42 games x {args.turns} turns: {len(texts)} distinct texts; "
          f"{len(os.sched_getaffinity(0))} usable CPUs; load average {os.getloadavg()[0]:.1f}")
    rows, first = [], None
    for layout in args.layouts.split(","):
        q = ctx.Queue()
        p = ctx.Process(target=measure, args=(layout, texts, q))
        p.start()
        name, load, wall, cpu_s, tokens, values = q.get()
        p.join()
        first = values if first is None else first
        same = "yes" if values == first else f"no ({sum(a != b for a, b in zip(values, first))} differ)"
        proj = wall / len(texts) * TEXTS_42x200  # at the measured seconds per distinct text
        rows.append(f"| {name} | {load:.1f} | {wall:.1f} | {cpu_s:.1f} | {1000 * cpu_s / tokens:.2f} | "
                    f"{same} | {proj:.0f} |")
        print(f"  {name}: {wall:.1f} s wall, {cpu_s:.1f} CPU s (load average {os.getloadavg()[0]:.1f})",
              flush=True)
    print()
    print("| layout | load s | wall s | CPU s | CPU ms/token | identical to the first | "
          "42 x 200 LM pass, wall s (projected) |")
    print("|---|---:|---:|---:|---:|---|---:|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()

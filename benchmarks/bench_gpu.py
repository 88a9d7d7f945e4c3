"""The fluency LM on a GPU (``device: auto``): speed by batch size and precision, against the CPU.

    .venv/bin/python benchmarks/bench_gpu.py                     # the 42 x 200 chitchat set
    .venv/bin/python benchmarks/bench_gpu.py --texts texts.json --model X.gguf --save out.json
    .venv/bin/python benchmarks/bench_gpu.py --dump-texts texts.json   # write the set, no timing

Needs a CUDA GPU that torch sees (the CPU rows run anyway). Texts: the distinct credited
turns of 42 chitchat games x 200 turns (``bench_scoring.build_games``, 7,891 texts), or a
JSON list given with ``--texts`` (``--dump-texts`` writes that list, for a GPU machine
without ``chitchat-dataset``). Each row scores every text once through
``chatmatch.runtime.lm.get_lm`` (the perplexity cache off), after a warm-up call on 64 of
them (CUDA start, kernel choice); the load of the weights onto a device is its own column.

Rows: the CPU in float32 with ``processes: auto`` (one worker a core, as ``chatmatch score``
runs it), then the GPU in float32 and ``precision: bf16`` at growing batch sizes
(``batch_size`` texts / ``max_batch_tokens`` padded tokens; the first is the default).
Each row's perplexities are compared with the first row's (median and largest relative
difference); ``--reference FILE`` (a ``--save`` output) adds a comparison with that file's
first row, e.g. the development machine's CPU.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Sequence

os.environ.setdefault("CHATMATCH_PPL_CACHE", "0")  # time the LM, not the perplexity cache

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from chatmatch.runtime.lm import SMOLLM2, get_lm  # noqa: E402

GPU_BATCHES = ((16, 2048), (64, 8192), (256, 32768), (1024, 131072))


def chitchat_texts(turns: int) -> list[str]:
    from bench_engines import texts_of
    from bench_scoring import build_games

    return texts_of(build_games(7, turns, 0))


def rel_diffs(a: Sequence[float | None], b: Sequence[float | None]) -> tuple[float, float]:
    d = [abs(x - y) / y for x, y in zip(a, b) if x is not None and y is not None]
    return (statistics.median(d), max(d)) if d else (0.0, 0.0)


def run_row(texts: list[str], *, device: str, precision: str, batch: tuple[int, int],
            model: str) -> dict[str, Any]:
    import torch

    cuda = device.startswith("cuda")
    start = time.perf_counter()
    lm: Any = get_lm("transformers", model, device=device, batch_size=batch[0],
                     max_batch_tokens=batch[1], processes="auto")
    lm.perplexities(texts[:64])
    load = time.perf_counter() - start
    lm.clear_cache()
    if cuda:
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
    cpu, start = time.process_time(), time.perf_counter()
    values = lm.perplexities(texts)
    if cuda:
        torch.cuda.synchronize()
    wall = time.perf_counter() - start
    tokens = sum(len(lm._encode(t)) for t in texts)
    row = {"device": device, "precision": precision, "batch_size": batch[0],
           "max_batch_tokens": batch[1], "load_s": load, "wall_s": wall,
           "main_cpu_s": time.process_time() - cpu, "tokens": tokens,
           "gpu_peak_mb": torch.cuda.max_memory_allocated() / 2**20 if cuda else None,
           "values": values}
    lm.close()
    return row


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--texts", type=Path, help="a JSON list of texts (default: the 42 x 200 set)")
    ap.add_argument("--dump-texts", type=Path, help="write the text list here and stop")
    ap.add_argument("--turns", type=int, default=200)
    ap.add_argument("--model", default=SMOLLM2)
    ap.add_argument("--no-cpu", action="store_true", help="leave out the CPU row")
    ap.add_argument("--save", type=Path, help="write rows and perplexities as JSON")
    ap.add_argument("--reference", type=Path, help="a --save file to compare with")
    args = ap.parse_args(argv)
    texts = json.loads(args.texts.read_text()) if args.texts else chitchat_texts(args.turns)
    if args.dump_texts:
        args.dump_texts.write_text(json.dumps(texts))
        print(f"{len(texts)} texts -> {args.dump_texts}")
        return 0
    import torch

    plan: list[tuple[str, str, tuple[int, int]]] = [] if args.no_cpu else [("cpu", "fp32", GPU_BATCHES[0])]
    if torch.cuda.is_available():
        plan += [("cuda", "fp32", b) for b in GPU_BATCHES]  # float32 only (bf16 was removed)
        print(f"GPU: {torch.cuda.get_device_name(0)}; torch {torch.__version__}; "
              f"TF32 matmul {torch.backends.cuda.matmul.allow_tf32}")
    else:
        print("no CUDA GPU seen by torch: CPU row only")
    print(f"{len(texts)} distinct texts; {os.cpu_count()} CPUs", flush=True)
    rows: list[dict[str, Any]] = []
    for device, precision, batch in plan:
        try:
            rows.append(run_row(texts, device=device, batch=batch, model=args.model))
        except Exception as exc:  # a row that cannot run (out of memory, ...) is reported, not fatal
            print(f"  {device} {precision} {batch}: failed: {type(exc).__name__}: {exc}", flush=True)
            continue
        r = rows[-1]
        print(f"  {device} {precision} batch {batch[0]}/{batch[1]}: load {r['load_s']:.1f} s, "
              f"{r['wall_s']:.2f} s wall", flush=True)
        if args.save:
            args.save.write_text(json.dumps({"texts": texts, "rows": rows}))
    ref = json.loads(args.reference.read_text())["rows"][0]["values"] if args.reference else None
    print_table(rows, ref)
    return 0


def print_table(rows: list[dict[str, Any]], ref: list[float | None] | None) -> None:
    if not rows:
        return
    head = "| device | precision | batch / tokens | load s | wall s | texts/s | ms/token (wall) | GPU peak MB | vs first row: median / max rel. diff |"
    head += " vs reference |" if ref else ""
    print("\n" + head + "\n|" + "---|" * (head.count("|") - 1))
    n = len(rows[0]["values"])
    for r in rows:
        med, mx = rel_diffs(r["values"], rows[0]["values"])
        line = (f"| {r['device']} | {r['precision']} | {r['batch_size']} / {r['max_batch_tokens']} | "
                f"{r['load_s']:.1f} | {r['wall_s']:.2f} | {n / r['wall_s']:.0f} | "
                f"{1000 * r['wall_s'] / r['tokens']:.3f} | "
                f"{'-' if r['gpu_peak_mb'] is None else format(r['gpu_peak_mb'], '.0f')} | "
                f"{med:.2e} / {mx:.2e} |")
        if ref:
            rm, rx = rel_diffs(r["values"], ref)
            line += f" {rm:.2e} / {rx:.2e} |"
        print(line)


if __name__ == "__main__":
    sys.exit(main())

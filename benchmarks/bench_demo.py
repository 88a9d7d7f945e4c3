"""Wall and CPU time of ``chatmatch run tournaments/demo.yaml``, with this code and another.

    python benchmarks/bench_demo.py [--exchanges 10] [--before /path/to/old/tree]

Runs the demo tournament (optionally with fewer exchanges: a copy of the YAML) into a fresh
run directory, ``chatmatch run CONFIG --out DIR -q`` in a fresh process under
``/usr/bin/time``, with this tree and, with ``--before``, from that tree (a checkout of the
code to compare, e.g. a ``git worktree`` of an older commit), back to back. The perplexity
and embedding caches are off (``CHATMATCH_PPL_CACHE=0``, ``CHATMATCH_EMBED_CACHE=0``) so
neither run reads what the other computed; the model copies (GGUF, ONNX graph, ChatterBot
database) are the machine's. "cores" is CPU time over wall time: 1.0 is one core busy.
The runs' rankings and the turns of their transcripts are compared (the parallelism of
play, e.g. the bots of one step called side by side, must not change a transcript).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(config: Path, out: Path, tree: Path | None) -> tuple[float, float]:
    env = {**os.environ, "CHATMATCH_PPL_CACHE": "0", "CHATMATCH_EMBED_CACHE": "0"}
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    stats = out.with_suffix(".time")
    subprocess.run(["/usr/bin/time", "-f", "%e %U %S", "-o", str(stats), sys.executable, "-m",
                    "chatmatch", "run", str(config), "--out", str(out), "-q"],
                   env=env, check=True, cwd=tree or ROOT, stdout=subprocess.DEVNULL)
    wall, user, system = stats.read_text().split()[-3:]
    return float(wall), float(user) + float(system)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exchanges", type=int, default=10)
    ap.add_argument("--before", type=Path, default=None)
    args = ap.parse_args()
    text = (ROOT / "tournaments" / "demo.yaml").read_text()
    with tempfile.TemporaryDirectory(prefix="bench-demo-") as tmp:
        config = Path(tmp) / "demo.yaml"
        config.write_text(re.sub(r"(?m)^exchanges: \d+", f"exchanges: {args.exchanges}", text))
        print(f"demo, {args.exchanges} exchanges; load average {os.getloadavg()[0]:.1f} on "
              f"{os.cpu_count()} CPUs at the start", flush=True)
        rows = []
        for label, tree in [("this tree", None)] + ([("before", args.before)] if args.before else []):
            out = Path(tmp) / label.replace(" ", "-")
            wall, cpu = run(config, out, tree)
            ranking = (out / "rankings" / "trueskill.json").read_text()
            rows.append((label, wall, cpu, (ranking, turns(out))))
            print(f"  {label}: {wall:.1f} s", flush=True)
        print(f"load average {os.getloadavg()[0]:.1f} at the end\n")
        print("| code | wall s | CPU s | cores | ranking identical to the first | transcripts identical |")
        print("|---|---:|---:|---:|---|---|")
        for label, wall, cpu, (ranking, games) in rows:
            print(f"| {label} | {wall:.1f} | {cpu:.1f} | {cpu / wall:.2f} | "
                  f"{ranking == rows[0][3][0]} | {games == rows[0][3][1]} |")


def turns(run_dir: Path) -> dict[str, list[tuple[str, str]]]:
    """Each game's turns (speaker, text) as stored, timings left out."""
    out = {}
    for f in sorted((run_dir / "transcripts").glob("*.jsonl")):
        lines = [json.loads(x) for x in f.read_text().splitlines()]
        out[f.stem] = [(x["speaker"], x["text"]) for x in lines if x.get("type") == "turn"]
    return out


if __name__ == "__main__":
    main()

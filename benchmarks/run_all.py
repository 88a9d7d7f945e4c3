"""Run every benchmark script in this folder, one after the other (``make bench``).

    .venv/bin/python benchmarks/run_all.py [--only NAME ...] [--threads N]

Each ``bench_*.py`` runs in its own process (so one's loaded models and caches do not
speed up or slow down the next), with ``OMP_NUM_THREADS`` set to ``--threads`` (default 1:
on a small shared machine more OpenMP threads than free cores make torch much slower).
Their tables are printed as they come, each under a header with the machine's load
average, then a summary of the wall time and exit status of every script.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def scripts(only: list[str]) -> list[Path]:
    found = sorted(HERE.glob("bench_*.py"))
    if only:
        found = [p for p in found if p.stem in only or p.name in only]
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=[], help="script names, e.g. bench_engine")
    ap.add_argument("--threads", type=int, default=1, help="OMP_NUM_THREADS for each script")
    args = ap.parse_args()
    todo = scripts(args.only)
    if not todo:
        print(f"no benchmark matches {args.only}; have: "
              f"{', '.join(p.stem for p in scripts([]))}", file=sys.stderr)
        return 2
    env = {**os.environ, "OMP_NUM_THREADS": str(args.threads),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(HERE.parent), os.environ.get("PYTHONPATH")]))}
    summary = []
    for script in todo:
        print(f"\n# {script.name} (load average {os.getloadavg()[0]:.1f}, "
              f"{os.cpu_count()} CPUs, OMP_NUM_THREADS={args.threads})", flush=True)
        t0 = time.perf_counter()
        rc = subprocess.run([sys.executable, str(script)], cwd=HERE.parent, env=env).returncode
        summary.append((script.name, time.perf_counter() - t0, rc))
    print("\n# Summary\n| script | wall s | exit status |\n|---|---:|---:|")
    for name, wall, rc in summary:
        print(f"| {name} | {wall:.0f} | {rc} |")
    return max((rc for _, _, rc in summary), default=0) and 1


if __name__ == "__main__":
    sys.exit(main())

"""What starting the ``chatmatch`` command costs, before it does anything.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/bench_startup.py [--repeats 7]

Each case runs ``--repeats`` times in a fresh process (the Python files already in the OS
cache: one warm-up run first); printed per case: the median wall seconds and the median
CPU seconds (user + system of the child). Cases:

* ``chatmatch --version``: the console script (what a user or a scheduler's health check runs);
* ``import chatmatch.cli``: the command group alone (a subcommand's module is imported when
  that command is used, chatmatch/cli/__init__.py COMMANDS);
* ``chatmatch show --help`` and ``chatmatch run --help``: one light and one heavy subcommand.

The load average is printed too: wall times on a busy machine say little (the CPU column
says more). The goal is under 0.5 s wall for ``--version`` on an idle core.

Measured on the 2-core development machine with a load average of ~10 from other jobs:
``chatmatch --version`` 0.26 s wall, 0.075 CPU s (median of 5); before the subcommands were
imported on use (every subcommand, so scipy, scikit-learn and matplotlib, at start), the
same command took 11-12 s wall and 2.8-3.1 CPU s.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _once(argv: list[str]) -> tuple[float, float]:
    """(wall s, CPU s) of one run of ``argv`` in a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    script = str(BIN / "chatmatch")
    cases = {"chatmatch --version": [script, "--version"],
             "import chatmatch.cli": [sys.executable, "-c", "import chatmatch.cli"],
             "chatmatch show --help": [script, "show", "--help"],
             "chatmatch run --help": [script, "run", "--help"]}
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"({os.cpu_count()} cores); {args.repeats} runs per case, medians")
    print(f"{'case':<24} {'wall s':>8} {'CPU s':>8}")
    for name, argv in cases.items():
        _once(argv)  # warm-up: the files in the OS cache
        runs = [_once(argv) for _ in range(args.repeats)]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        print(f"{name:<24} {wall:>8.3f} {cpu:>8.3f}")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

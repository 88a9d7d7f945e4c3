"""How long the leaderboard of ``chatmatch view`` takes to open on a big run: 100 bots,
2,000 games, built from the transcripts and score records of tests/data/current_run
(benchmarks/bigrun.py: players renamed, raw scores jittered, every file written as the
runner writes it, so the view's integrity checks run in full).

    .venv/bin/python benchmarks/bench_view.py [--repeat 5] [--bots 100] [--games 2000]

Rows: "finished run": the run's stored ranking (rankings/trueskill.json) is fresh, so the
view reads it instead of ranking (the first request reads the whole run); "after start-up":
the first page after `chatmatch view` started, which reads the run and its ranking before
it prints the URL; "while it plays": the stored ranking is older than the
results (as during `chatmatch run`), so the view ranks the trusted results itself; "cached":
the same page again with nothing changed (one stat per watched file). Columns: median wall
and CPU seconds of a GET /run/0/ through Starlette's test client, and the slowest wall time.
The leaderboard never reads a transcript's turns: the results file, each game's transcript
header and score-record digest (the integrity check every reader makes), and the ranking.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from starlette.testclient import TestClient  # noqa: E402

from benchmarks.bigrun import build_big_run  # noqa: E402
from chatmatch.common.tables import render_table  # noqa: E402
from chatmatch.view.pages import Views  # noqa: E402
from chatmatch.view.state import RunState  # noqa: E402
from chatmatch.view.web import create_app  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def timed(client: TestClient) -> tuple[float, float]:
    w, c = time.perf_counter(), time.process_time()
    r = client.get("/run/0/")
    assert r.status_code == 200 and "table class='leaderboard'" in r.text, r.text[:500]
    return time.perf_counter() - w, time.process_time() - c


def measure(run: Path, repeat: int, cached: bool, primed: bool = False) -> list[tuple[float, float]]:
    """``cached``: the page again, nothing changed; ``primed``: the first page after
    `chatmatch view` started (which reads the run and its ranking before it prints the URL)."""
    out = []
    client = TestClient(create_app(Views([RunState(run)])))
    if cached:
        timed(client)
    for _ in range(repeat):
        if not cached:
            state = RunState(run)
            if primed:
                state.snapshot().ranking()
            client = TestClient(create_app(Views([state])))
        out.append(timed(client))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--bots", type=int, default=100)
    ap.add_argument("--games", type=int, default=2000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run = build_big_run(ROOT / "tests" / "data" / "current_run", Path(tmp) / "big",
                            args.bots, args.games)
        rows = []
        for label, stale, cached, primed in (
                ("finished run", False, False, False), ("after start-up", False, False, True),
                ("cached", False, True, False), ("while it plays", True, False, False)):
            if stale:  # the results are newer than the stored ranking
                os.utime(run / "results.jsonl")
            t = measure(run, args.repeat, cached, primed)
            rows.append([label, f"{statistics.median(x for x, _ in t):.3f}",
                         f"{statistics.median(c for _, c in t):.3f}", f"{max(x for x, _ in t):.3f}"])
    print(f"GET /run/0/ of a {args.bots}-bot, {args.games}-game run, {args.repeat} repeats, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(render_table(["leaderboard", "wall s (median)", "CPU s (median)", "wall s (max)"], rows))


if __name__ == "__main__":
    main()

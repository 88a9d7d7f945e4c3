"""Crash safety: a real ``chatmatch run`` process is killed with SIGKILL at seeded random
moments and resumed each time; the final run directory must equal an uninterrupted run's.

Kill moments are drawn from a seeded generator as "after k finished games, plus d ms", so
they fall at different stages of a game (playing, saving a transcript, scoring, appending
a result), and the test knows which games were finished before each kill.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chatmatch.config import load_config
from chatmatch.runner import run_tournament
from chatmatch.store import RunDir
from tests.reliability.helpers import (REPO, chatmatch_cmd, cli_env, run_cli, run_contents,
                                       tournament_yaml)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

TOTAL = 12  # 4 bots, double round-robin
KILL_SEED = 20240


def _finished(run: Path) -> set[str]:
    folder = run / "transcripts"
    return {p.stem for p in folder.glob("*.jsonl")} if folder.exists() else set()


def _start(cfg: Path, run: Path, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(chatmatch_cmd("run", str(cfg), "--out", str(run)), cwd=REPO,
                            env=cli_env(), stdout=log.open("wb"), stderr=subprocess.STDOUT)


def _kill_after(proc: subprocess.Popen[bytes], run: Path, games: int, delay_s: float) -> bool:
    """SIGKILL ``proc`` once ``games`` games are finished plus ``delay_s``; False when the
    process ended on its own first."""
    deadline = time.monotonic() + 60
    while len(_finished(run)) < games and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
    time.sleep(delay_s)
    if proc.poll() is not None:
        return False
    os.kill(proc.pid, signal.SIGKILL)
    return proc.wait(timeout=30) == -signal.SIGKILL  # 0: it ended just before the kill


def test_sigkill_at_random_moments_then_resume_equals_uninterrupted_run(tmp_path):
    cfg = tmp_path / "t.yaml"
    cfg.write_text(tournament_yaml(bots=4, exchanges=5, sleep_ms=6, concurrent=2))
    run, ref = tmp_path / "killed", tmp_path / "reference"
    rng = random.Random(KILL_SEED)
    kill_points = sorted(rng.sample(range(0, TOTAL - 2), 4))
    landed = 0
    before: set[str] = set()
    for i, games in enumerate(kill_points):
        proc = _start(cfg, run, tmp_path / f"log{i}.txt")
        killed = _kill_after(proc, run, games, rng.uniform(0.0, 0.05))
        log = (tmp_path / f"log{i}.txt").read_text(errors="replace")
        assert proc.returncode in (-signal.SIGKILL, 0), log
        landed += killed
        now = _finished(run)
        print(f"kill {i}: after {games} game(s) -> killed={killed}, {len(now)} transcripts, "
              f"{len(RunDir(run).results())} results")
        assert before <= now, f"kill {i} lost finished games: {sorted(before - now)}"
        before = now
    assert landed >= 3, "the run finished before most kills; make the bots slower"

    # transcripts without a result (killed between saving and scoring) must be re-scored
    unscored = before - set(RunDir(run).results())
    final = run_cli("run", str(cfg), "--out", str(run))
    assert final.returncode == 0, final.stderr
    assert "Traceback" not in final.stderr
    m = re.search(r"(\d+) game\(s\) played and (\d+) scored now", final.stderr)
    assert m, final.stderr
    assert int(m.group(1)) == TOTAL - len(before), final.stderr  # nothing finished was replayed
    assert int(m.group(2)) == TOTAL - len(before) + len(unscored), final.stderr

    clean = run_cli("run", str(cfg), "--out", str(ref))
    assert clean.returncode == 0, clean.stderr
    got, want = run_contents(run, timings=False), run_contents(ref, timings=False)
    assert sorted(got) == sorted(want)
    assert [k for k in want if got[k] != want[k]] == []
    assert final.stdout == clean.stdout  # the printed rankings
    assert list(run.rglob("*.tmp")) == []  # temp files of killed atomic writes are cleaned up
    assert len(RunDir(run).results()) == TOTAL
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["expected_games"] == TOTAL


def _small_cfg(tmp_path: Path):
    p = tmp_path / "t.yaml"
    p.write_text(tournament_yaml(bots=3, exchanges=3, concurrent=1))
    return load_config(p)


def test_torn_last_result_line_is_ignored_and_the_game_scored_again(tmp_path):
    cfg = _small_cfg(tmp_path)
    run_tournament(cfg, tmp_path / "ref")
    run = tmp_path / "run"
    run_tournament(cfg, run)
    results = run / "results.jsonl"
    data = results.read_bytes()
    last_start = data.rstrip(b"\n").rfind(b"\n") + 1
    results.write_bytes(data[: last_start + (len(data) - last_start) // 2])  # torn mid-line
    store = RunDir(run)
    assert len(store.results()) == 5 and store.warnings

    s = run_tournament(cfg, run)
    assert s.games_played == 0 and s.games_scored == 1
    assert any("damaged result line" in w for w in s.warnings)
    # the re-scored record must not be glued to the torn line: a later reader sees all 6
    again = RunDir(run)
    assert len(again.results()) == 6
    assert run_contents(run, timings=False) == run_contents(tmp_path / "ref", timings=False)


def test_corrupted_result_checksum_is_detected(tmp_path):
    cfg = _small_cfg(tmp_path)
    run = tmp_path / "run"
    run_tournament(cfg, run)
    results = run / "results.jsonl"
    lines = results.read_text().splitlines()
    entry = json.loads(lines[2])
    entry["record"]["winner"] = entry["record"]["players"][1]  # silently edited
    lines[2] = json.dumps(entry)
    results.write_text("\n".join(lines) + "\n")
    store = RunDir(run)
    assert entry["record"]["game_id"] not in store.results()
    assert any("checksum mismatch" in w for w in store.warnings)
    s = run_tournament(cfg, run)
    assert s.games_scored == 1 and len(RunDir(run).results()) == 6


def test_transcript_without_result_is_scored_not_replayed(tmp_path):
    cfg = _small_cfg(tmp_path)
    run = tmp_path / "run"
    run_tournament(cfg, run)
    lines = (run / "results.jsonl").read_text().splitlines()
    (run / "results.jsonl").write_text("\n".join(lines[:3]) + "\n")  # killed after game 3's result
    (run / "transcripts" / "g006.jsonl").unlink()  # ... and before game 6 was saved
    s = run_tournament(cfg, run)
    assert (s.games_played, s.games_scored) == (1, 3)
    assert s.ranking.complete and s.ranking.games == 6


def test_a_second_process_on_the_same_run_directory_is_refused(tmp_path):
    fcntl = pytest.importorskip("fcntl")
    cfg = tmp_path / "t.yaml"
    cfg.write_text(tournament_yaml(bots=3, exchanges=2))
    run = tmp_path / "run"
    run.mkdir()
    (run / "scores").mkdir()
    (run / "scores" / ".g001.json.x1y2z3.tmp").write_text("{half")  # left by a killed run
    with open(run / ".lock", "a") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)  # another process is running here
        r = run_cli("run", str(cfg), "--out", str(run))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"error: {run} is in use by another chatmatch process" in r.stderr
    assert not (run / "manifest.json").exists()
    r = run_cli("run", str(cfg), "--out", str(run))  # the lock is gone with its holder
    assert r.returncode == 0, r.stderr
    assert list(run.rglob("*.tmp")) == [] and len(RunDir(run).results()) == 6

"""Crash safety: a real ``chatmatch`` process is killed with SIGKILL at 10 seeded moments and
resumed each time; the final run directory must equal an uninterrupted run's.

The moments are deterministic crash points (``tests/reliability/crash.py``): "the N-th
write of a transcript / scores file / result line / manifest / config / ranking, killed
before it, half way through it, or right after it". Five fall while games are played and
scored, five while a changed scoring setup re-scores the stored games and ranks them
again. No sleeps: the process kills itself at the chosen write.
"""

from __future__ import annotations

import json
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from chatmatch.config.tournament import load_config
from chatmatch.run.tournament import run_tournament
from chatmatch.rundir.store import RunDir
from tests.reliability.helpers import REPO, cli_env, run_cli, run_contents, tournament_yaml

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

BOTS = 5
TOTAL = BOTS * (BOTS - 1)  # double round-robin
KILL_SEED = 20240
#: what each phase kills; "ranking" last (rankings are written once all games are scored),
#: and in the re-scoring phase the config and results rewrite first (they happen only
#: until the manifest records the new scoring setup)
PLAY_OPS = ["transcript", "scores", "result", "manifest"]
RESCORE_OPS = ["config", "results_rewrite", "scores", "result"]


def _finished(run: Path) -> set[str]:
    folder = run / "transcripts"
    return {p.stem for p in folder.glob("*.jsonl")} if folder.exists() else set()


def _crash_run(cfg: Path, run: Path, spec: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tests.reliability.crash", "run", str(cfg), "--out",
                           str(run), "-q"], cwd=REPO, env=cli_env(CHATMATCH_TEST_CRASH=spec),
                          text=True, capture_output=True, timeout=120)


def _moments(rng: random.Random) -> list[tuple[str, str]]:
    """(phase, OP:N:MODE) for 10 kills: 5 while playing, 5 while re-scoring."""
    out = []
    for phase, ops in (("play", PLAY_OPS), ("rescore", RESCORE_OPS)):
        ops = list(ops)
        rng.shuffle(ops[2:] if phase == "rescore" else ops)
        for op in [*ops, "ranking"]:
            # N within what one invocation surely writes (config: 2, results rewrite: 1)
            n = rng.randint(1, {"results_rewrite": 1, "config": 2, "ranking": 4}.get(op, 3))
            out.append((phase, f"{op}:{n}:{rng.choice(['before', 'torn', 'after'])}"))
    return out


def test_sigkill_at_10_seeded_moments_while_playing_rescoring_and_ranking(tmp_path):
    play_cfg = tmp_path / "play.yaml"
    play_cfg.write_text(tournament_yaml(bots=BOTS, exchanges=3, concurrent=2))
    rescore_cfg = tmp_path / "rescore.yaml"  # the same games, scored on fewer dimensions
    rescore_cfg.write_text(tournament_yaml(bots=BOTS, exchanges=3, concurrent=2,
                                           dims=["proactivity", "specificity"]))
    run = tmp_path / "killed"
    moments = _moments(random.Random(KILL_SEED))
    before: set[str] = set()
    for i, (phase, spec) in enumerate(moments):
        if phase == "rescore" and moments[i - 1][0] == "play":
            # the end of the play phase: finish it, and check that nothing was replayed
            unscored = before - set(RunDir(run).results())
            final = run_cli("run", str(play_cfg), "--out", str(run))
            assert final.returncode == 0 and "Traceback" not in final.stderr, final.stderr
            m = re.search(r"(\d+) game\(s\) played and (\d+) scored now", final.stderr)
            assert m, final.stderr
            assert int(m.group(1)) == TOTAL - len(before), final.stderr  # nothing finished replayed
            assert int(m.group(2)) == TOTAL - len(before) + len(unscored), final.stderr
            clean = run_cli("run", str(play_cfg), "--out", str(tmp_path / "reference"))
            assert run_contents(run, timings=False) == run_contents(tmp_path / "reference", timings=False)
            assert final.stdout == clean.stdout  # the printed rankings
            before = _finished(run)
        cfg = play_cfg if phase == "play" else rescore_cfg
        r = _crash_run(cfg, run, spec)
        assert r.returncode == -signal.SIGKILL, f"kill {i} ({spec}) did not land: {r.stderr}"
        assert "Traceback" not in r.stderr, r.stderr
        now = _finished(run)
        print(f"kill {i} ({phase}, {spec}): {len(now)} transcripts, {len(RunDir(run).results())} results")
        assert before <= now, f"kill {i} ({spec}) lost finished games: {sorted(before - now)}"
        before = now

    final = run_cli("run", str(rescore_cfg), "--out", str(run))
    assert final.returncode == 0 and "Traceback" not in final.stderr, final.stderr
    assert re.search(r"\b0 game\(s\) played", final.stderr), final.stderr  # re-scored, never replayed
    clean = run_cli("run", str(rescore_cfg), "--out", str(tmp_path / "reference2"))
    assert clean.returncode == 0, clean.stderr
    got, want = run_contents(run, timings=False), run_contents(tmp_path / "reference2", timings=False)
    assert sorted(got) == sorted(want)
    assert [k for k in want if got[k] != want[k]] == []
    assert final.stdout == clean.stdout
    assert list(run.rglob("*.tmp")) == []  # temp files of killed atomic writes are cleaned up
    results = RunDir(run).results()
    assert len(results) == TOTAL
    assert all(set(r.raw[p]) == {"proactivity", "specificity"} for r in results.values() for p in r.players)
    assert json.loads((run / "manifest.json").read_text())["expected_games"] == TOTAL


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

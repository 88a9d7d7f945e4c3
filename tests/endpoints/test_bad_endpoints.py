"""Misbehaving OpenAI-compatible endpoints through the real CLI (a subprocess with a time
limit): only the failing bots forfeit, the run ends, forfeits are shown and make the exit
status non-zero, a dead URL stops the run before any game, and ``--replay-forfeits``
completes the run once the servers are fixed."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterator

import pytest

from tests.fake_openai import FakeOpenAI
from tests.reliability.helpers import cli_env, run_cli


@pytest.fixture
def servers() -> Iterator[tuple[FakeOpenAI, FakeOpenAI]]:
    with FakeOpenAI(delay_s=3600) as hang, FakeOpenAI(drip_s=1.0) as drip:
        yield hang, drip


def _yaml(hang: str, drip: str, check: str = "false") -> str:
    # hang: the engine's time limit (failures.timeout_s) gives up on it; drip: the adapter's
    # request deadline does (each byte comes within any per-read timeout); both start to
    # misbehave after the pre-flight check (check_server: false), which would refuse them
    return f"""name: bad-endpoints
exchanges: 2
concurrent_games: 4
seed: 1
failures: {{timeout_s: 3, retries: 1}}
scoring: {{dimensions: [proactivity, diversity]}}
bots:
  - name: hang
    adapter: openai-chat
    params: {{base_url: '{hang}', model: m1, timeout_s: 60, retries: 0, check_server: {check}}}
  - name: drip
    adapter: openai-chat
    params: {{base_url: '{drip}', model: m1, timeout_s: 1, retries: 1, backoff_s: 0, check_server: {check}}}
  - name: eliza
    adapter: eliza
  - name: canned
    adapter: canned
"""


def _results(run: Path) -> list[dict]:
    return [json.loads(line)["record"] for line in
            (run / "results.jsonl").read_text().splitlines() if line.strip()]


def test_only_failing_endpoints_forfeit_and_the_run_ends(tmp_path, servers):
    hang, drip = servers
    cfg = tmp_path / "t.yaml"
    cfg.write_text(_yaml(hang.base_url, drip.base_url))
    run = tmp_path / "run"
    # bounded: 6 hung games cost ~3 s a step; a stuck process fails here (timeout)
    out = run_cli("run", str(cfg), "--out", str(run), "-q", timeout=90)
    assert out.returncode == 3, out.stderr
    results = _results(run)
    assert len(results) == 12
    forfeits = {r["game_id"]: r["forfeit"] for r in results if r["forfeit"]}
    for r in results:
        players = set(r["players"])
        if players & {"hang", "drip"}:
            assert r["forfeit"] and r["forfeit"]["bot"] in players & {"hang", "drip"}, r
        else:  # eliza vs canned: never blamed for another bot's timeout
            assert r["forfeit"] is None
    reasons = {f["bot"]: f["reason"] for f in forfeits.values()}
    assert "no reply within 3 s" in reasons["hang"]
    assert "no complete answer within timeout_s=1" in reasons["drip"]
    # one retry layer: the engine does not retry, and says so
    assert "(the engine called it once: the bot retries inside)" in reasons["hang"]
    # the summary, the leaderboard marks and the one-line error
    # (the game hang vs drip is forfeited by the one that failed first)
    assert len(forfeits) == 10 and "Forfeits (" in out.stderr
    assert re.search(r"hang: [56]/6 games \(\d+%\) \(!\) over the limit: g0", out.stderr)
    assert re.search(r"drip: [56]/6 games \(\d+%\) \(!\) over the limit: g0", out.stderr)
    assert "hang (!)" in out.stdout and "drip (!)" in out.stdout and "eliza (!)" not in out.stdout
    assert "error: 2 bot(s) forfeited more than 0% of their games" in out.stderr
    assert "--replay-forfeits" in out.stderr and "Traceback" not in out.stderr
    assert "retry 1/1" in out.stderr  # the drip adapter's retry is visible

    # resume without the flag plays nothing (as before); with --allow-forfeits exit 0
    again = run_cli("run", str(cfg), "--out", str(run), "-q", "--allow-forfeits", timeout=60)
    assert again.returncode == 0, again.stderr
    assert "0 game(s) played" in again.stderr and len(_results(run)) == 12

    # the servers are fixed: the forfeited games are played again, the others kept
    hang.delay_s, drip.drip_s = 0.0, None
    kept = {r["game_id"]: r for r in results if not r["forfeit"]}
    fixed = run_cli("run", str(cfg), "--out", str(run), "-q", "--replay-forfeits", timeout=60)
    assert fixed.returncode == 0, fixed.stderr
    assert "10 forfeited game(s) played again" in fixed.stderr
    final = {r["game_id"]: r for r in _results(run)}
    assert len(final) == 12 and not any(r["forfeit"] for r in final.values())
    assert all(final[g] == r for g, r in kept.items())
    assert "Forfeits" not in fixed.stderr and "(!)" not in fixed.stdout
    manifest = json.loads((run / "manifest.json").read_text())
    assert [e for e in manifest["history"] if e["event"] == "replay_forfeits"][0]["games"] \
        == sorted(forfeits)


def test_dead_url_stops_before_any_game(tmp_path):
    with FakeOpenAI() as gone:
        url = gone.base_url
    cfg = tmp_path / "t.yaml"
    cfg.write_text(_yaml(url, url, check="true"))
    run = tmp_path / "run"
    out = run_cli("run", str(cfg), "--out", str(run), "-q", timeout=60)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    [line] = [x for x in out.stderr.splitlines() if x.startswith("error:")]
    assert f"bot 'hang': cannot reach {url}/models" in line and "is the server running?" in line
    assert not list((run / "transcripts").glob("*.jsonl")) if (run / "transcripts").exists() else True


def test_server_500_then_429_with_retry_after(tmp_path):
    with FakeOpenAI(fail_from=1, fail_count=1, status=500) as flaky, \
            FakeOpenAI(fail_from=2, fail_count=1, status=429, retry_after="1") as limited:
        cfg = tmp_path / "t.yaml"
        cfg.write_text(_yaml(flaky.base_url, limited.base_url)
                       .replace("timeout_s: 60, retries: 0", "timeout_s: 5, retries: 2, backoff_s: 0")
                       .replace("timeout_s: 1, retries: 1, backoff_s: 0", "timeout_s: 5, retries: 2")
                       .replace("timeout_s: 3,", "timeout_s: 20,"))
        out = run_cli("run", str(cfg), "--out", str(tmp_path / "run"), "-q", timeout=90)
    assert out.returncode == 0, out.stderr
    assert "HTTP 500" in out.stderr and "HTTP 429" in out.stderr and "in 1.0 s" in out.stderr
    assert not any(r["forfeit"] for r in _results(tmp_path / "run"))

"""Family 2 of issue 35, trust in stored scores: one rule for every command that reads a
run (rank, run, show, report, compare, analyze): a score record is used only if it was made from the
transcript as it is now (its ``transcript_sha256``); every command says the same thing about
what it ignored and why, and ``chatmatch run`` scores such a game again."""

from __future__ import annotations

import json

import pytest

from tests.reliability.helpers import run_cli, tournament_yaml

WHY = "scores/g001.json was not made from transcripts/g001.jsonl as it is now"


@pytest.fixture
def run(tmp_path):
    cfg = tmp_path / "t.yaml"
    cfg.write_text(tournament_yaml(bots=3, exchanges=3, concurrent=1, record_timings=False))
    out = tmp_path / "run"
    assert run_cli("run", str(cfg), "--out", str(out)).returncode == 0
    return cfg, out


def _edit_transcript(run_dir):
    path = run_dir / "transcripts" / "g001.jsonl"
    lines = path.read_text().splitlines()
    turn = json.loads(lines[-1])
    turn["text"] = "An entirely different last answer, written by hand?"
    path.write_text("\n".join([*lines[:-1], json.dumps(turn)]) + "\n")


def test_an_edited_transcript_is_not_ranked_shown_or_reported_on_its_old_scores(run):
    cfg, out = run
    games = json.loads(run_cli("rank", str(out), "--json").stdout)["games"]
    _edit_transcript(out)
    for args in (["rank", str(out)], ["show", str(out), "g001"], ["report", str(out)]):
        r = run_cli(*args)
        assert WHY in r.stderr, (args, r.stderr)
        assert "Traceback" not in r.stderr
    ranked = json.loads(run_cli("rank", str(out), "--json").stdout)
    assert ranked["games"] == games - 1
    shown = run_cli("show", str(out), "g001").stdout
    assert "An entirely different last answer" in shown and "[" not in shown.split("different")[1]
    r = run_cli("run", str(cfg), "--out", str(out))  # a resume scores it again from the text
    assert r.returncode == 0 and WHY in r.stderr
    again = run_cli("rank", str(out), "--json")
    assert json.loads(again.stdout)["games"] == games and "warning" not in again.stderr


def test_a_deleted_score_file_is_called_missing(run):
    _, out = run
    (out / "scores" / "g002.json").unlink()
    r = run_cli("rank", str(out))
    assert "scores/g002.json is missing or unreadable" in r.stderr, r.stderr
    assert "another run" not in r.stderr

"""The typed stage data against a run directory written before they were typed
(tests/data/old_run, made by tests/data/make_old_run.py at commit a42a87f): it loads, and
every record is written back byte for byte; a new run writes the same files as
tests/data/current_run (the same run written by today's code: ``PYTHONPATH=. python
tests/data/make_old_run.py --current`` after an intended change of a default the run uses;
it first differed from old_run when specificity's default became MATTR, issue 20; since
issue 35 its rankings are written at 6 significant digits, which are the same on every CPU,
so the byte comparison below holds on any machine)."""

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from chatmatch.cli import cli
from chatmatch.common.numbers import rounded
from chatmatch.records import (Forfeit, GameTally, IntervalStats, Manifest, PointsStats,
                              ScoreRecord, TrueSkillStats)
from chatmatch.rundir.store import RunDir, dumps, nan_to_none
from chatmatch.run.storedrun import Run
from tests.data.make_old_run import make

OLD = Path(__file__).parent / "data" / "old_run"
CURRENT = Path(__file__).parent / "data" / "current_run"


@pytest.fixture
def old(tmp_path):
    shutil.copytree(OLD, tmp_path / "old_run")
    return tmp_path / "old_run"


def test_old_run_loads_typed(old):
    run = Run.load(old)
    assert run.bots == ("ok", "plain", "bad") and run.seed == 3 and len(run.results) == 6
    assert run.manifest.expected_games == 6 and run.manifest.is_tournament
    assert [f.bot for f in run.forfeits] == ["bad"] and run.forfeits[0].games == ("g004", "g005", "g006")
    forfeited = [r for r in run.results if r.forfeit]
    assert all(isinstance(r.forfeit, Forfeit) and r.forfeited_by("bad") for r in forfeited)
    tr = run.transcripts()["g004"]
    assert tr.forfeit == Forfeit("bad", "RuntimeError: gave up (after 1 attempt(s))", "2")
    rec = run.scores("g004")
    assert rec is not None and rec.forfeit == tr.forfeit and not rec.dimensions
    rec = run.scores("g001")
    assert rec is not None and set(rec.dimensions) == {"proactivity", "specificity", "diversity"}
    assert rec.details()["proactivity"][0]["turn"] >= 1


def test_old_records_are_written_back_byte_for_byte(old):
    store = RunDir(old)
    raw = json.loads((old / "manifest.json").read_text())
    assert store.read_manifest().to_json() == raw
    assert Manifest.from_json({**raw, "future_key": 1}).to_json() == {**raw, "future_key": 1}
    for p in sorted((old / "scores").glob("*.json")):
        assert dumps(ScoreRecord.from_json(json.loads(p.read_text())).to_json()) + "\n" == p.read_text()
    lines = (old / "results.jsonl").read_text()
    store.rewrite_results(list(store.results().values()))
    assert (old / "results.jsonl").read_text() == lines


@pytest.mark.parametrize("method", ["trueskill", "points", "bt", "elo"])
def test_old_rankings_are_reproduced_with_typed_stats(old, method):
    run = Run.load(old)
    r = run.rank(method=method, expected_games=run.manifest.expected_games)
    # the old files hold every float digit; rankings are now written (and ranked) at
    # SIG_DIGITS significant digits, the digits that are the same on every CPU
    stored = json.loads((old / "rankings" / f"{method}.json").read_text())
    assert nan_to_none(r.to_json()) == {**stored, "ranking": rounded(stored["ranking"])}
    assert r.to_csv() == (old / "rankings" / f"{method}.csv").read_text()
    kind = {"trueskill": TrueSkillStats, "points": PointsStats, "bt": IntervalStats,
            "elo": IntervalStats}[method]
    assert all(isinstance(row.stats, kind) and isinstance(row.games, GameTally) for row in r.rows)
    assert {row.bot: row.games.forfeits for row in r.rows} == {"ok": 0, "plain": 0, "bad": 3}


def test_cli_readers_accept_the_old_run(old):
    for args in (["rank", str(old)], ["show", str(old)], ["show", str(old), "g004"],
                 ["report", str(old), "--out", str(old / "r.html")]):
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 0, (args, res.output)
    res = CliRunner().invoke(cli, ["show", str(old), "g004"])
    assert "winner: ok (forfeit: {'bot': 'bad', 'reason': 'RuntimeError: gave up" in res.output


def test_a_new_run_writes_the_same_files(tmp_path):
    new = make(tmp_path)
    files = sorted(p.relative_to(CURRENT) for p in CURRENT.rglob("*") if p.is_file())
    # the bots' exceptions: tracebacks with this machine's paths, not part of the record
    errors = [json.loads(x) for x in (new / "bot_errors.jsonl").read_text().splitlines()]
    assert [(e["bot"], e["game"]) for e in errors] == [("bad", g) for g in ("g004", "g005", "g006")]
    assert sorted(p.relative_to(new) for p in new.rglob("*")
                  if p.is_file() and p.name != "bot_errors.jsonl") == files
    for f in files:
        if f.name == "manifest.json":  # the history is stamped with the time
            a, b = (json.loads((d / f).read_text()) for d in (CURRENT, new))
            assert [{**e, "at": ""} for e in a.pop("history")] == \
                [{**e, "at": ""} for e in b.pop("history")]
            assert a == b
        elif f.name == "results.jsonl":  # lines now also record their scores file's sha256
            lines = [json.loads(x) for x in (new / f).read_text().splitlines()]
            for e in lines:
                scores = new / "scores" / f"{e['record']['game_id']}.json"
                assert e.pop("scores_sha256") == hashlib.sha256(scores.read_bytes()).hexdigest()
            assert [json.dumps(e, ensure_ascii=False, sort_keys=True) + "\n" for e in lines] == \
                (CURRENT / f).read_text().splitlines(keepends=True)
        else:
            assert (new / f).read_bytes() == (CURRENT / f).read_bytes(), f


FORMAT2 = Path(__file__).parent / "data" / "format2_run"


def test_a_format2_run_is_read_and_goes_on_without_rescoring(tmp_path):
    """tests/data/format2_run: tests/data/current_run as main 2764e24 wrote it (run directory
    format 2, no league digest). Readers accept it; `run` goes on with it: the manifest
    gets format 3 and its league digest, and no played game is touched. Its stored scores
    were made with proactivity's and specificity's earlier defaults, so they are scored
    again (and only those settings are named: the removed keys it recorded at their fixed
    values are not a change)."""
    from tests.data.make_old_run import CONFIG

    run = tmp_path / "old_run"
    shutil.copytree(FORMAT2, run)
    assert json.loads((run / "manifest.json").read_text())["format"] == 2
    for args in (["rank", str(run)], ["show", str(run), "g001"]):
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 0, (args, res.output)
    kept = {p.name: p.read_bytes() for p in (run / "transcripts").iterdir()
            if p.name in ("g001.jsonl", "g002.jsonl", "g003.jsonl")}
    (tmp_path / "old_run.yaml").write_text(CONFIG)
    res = CliRunner().invoke(cli, ["run", str(tmp_path / "old_run.yaml"), "--out", str(run), "-q"])
    assert res.exit_code == 0, res.output
    m = json.loads((run / "manifest.json").read_text())
    assert m["format"] == 3 and len(m["league_sha256"]) == 64
    rescored = [e for e in m["history"] if e["event"] == "rescored"]
    assert [sorted(e.get("settings_changed", [])) for e in rescored] == [["proactivity", "specificity"]]
    assert {n: (run / "transcripts" / n).read_bytes() for n in kept} == kept

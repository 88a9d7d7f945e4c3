"""Files that never end or block (devices, named pipes, also behind symlinks) are refused
wherever chatmatch reads a file it did not write; descriptions JSON cannot hold are stored
as text; control characters in a log speaker or the tournament name, weights or limits
that would overflow are refused before any game."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from chatmatch.cli import cli
from chatmatch.config.tournament import load_config
from chatmatch.errors import ConfigError
from chatmatch.run.tournament import run_tournament
from chatmatch.rundir.store import RunDir
from tests.reliability.helpers import tournament_yaml


def _invoke(*args: str):
    res = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    base = tmp_path_factory.mktemp("fresh")
    cfg = base / "t.yaml"
    cfg.write_text(tournament_yaml(bots=2, exchanges=2))
    run_tournament(load_config(cfg), base / "run")
    return base / "run"


def _copy(finished: Path, tmp_path: Path) -> Path:
    import shutil
    shutil.copytree(finished, tmp_path / "run")
    return tmp_path / "run"


@pytest.mark.parametrize("name", ["results.jsonl", "manifest.json"])
def test_run_file_that_is_a_device_is_refused_not_read_for_ever(finished, tmp_path, name):
    run = _copy(finished, tmp_path)
    (run / name).unlink()
    os.symlink("/dev/zero", run / name)
    res = _invoke("rank", str(run))
    assert res.exit_code == 2
    assert f"{run / name}: cannot read (a device, not a regular file)" in res.stderr


def test_transcript_that_is_a_named_pipe_is_skipped(finished, tmp_path):
    run = _copy(finished, tmp_path)
    (run / "transcripts" / "g001.jsonl").unlink()
    os.mkfifo(run / "transcripts" / "g001.jsonl")
    store = RunDir(run)
    assert "g001" not in store.transcripts() and "g001" not in store.results()
    assert any("transcripts/g001.jsonl is a named pipe, not a regular file" in w
               for w in store.warnings), store.warnings
    res = _invoke("rank", str(run))  # the game's result line has no readable transcript
    assert res.exit_code == 0 and "ignored the result line of game g001" in res.stderr


def test_logs_folder_holding_a_named_pipe_and_dev_zero(tmp_path):
    d = tmp_path / "logs"
    d.mkdir()
    (d / "a.txt").write_text("A: hi there, how are you?\nB: fine, and you?\n")
    os.mkfifo(d / "pipe.txt")
    cfg = tmp_path / "s.yaml"
    cfg.write_text("scoring: {dimensions: [proactivity]}\n")
    res = _invoke("score", str(d), "--config", str(cfg), "-q", "--json")
    assert res.exit_code == 0 and len(json.loads(res.stdout)["games"]) == 1
    assert f"skipped {d / 'pipe.txt'}: cannot read the file: a named pipe, not a regular file" in res.stderr
    res = _invoke("score", "/dev/zero", "--config", str(cfg), "-q")
    assert res.exit_code == 2 and "/dev/zero: cannot read the file: a device, not a regular file" in res.stderr


def test_tournament_yaml_that_is_a_named_pipe_is_refused(tmp_path):
    os.mkfifo(tmp_path / "t.yaml")
    with pytest.raises(ConfigError, match="cannot read the file \\(a named pipe, not a regular file\\)"):
        load_config(tmp_path / "t.yaml")


def test_description_json_cannot_hold_is_stored_as_text(tmp_path, caplog):
    cfg = tmp_path / "t.yaml"
    cfg.write_text("exchanges: 2\nscoring: {dimensions: [proactivity]}\nbots:\n"
                   "  - {name: odd, adapter: 'tests.reliability.evilbots:OddDescription'}\n  - eliza\n")
    res = _invoke("run", str(cfg), "--out", str(tmp_path / "run"), "-q")
    assert res.exit_code == 0, res.output
    assert "bot 'odd': describe() returned values that are not JSON; stored as their text" in caplog.text
    desc = json.loads((tmp_path / "run" / "manifest.json").read_text())["bots_described"]["odd"]
    assert desc["obj"].startswith("<tests.reliability.evilbots._Opaque object")


def test_control_characters_in_a_log_speaker_are_refused(tmp_path):
    log = tmp_path / "chat.txt"
    log.write_text("A\x1b[2J: hello there\nB: hi\n")
    res = _invoke("score", "--strict", str(log))
    assert res.exit_code == 2
    assert "speaker name 'A\\x1b[2J' holds a control character (U+001B at position 2)" in res.stderr


def test_control_characters_in_the_tournament_name_are_refused(tmp_path):
    cfg = tmp_path / "t.yaml"
    cfg.write_text('name: "demo\\a"\nbots: [eliza, echo]\n')
    with pytest.raises(ConfigError, match=r"tournament name 'demo\\x07' holds a control character"):
        load_config(cfg)


def test_overflowing_weight_is_refused_before_any_game(tmp_path):
    cfg = tmp_path / "t.yaml"
    cfg.write_text("bots: [eliza, echo]\nscoring: {weights: {proactivity: 1e308}}\n")
    with pytest.raises(ConfigError, match="weight of proactivity must be at most 1,000,000"):
        load_config(cfg)


def test_escape_sequences_in_a_reply_are_shown_escaped(tmp_path):
    cfg = tmp_path / "t.yaml"
    cfg.write_text("exchanges: 2\nscoring: {dimensions: [proactivity]}\nbots:\n"
                   "  - {name: evil, adapter: 'tests.reliability.evilbots:Evil', "
                   "params: {where: reply, how: escape}}\n  - eliza\n")
    run_tournament(load_config(cfg), tmp_path / "run")
    assert "\\u001b]0;pwned" in (tmp_path / "run" / "transcripts" / "g001.jsonl").read_text()  # as sent
    res = _invoke("show", str(tmp_path / "run"), "g001")
    assert res.exit_code == 0 and "\x1b" not in res.stdout and "\x07" not in res.stdout
    assert "hello \\x1b[2J\\x1b]0;pwned\\x07 there" in res.stdout


def test_results_file_of_a_sparse_gigabyte_is_refused_and_a_huge_line_is_not_held(finished, tmp_path):
    run = _copy(finished, tmp_path)
    results = run / "results.jsonl"
    good = results.read_text()
    with open(results, "r+b") as fh:  # sparse: no disk space used
        fh.truncate(2**30 + 1)
    res = _invoke("rank", str(run))
    assert res.exit_code == 2 and "GiB, more than the 1 GiB a results file of a run can hold" in res.stderr
    results.write_text(good + "x" * (17 * 2**20) + "\n")  # one line of 17 MiB after the good ones
    store = RunDir(run)
    assert len(store.results()) == len(good.splitlines())
    assert any(f":{len(good.splitlines()) + 1}: ignored a damaged result line (a line of more than 16 MiB)" in w
               for w in store.warnings), store.warnings


@pytest.mark.parametrize("block, problem", [
    ("failures: {timeout_s: 1e308}", "failures.timeout_s: Input should be less than or equal to 604800"),
    ("exchanges: 100000", "exchanges: Input should be less than or equal to 5000"),
])
def test_limits_that_would_overflow_a_timer_or_the_scorers_are_refused(tmp_path, block, problem):
    cfg = tmp_path / "t.yaml"
    cfg.write_text(f"bots: [eliza, echo]\n{block}\n")
    with pytest.raises(ConfigError, match=problem):
        load_config(cfg)

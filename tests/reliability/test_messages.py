"""Family 7 of issue 23: messages that misled now say what is wrong (the two-document YAML
and Ctrl-C while starting are in test_bounds.py)."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

from click.testing import CliRunner

from chatmatch.cli import cli
from chatmatch.config.tournament import load_config
from chatmatch.run.tournament import run_tournament
from tests.reliability.helpers import tournament_yaml


def _invoke(*args: str):
    res = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in res.output and (res.exception is None or isinstance(res.exception, SystemExit))
    return res


def test_gzip_log_is_called_a_gzip_file(tmp_path):
    f = tmp_path / "chat.txt.gz"
    f.write_bytes(gzip.compress(b"a: hi\nb: hello\n"))
    res = _invoke("score", "--strict", str(f))
    assert res.exit_code == 2
    assert (f"error: {f}: a gzip-compressed file, not a text log; unpack it first "
            "(gunzip chat.txt.gz) and give the unpacked file(s)") in res.stderr


def test_symlink_loop_is_called_a_loop(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    os.symlink(b, a)
    os.symlink(a, b)
    res = _invoke("score", "--strict", str(a))
    assert res.exit_code == 2
    assert f"error: {a}: a symbolic link loop" in res.stderr and "no such file" not in res.stderr


def test_out_into_a_folder_with_another_tools_manifest_is_left_alone(tmp_path):
    folder = tmp_path / "webapp"
    folder.mkdir()
    (folder / "manifest.json").write_text('{"name": "my app", "icons": []}')
    before = sorted(p.name for p in folder.iterdir())
    cfg = tmp_path / "t.yaml"
    cfg.write_text(tournament_yaml(bots=2, exchanges=2))
    res = _invoke("run", str(cfg), "--out", str(folder), "-q")
    assert res.exit_code == 2
    assert (f"error: {folder}: its manifest.json was not written by chatmatch") in res.stderr
    assert "delete" not in res.stderr
    assert sorted(p.name for p in folder.iterdir()) == before  # no .lock, nothing written


def test_our_own_manifest_still_resumes(tmp_path):
    cfg = tmp_path / "t.yaml"
    cfg.write_text(tournament_yaml(bots=2, exchanges=2))
    run_tournament(load_config(cfg), tmp_path / "run")
    assert "play_fingerprint" in json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert _invoke("run", str(cfg), "--out", str(tmp_path / "run"), "-q").exit_code == 0


def _two_bot_run(tmp_path: Path) -> Path:
    cfg = tmp_path / "t.yaml"
    cfg.write_text(tournament_yaml(bots=3, exchanges=2))
    run_tournament(load_config(cfg), tmp_path / "run")
    return tmp_path / "run"


def test_csv_with_two_rank_columns_is_refused(tmp_path):
    run = _two_bot_run(tmp_path)
    h = tmp_path / "h.csv"
    h.write_text("bot,rank,rank\nbot0,1,3\nbot1,2,2\nbot2,3,1\n")
    res = _invoke("compare", str(run), "--human", str(h))
    assert res.exit_code == 2
    assert f"error: {h}:1: column(s) 'rank' appear more than once in the header" in res.stderr


def test_analyze_on_three_bots_does_not_blame_an_option_never_given(tmp_path):
    run = _two_bot_run(tmp_path)
    h = tmp_path / "h.yaml"
    h.write_text("ranking: {bot0: 1, bot1: 2, bot2: 3}\n")
    res = _invoke("analyze", str(run), "--human", str(h), "--only", "subsets", "-q")
    assert res.exit_code == 0, res.output
    assert "--subset-size" not in res.output
    assert "All 1 subsets of 3 bots" in res.stdout
    given = _invoke("analyze", str(run), "--human", str(h), "--only", "subsets", "-k", "4", "-q")
    assert given.exit_code == 2 and "--subset-size 4: need 2 <= k <= 3" in given.stderr

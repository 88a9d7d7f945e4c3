"""Family 2 of issue 23: ``chatmatch score`` reads every game once, or says why not. A
chatmatch run directory inside the logs folder (e.g. an earlier ``score --out``) is skipped
with a warning; a file reached twice (a symlink, a folder given twice) is read once; two
files with one game id are refused; a folder that cannot be read is reported; ``--strict``
refuses turn indices out of order."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from chatmatch.cli import cli

CFG = "scoring:\n  dimensions: [proactivity]\nranking: {method: points}\n"
A = "alice: What did you do last week?\nbob: I went to Paris.\nalice: Did you like it?\nbob: Yes.\n"
B = "carol: Hi?\ndave: Hello there, friend.\ncarol: How are you?\ndave: Fine.\n"


def _logs(tmp_path: Path) -> Path:
    d = tmp_path / "logs"
    d.mkdir()
    (d / "a.txt").write_text(A)
    (d / "b.txt").write_text(B)
    (tmp_path / "cfg.yaml").write_text(CFG)
    return d


def _score(tmp_path: Path, *args: str):
    res = CliRunner().invoke(cli, ["score", *args, "--config", str(tmp_path / "cfg.yaml"), "--json", "-q"])
    return res, (json.loads(res.stdout) if res.exit_code == 0 else None)


def test_own_out_run_inside_the_logs_folder_is_not_read_back(tmp_path):
    d = _logs(tmp_path)
    first, doc = _score(tmp_path, str(d), "--out", str(d / "scored"))
    assert first.exit_code == 0 and len(doc["games"]) == 2
    again, doc = _score(tmp_path, str(d))
    assert again.exit_code == 0, again.output
    assert len(doc["games"]) == 2
    assert f"skipped {d / 'scored'}: a chatmatch run directory" in again.stderr


def test_symlink_to_a_log_in_the_same_tree_counts_once(tmp_path):
    d = _logs(tmp_path)
    (d / "sub").mkdir()
    os.symlink(d / "a.txt", d / "sub" / "link.txt")
    res, doc = _score(tmp_path, str(d), str(d / "b.txt"))
    assert res.exit_code == 0, res.output
    assert len(doc["games"]) == 2


def test_two_files_with_one_game_id_are_refused_even_without_strict(tmp_path):
    d = _logs(tmp_path)
    (d / "a.log").write_text(B)
    res, _ = _score(tmp_path, str(d))
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output
    assert "a.txt" in res.stderr and "a.log" in res.stderr and "same game id" in res.stderr


def test_unreadable_subfolder_is_reported(tmp_path, monkeypatch):
    d = _logs(tmp_path)
    locked = d / "locked"
    locked.mkdir()
    (locked / "c.txt").write_text(B.replace("carol", "erin"))
    locked.chmod(0)
    if os.geteuid() == 0:  # root reads every folder: fail the listing as the OS would
        real_scandir = os.scandir

        def scandir(path):
            if Path(path) == locked:
                raise PermissionError(13, "Permission denied", str(path))
            return real_scandir(path)
        monkeypatch.setattr(os, "scandir", scandir)
    try:
        res, doc = _score(tmp_path, str(d))
        assert res.exit_code == 0 and len(doc["games"]) == 2
        assert f"skipped {locked}: cannot read the folder" in res.stderr
        strict, _ = _score(tmp_path, str(d), "--strict")
        assert strict.exit_code == 2 and "cannot read the folder" in strict.stderr
    finally:
        locked.chmod(0o755)


def test_strict_refuses_turn_indices_out_of_order(tmp_path):
    _logs(tmp_path)
    f = tmp_path / "t.jsonl"
    f.write_text("\n".join([
        '{"type": "game", "game_id": "x1", "players": ["A", "B"]}',
        '{"type": "turn", "index": 0, "speaker": "A", "text": "Hi"}',
        '{"type": "turn", "index": 2, "speaker": "A", "text": "Where?"}',
        '{"type": "turn", "index": 1, "speaker": "B", "text": "Hello"}']) + "\n")
    res, _ = _score(tmp_path, "--strict", str(f))
    assert res.exit_code == 2, res.output
    assert f"{f}:3: turn index 2 out of order (expected 1)" in res.stderr

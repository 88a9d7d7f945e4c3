"""Family 8 of issue 35, messages: each says what is wrong with what the user gave (the
byte-order mark and the 10 MB seed are in test_special_files.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from chatmatch.adapters import create_bot
from chatmatch.bot import Bot
from chatmatch.errors import BotError
from chatmatch.run.importers import discover
from tests.reliability.helpers import run_cli, tournament_yaml


class Broken(Bot):
    def __init__(self, name: str) -> None:
        raise ValueError("model folder missing")


def test_a_constructor_that_raises_without_parameters_is_not_called_bad_parameters():
    with pytest.raises(BotError) as err:
        create_bot("b", f"{__name__}:Broken")
    assert "bad parameters" not in str(err.value)
    assert "its constructor failed with no parameters given (ValueError: model folder missing)" \
        in str(err.value)


def test_the_changed_message_shows_where_two_long_values_differ(tmp_path):
    long = "What did you do last weekend at the lake with your {} and the dog?"
    cfg = tmp_path / "t.yaml"
    for who, code in (("friends", 0), ("family", 2)):
        text = tournament_yaml(bots=2, exchanges=2).replace(
            "seed_utterance: ['What did you do last week?', 'Hello there!']",
            f"seed_utterance: ['{long.format(who)}']")
        cfg.write_text(text)
        r = run_cli("run", str(cfg), "--out", str(tmp_path / "run"))
        assert r.returncode == code, r.stderr
    line = r.stderr.split("changed: ")[1].split(")")[0]
    old, new = line.split(" -> ")
    assert old != new and "friends" in old and "family" in new, line


def test_validate_with_a_missing_dstc9_folder_names_the_option_given():
    r = run_cli("validate", "--datasets", "dstc9", "--dstc9", "/missing", timeout=300)
    assert r.returncode == 2 and "/missing: DSTC9 folder not found" in r.stdout + r.stderr
    assert "or pass --dstc9" not in r.stdout + r.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder")
def test_an_unreadable_sub_folder_of_logs_is_reported_as_such(tmp_path):
    (tmp_path / "logs" / "locked").mkdir(parents=True)
    (tmp_path / "logs" / "a.txt").write_text("A: hi\nB: hello\n")
    (tmp_path / "logs" / "locked").chmod(0)
    try:
        errors: list = []
        files = list(discover([tmp_path / "logs"], errors, strict=False))
    finally:
        (tmp_path / "logs" / "locked").chmod(0o755)
    assert [f.name for f in files] == ["a.txt"]
    assert any("locked" in str(e) and "cannot read the folder" in str(e) for e in errors)
    assert not any("manifest.json" in str(e) for e in errors)


def test_a_folder_that_cannot_be_looked_into_is_not_a_run_directory(tmp_path, monkeypatch):
    """What root cannot see: the run-directory check on a folder whose entries cannot be
    stat'ed (EACCES) answers no, and the folder is listed (or reported) as logs."""
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "a.txt").write_text("A: hi\nB: hello\n")
    real = Path.is_file

    def denied(self: Path) -> bool:
        if self.name == "manifest.json":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "is_file", denied)
    errors: list = []
    assert [f.name for f in discover([tmp_path / "logs"], errors, strict=True)] == ["a.txt"]

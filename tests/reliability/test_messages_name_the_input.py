"""Messages say what is wrong with what the user gave (the byte-order mark and the 10 MB
seed are in test_special_files.py): a bot constructor that raises, a changed value, a
missing or wrong DSTC9 folder, an unreadable sub-folder of logs, a dataset README that
exists from any folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from chatmatch.adapters import create_bot
from chatmatch.bot import Bot
from chatmatch.errors import BotError
from chatmatch.run.importers import discover
from tests.reliability.helpers import cli_env, run_cli, tournament_yaml


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


def test_validate_given_a_file_for_dstc9_says_it_is_a_file(tmp_path):
    """Issue 35 (8h): a FILE given to --dstc9 was called a missing folder."""
    f = tmp_path / "chatbot1.json"
    f.write_text("[]")
    r = run_cli("validate", "--datasets", "dstc9", "--dstc9", str(f), timeout=300)
    assert r.returncode != 0 and "Traceback" not in r.stderr
    line = r.stderr.strip().splitlines()[-1]
    assert f"{f}: is a file, not a folder; give --dstc9 the folder holding chatbot1.json" in line
    assert f"(e.g. {tmp_path};" in line and "not found" not in line


def test_validate_points_to_a_readme_that_exists_from_any_folder(tmp_path, monkeypatch):
    """Issue 35 (8g): the message said "see ../shared/data/dstc9/README.md", a path relative
    to a folder the user may not be in; now an absolute path to a README that exists (the
    dataset's own, in the data folder), or the documentation page."""
    from chatmatch.validity.datasets.datahelp import data_help

    data = tmp_path / "data"
    (data / "dstc9").mkdir(parents=True)
    (data / "dstc9" / "README.md").write_text("# DSTC9\n")
    r = run_cli("validate", "--datasets", "dstc9", "--dstc9", str(data / "dstc9" / "none"),
                timeout=300, env=cli_env(CHATMATCH_DATA=str(data)))
    said = r.stderr.strip().splitlines()[-1]
    assert f"see {(data / 'dstc9' / 'README.md').resolve()}" in said, said
    assert "../shared" not in said
    (data / "dstc9" / "README.md").unlink()
    monkeypatch.setenv("CHATMATCH_DATA", str(data))  # not ../shared/data beside a checkout
    assert "docs/validity.md" in data_help("dstc9", data / "dstc9")

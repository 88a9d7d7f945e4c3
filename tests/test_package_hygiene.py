"""The package carries no history and no default outside the repository: no "issue N",
"issue #N" or "stop N" reference in chatmatch/ or chatmatch_bots/ (say what is true
instead), no '../shared' path; and without --data or $CHATMATCH_DATA the lab says which
to set instead of reading a folder beside the checkout."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from chatmatch.cli import cli
from chatmatch.validity.datasets.datahelp import DATA_ENV, DataFolderMissing, data_dir

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(p for pkg in ("chatmatch", "chatmatch_bots") for p in (ROOT / pkg).rglob("*.py"))
HISTORY = re.compile(r"\b(issues? ?#?\d+|stop ?#?\d+|attack ?\d+|hardening round)\b", re.I)


def test_the_sources_are_found():
    assert len(SOURCES) > 100


@pytest.mark.parametrize("pattern,what", [(HISTORY, "a history reference"),
                                          (re.compile(r"\.\./shared|[\"']shared[\"'] */ *[\"']data"),
                                           "a path outside the repository")])
def test_no_history_or_outside_path_in_the_package(pattern: re.Pattern[str], what: str):
    found = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
             for p in SOURCES for i, line in enumerate(p.read_text().splitlines(), 1)
             if pattern.search(line)]
    assert not found, f"{what}:\n" + "\n".join(found)


def test_no_data_folder_is_an_error_naming_the_flag_and_the_variable(monkeypatch, tmp_path):
    monkeypatch.delenv(DATA_ENV, raising=False)
    with pytest.raises(DataFolderMissing, match=r"--data DIR or set CHATMATCH_DATA"):
        data_dir(None)
    assert data_dir(tmp_path) == tmp_path
    monkeypatch.setenv(DATA_ENV, str(tmp_path))
    assert data_dir(None) == tmp_path


def test_validate_without_a_data_folder_says_what_to_set(monkeypatch, tmp_path):
    monkeypatch.delenv(DATA_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, ["validate", "--datasets", "fed"])
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "--data DIR or set CHATMATCH_DATA" in res.output, res.output


def test_learn_train_without_a_data_folder_says_what_to_set(monkeypatch, capsys):
    from chatmatch.validity.training.train import main

    monkeypatch.delenv(DATA_ENV, raising=False)
    assert main(["--datasets", "fed"]) == 2
    assert "--data DIR or set CHATMATCH_DATA" in capsys.readouterr().err

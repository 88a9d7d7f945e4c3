"""An interrupted ``chatmatch score --out`` says "run the same command again": the folder
is written into a hidden sibling and renamed into place whole, so that command works; an
unfinished folder left by an older version is named as such by ``rank``, not taken for a
tournament run whose tournament file is wanted."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from chatmatch.config.settings import EvalSettings
from chatmatch.errors import RunDirError
from chatmatch.rundir.store import RunDir
from chatmatch.run import scorelogs

LOG = "A: Hello there, how was your week?\nB: Busy. I went hiking in the Alps.\n" \
      "A: Which mountain did you climb?\nB: The Matterhorn, nearly.\n"

CFG = EvalSettings.model_validate({"scoring": {"dimensions": ["proactivity", "specificity"]},
                                   "ranking": {"method": "points"}})


def _logs(tmp_path: Path) -> Path:
    logs = tmp_path / "logs"
    logs.mkdir()
    for i in range(3):
        (logs / f"chat{i}.txt").write_text(LOG)
    return logs


def test_stopped_while_writing_leaves_nothing_and_the_same_command_works(tmp_path, monkeypatch):
    logs, out = _logs(tmp_path), tmp_path / "out"
    real = scorelogs.save_rankings

    def stop(*args, **kwargs):  # Ctrl-C once the games are written, before the rankings
        raise KeyboardInterrupt
    monkeypatch.setattr(scorelogs, "save_rankings", stop)
    with pytest.raises(KeyboardInterrupt):
        scorelogs.score_logs([logs], CFG, out_dir=out)
    assert not out.exists() and list(tmp_path.iterdir()) == [logs]  # no half folder, no debris
    monkeypatch.setattr(scorelogs, "save_rankings", real)
    scorelogs.score_logs([logs], CFG, out_dir=out)  # the same command again
    assert RunDir(out).read_manifest().expected_games == 3
    assert sorted(p.name for p in (out / "transcripts").iterdir()) == ["chat0.jsonl", "chat1.jsonl", "chat2.jsonl"]  # each game keeps its source's name


def test_an_empty_out_folder_is_filled_and_a_full_one_refused(tmp_path):
    logs, out = _logs(tmp_path), tmp_path / "out"
    out.mkdir()
    scorelogs.score_logs([logs], CFG, out_dir=out)
    assert (out / "manifest.json").is_file()
    with pytest.raises(RunDirError, match="already exists and is not empty"):
        scorelogs.score_logs([logs], CFG, out_dir=out)


def test_rank_names_an_unfinished_score_folder(tmp_path):
    logs, out = _logs(tmp_path), tmp_path / "out"
    scorelogs.score_logs([logs], CFG, out_dir=out)
    half = tmp_path / "half"
    shutil.copytree(out, half)
    (half / "manifest.json").unlink()
    with pytest.raises(RunDirError) as err:
        RunDir(half).read_manifest()
    msg = str(err.value)
    assert "unfinished `chatmatch score --out` folder" in msg and "tournament file" not in msg

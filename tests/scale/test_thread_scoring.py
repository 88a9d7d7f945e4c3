"""The local executor scores in a thread beside play (chatmatch.executors.thread_scoring):
the run directory is byte for byte the one scoring in the play thread writes, and a
scorer's error still stops the run with its message."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from chatmatch.executors import thread_scoring
from chatmatch.run.playtable import GameScorer
from chatmatch.run.tournament import run_tournament
from tests.scale.common import make_cfg, ranking_file, transcript_files


def run_files(run: Path) -> dict[str, str]:
    files = {p.name: p.read_text() for p in sorted((run / "scores").glob("*.json"))}
    files["results.jsonl"] = (run / "results.jsonl").read_text()
    return files


def test_scoring_beside_play_writes_what_scoring_in_line_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []
    real = thread_scoring.score_games

    def spy(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(thread_scoring, "score_games", spy)
    extra = "concurrent_games: 3\n"
    beside = run_tournament(make_cfg(tmp_path, "beside", extra=extra))
    assert beside.games_scored == 12 and threads and all(
        t.startswith("chatmatch-scoring") for t in threads)
    monkeypatch.setattr(GameScorer, "beside_play", lambda self: None)  # scored in the play thread
    inline = run_tournament(make_cfg(tmp_path, "inline", extra=extra))
    assert inline.games_scored == 12
    a, b = tmp_path / "beside", tmp_path / "inline"
    assert transcript_files(a) == transcript_files(b)
    assert run_files(a) == run_files(b) and ranking_file(a) == ranking_file(b)


def test_a_scorer_error_in_the_scoring_thread_stops_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("scorer exploded")

    monkeypatch.setattr(thread_scoring, "score_games", broken)
    with pytest.raises(RuntimeError, match="scorer exploded"):
        run_tournament(make_cfg(tmp_path, "run", extra="concurrent_games: 3\n"))
    stored = list((tmp_path / "run" / "transcripts").glob("*.jsonl"))
    assert stored  # the games played are kept: a resume scores them
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["name"] == "scale"

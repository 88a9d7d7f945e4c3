"""Scoring on Ray workers (chatmatch.executors.ray_scoring) on a local Ray instance with 2
scoring workers: the driver computes no score, the run directory is the local run's, and a
worker killed mid-run loses nothing (Ray restarts it and sends its games again, or the
driver scores them when it cannot come back)."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from chatmatch.executors import ray_scoring
from chatmatch.run import pipeline, tournament
from chatmatch.run.tournament import run_tournament
from tests.scale.common import make_cfg, ranking_file, transcript_files

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'chatmatch[ray]')")

WORKERS = "executor: ray\nconcurrent_games: 4\nray: {scorers: 2, cpus_per_scorer: 0.5}\n"


@pytest.fixture(scope="module", autouse=True)
def ray_instance() -> Any:
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def local_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("local")
    run_tournament(make_cfg(tmp, "run", extra="concurrent_games: 4\n"))
    return tmp / "run"


def scores(run: Path) -> dict[str, Any]:
    """Every game's score record (its file), by game."""
    return {p.name: json.loads(p.read_text()) for p in sorted((run / "scores").glob("*.json"))}


def results(run: Path) -> list[str]:
    return sorted((run / "results.jsonl").read_text().splitlines())


def no_driver_scoring(monkeypatch: pytest.MonkeyPatch) -> None:
    """The driver refuses to compute a score: every score must come from a worker."""
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a game was scored in the driver")

    monkeypatch.setattr(pipeline, "score_games", refuse)
    monkeypatch.setattr(ray_scoring, "score_games", refuse)


def killing(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The scoring workers' process ids, recorded when the pool starts."""
    pids: list[int] = []
    real = tournament.start_scoring

    def start(*args: Any, **kwargs: Any) -> Any:
        pool = real(*args, **kwargs)
        pids.extend(ray.get([a.pid.remote() for a in pool.actors]))
        return pool

    monkeypatch.setattr(tournament, "start_scoring", start)
    return pids


def test_a_ray_run_scores_on_the_workers_and_writes_the_local_run(
        tmp_path: Path, local_run: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    no_driver_scoring(monkeypatch)
    s = run_tournament(make_cfg(tmp_path, "run", extra=WORKERS))
    assert s.games_played == 12 and s.games_scored == 12
    run = tmp_path / "run"
    assert transcript_files(run) == transcript_files(local_run)
    assert scores(run) == scores(local_run) and results(run) == results(local_run)
    assert ranking_file(run) == ranking_file(local_run)
    assert ranking_file(run, "points") == ranking_file(local_run, "points")


def test_a_worker_killed_mid_run_loses_nothing(tmp_path: Path, local_run: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    pids = killing(monkeypatch)

    def progress(done: int, total: int) -> None:
        if done == 4:  # the first chunk was just sent: kill both workers under it
            for pid in pids:
                os.kill(pid, signal.SIGKILL)

    s = run_tournament(make_cfg(tmp_path, "run", extra=WORKERS), progress=progress)
    assert len(pids) == 2 and s.games_scored == 12
    run = tmp_path / "run"
    assert scores(run) == scores(local_run) and results(run) == results(local_run)
    assert ranking_file(run) == ranking_file(local_run)


def test_a_worker_that_cannot_come_back_is_replaced_by_the_driver(
        tmp_path: Path, local_run: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ray_scoring, "MAX_RESTARTS", 0)  # a killed worker stays dead
    pids = killing(monkeypatch)
    rescored: list[int] = []
    real_close = ray_scoring.RayScoring.close

    def close(self: ray_scoring.RayScoring) -> None:
        rescored.append(self.rescored)
        real_close(self)

    monkeypatch.setattr(ray_scoring.RayScoring, "close", close)

    def progress(done: int, total: int) -> None:
        if done == 4:
            for pid in pids:
                os.kill(pid, signal.SIGKILL)

    s = run_tournament(make_cfg(tmp_path, "run", extra=WORKERS), progress=progress)
    assert s.games_scored == 12 and rescored and rescored[0] >= 1
    run = tmp_path / "run"
    assert scores(run) == scores(local_run) and ranking_file(run) == ranking_file(local_run)


def test_a_scorer_error_on_a_worker_is_the_scorer_error(tmp_path: Path) -> None:
    from chatmatch.scoring.config import ScoringConfig
    from chatmatch.runtime.errors import ScoringError

    cfg = make_cfg(tmp_path, "run", extra=WORKERS)
    bad = ScoringConfig(dimensions=["fluency"], params={"fluency": {"model": str(tmp_path / "none")}})
    with pytest.raises(ScoringError, match="sentence|model"):
        run_tournament(cfg.model_copy(update={"scoring": bad}))


def test_chatmatch_score_on_ray_workers_gives_the_local_scores(
        tmp_path: Path, local_run: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from chatmatch.cli import cli

    config = tmp_path / "scoring.yaml"
    config.write_text("scoring: {dimensions: [proactivity, specificity, diversity]}\n")

    def score(*extra: str) -> Any:
        res = CliRunner().invoke(cli, ["score", str(local_run / "transcripts"), "--config",
                                       str(config), "--json", "-q", *extra], catch_exceptions=False)
        assert res.exit_code == 0, res.output
        return json.loads(res.output)

    here = score()
    no_driver_scoring(monkeypatch)
    assert score("--executor", "ray", "--workers", "2") == here

"""More Ray scoring workers than the cluster holds (``--workers 1000``, ``ray: {scorers:
1000}`` on a 2-core machine) waited for ever at "loading the scorers": the one place that
starts them (``start_scoring``) refuses the count first, naming both settings."""

from __future__ import annotations

from typing import Any

import pytest

from chatmatch.config.settings import RayConfig
from chatmatch.errors import ChatmatchError
from chatmatch.executors import ray_scoring
from chatmatch.executors.ray_scoring import check_fits
from chatmatch.scoring.config import ScoringConfig


def test_a_count_beyond_the_cpus_is_refused():
    with pytest.raises(ChatmatchError) as err:
        check_fits({"CPU": 2.0}, RayConfig(scorers=1000), 1000)
    msg = str(err.value)
    assert "1000 Ray scoring workers" in msg and "2 CPU(s)" in msg and "at most 2" in msg
    assert "ray.scorers" in msg and "--workers" in msg
    check_fits({"CPU": 2.0}, RayConfig(scorers=2), 2)  # fits


def test_cpus_and_gpus_per_worker_count():
    with pytest.raises(ChatmatchError, match="at most 2"):
        check_fits({"CPU": 8.0}, RayConfig(cpus_per_scorer=4.0), 3)
    with pytest.raises(ChatmatchError, match="at most 1 "):
        check_fits({"CPU": 8.0, "GPU": 1.0}, RayConfig(gpus_per_scorer=1.0), 2)
    check_fits({"CPU": 2.0}, RayConfig(cpus_per_scorer=0.0), 2)  # 0: one process a CPU still


class _FakeRay:
    """Ray as far as start_scoring uses it before the workers exist."""

    def __init__(self) -> None:
        self.shut = False

    def is_initialized(self) -> bool:
        return False

    def init(self, **kw: Any) -> None:
        pass

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 2.0}

    def remote(self, cls: Any) -> Any:
        raise AssertionError("no worker may be started")

    def shutdown(self) -> None:
        self.shut = True


def test_start_scoring_refuses_before_starting_a_worker(monkeypatch):
    fake = _FakeRay()
    monkeypatch.setattr("chatmatch.executors.ray_executor.import_ray", lambda: fake)
    with pytest.raises(ChatmatchError, match="at most 2"):
        ray_scoring.start_scoring(ScoringConfig(), RayConfig(scorers=1000), 1000, [])
    assert fake.shut  # the Ray it started is stopped again

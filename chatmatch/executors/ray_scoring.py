"""Scoring on Ray workers (``executor: ray``, ``ray.scorers`` > 0; ``chatmatch score
--executor ray``).

Each scoring worker is a Ray actor that builds the scorers from the run's ``scoring``
section and loads their models once (spaCy, the sentence embedder, the fluency LM: with
``ray.gpus_per_scorer`` and GPUs in the cluster the actor reserves that GPU fraction, and
the LM's ``device: auto`` puts it there). The driver sends each chunk of finished games
(``concurrent_games`` of them, as a local run scores them) to the next worker in turn and
goes on playing; it receives each chunk's per-dimension scores and writes them through
the run directory itself, in the order the chunks were sent, so the run directory has one
writer and the same bytes as a local run's.

A worker that dies (a killed process, a lost node) is restarted by Ray and its chunks are
sent again (``max_restarts``/``max_task_retries``); a chunk whose worker cannot be brought
back is scored in the driver instead. A game is never lost and never scored from half a
result. A scorer's own error (a bad setting) is raised as it is, as in a local run.

The workers share the machine's perplexity and embedding caches (SQLite in WAL mode: any
number of readers and writers at once) with each other and with later runs.
"""

from __future__ import annotations

import os
import sys
from collections import deque
from typing import Any, Callable, Mapping, Sequence

from chatmatch.config.settings import RayConfig
from chatmatch.executors.base import ExecutorError
from chatmatch.progress import Reporter
from chatmatch.records import DimensionScore
from chatmatch.runtime.settings import DEFAULT_RUNTIME, RuntimeSettings
from chatmatch.scoring.base import Scorer
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.engine import load_scorers, score_games
from chatmatch.transcript import Transcript
from chatmatch.scoring.build import build_scorers

Dims = list[dict[str, DimensionScore]]
#: how often Ray restarts a dead scoring worker before its chunks go to the driver
MAX_RESTARTS = 3


class _ScorerHost:
    """The actor body: the scorers of a ``scoring`` section, loaded once."""

    def __init__(self, scoring: ScoringConfig, sys_path: list[str],
                 runtime: RuntimeSettings = DEFAULT_RUNTIME) -> None:
        for p in sys_path:
            if p not in sys.path:
                sys.path.append(p)
        self.error: Exception | None = None
        self.scorers: list[Scorer] = []
        try:  # kept for the driver: an actor that fails to start gives no reason with it
            self.scorers = build_scorers(scoring, runtime)
            load_scorers(self.scorers)
        except Exception as exc:  # noqa: BLE001 - raised again by pid() and score()
            self.error = exc

    def pid(self) -> int:
        """The worker's process id, once its scorers are loaded (or their load error)."""
        if self.error is not None:
            raise self.error
        return os.getpid()

    def score(self, games: list[Transcript]) -> Dims:
        if self.error is not None:
            raise self.error
        return score_games(games, self.scorers)


def needs_driver(scorers: Sequence[Scorer]) -> bool:
    """Whether a scorer keeps run-level records in the run directory (the model judges
    write RUN/judges/): those are scored in the driver, the one writer of the directory."""
    return any(type(s).bind_run_dir is not Scorer.bind_run_dir for s in scorers)


class RayScoring:
    """A pool of scoring workers; :meth:`submit` returns at once, :meth:`ready` gives the
    chunks scored so far, in the order they were sent, :meth:`drain` waits for all."""

    def __init__(self, ray: Any, scoring: ScoringConfig, rc: RayConfig, workers: int,
                 local: Callable[[list[Transcript]], Dims],
                 runtime: RuntimeSettings = DEFAULT_RUNTIME) -> None:
        self.ray, self.local = ray, local
        opts: dict[str, Any] = {"num_cpus": rc.cpus_per_scorer, "max_restarts": MAX_RESTARTS,
                                "max_task_retries": MAX_RESTARTS}
        if rc.gpus_per_scorer > 0 and float(ray.cluster_resources().get("GPU", 0.0)) > 0:
            opts["num_gpus"] = rc.gpus_per_scorer
        host = ray.remote(_ScorerHost).options(**opts)
        path = [os.path.abspath(p) for p in sys.path]
        self.actors = [host.remote(scoring, path, runtime) for _ in range(max(1, workers))]
        self.pending: deque[tuple[Any, list[Transcript], Any]] = deque()
        self.sent = 0
        self.rescored = 0  # chunks scored in the driver after their worker was lost
        self.owns_ray = False  # close() shuts Ray down

    def check(self) -> None:
        """Wait for every worker to load its scorers; a load error is raised here, once."""
        try:
            self.ray.get([a.pid.remote() for a in self.actors])
        except self.ray.exceptions.RayTaskError as exc:
            raise _cause(exc) from None

    def submit(self, games: Sequence[Transcript], tag: Any = None) -> None:
        """Send ``games`` to the next worker; ``tag`` comes back with their scores."""
        chunk = list(games)
        actor = self.actors[self.sent % len(self.actors)]
        self.sent += 1
        self.pending.append((actor.score.remote(chunk) if chunk else None, chunk, tag))

    def ready(self) -> list[tuple[Any, Dims]]:
        """``(tag, scores)`` of the chunks at the head of the queue that are scored (none
        waited for)."""
        out = []
        while self.pending and self._done(self.pending[0][0]):
            out.append(self._take())
        return out

    def _done(self, ref: Any) -> bool:
        return ref is None or bool(self.ray.wait([ref], timeout=0)[0])

    def drain(self) -> list[tuple[Any, Dims]]:
        """Every chunk sent, scored (waiting for them), in the order sent."""
        return [self._take() for _ in range(len(self.pending))]

    def next(self) -> tuple[Any, Dims]:
        """The oldest chunk sent, scored (waiting for it)."""
        return self._take()

    def close(self) -> None:
        """Stop the workers (and Ray, when :func:`start_scoring` started it)."""
        from chatmatch.executors.ray_executor import kill_actors

        kill_actors(self.ray, self.actors)
        self.actors = []
        if self.owns_ray:
            self.ray.shutdown()
            self.owns_ray = False

    def _take(self) -> tuple[Any, Dims]:
        ref, chunk, tag = self.pending.popleft()
        if ref is None:
            return tag, []
        try:
            return tag, list(self.ray.get(ref))
        except self.ray.exceptions.RayTaskError as exc:  # the scorer's own error
            raise _cause(exc) from None
        except self.ray.exceptions.RayError:  # the worker is gone for good: score it here
            self.rescored += 1
            return tag, self.local(chunk)


def check_fits(resources: Mapping[str, float], rc: RayConfig, workers: int) -> None:
    """Refuse more scoring workers than the Ray cluster (``resources``) can hold at once:
    Ray would wait for ever for CPUs (or GPUs) that never come free, and each worker holds
    the scorers' models in its own process, so no more than its CPUs either."""
    cpus = float(resources.get("CPU", 0.0))
    per = rc.cpus_per_scorer if rc.cpus_per_scorer > 0 else 1.0
    fit = int(cpus // per + 1e-9)
    if rc.gpus_per_scorer > 0 and float(resources.get("GPU", 0.0)) > 0:
        fit = min(fit, int(float(resources["GPU"]) // rc.gpus_per_scorer + 1e-9))
    if max(1, workers) > fit:
        raise ExecutorError(
            f"{workers} Ray scoring workers asked (ray.scorers in the YAML, --workers of "
            f"`chatmatch score`), but the Ray cluster has {cpus:g} CPU(s) "
            f"({per:g} for each worker, ray.cpus_per_scorer): at most {max(fit, 1)} can run "
            f"at once; ask for {max(fit, 1)} or fewer")


def start_scoring(scoring: ScoringConfig, rc: RayConfig, workers: int, scorers: Sequence[Scorer],
                  reporter: Reporter | None = None) -> RayScoring:
    """Ray started or joined (``rc``), ``workers`` scoring workers with their scorers
    loaded as ``scorers`` run (their ``runtime``); ``scorers`` (not loaded here) score a
    chunk whose worker was lost."""
    from chatmatch.executors.ray_executor import import_ray, start_ray

    ray = import_ray()
    owns = start_ray(ray, rc)
    try:
        check_fits(ray.cluster_resources(), rc, workers)
    except BaseException:
        if owns:
            ray.shutdown()
        raise
    runtime = scorers[0].runtime if scorers else DEFAULT_RUNTIME
    pool = RayScoring(ray, scoring, rc, workers, lambda games: score_games(games, scorers), runtime)
    pool.owns_ray = owns
    try:
        with (reporter or Reporter.off()).step(f"loading the scorers in {len(pool.actors)} Ray "
                                               "scoring worker(s)"):
            pool.check()
    except BaseException:
        pool.close()
        raise
    return pool


def _cause(exc: Any) -> Exception:
    cause = getattr(exc, "cause", None)
    return cause if isinstance(cause, Exception) else RuntimeError(str(exc).strip().splitlines()[-1])


__all__ = ["MAX_RESTARTS", "RayScoring", "check_fits", "needs_driver", "start_scoring"]

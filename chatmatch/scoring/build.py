"""The scorer objects of a ``scoring:`` block: :func:`build_scorers` turns the validated
settings (:class:`~chatmatch.scoring.config.ScoringConfig`, plain data) and the top-level
``runtime:`` block into one scorer per dimension."""

from __future__ import annotations

from chatmatch.runtime.settings import DEFAULT_RUNTIME, RuntimeSettings
from chatmatch.scoring.base import SCORERS, Scorer
from chatmatch.scoring.config import ScoringConfig


def build_scorers(scoring: ScoringConfig, runtime: RuntimeSettings = DEFAULT_RUNTIME) -> list[Scorer]:
    """One scorer per dimension of ``scoring``, in ``dimensions`` order (models load on
    first use), each running its models as ``runtime`` says."""
    scorers = [SCORERS.get(d)(scoring.scorer_params(d)) for d in scoring.dimensions]
    for scorer in scorers:
        scorer.runtime = runtime
        scorer.canned = scoring.canned
    return scorers


__all__ = ["build_scorers"]

"""The ``scoring:`` block of a tournament YAML::

    scoring:
      dimensions: [fluency, knowledge, proactivity, specificity, diversity, consistency, relevance]
      weights: {diversity: 1, fluency: 0}     # a weight 0 is the paper's "minus x" ablation
      params:
        fluency: {backend: ngram}
        diversity: {sigma_r: 0.9}
      canned: true                            # stock lines said in every game are degenerate

Every name is checked against the scorer registry and every ``params`` block against that
scorer's ``Params`` model before any bot runs (:func:`chatmatch.common.params.
validate_params`, as a bot's: the error names the parameter and points at its line). A
removed parameter is refused with what to write instead (:mod:`chatmatch.scoring.removed`).
Every other scorer that reads repetitions (consistency, and the scorers that leave them
out) follows diversity's ``sigma_r`` (they must agree on what a repetition is). How the
models run (engine, device, batches, processes, threads) is the top-level ``runtime:``
block (:class:`chatmatch.runtime.settings.RuntimeSettings`), given to
:func:`chatmatch.scoring.build.build_scorers`.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import ConfigDict, Field, field_validator, model_validator

from chatmatch.common.params import ParamsProblem, problem_text, validate_params
from chatmatch.common.registry import UnknownNameError
from chatmatch.common.validation import StrictModel
from chatmatch.scoring.base import DIMENSIONS, SCORERS, FollowsSigmaR, ScorerParams
from chatmatch.scoring.removed import removed_message


def _known(name: str) -> str:
    try:
        SCORERS.get(name)
    except UnknownNameError as exc:
        raise ValueError(str(exc)) from None
    return name


class ScoringConfig(StrictModel):
    """Which dimensions judge a game, their weights and their parameters."""

    # NaN and infinity reach the validators: _weights_ok refuses them with the weight's
    # name (params: each ScorerParams model refuses them)
    model_config = ConfigDict(allow_inf_nan=True)

    dimensions: list[str] = Field(default_factory=lambda: list(DIMENSIONS))
    weights: dict[str, float] = Field(default_factory=dict)
    params: dict[str, dict[str, Any]] = Field(default_factory=dict)
    #: count each bot's canned turns (its own words are stock phrases that come back in its
    #: other games whatever the partner says: :mod:`chatmatch.scoring.canned`) as degenerate;
    #: found across the games scored together (a run scores them all again once play
    #: ends). False in ``preset: paper``
    canned: bool = True

    @field_validator("dimensions")
    @classmethod
    def _dimensions_ok(cls, v: list[str]) -> list[str]:
        if not v:
            raise ValueError("list at least one dimension")
        dupes = sorted({d for d in v if v.count(d) > 1})
        if dupes:
            raise ValueError(f"dimension(s) listed twice: {', '.join(dupes)}")
        return [_known(d) for d in v]

    @field_validator("weights")
    @classmethod
    def _weights_ok(cls, v: dict[str, float]) -> dict[str, float]:
        for name, w in v.items():
            _known(name)
            if not math.isfinite(w):
                raise ValueError(f"weight of {name} must be a finite number, got {w}")
            if w < 0:
                raise ValueError(f"weight of {name} must be >= 0, got {w:g}")
            if w > 1e6:  # points are summed over games: keep the sums finite
                raise ValueError(f"weight of {name} must be at most 1,000,000, got {w:g}")
        return v

    @field_validator("params")
    @classmethod
    def _params_ok(cls, v: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        for name, block in v.items():
            params_model = SCORERS.get(_known(name)).Params
            _refuse_removed(name, block)
            try:
                validate_params(params_model, block)
            except ParamsProblem as exc:  # the same words and YAML line as a bot's params
                problem = ParamsProblem(problem_text(f"scorer '{name}'", exc, params_model))
                problem.path = (name, *exc.path)
                raise problem from None
        return v

    @model_validator(mode="after")
    def _weights_listed(self) -> "ScoringConfig":
        extra = sorted(set(self.weights) - set(self.dimensions))
        if extra:
            raise ValueError(f"weights given for dimension(s) not in 'dimensions': {', '.join(extra)}")
        if not any(self.weight(d) > 0 for d in self.dimensions):
            raise ValueError("every weight is 0: at least one dimension must count")
        return self

    def weight(self, dimension: str) -> float:
        return float(self.weights.get(dimension, 1.0))

    def scorer_params(self, dimension: str) -> ScorerParams:
        params = SCORERS.get(dimension).Params.model_validate(dict(self.params.get(dimension, {})))
        if dimension != "diversity" and isinstance(params, FollowsSigmaR):
            sigma_r = self.params.get("diversity", {}).get("sigma_r")
            if sigma_r is not None:
                return params.following(float(sigma_r))
        return params



def _refuse_removed(dimension: str, block: Any) -> None:
    """A :class:`ParamsProblem` naming the first removed key of ``block`` and what to write
    instead (:mod:`chatmatch.scoring.removed`)."""
    for key in block if isinstance(block, dict) else ():
        message = removed_message(dimension, str(key))
        if message is not None:
            problem = ParamsProblem(f"scorer '{dimension}': {message}")
            problem.path = (dimension, str(key))
            raise problem

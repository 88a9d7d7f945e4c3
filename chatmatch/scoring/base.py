"""The scorer interface and registry.

A scorer scores many games at once (so a model can batch across games) and returns, per
game, a :class:`DimensionScore`: one raw value per speaker plus per-turn details that say
why (which turns were repetitions, the entities found, each turn's perplexity, ...).
Whether higher or lower raw values are better is declared by the scorer class.

Register a scorer with::

    @SCORERS.register("proactivity")
    class Proactivity(Scorer):
        higher_is_better = True
        class Params(ScorerParams):
            ...

``Params`` is a pydantic model (unknown keys forbidden) validated from the YAML
``scoring.params.<dimension>`` block before any bot runs.
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Sequence

from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator

from chatmatch.registry import Registry
from chatmatch.stages import DimensionScore
from chatmatch.transcript import Transcript


class ScorerParams(BaseModel):
    """Base of every scorer's parameter model: unknown keys are errors, and so are NaN,
    infinity and booleans given for numbers."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_for_numbers(cls, v: Any, info: ValidationInfo) -> Any:
        from chatmatch.validation import refuse_bool_for_number

        return refuse_bool_for_number(cls, v, info)


#: ``progress(done, total)``: how much of a long scoring pass is done (e.g. texts)
Progress = Callable[[int, int], None]


class Scorer:
    """Base class of scorers. Subclasses set ``name``/``higher_is_better`` and override
    :meth:`score_games`. A slow scorer (a model) names what it counts in ``progress_unit``
    (e.g. ``"texts"``) and accepts ``score_games(games, progress=fn)``, calling
    ``fn(done, total)`` as it goes; the engine shows it as a bar."""

    name: ClassVar[str] = ""
    higher_is_better: ClassVar[bool] = True
    description: ClassVar[str] = ""
    progress_unit: ClassVar[str] = ""  # "": score_games takes no progress callback

    class Params(ScorerParams):
        pass

    def __init__(self, params: ScorerParams | None = None) -> None:
        self.params = params if params is not None else self.Params()

    def score_games(self, games: Sequence[Transcript]) -> list[DimensionScore]:
        raise NotImplementedError

    def load(self) -> None:
        """Load models now (the runner calls it before any game is played, so a missing
        model fails before bots run). Default: nothing to load."""

    def bind_run_dir(self, path: Any) -> None:
        """Called by the runner with the run directory before any scoring, so a scorer can
        keep run-level records there (the model judges write RUN/judges/). Default: no-op."""

    def describe(self) -> dict[str, Any]:
        """Facts recorded in the run directory (model names, parameters)."""
        return {"name": self.name, "params": self.params.model_dump()}


SCORERS: Registry[type[Scorer]] = Registry("scoring dimension")

"""The ``ranking:`` block of a tournament YAML, and :func:`rank`, which runs the method it names::

    ranking:
      method: trueskill          # or points, bt, elo, a plugin's name, package.module:function
      shuffles: 1000             # TrueSkill's game-order shuffles
      points: {win: 3, tie: 1, loss: 0}
      trueskill: {rank_by: mu}
      bt: {bootstrap: 200}
      elo: {k: 16}
      ties: {rule: record, break_by: none}   # which bots are shown as tied (ranking/ties.py)

Each method's parameters are defined with the method (:class:`PointsRule` in
:mod:`.points`, :class:`TrueSkillParams` in :mod:`.trueskill_rank`, ...); this module only
puts their blocks together.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from pydantic import Field, SerializationInfo, SerializerFunctionWrapHandler, field_validator, model_serializer

from chatmatch.errors import ChatmatchError
from chatmatch.ranking.base import RANKERS, Ranking
from chatmatch.ranking.bradley_terry import BradleyTerryParams
from chatmatch.ranking.elo import EloParams
from chatmatch.ranking.points import PointsRule
from chatmatch.ranking.ties import TieRule, apply_ties
from chatmatch.ranking.trueskill_rank import DEFAULT_SHUFFLES, TrueSkillParams
from chatmatch.stages import GameResult
from chatmatch.validation import StrictModel


class RankingConfig(StrictModel):
    method: str = "trueskill"
    #: TrueSkill depends on game order: replay it over this many seeded shuffles and average.
    shuffles: int = Field(default=DEFAULT_SHUFFLES, ge=1, le=10_000)
    points: PointsRule = Field(default_factory=PointsRule)
    trueskill: TrueSkillParams = Field(default_factory=TrueSkillParams)
    bt: BradleyTerryParams = Field(default_factory=BradleyTerryParams)
    elo: EloParams = Field(default_factory=EloParams)
    ties: TieRule = Field(default_factory=TieRule)

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        # ``ties`` is written only when it is not the default, so a run's config.yaml
        # written before the block existed is written again byte for byte
        data = handler(self)
        if isinstance(data, dict) and self.ties == TieRule():
            data.pop("ties", None)
        return data

    @field_validator("method")
    @classmethod
    def _known(cls, v: str) -> str:
        try:
            RANKERS.resolve(v)
        except ChatmatchError as exc:
            raise ValueError(str(exc)) from None
        return v

    def params(self, method: str) -> Any:
        """The parameters ``method`` is called with: its block ``ranking.<method>``; for a
        method of another package, the defaults of the ``params`` model it registered (None
        when it registered none)."""
        if method in type(self).model_fields and method not in _TOP_LEVEL:
            return getattr(self, method)
        model = RANKERS.meta(method).get("params") if method in RANKERS else None
        return model() if callable(model) else None

    def options(self, method: str) -> dict[str, Any]:
        """The top-level keys of this block that ``method`` registered as ``options``
        (TrueSkill: ``shuffles``), as keyword arguments."""
        names: Any = RANKERS.meta(method).get("options", ()) if method in RANKERS else ()
        return {name: getattr(self, name) for name in names}


def check_finite(ranking: Ranking) -> None:
    """Refuse a ranking holding an infinite rating, or a score that is not a number: it
    would be printed and stored as if it meant something (parameters at the edge of what
    the method can compute, or a plugin's bug). NaN is allowed only where a method marks
    a statistic it did not compute, never in the score the rows are ordered by."""
    for row in ranking.rows:
        values = {"score": row.score, **row.flat()}
        for key, v in values.items():
            if isinstance(v, float) and (math.isinf(v) or (key == "score" and math.isnan(v))):
                raise ChatmatchError(
                    f"ranking method '{ranking.method}' computed {key} = {v} for bot "
                    f"'{row.bot}', which is not a finite number; its parameters "
                    f"(ranking.{ranking.method}) are beyond what it can compute: use values "
                    "of ordinary size")


#: keys of the block that are not a method's parameters
_TOP_LEVEL = ("method", "shuffles", "ties")


def rank(results: Sequence[GameResult], bots: Sequence[str], config: RankingConfig,
         seed: int = 0, method: str | None = None, expected_games: int | None = None) -> Ranking:
    """Rank ``results`` with ``method`` (default ``config.method``) and its parameters."""
    name = method or config.method
    ranking = RANKERS.resolve(name)(results, bots, config.params(name), seed,
                                    **config.options(name))
    check_finite(ranking)
    if expected_games is not None:
        ranking = Ranking(ranking.method, ranking.rows, ranking.games, expected_games, ranking.meta)
    return apply_ties(ranking, config.ties)

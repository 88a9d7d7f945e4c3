"""The ``ranking:`` block of a tournament YAML, and :func:`rank`, which runs the method it names::

    ranking:
      method: trueskill          # or points, bt, elo, a plugin's name, package.module:function
      shuffles: 1000             # TrueSkill's game-order shuffles
      points: {win: 3, tie: 1, loss: 0}
      trueskill: {rank_by: mu}
      bt: {bootstrap: 200}
      elo: {k: 16}
      ties: {rule: record, break_by: none}   # which bots are shown as tied (ranking/ties.py)

The built-in methods' parameter models live in :mod:`.params` (pydantic only), so reading
this block imports no method: a method's module is imported when the method is named. A
ranking method of another package is configured the same way, by a block named as the
method (its registered name, or its import path) and checked against the ``params`` model
it registered with (``@RANKERS.register("glicko", params=GlickoParams)``)::

    ranking:
      method: glicko             # or my_package.ranking:rank_glicko
      glicko: {tau: 0.5}
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from pydantic import (BaseModel, Field, ModelWrapValidatorHandler, PrivateAttr, SerializationInfo,
                      SerializerFunctionWrapHandler, create_model, field_validator, model_serializer,
                      model_validator)

from chatmatch.errors import ChatmatchError
from chatmatch.ranking.base import RANKERS, Ranking
from chatmatch.ranking.params import (DEFAULT_SHUFFLES, BradleyTerryParams, EloParams, PointsRule,
                                      TrueSkillParams)
from chatmatch.common.validation import StrictModel
from chatmatch.ranking.ties import TieRule, apply_ties
from chatmatch.records import GameResult


class RankingConfig(StrictModel):
    method: str = "trueskill"
    #: TrueSkill depends on game order: replay it over this many seeded shuffles and average.
    shuffles: int = Field(default=DEFAULT_SHUFFLES, ge=1, le=10_000)
    points: PointsRule = Field(default_factory=PointsRule)
    trueskill: TrueSkillParams = Field(default_factory=TrueSkillParams)
    bt: BradleyTerryParams = Field(default_factory=BradleyTerryParams)
    elo: EloParams = Field(default_factory=EloParams)
    ties: TieRule = Field(default_factory=TieRule)
    #: the blocks of other packages' methods: ``ranking.<method>`` -> its params model
    _plugin_blocks: dict[str, BaseModel] = PrivateAttr(default_factory=dict)

    @model_validator(mode="wrap")
    @classmethod
    def _method_blocks(cls, data: Any,
                       handler: ModelWrapValidatorHandler["RankingConfig"]) -> "RankingConfig":
        # a key that names a ranking method of another package is that method's block;
        # every other key is checked as before (an unknown one is an error)
        if not isinstance(data, dict):
            return handler(data)
        blocks = {k: v for k, v in data.items()
                  if isinstance(k, str) and k not in cls.model_fields and _names_method(k)}
        config = handler({k: v for k, v in data.items() if k not in blocks})
        if blocks:
            config._plugin_blocks = _method_params(blocks)
        return config

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        # ``ties`` is written only when it is not the default, so a run's config.yaml
        # written before the block existed is written again byte for byte
        data = handler(self)
        if isinstance(data, dict) and self.ties == TieRule():
            data.pop("ties", None)
        if isinstance(data, dict):
            for key, block in self._plugin_blocks.items():
                data[key] = block.model_dump(mode=info.mode)
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
        """The parameters ``method`` is called with: its block ``ranking.<method>`` (under
        the name the YAML gives, or the name the method registered); without one, the
        defaults of the ``params`` model it registered (None when it registered none)."""
        for key in dict.fromkeys((method, _registered_name(method))):
            if key in type(self).model_fields and key not in _TOP_LEVEL:
                return getattr(self, key)
            if key in self._plugin_blocks:
                return self._plugin_blocks[key]
        model = _params_model(method)
        return model() if model is not None else None

    def options(self, method: str) -> dict[str, Any]:
        """The top-level keys of this block that ``method`` registered as ``options``
        (TrueSkill: ``shuffles``), as keyword arguments."""
        name = _registered_name(method)
        names: Any = RANKERS.meta(name).get("options", ()) if name is not None else ()
        return {name: getattr(self, name) for name in names}


def _names_method(key: str) -> bool:
    """Whether a key of the ``ranking:`` block names a ranking method (an import path is
    taken for one; a wrong path is then reported as such)."""
    return ":" in key or key in RANKERS


def _registered_name(method: str) -> str | None:
    """The name ``method`` (a name or an import path) is registered under, if any."""
    if ":" not in method:
        return method if method in RANKERS else None
    try:
        return RANKERS.registered_name(RANKERS.import_path(method))
    except ChatmatchError:
        return None


def _params_model(method: str) -> type[BaseModel] | None:
    name = _registered_name(method)
    model = RANKERS.meta(name).get("params") if name is not None else None
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def _method_params(blocks: dict[str, Any]) -> dict[str, BaseModel]:
    """Each method's block checked against its params model; a problem is reported at its
    key (``ranking.glicko.tau: ...``)."""
    fields: dict[str, Any] = {}
    for key in blocks:
        try:
            RANKERS.resolve(key)
        except ChatmatchError as exc:
            raise ValueError(str(exc)) from None
        model = _params_model(key)
        if model is None:
            raise ValueError(f"ranking method '{key}' takes no parameters (it registered no "
                             f"params model); remove the block ranking.{key}")
        fields[f"m{len(fields)}"] = (model, Field(alias=key))
    checked = create_model("MethodBlocks", **fields).model_validate(blocks)
    return {key: getattr(checked, f"m{i}") for i, key in enumerate(blocks)}


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

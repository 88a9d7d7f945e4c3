"""The parameters of the built-in ranking methods: the models of the YAML blocks
``ranking.points``, ``ranking.trueskill``, ``ranking.bt`` and ``ranking.elo``.

Each method's module (:mod:`.points`, :mod:`.trueskill_rank`, :mod:`.bradley_terry`,
:mod:`.elo`) registers its method with the model from here and re-exports it. They live
apart from the methods so that reading a tournament YAML (:class:`~.config.RankingConfig`)
needs pydantic only: a method's module, with numpy, scipy or trueskill, is imported when
the method is first named (the ranking methods are loaded like any plugin).
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import Field, model_validator

from chatmatch.common.validation import StrictModel

#: largest match points for a win, a tie or a loss (a sum over many matches stays finite)
MAX_POINTS = 1e6


class PointsRule(StrictModel):
    """Match points for a win, a tie and a loss (paper: 3/1/0 or 2/1/0)."""

    win: float = Field(default=3.0, ge=-MAX_POINTS, le=MAX_POINTS)
    tie: float = Field(default=1.0, ge=-MAX_POINTS, le=MAX_POINTS)
    loss: float = Field(default=0.0, ge=-MAX_POINTS, le=MAX_POINTS)

    @model_validator(mode="after")
    def _ordered(self) -> "PointsRule":
        for k in ("win", "tie", "loss"):
            if not math.isfinite(getattr(self, k)):
                raise ValueError(f"{k} must be a finite number")
        if not self.win >= self.tie >= self.loss:
            raise ValueError(f"need win >= tie >= loss, got {self.win}/{self.tie}/{self.loss}")
        return self


#: TrueSkill shuffles by default: with 1000 the final order of a 7-bot tournament no longer
#: depended on the seed in any of 150 measured cases (3 shuffles: 63 % of seeds gave the
#: most common order), at about 0.3 s a ranking (the paper: 3, kept by ``preset: paper``;
#: lab/trueskill_shuffles.py, docs/scoring.md "TrueSkill shuffles").
DEFAULT_SHUFFLES = 1000


class TrueSkillParams(StrictModel):
    """TrueSkill environment (Herbrich et al. 2007); defaults are the library's."""

    mu: float = Field(default=25.0, ge=-1e6, le=1e6)
    sigma: float = Field(default=25.0 / 3, gt=0.0, le=1e6)
    beta: float = Field(default=25.0 / 6, gt=0.0, le=1e6)
    tau: float = Field(default=25.0 / 300, ge=0.0, le=1e6)
    draw_probability: float = Field(default=0.10, ge=0.0, lt=1.0)
    #: conservative score = mu - k * sigma
    k: float = Field(default=3.0, ge=0.0, le=100.0)
    rank_by: Literal["conservative", "mu"] = "conservative"


class BradleyTerryParams(StrictModel):
    """Bradley-Terry maximum likelihood (ties count as half a win each)."""

    #: virtual tied games added to every pair of bots that met (0: plain MLE, which does
    #: not exist when a bot won or lost everything; 0.5 keeps such ratings finite)
    prior: float = Field(default=0.5, ge=0.0, le=1e6)
    bootstrap: int = Field(default=200, ge=0, le=100_000)  # resamples of the games for CIs
    ci: float = Field(default=0.95, gt=0.0, lt=1.0)


class EloParams(StrictModel):
    """Elo updates over the games in schedule order; bootstrap resamples give the CIs."""

    k: float = Field(default=16.0, gt=0.0, le=1_000.0)
    initial: float = Field(default=1000.0, ge=-1e6, le=1e6)
    scale: float = Field(default=400.0, ge=1.0, le=1e6)
    bootstrap: int = Field(default=200, ge=0, le=100_000)
    ci: float = Field(default=0.95, gt=0.0, lt=1.0)

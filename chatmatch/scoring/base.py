"""The scorer interface and registry.

A scorer scores many games at once (so a model can batch across games) and returns, per
game, a :class:`DimensionScore`: one raw value per speaker plus per-turn details that say
why (which turns were repetitions, the entities found, each turn's perplexity, ...).
Its metadata is declared once, on the class::

    class Proactivity(Scorer):
        name = "proactivity"
        higher_is_better = True
        description = "questions asked by the bot (Table 1)"

        class Params(ScorerParams):
            ...

``Params`` is a pydantic model (unknown keys forbidden) validated from the YAML
``scoring.params.<dimension>`` block before any bot runs. What a scorer needs computed
before it scores (a spaCy pass, Algorithm 1's repetitions, the game's TF-IDF
similarities) it declares in :meth:`Scorer.needs`; the engine computes the union once per
game and hands it over as the ``context`` of ``score_games`` (:mod:`chatmatch.scoring.
context`).

:data:`SCORERS` holds every scorer: the seven dimensions of the paper, the model judges
(:mod:`chatmatch.judges`) and scorers of other packages, all declared as entry points of the
group ``chatmatch.scorers`` (chatmatch's own in its ``setup.cfg``; the entry point's name is
the dimension's name) and imported when first named: scoring never imports the judges.
"""

from __future__ import annotations

import dataclasses

from typing import Any, ClassVar, Self, Sequence

from pydantic import PrivateAttr

from chatmatch.common.registry import Registry
# re-exported: a scorer of another package needs only this module
from chatmatch.common.validation import StrictModel
from chatmatch.records import DimensionScore
from chatmatch.runtime.settings import DEFAULT_RUNTIME, RuntimeSettings
from chatmatch.progress import Progress as Progress
from chatmatch.scoring.context import Needs as Needs, SpacyNeed as SpacyNeed
from chatmatch.scoring.context import ScoringContext as ScoringContext
from chatmatch.transcript import Transcript

#: The paper's seven dimensions, in the order results are shown.
DIMENSIONS = ("fluency", "knowledge", "proactivity", "specificity", "diversity",
              "consistency", "relevance")

class ScorerParams(StrictModel):
    """Base of every scorer's parameter model: unknown keys are errors, and so are NaN,
    infinity and booleans given for numbers."""


class FollowsSigmaR(ScorerParams):
    """Parameters of a scorer that reads Algorithm 1's repetitions at diversity's
    ``sigma_r`` (:meth:`chatmatch.scoring.config.ScoringConfig.scorer_params` sets it; not
    a key of its own: two scorers must agree on what a repetition is)."""

    _sigma_r: float | None = PrivateAttr(default=None)

    @property
    def sigma_r(self) -> float | None:
        """Diversity's ``sigma_r`` when it is set; None: its default."""
        return self._sigma_r

    def following(self, sigma_r: float | None) -> Self:
        """A copy that reads repetitions at ``sigma_r``."""
        copy = self.model_copy()
        copy._sigma_r = sigma_r
        return copy


class Scorer:
    """Base class of scorers. Subclasses set ``name`` (the registered name),
    ``higher_is_better``, ``description`` (and ``judge`` for a model judge), declare what
    they need in :meth:`needs` and override :meth:`score_games`. A slow scorer (a model)
    names what it counts in ``progress_unit`` (e.g. ``"texts"``) and calls
    ``context.progress(done, total)`` as it goes; the engine shows it as a bar."""

    name: ClassVar[str] = ""
    higher_is_better: ClassVar[bool] = True
    description: ClassVar[str] = ""
    #: a model judge (chatmatch.judges): it can also judge single replies (`chatmatch robustness -j`)
    judge: ClassVar[bool] = False
    progress_unit: ClassVar[str] = ""  # "": the scorer reports no progress
    #: the scorer has a :meth:`preflight` check (endpoint judges: the server serves the
    #: model); the runner calls it, as a "checking scorer <name>" step, before any model loads
    has_preflight: ClassVar[bool] = False
    #: how the scorer's models run (the tournament's ``runtime:`` block; set by
    #: :func:`chatmatch.scoring.build.build_scorers`)
    runtime: RuntimeSettings = DEFAULT_RUNTIME
    #: count a bot's canned turns (said whatever its partner says, found across the games
    #: scored together: :mod:`chatmatch.scoring.canned`) as degenerate: fluency, relevance
    #: and consistency treat them as the other degenerate turns, knowledge and proactivity
    #: count no entity or question in them. Set from ``scoring.canned`` by
    #: :func:`chatmatch.scoring.build.build_scorers` (a scorer made directly: off)
    canned: bool = False
    #: names the scoring rules a version of chatmatch changed without a setting to show it
    #: (recorded by :meth:`describe`): a run whose stored scores were made under other rules
    #: is scored again when it is resumed, as when a default changes
    rules: ClassVar[str] = ""

    class Params(ScorerParams):
        pass

    def __init__(self, params: ScorerParams | None = None) -> None:
        self.params = params if params is not None else self.Params()

    def needs(self) -> Needs:
        """What this scorer needs computed (or loaded) before it scores; the engine builds
        the union for every scorer once and passes it as ``context``. Default: nothing."""
        return Needs()

    def score_games(self, games: Sequence[Transcript],
                    context: ScoringContext | None = None) -> list[DimensionScore]:
        """One :class:`DimensionScore` per game. ``context``: what :meth:`needs` asked for,
        computed by the engine for all scorers (None: the scorer builds its own, see
        :meth:`context_for`)."""
        raise NotImplementedError

    def full_needs(self) -> Needs:
        """:meth:`needs`, with the canned turns when :attr:`canned` asks for them."""
        needs = self.needs()
        return dataclasses.replace(needs, canned=True) if self.canned else needs

    def context_for(self, games: Sequence[Transcript],
                    context: ScoringContext | None) -> ScoringContext:
        """``context`` checked against ``games``, or (None) one built for this scorer alone."""
        if context is None:
            return ScoringContext.build(games, [self.full_needs()])
        return context.for_games(games)

    def preflight(self) -> None:
        """A quick check that the scorer can work (declared with ``has_preflight = True``),
        before any model loads or bot plays. Default: nothing to check."""

    def check_files(self) -> None:
        """Check the files the scorer reads that the user gave (a model file): called before
        a run directory is created, so a bad one leaves nothing behind. Default: none."""

    def load(self) -> None:
        """Load models now (the runner calls it before any game is played, so a missing
        model fails before bots run). Default: nothing to load."""

    def bind_run_dir(self, path: Any) -> None:
        """Called with the run directory (by `run` before scoring, by `score --out` once the
        directory exists), so a scorer can keep run-level records there (the model judges
        write RUN/judges/). Default: no-op."""

    def describe(self) -> dict[str, Any]:
        """Facts recorded in the run directory (model names, parameters, and :attr:`rules`
        when set)."""
        return {"name": self.name, "params": self.params.model_dump(), **self._rules()}

    def _rules(self) -> dict[str, str]:
        return {"rules": self.rules} if self.rules else {}


def _check_scorer(obj: object) -> str | None:
    if isinstance(obj, type) and issubclass(obj, Scorer):
        return None
    what = f"a {type(obj).__name__}" if not isinstance(obj, type) else "a class"
    return (f"it is {what} that does not subclass chatmatch.scoring.base.Scorer; a scorer "
            "must be a Scorer subclass.")


def _describe_scorer(cls: type[Scorer]) -> dict[str, object]:
    return {"higher_is_better": cls.higher_is_better, "description": cls.description,
            "judge": cls.judge}


SCORERS: Registry[type[Scorer]] = Registry(
    "scoring dimension", group="chatmatch.scorers", provider="chatmatch", noun="scorer",
    check=_check_scorer, describe=_describe_scorer, name_of=lambda cls: cls.name)

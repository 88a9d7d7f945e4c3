"""What the robustness suite can test: anything that scores a reply in context, or that
compares two replies in the same context.

Two small protocols (capability declared by the class attribute ``kind``):

* :class:`ReplyScorer` (``kind = "score"``): ``score(contexts, replies) -> list[float]``,
  one number per (context, reply); ``higher_is_better`` says which way is better.
* :class:`PairwiseJudge` (``kind = "compare"``): ``prefer(contexts, first, second) ->
  list[float]``, the judge's preference for ``first`` over ``second`` in [0, 1]
  (1: first is better, 0: second is better, 0.5: no preference).

The model judges of :mod:`chatmatch.judges` are adapted by :class:`JudgeEvaluator`
(history given, only the reply judged). ChatMatch's game-level scorers are adapted by
:class:`DimensionEvaluator`: the context
and the reply become one small game (history turns with their speakers, then the reply
spoken by ``context.speaker``) and the reply's score is the raw score of the reply's
speaker in that game. The history is the same for the good and the broken reply, so any
difference comes from the last turn -- for counting dimensions (knowledge, proactivity,
diversity, consistency, relevance) it is exactly what the last turn adds; for averaged
ones (fluency's median, specificity's pooled Distinct-n) it is how the last turn moves
the speaker's aggregate over their turns in the window.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar, Literal, Protocol, Sequence, runtime_checkable

from chatmatch.robustness.perturb import Context
from chatmatch.robustness.triples import RobustnessError
from chatmatch.scoring.base import SCORERS, Scorer
from chatmatch.scoring.engine import score_games
from chatmatch.transcript import Transcript, Turn


@runtime_checkable
class ReplyScorer(Protocol):
    name: str
    kind: ClassVar[Literal["score"]]
    higher_is_better: bool

    def score(self, contexts: Sequence[Context], replies: Sequence[str]) -> list[float]: ...


@runtime_checkable
class PairwiseJudge(Protocol):
    name: str
    kind: ClassVar[Literal["compare"]]

    def prefer(self, contexts: Sequence[Context], first: Sequence[str],
               second: Sequence[str]) -> list[float]: ...


Evaluator = ReplyScorer | PairwiseJudge


def as_game(context: Context, reply: str, game_id: str = "robustness", *,
            given_history: bool = False) -> Transcript:
    """History + reply as a two-speaker game; the reply's speaker is ``context.speaker``.
    With ``given_history`` the history turns are marked ``seed`` (given, credited to nobody),
    so a scorer that judges only credited replies judges the reply alone."""
    speakers = list(dict.fromkeys([*context.speakers, context.speaker]))
    if len(speakers) == 1:
        speakers.append("partner" if speakers[0] != "partner" else "other")
    if len(speakers) != 2:
        raise RobustnessError(f"{game_id}: a context must have two speakers, got {speakers}")
    texts = [*context.history, reply]
    who = [*context.speakers, context.speaker]
    given = len(context.history) if given_history else 0
    turns = tuple(Turn(i, s, t, seed=i < given) for i, (s, t) in enumerate(zip(who, texts)))
    return Transcript(game_id, (speakers[0], speakers[1]), turns)


class DimensionEvaluator:
    """A chatmatch :class:`~chatmatch.scoring.base.Scorer` as a :class:`ReplyScorer`."""

    kind: ClassVar[Literal["score"]] = "score"
    #: history turns marked as given: only the reply is credited (see :class:`JudgeEvaluator`)
    given_history: ClassVar[bool] = False

    def __init__(self, scorer: Scorer) -> None:
        self.scorer = scorer
        self.name = scorer.name or type(scorer).__name__
        self.higher_is_better = bool(scorer.higher_is_better)

    def score(self, contexts: Sequence[Context], replies: Sequence[str]) -> list[float]:
        games = [as_game(c, r, f"r{i}", given_history=self.given_history)
                 for i, (c, r) in enumerate(zip(contexts, replies))]
        results = score_games(games, [self.scorer])
        return [float(res[self.scorer.name].raw.get(c.speaker, float("nan")))
                for res, c in zip(results, contexts)]


class JudgeEvaluator(DimensionEvaluator):
    """A model judge of :mod:`chatmatch.judges` (a Scorer that judges a speaker's credited
    replies in context) on the reply alone: the history is marked as given, so the judge's
    raw score for the speaker is its verdict on the one reply, history shown as context."""

    given_history = True


class PairEvalPreference:
    """PairEval as a :class:`PairwiseJudge`: the two replies, each after the same history,
    are compared in both orders and the preference is swap-averaged (its native use; as a
    game scorer PairEval needs two bots' replies, which a triple does not have)."""

    kind: ClassVar[Literal["compare"]] = "compare"

    def __init__(self, judge: Any) -> None:
        self.judge = judge
        self.name = judge.name

    def prefer(self, contexts: Sequence[Context], first: Sequence[str],
               second: Sequence[str]) -> list[float]:
        out = []
        for i, (c, x, y) in enumerate(zip(contexts, first, second)):
            game = as_game(c, x, f"r{i}", given_history=True)
            history = self.judge.context_of(game, game.turns[-1])
            p = self.judge._compare((history, x), (history, y))["p_x_better"]
            out.append(float("nan") if p is None else float(p))
        return out


def builtin_judge(name: str) -> JudgeEvaluator | PairEvalPreference:
    """A model judge (a scorer with ``judge = True``), default parameters.
    PairEval compares the good and the broken reply directly; the others score each."""
    judge = SCORERS.get(name, where=lambda meta: bool(meta["judge"]), kind="judge")()
    if name == "paireval":
        return PairEvalPreference(judge)
    return JudgeEvaluator(judge)


def load_object(spec: str) -> Any:
    """``package.module:Name`` -> the object (a class is instantiated with no arguments)."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise RobustnessError(f"{spec!r}: expected an import path 'package.module:Class'")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise RobustnessError(f"{spec!r}: cannot import {module_name!r} ({exc})") from None
    try:
        obj = getattr(module, attr)
    except AttributeError:
        raise RobustnessError(f"{spec!r}: module {module_name!r} has no {attr!r}") from None
    return obj() if isinstance(obj, type) else obj


def as_evaluator(obj: Any, spec: str = "") -> Evaluator:
    """A scorer, judge or chatmatch Scorer (instance) as an evaluator the runner accepts."""
    if isinstance(obj, Scorer):
        return DimensionEvaluator(obj)
    kind = getattr(type(obj), "kind", None)
    if kind == "score" and isinstance(obj, ReplyScorer):
        return obj
    if kind == "compare" and isinstance(obj, PairwiseJudge):
        return obj
    raise RobustnessError(
        f"{spec or obj!r}: not an evaluator; give a chatmatch Scorer, or a class with name, "
        "kind = 'score', higher_is_better and score(contexts, replies), or with name, "
        "kind = 'compare' and prefer(contexts, first, second) (see docs/robustness.md)")

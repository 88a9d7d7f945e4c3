"""Proactivity: how often a bot asks a question (higher is better).

Raw score: the number of the bot's turns that ask at least one question (``unit:
turns``, the default: a turn raises a question or does not), or the number of questions
(``unit: questions``). What counts as a question is defined exactly in
:func:`chatmatch.scoring.text.question_count`: a sentence-final ``?`` (or ``？``/``؟``)
after at least one word or emoji. Empty turns, a bare ``"?"`` and unpunctuated
interrogatives ask nothing. Details list each asking turn with its question count.

A turn that diversity penalises as a repetition (Algorithm 1: a repeated question, or a
repeated turn) asks nothing new and earns nothing here (``skip_repetitions``, default
true; the paper counted every question, so asking "where are you from?" ten times earned
ten credits). ``sigma_r`` follows diversity's.
"""

from __future__ import annotations

from typing import Any, Literal, Sequence

from chatmatch.scoring.base import SCORERS, DimensionScore, Scorer
from chatmatch.scoring.common import zero_raw
from chatmatch.scoring.diversity import RepetitionParams, scored_turns
from chatmatch.scoring.text import question_count
from chatmatch.transcript import Transcript


@SCORERS.register("proactivity", higher_is_better=True)
class Proactivity(Scorer):
    name = "proactivity"
    higher_is_better = True
    description = "questions asked by the bot (Table 1)"

    class Params(RepetitionParams):
        #: count turns that ask (a turn with three questions counts once) or questions
        unit: Literal["turns", "questions"] = "turns"

    params: Params

    def score_games(self, games: Sequence[Transcript]) -> list[DimensionScore]:
        return [self.score_game(g) for g in games]

    def score_game(self, game: Transcript) -> DimensionScore:
        raw = zero_raw(game)
        details: list[dict[str, Any]] = []
        for turn in scored_turns(game, self.params):
            n = question_count(turn.text)
            if n:
                raw[turn.speaker] += n if self.params.unit == "questions" else 1
                details.append({"turn": turn.index, "speaker": turn.speaker, "questions": n})
        return DimensionScore(self.name, raw, self.higher_is_better, details)

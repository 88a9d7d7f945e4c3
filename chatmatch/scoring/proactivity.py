"""Proactivity: how often a bot asks a question (higher is better).

Raw score: the number of the bot's turns that ask at least one question (``unit:
turns``, the default: a turn raises a question or does not), or the number of questions
(``unit: questions``). What counts as a question is defined exactly in
:func:`chatmatch.scoring.text.question_count`: a sentence-final ``?`` (or ``？``/``؟``)
after at least one word or emoji. Empty turns, a bare ``"?"`` and unpunctuated
interrogatives ask nothing. Details list each asking turn with its question count.
"""

from __future__ import annotations

from typing import Any, Literal, Sequence

from chatmatch.scoring.base import SCORERS, DimensionScore, Scorer, ScorerParams
from chatmatch.scoring.common import credited_turns, zero_raw
from chatmatch.scoring.text import question_count
from chatmatch.transcript import Transcript


@SCORERS.register("proactivity", higher_is_better=True)
class Proactivity(Scorer):
    name = "proactivity"
    higher_is_better = True
    description = "questions asked by the bot (Table 1)"

    class Params(ScorerParams):
        #: count turns that ask (a turn with three questions counts once) or questions
        unit: Literal["turns", "questions"] = "turns"

    params: Params

    def score_games(self, games: Sequence[Transcript]) -> list[DimensionScore]:
        return [self.score_game(g) for g in games]

    def score_game(self, game: Transcript) -> DimensionScore:
        raw = zero_raw(game)
        details: list[dict[str, Any]] = []
        for turn in credited_turns(game):
            n = question_count(turn.text)
            if n:
                raw[turn.speaker] += n if self.params.unit == "questions" else 1
                details.append({"turn": turn.index, "speaker": turn.speaker, "questions": n})
        return DimensionScore(self.name, raw, self.higher_is_better, details)

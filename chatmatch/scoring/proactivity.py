"""Proactivity: how often a bot asks a question (higher is better).

Raw score (``unit``): the share of the bot's credited turns that ask at least one
question (``share``, the default: a rate that does not grow with the
length of the chat), the number of such turns (``turns``, the paper: a turn raises a
question or does not), or the number of questions (``questions``). What counts as a
question is defined exactly in :func:`chatmatch.common.text.question_count`: a sentence-final ``?`` (or ``？``/``؟``)
after at least one word or emoji. Empty turns, a bare ``"?"`` and unpunctuated
interrogatives ask nothing. Details list each asking turn with its question count.

A turn that diversity penalises as a repetition (Algorithm 1: a repeated question, or a
repeated turn) asks nothing new and earns nothing here (``skip_repetitions``, default
true; the paper counted every question, so asking "where are you from?" ten times earned
ten credits). ``sigma_r`` follows diversity's.

A partner that repeats its questions also takes the bot's turns: each repeated question
is answered again (Algorithm 1 excuses such an answer), and a turn spent answering is
not spent asking. With ``excuse_answers`` (default true; the paper: false) a bot that
gave ``e`` such excused answers among its ``n`` credited turns is credited at its rate
over its other turns: raw = asking turns x n / (n - e). In a game without repeated
questions nothing changes (e = 0).

Which questions count is ``questions``:

* ``all`` (the paper): every question;
* ``specific``: only a question that asks about something
  (:func:`chatmatch.scoring.questions.specific_questions`): it holds a content word, not
  only function words ("what about you?", "and you?", "really?", "how are you?" are
  generic and earn nothing), and the bot has not asked a question with the same content
  words earlier in the game.

``unit: share`` is a rate, the same scale in a 10-turn chat and a 200-turn game. The
counts grew with the chat (Spearman rho +0.52 with a DSTC9 system's total words, people's
own +0.10); the share does not (-0.14), and with length held out both agree with people's
"inquisitive" equally (docs/appendix/scoring-measurements.md, "Options chosen by measurement"). In a bot-bot game both bots
have about the same number of turns, so the point mostly goes the same way.
"""

from __future__ import annotations

from typing import Any, Literal, Sequence

from chatmatch.records import DimensionScore
from chatmatch.scoring.base import Needs, Scorer, ScoringContext
from chatmatch.scoring.common import zero_raw
from chatmatch.scoring.common import credited_turns
from chatmatch.scoring.context import GameAnalysis
from chatmatch.scoring.diversity import RepetitionParams, scored_turns, sigma
from chatmatch.scoring.questions import specific_questions
from chatmatch.common.text import question_count
from chatmatch.transcript import Transcript


class Proactivity(Scorer):
    name = "proactivity"
    higher_is_better = True
    description = "questions asked by the bot (Table 1)"

    class Params(RepetitionParams):
        #: count turns that ask (a turn with three questions counts once) or questions
        unit: Literal["turns", "questions", "share"] = "share"
        #: all questions (the paper) or only specific ones (not generic, not repeated)
        questions: Literal["all", "specific"] = "all"
        #: scale a bot's count up for the turns it spent answering its partner's repeated
        #: questions again (the paper: false)
        excuse_answers: bool = True

    params: Params

    def needs(self) -> Needs:
        p = self.params
        excuse = frozenset({sigma(p.sigma_r)}) if p.excuse_answers else frozenset()
        return Needs(repetitions=p.repetitions_needed() | excuse)

    def score_games(self, games: Sequence[Transcript],
                    context: ScoringContext | None = None) -> list[DimensionScore]:
        return [self.score_game(a.game, a) for a in self.context_for(games, context).games]

    def score_game(self, game: Transcript, analysis: GameAnalysis | None = None) -> DimensionScore:
        """``game``'s score; ``analysis``: its repetitions, computed by the engine."""
        analysis = analysis or GameAnalysis.of(game, self.needs().repetitions)
        raw = zero_raw(game)
        details: list[dict[str, Any]] = []
        asked: dict[str, set[frozenset[str]]] = {p: set() for p in game.players}
        for turn in scored_turns(analysis, self.params):
            n = question_count(turn.text)
            if n and self.params.questions == "specific":
                n = specific_questions(turn.text, asked[turn.speaker])
            if n:
                raw[turn.speaker] += n if self.params.unit == "questions" else 1
                details.append({"turn": turn.index, "speaker": turn.speaker, "questions": n})
        if self.params.excuse_answers:
            raw = self._excuse(analysis, raw)
        if self.params.unit == "share":
            for p in game.players:
                n_turns = sum(1 for t in credited_turns(game) if t.speaker == p)
                raw[p] = raw[p] / n_turns if n_turns else 0.0
        return DimensionScore(self.name, raw, self.higher_is_better, details)

    def _excuse(self, analysis: GameAnalysis, raw: dict[str, float]) -> dict[str, float]:
        game, sigma_r = analysis.game, sigma(self.params.sigma_r)
        excused = analysis.repeated(sigma_r) - analysis.penalised(sigma_r)
        out = dict(raw)
        for p in game.players:
            n = sum(1 for t in credited_turns(game) if t.speaker == p)
            e = sum(1 for t in excused if game.turns[t].speaker == p)
            if e and n > e:
                out[p] = raw[p] * n / (n - e)
        return out

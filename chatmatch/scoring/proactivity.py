"""Proactivity: how often a bot asks a question (higher is better).

Raw score (``unit``): the share of the bot's credited turns that ask at least one
question (``share``, the default: a rate that does not grow with the
length of the chat), the number of such turns (``turns``, the paper: a turn raises a
question or does not), or the number of questions (``questions``). What counts as a
question is defined exactly in :func:`chatmatch.common.text.question_count`: a sentence-final ``?`` (or ``？``/``؟``)
after at least one word or emoji. Empty turns, a bare ``"?"`` and unpunctuated
interrogatives ask nothing. Details list each asking turn with its question count, and each
turn whose questions earned nothing with ``"questions": 0``, how many it ``asked`` and why
(``not_counted``: ``repetition``; ``canned`` and ``stock question`` with
``scoring.canned``; ``generic or asked before`` under ``questions: specific`` or
``conversational``; ``parroted or off topic`` and ``frame repeated`` under
``conversational``).

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
  words earlier in the game;
* ``conversational`` (the default): a specific question that is the bot's own and on the
  conversation's topic. Its own: not parroted (:func:`chatmatch.scoring.surface.parroted`:
  the partner asked it before, or the partner's last turn holds it word for word). On
  topic: the question's sentence embedding (all-MiniLM-L6-v2, ``model``) has a cosine of at
  least ``on_topic`` (0.2) with the partner's turn before it (relevant to the context; what
  the partner says next does not count, since a polite partner takes up anything). Not in a frame of its own said again
  (:func:`chatmatch.scoring.surface.frame_repeat`: half the turn's word 4-grams are the
  bot's earlier ones, a word taken from the partner's last turn matching any; marked ``"frame repeated"``): a template that asks about the
  partner's latest word each time asks nothing of its own. A bot that spams questions
  whatever was said, parrots its partner's questions or ends every turn on the same stock
  question ("What say ye?") earns little (docs/validity.md, "Gaming suite").

With ``scoring.canned`` (the default), each question said in a *stock sentence* cancels one
question the turn would otherwise earn, whether or not it would have counted itself
(``not_counted: stock question`` when none is left;
the detail quotes it under ``stock``): a sentence whose own words (the partner's content
words left out) are mostly phrases the bot says in at least a fifth of its other games, in
reply to other words (:func:`chatmatch.scoring.canned.stock_sentences`). Cancelling rather
than only skipping the stock question was chosen by the rule (docs/validity.md, "a
question in a stock sentence"): the embedding test does not say which of a turn's
questions was the on-topic one. A recipe that makes each turn new (a
fresh number, place and hashtags) but ends it on a question from a bank ("Which filter
would you use?", "Can I repost your <word> pic?") is not canned as a turn, yet asks
nothing about this conversation; a canned turn's questions earn nothing as before
(``not_counted: canned``).

``unit: share`` is a rate, the same scale in a 10-turn chat and a 200-turn game. The
counts grew with the chat (Spearman rho +0.52 with a DSTC9 system's total words, people's
own +0.10); the share does not (-0.14), and with length held out both agree with people's
"inquisitive" equally (docs/appendix/scoring-measurements.md, "Options chosen by measurement"). In a bot-bot game both bots
have about the same number of turns, so the point mostly goes the same way.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal, Sequence

from pydantic import Field

from chatmatch.records import DimensionScore
from chatmatch.scoring.base import Needs, Scorer, ScoringContext
from chatmatch.scoring.common import zero_raw
from chatmatch.scoring.common import credited_turns
from chatmatch.scoring.context import GameAnalysis
from chatmatch.scoring.diversity import RepetitionParams, scored_turns, sigma
from chatmatch.scoring.questions import specific_questions
from chatmatch.scoring.surface import frame_repeat, question_sentences
from chatmatch.scoring.topical import on_topic_questions
from chatmatch.runtime.embed import MINILM, Embedder, get_embedder
from chatmatch.common.text import question_count
from chatmatch.transcript import Transcript, Turn


class Proactivity(Scorer):
    name = "proactivity"
    higher_is_better = True
    description = "questions asked by the bot (Table 1)"
    #: 2026-12-04: a question in a stock sentence is charged against its turn
    rules = "stock questions"

    class Params(RepetitionParams):
        #: count turns that ask (a turn with three questions counts once) or questions
        unit: Literal["turns", "questions", "share"] = "share"
        #: all questions (the paper) or only specific ones (not generic, not repeated)
        questions: Literal["all", "specific", "conversational"] = "conversational"
        #: ``conversational``: the least cosine with the partner's turn before or after
        on_topic: ClassVar[float] = 0.2
        #: ``conversational``: the sentence embedding model (minilm, packaged, or a folder)
        model: ClassVar[str] = MINILM
        #: scale a bot's count up for the turns it spent answering its partner's repeated
        #: questions again (the paper: false)
        excuse_answers: bool = True

    params: Params

    def __init__(self, params: "Proactivity.Params | None" = None, *,
                 embedder: Embedder | None = None) -> None:
        super().__init__(params)
        self._embedder = embedder

    def load(self) -> None:
        if self.params.questions == "conversational":
            self.embedder  # noqa: B018 - loads the model

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = get_embedder(self.params.model)
        return self._embedder

    def needs(self) -> Needs:
        p = self.params
        excuse = frozenset({sigma(p.sigma_r)}) if p.excuse_answers else frozenset()
        model = p.model if p.questions == "conversational" else None
        return Needs(repetitions=p.repetitions_needed() | excuse, model=model)

    def score_games(self, games: Sequence[Transcript],
                    context: ScoringContext | None = None) -> list[DimensionScore]:
        analyses = self.context_for(games, context).games
        if self.params.questions != "conversational":
            return [self.score_game(a.game, a) for a in analyses]
        topical = on_topic_questions([a.game for a in analyses], self.embedder,
                                     self.params.on_topic)
        return [self.score_game(a.game, a, ok) for a, ok in zip(analyses, topical)]

    def score_game(self, game: Transcript, analysis: GameAnalysis | None = None,
                   topical: dict[int, int] | None = None) -> DimensionScore:
        """``game``'s score; ``analysis``: its repetitions, computed by the engine;
        ``topical`` (``questions: conversational``): turn -> its own, on-topic questions."""
        analysis = analysis or GameAnalysis.of(game, self.needs().repetitions)
        raw = zero_raw(game)
        details: list[dict[str, Any]] = []
        asked: dict[str, set[frozenset[str]]] = {p: set() for p in game.players}
        said: dict[int, list[str]] = {}  # turn -> what its speaker said before it
        answered: dict[int, str] = {}  # turn -> the partner's turn just before it
        if topical is not None:
            before: dict[str, list[str]] = {p: [] for p in game.players}
            last: str | None = None
            for t in game.turns:
                if not t.seed:
                    said[t.index] = list(before[t.speaker])
                    before[t.speaker].append(t.text)
                    if last is not None:
                        answered[t.index] = last
                last = t.text
        for turn in scored_turns(analysis, self.params):
            n = question_count(turn.text)
            if n and turn.index in analysis.canned:  # a stock question, asked whatever was said
                details.append(_uncounted(turn, "canned"))
                continue
            if n and topical is not None and frame_repeat(
                    turn.text, said.get(turn.index, []), partner_last=answered.get(turn.index)):
                # the bot's own frame again with a word changed ("Ye speak of X? ... What
                # say ye?"): a stock question, not one asked about this conversation
                details.append(_uncounted(turn, "frame repeated"))
                continue
            why = "generic or asked before"
            if n and self.params.questions != "all":
                n = specific_questions(turn.text, asked[turn.speaker])
            if n and topical is not None:
                n, why = min(n, topical.get(turn.index, 0)), "parroted or off topic"
            # a question in a stock sentence (one the bot asks in game after game whatever
            # was said) cancels one the turn would earn: a bank question costs what a
            # question of the bot's own earns
            mine = analysis.stock.get(turn.index)
            stock = [q for q in question_sentences(turn.text) if q in mine] if mine else []
            if n and stock:
                n = max(0, n - len(stock))
                why = "stock question" if not n else why
            if n:
                raw[turn.speaker] += n if self.params.unit == "questions" else 1
                details.append({"turn": turn.index, "speaker": turn.speaker, "questions": n})
            elif question_count(turn.text):  # a stock question's detail quotes it
                details.append(_uncounted(turn, why)
                               | ({"stock": stock} if why == "stock question" else {}))
        details = _with_repetitions(analysis, details)
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


def _uncounted(turn: Turn, why: str) -> dict[str, Any]:
    """The detail of a turn whose questions earn nothing, and why."""
    return {"turn": turn.index, "speaker": turn.speaker, "questions": 0,
            "asked": question_count(turn.text), "not_counted": why}


def _with_repetitions(analysis: GameAnalysis, details: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``details`` with the asking turns left out as repetitions, in turn order."""
    listed = {d["turn"] for d in details}
    left_out = [_uncounted(t, "repetition") for t in credited_turns(analysis.game)
                if t.index not in listed and question_count(t.text)]
    return sorted(details + left_out, key=lambda d: int(d["turn"])) if left_out else details

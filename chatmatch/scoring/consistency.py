"""Consistency: how often a bot contradicts its earlier answers (Algorithm 2; higher is better).

After a repeated question (Algorithm 1, :mod:`chatmatch.scoring.diversity`) the other bot's
answer is *tested* against the answers it gave when the question was asked before
(``compare: all``, the default, or ``original``), and is *inconsistent* when its
``similarity`` to one of them is at most ``sigma_c``: ``embedding`` (the default; sentence
embeddings, :mod:`chatmatch.runtime.embed`, with the ``polarity`` check of
:func:`chatmatch.scoring.contradiction.answer_negative`) or ``tfidf`` (the paper).
``questions: specific`` tests only questions that hold a content word
(:func:`chatmatch.scoring.questions.asks_something`).

With ``self_contradictions`` (:mod:`chatmatch.scoring.contradiction`) a bot's statements are
also tested against its own earlier statements, and with ``identity``
(:mod:`chatmatch.scoring.identity`) its identity facts (age, name, job, ...), so the
dimension applies in nearly every game. Answers are charged to the bot that answered,
never to the bot that repeated the question; an empty answer contradicts nothing.

Raw score (``score``): ``rate`` (default), minus the share of tested answers that are
inconsistent; a bot never tested has NaN (``DimensionScore.not_applicable``) and nobody
wins the point; ``count`` (the paper), minus the number of inconsistent answers.
``sigma_r`` left unset takes diversity's value. Details list every tested answer with the
earlier answers it was compared with.

A turn that says the bot's own earlier turn or frame again, or echoes its partner's turn
(verbatim or lightly edited: :data:`chatmatch.scoring.fluency_tokens.RECIPE_TURNS`), tests
no self-contradiction or identity fact (``degenerate: untested``, the default): a line said
again agrees with itself and proves nothing, and counted as tests such turns made the bot
that repeats itself the most consistent bot there is.

Every option, its default and the measurement that chose it: docs/scoring.md
("Consistency") and docs/appendix/validity-measurements.md.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar, Literal, Sequence

import numpy as np

from pydantic import model_validator

from chatmatch.records import DimensionScore
from chatmatch.scoring.base import FollowsSigmaR, Needs, Scorer, ScorerParams, ScoringContext
from chatmatch.scoring.common import credited_turns, zero_raw
from chatmatch.scoring.context import GameAnalysis
from chatmatch.scoring.contradiction import (DEFAULT_SIGMA_S, answer_negative, check_spacy,
                                             check_turns, same_predicate, similarity_matrix,
                                             statements)
from chatmatch.scoring.diversity import sigma
from chatmatch.scoring.fluency_tokens import RECIPE_TURNS, degenerate_turns
from chatmatch.runtime.embed import MINILM, Embedder, check_embedder, get_embedder
from chatmatch.scoring.identity import Fact, identity_changes
from chatmatch.scoring.repetitions import Repetition
from chatmatch.common.text import is_empty
from chatmatch.transcript import Transcript

DEFAULT_SIGMA_C = 0.8
#: sigma_c of ``similarity: embedding`` (embedding cosines run higher than TF-IDF's on
#: unrelated text, lower on exact repeats of short turns)
DEFAULT_SIGMA_C_EMBEDDING = 0.5


def earlier_answers(game: Transcript, t: int, question: Repetition, compare: str) -> list[int]:
    """The answers by ``t``'s speaker to the earlier askings of the question repeated at
    ``t - 1`` (``compare``: ``all`` or ``original``), oldest first; empty ones left out."""
    turns = game.turns
    asked = question.questions if compare == "all" else (question.question_of,)
    out = []
    for q in sorted(u for u in asked if u is not None):
        res = q + 1
        if res < t - 1 and turns[res].speaker == turns[t].speaker and not is_empty(turns[res].text):
            out.append(res)
    return out


def self_statements(games: Sequence[GameAnalysis]) -> list[str]:
    """The statements the self-contradiction check embeds: each bot's, in a game where it
    made two or more."""
    out: list[str] = []
    for a in games:
        for p in a.game.players:
            own = [s.text for t in credited_turns(a.game) if t.speaker == p
                   for s in statements(t.index, t.text)]
            out += own if len(own) > 1 else []
    return out


class Consistency(Scorer):
    name = "consistency"
    higher_is_better = True
    description = ("share of the bot's tested turns (answers to repeated questions, restated "
                   "statements and identity facts) that contradict what it said before")

    class Params(FollowsSigmaR):
        #: embedding (default: meaning; all-MiniLM-L6-v2) or tfidf (the paper)
        similarity: Literal["tfidf", "embedding"] = "embedding"
        #: an answer about the same thing (cosine >= sigma_s) with the opposite polarity is
        #: inconsistent too ("i love jazz" / "i hate jazz"); None: on for embedding, off for tfidf
        polarity: bool | None = None
        #: also test each statement against the bot's own earlier statements; None: on for
        #: embedding, off for tfidf (it compares statements by meaning)
        self_contradictions: bool | None = None
        #: which statement pairs about the same thing contradict: same_predicate (opposite
        #: polarity and the same main verb, by a spaCy parse) or polarity (opposite polarity)
        contradiction: Literal["same_predicate", "polarity"] = "same_predicate"
        #: also test each identity fact the bot states (human or bot, age, name, job, home;
        #: chatmatch.scoring.identity) against the facts it stated before in the same slot
        identity: bool = True
        #: the cosine at or below which two answers are inconsistent (None: 0.8 for
        #: tfidf, 0.5 for embedding)
        sigma_c: ClassVar[float | None] = None
        #: topic similarity of two statements (or answers) about the same thing
        sigma_s: ClassVar[float] = DEFAULT_SIGMA_S
        #: the sentence embedding model (packaged)
        model: ClassVar[str] = MINILM
        #: rate: minus the share of tested answers that are inconsistent, an untested bot
        #: wins nothing; count (paper): minus the number of inconsistent answers
        score: Literal["rate", "count"] = "rate"
        #: all (authors' scorer): every earlier answer to the question; original (paper's
        #: pseudo-code): only the answer to Algorithm 1's original question
        compare: Literal["all", "original"] = "all"
        #: ``untested`` (default): a turn that repeats the bot's own turn or frame, or echoes
        #: the partner's (chatmatch.scoring.surface) is no test of self-contradictions or
        #: identity facts (saying the same line again proves nothing); ``tested`` counts it
        degenerate: Literal["untested", "tested"] = "untested"

        @model_validator(mode="after")
        def _self_needs_embedding(self) -> "Consistency.Params":
            for key in ("self_contradictions", "polarity"):
                if getattr(self, key) and self.similarity != "embedding":
                    raise ValueError(f"{key}: true needs similarity: embedding "
                                     "(statements are compared by meaning)")
            return self

        def checks_polarity(self) -> bool:
            return self.similarity == "embedding" if self.polarity is None else self.polarity

        def checks_self(self) -> bool:
            if self.self_contradictions is None:
                return self.similarity == "embedding"
            return self.self_contradictions

        def threshold(self) -> float:
            if self.sigma_c is not None:
                return self.sigma_c
            return DEFAULT_SIGMA_C if self.similarity == "tfidf" else DEFAULT_SIGMA_C_EMBEDDING

    params: Params

    def __init__(self, params: ScorerParams | None = None, *, embedder: Embedder | None = None) -> None:
        super().__init__(params)
        self._embedder = embedder

    @property
    def embedder(self) -> Embedder:
        """The sentence embedder, loaded on first use (once per process)."""
        if self._embedder is None:
            self._embedder = get_embedder(self.params.model)
        return self._embedder

    def load(self) -> None:
        """Check that the embedding model (and, for ``contradiction: same_predicate``, the
        spaCy pipeline) can be loaded; each is loaded when first needed (a run whose bots
        never repeat a question nor state two things about themselves loads neither)."""
        if self.params.similarity == "embedding" and self._embedder is None:
            check_embedder(self.params.model)
        if self.params.checks_self() and self.params.contradiction == "same_predicate":
            check_spacy()

    def needs(self) -> Needs:
        return Needs(repetitions=frozenset({sigma(self.params.sigma_r)}),
                     similarity=self.params.similarity == "tfidf", model=self.params.model)

    def score_games(self, games: Sequence[Transcript],
                    context: ScoringContext | None = None) -> list[DimensionScore]:
        context = self.context_for(games, context)
        if self.params.similarity == "embedding":  # the tested answers, in one batched call
            texts = [a.game.turns[i].text for a in context.games
                     for t, _, earlier in self._answers(a) for i in (t, *earlier)]
            if self.params.checks_self():  # and every statement with another by its bot
                texts += self_statements(context.games)
            if texts:
                self.embedder.embed(texts)
        return [self.score_game(a.game, a) for a in context.games]

    def _answers(self, analysis: GameAnalysis) -> list[tuple[int, int, list[int]]]:
        """Each tested answer: its turn, the original question of the repeated question it
        answers and the earlier answers it is compared with."""
        turns = analysis.game.turns
        reps = analysis.repetitions(sigma(self.params.sigma_r))
        out = []
        for t in range(1, len(turns)):
            prev = reps.get(t - 1)
            if prev is None or prev.question_of is None or turns[t].seed:
                continue
            if turns[t].speaker == turns[t - 1].speaker or is_empty(turns[t].text):
                continue  # not an answer to the repeated question, or an empty one
            earlier = earlier_answers(analysis.game, t, prev, self.params.compare)
            if earlier:
                out.append((t, prev.question_of, earlier))
        return out

    def _similarities(self, analysis: GameAnalysis, t: int, earlier: list[int]) -> np.ndarray:
        if self.params.similarity == "embedding":
            texts = [x.text for x in analysis.game.turns]
            sims: np.ndarray = similarity_matrix(self.embedder, [texts[t]], [texts[e] for e in earlier])[0]
            return sims
        tfidf: np.ndarray = analysis.similarity().block([t], earlier)[0]
        return tfidf

    def _flips(self, game: Transcript, t: int, earlier: list[int], sims: np.ndarray) -> list[bool]:
        """Per earlier answer: about the same thing with the opposite polarity (``polarity``)."""
        if not self.params.checks_polarity():
            return [False] * len(earlier)
        neg = answer_negative(game.turns[t].text)
        return [bool(v >= self.params.sigma_s) and answer_negative(game.turns[e].text) != neg
                for e, v in zip(earlier, sims)]

    def score_game(self, game: Transcript, analysis: GameAnalysis | None = None) -> DimensionScore:
        """``game``'s score; ``analysis``: its repetitions and TF-IDF vectors, from the engine."""
        needs = self.needs()
        analysis = analysis or GameAnalysis.of(game, needs.repetitions, needs.similarity)
        bad, tested = zero_raw(game), zero_raw(game)
        details: list[dict[str, Any]] = []
        for t, original, earlier in self._answers(analysis):
            sims = self._similarities(analysis, t, earlier)
            flips = self._flips(game, t, earlier, sims)
            inconsistent = bool((sims <= self.params.threshold()).any()) or any(flips)
            speaker = game.turns[t].speaker
            tested[speaker] += 1
            bad[speaker] += inconsistent
            details.append({"turn": t, "speaker": speaker, "repeated_question": t - 1,
                            "original_question": original,
                            "original_answer": original + 1,
                            "compared": [{"answer": e, "similarity": round(float(v), 4),
                                          **({"opposite_polarity": True} if f else {})}
                                         for e, v, f in zip(earlier, sims, flips)],
                            "similarity": round(float(sims.min()), 4),
                            "inconsistent": inconsistent})
        if self.params.checks_self():
            self._self_check(game, tested, bad, details, analysis.canned)
        if self.params.identity:
            self._identity_check(game, tested, bad, details, analysis.canned)
        if self.params.score == "count":
            raw = {p: 0.0 - bad[p] for p in game.players}
            return DimensionScore(self.name, raw, self.higher_is_better, details)
        raw = {p: (0.0 - bad[p] / tested[p] if tested[p] else math.nan) for p in game.players}
        untested = tuple(p for p in game.players if not tested[p])
        return DimensionScore(self.name, raw, self.higher_is_better, details, untested)

    def _degenerate(self, game: Transcript, canned: frozenset[int]) -> set[int]:
        """The turns that test nothing under ``degenerate: untested`` (``canned``: the
        game's canned turns)."""
        if self.params.degenerate == "tested":
            return set()
        return {t for t, why in degenerate_turns(game, canned).items() if why in RECIPE_TURNS}

    def _identity_check(self, game: Transcript, tested: dict[str, float], bad: dict[str, float],
                        details: list[dict[str, Any]], canned: frozenset[int] = frozenset()) -> None:
        """Add each bot's identity restatements (a turn already tested is not tested twice):
        tested when it states a slot it stated before, inconsistent when the value changed."""
        done = {d["turn"] for d in details} | self._degenerate(game, canned)
        for p in game.players:
            own = [(t.index, t.text) for t in credited_turns(game) if t.speaker == p]
            restated, changes = identity_changes(own)
            restated -= done
            tested[p] += len(restated)
            changed: dict[int, tuple[Fact, Fact]] = {}
            for earlier, later in changes:
                changed.setdefault(later.turn, (earlier, later))
            for turn, (earlier, later) in sorted(changed.items()):
                if turn not in restated:
                    continue
                bad[p] += 1
                details.append({"turn": turn, "speaker": p, "identity": later.slot,
                                "statement": later.sentence, "earlier_turn": earlier.turn,
                                "earlier_statement": earlier.sentence, "inconsistent": True})
        details.sort(key=lambda d: int(d["turn"]))

    def _self_check(self, game: Transcript, tested: dict[str, float], bad: dict[str, float],
                    details: list[dict[str, Any]], canned: frozenset[int] = frozenset()) -> None:
        """Add each bot's self-contradictions (a turn already tested as an answer to a
        repeated question is not tested twice)."""
        done = {d["turn"] for d in details} | self._degenerate(game, canned)
        for p in game.players:
            own = [(t.index, t.text) for t in credited_turns(game) if t.speaker == p]
            pair = same_predicate if self.params.contradiction == "same_predicate" else None
            checked, found = check_turns(own, lambda texts: self.embedder.embed(texts),
                                         self.params.sigma_s, pair)
            checked -= done
            tested[p] += len(checked)
            for c in found:
                if c.turn not in checked:
                    continue
                bad[p] += 1
                details.append({"turn": c.turn, "speaker": p, "self_contradiction": True,
                                "statement": c.statement, "earlier_turn": c.earlier_turn,
                                "earlier_statement": c.earlier, "similarity": c.similarity,
                                "inconsistent": True})
        details.sort(key=lambda d: int(d["turn"]))

"""Relevance: how well a bot's turns answer what was just said (higher is better).

The default (``method: reply, restating: discounted``, chosen by measurement: the last
paragraphs) compares each reply's meaning with the turn it answers and discounts what it
merely restates. The paper's rule, memory bonuses (Algorithm 3), is ``method: recall``
(``preset: paper``), described first.

Concepts are the lemmas of content words -- nouns, proper nouns, verbs, adjectives that
are not stop words -- from spaCy (``spacy_model``; the pass is shared with knowledge).
The *IDF list* ranks the game's concepts by IDF over the game's turns (every turn, the
seed included, is a document), rarest first. Only concepts used in at least ``min_df``
turns (default 2) enter the list: a concept used once can never be remembered, and with
the long tail of one-off words in a chat the top ``p`` of an unfiltered list would be all
one-off words, so no turn could ever earn a bonus. The important concepts are the first
``ceil(p * size)`` of the list (default ``p = 0.5``, the top 50%), and every concept
tied in IDF with the last of them.

Turn ``t`` earns one bonus (at most one per turn) when it uses an important concept whose
previous mention is more than ``d`` turns back (default ``d = 1``: echoing the turn just
before is not memory). With ``own_concepts: true`` (the default, the paper's rule) a
previous mention by either speaker counts. With ``own_concepts: false`` the concept must
not be the bot's own: the latest earlier mention of the concept, by anyone, must be by the
partner or the seed (so after the bot has used a concept itself, it earns nothing for it
again until the partner uses it again). The validity lab measured both
(docs/validity.md): ``false`` made relevance alone rank Spot The Bot's convai2 systems
about at random (tau -0.07, ``true`` +0.60) and lose the ladder's known order (0.00,
``true`` +1.00), so the paper's rule is the default.

A first mention earns nothing. Seed turns earn nothing but count as mentions. Turns that
diversity penalises as repetitions earn nothing either (``skip_repetitions``, default true;
the paper credited them), though they still count as mentions. Details list each bonus
turn with the concepts, where they were last mentioned and by whom.

``unit`` says what the raw score is. A turn's *recalled* concepts are the important ones it
brings back under the rule above (none in a left-out repetition); its *concepts* are its
distinct concepts. Over the bot's credited turns (the seed excluded):

* ``turn_sqrt`` (the default): the mean over the bot's turns of
  ``recalled / sqrt(concepts)``, 0 for a turn that recalls nothing -- a concept-less turn
  ("I don't know."), a repetition, a turn of new content only. Neither the number of
  turns nor their length drives it: a rate over turns, and a long turn's extra concepts
  dilute its credit (recalling 1 of 4 concepts earns 0.5, 1 of 1 earns 1, 2 of 4 earns 1);
* ``count`` (the paper, ``preset: paper``): the number of bonus turns -- it grows with the
  chat (on DSTC9 rho +0.77 with a system's total words);
* ``per_turn``: that count over the bot's turns -- longer turns hold more concepts and
  earn bonuses more often (rho +0.53 with turn length);
* ``per_concept``: recalled concepts over all the concepts of the bot's turns;
  ``per_concept_charged`` the same with a concept-less turn charged as one unrecalled
  concept; ``turn_share``: the mean over turns of ``recalled / concepts``. All three
  are free of length but over-correct: a long turn that recalls one concept among many
  new ones counts as almost nothing, so a bot of short turns gains, and alone on the
  fault ladder they rank one pair wrong (+0.67; ``per_concept`` and
  ``per_concept_charged`` also put reask-60 above reask-30 in the repeated-questions
  family).

The square root sits between the count per turn (length-biased upward) and the share
(biased downward); it is the cosine normaliser of the overlap of the turn's concept set
with what it recalls. Measured (docs/appendix/validity-measurements.md, "Relevance without length"): chat rho
with a DSTC9 system's mean turn words / total words +0.42 / +0.24 (the count +0.39 /
+0.77), system tau with people's "coherent" +0.38 and "topic depth" +0.45 (per_concept
+0.31 / +0.38; the count +0.56 / +0.64, through chat length), FED +1.00; and the known
orders hold (ladder alone +1.00, both ladder families).

``take_up: true`` (an option) also credits the concepts a turn takes up from the partner's
turn just before it (any concept: the reply to what was just said, not only memory; a
verbatim echo of that turn earns nothing). With ``turn_sqrt`` it agrees better with people
on DSTC9 (system tau +0.53 / +0.60, chat rho +0.16 / +0.15, the best with length held
out) but follows turn length (rho +0.50) and ranks the repeated-questions family wrong
under TrueSkill (reask-60 above reask-30), so it is not the default.

``method: reply`` (the default; the ``hf`` extra) scores each turn's reply to what was just
said by its meaning instead of Algorithm 3: the bot's raw score is the mean over its
credited turns of the sentence-embedding cosine (``model``: all-MiniLM-L6-v2, loaded once
per process) with the partner's turn just before it; a turn earns 0 when the cosine is
negative, when it is empty, a penalised repetition (``skip_repetitions``) or a near-copy
of that turn (cosine >= ``sigma_r``, 0.95 by default: an echo). ``unit``, ``p``, ``d``,
``min_df``, ``own_concepts`` and ``take_up`` do not apply to it; its details list each
credited turn with the turn it answers and the cosine.

``restating: discounted`` (the default) multiplies each cosine by the share of the turn's
content words (not stop words) that the turn it answers did not hold. Without it
(``credited``) restating the partner is the closest reply there is: against "I went
hiking in the mountains last weekend with my brother." an ELIZA reflection ("Why do you
say you went hiking ...?") scores 0.83 and an agreeing echo 0.87, an on-topic answer that
adds something 0.43; discounted they earn 0.14, 0.17 and 0.43. Measured in
docs/validity.md ("Relevance on meaning, restating discounted: the default"): on all
DSTC9 chats system tau +0.49 / +0.56 with "coherent" / "topic depth" (``turn_sqrt``
+0.38 / +0.45), chat rho +0.19 (+0.06); FED chat rho +0.45 with "Coherent" (+0.11); not a
length proxy (rho +0.17 / +0.15 with turn / total words); the fault ladder +1.000 alone
and in every leave-one-out row, the ladder families right.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal, Sequence

from pydantic import Field

from chatmatch.records import DimensionScore
from chatmatch.scoring.base import Needs, ScoringContext
from chatmatch.scoring.common import zero_raw
from chatmatch.scoring.context import GameAnalysis
from chatmatch.scoring.diversity import RepetitionParams, sigma, skipped_turns
from chatmatch.runtime.embed import MINILM, Embedder, get_embedder
from chatmatch.scoring.features import LEMMAS
from chatmatch.scoring.fluency_tokens import RECIPE_TURNS, degenerate_turns
from chatmatch.scoring.knowledge import SpacyParams, SpacyScorer
from chatmatch.transcript import Transcript, Turn


def important_concepts(lemmas: Sequence[Sequence[str]], p: float, min_df: int) -> set[str]:
    """The top ``p`` of the game's concepts by IDF (ties with the last one included)."""
    df = Counter(lemma for turn in lemmas for lemma in set(turn))
    ranked = sorted((lemma for lemma, n in df.items() if n >= min_df), key=lambda x: (df[x], x))
    if not ranked:
        return set()
    cutoff = df[ranked[math.ceil(p * len(ranked)) - 1]]
    return {lemma for lemma in ranked if df[lemma] <= cutoff}


class Relevance(SpacyScorer):
    name = "relevance"
    higher_is_better = True
    description = "turns that bring back an important earlier concept (Algorithm 3)"
    spacy_needs = frozenset({LEMMAS})

    class Params(SpacyParams, RepetitionParams):
        p: float = Field(default=0.5, gt=0.0, le=1.0)
        d: int = Field(default=1, ge=0)
        min_df: int = Field(default=2, ge=1)
        #: a concept last mentioned by the bot itself earns a bonus too (the paper: true)
        own_concepts: bool = True
        #: also credit the concepts a turn takes up from the partner's turn just before it
        #: (any concept, at any distance; a verbatim echo of that turn earns nothing)
        take_up: bool = False
        #: reply (the default: the mean over the bot's turns of the sentence-embedding
        #: cosine with the partner's turn just before) or recall (Algorithm 3, in ``unit``)
        method: Literal["recall", "reply"] = "reply"
        #: ``method: reply``: ``discounted`` (default) multiplies a turn's cosine by the share
        #: of its content words not taken from the turn it answers (a reflection or an
        #: agreeing echo of the partner earns little); ``credited`` does not
        restating: Literal["credited", "discounted"] = "discounted"
        #: the sentence embedding model of ``method: reply``: minilm (packaged) or a folder
        model: str = Field(default=MINILM, min_length=1)
        #: turn_sqrt (mean over turns of recalled / sqrt(concepts)), count (the paper),
        #: per_turn, per_concept, per_concept_charged or turn_share (module docstring)
        unit: Literal["turn_sqrt", "count", "per_turn", "per_concept", "per_concept_charged",
                      "turn_share"] = "turn_sqrt"
        #: ``zero`` (default): a turn that repeats the bot's own turn or frame, or echoes
        #: the partner's turn verbatim or lightly edited (chatmatch.scoring.surface) earns
        #: nothing; ``keep`` (the paper) scores it as any turn
        degenerate: Literal["zero", "keep"] = "zero"

    params: Params

    def __init__(self, params: Params | None = None, *, embedder: Embedder | None = None) -> None:
        super().__init__(params)
        self._embedder = embedder

    @property
    def embedder(self) -> Embedder | None:
        """The sentence embedder of ``method: reply`` (None for recall)."""
        if self.params.method != "reply":
            return None
        if self._embedder is None:
            self._embedder = get_embedder(self.params.model)
        return self._embedder

    def load(self) -> None:
        if self.params.method == "reply":
            self.embedder  # noqa: B018 - loads the model
        else:
            super().load()

    def needs(self) -> Needs:
        p = self.params
        if p.method == "reply":
            return Needs(repetitions=p.repetitions_needed(), model=p.model)
        return Needs(spacy=self.spacy_need(), repetitions=p.repetitions_needed())

    def score_games(self, games: Sequence[Transcript],
                    context: ScoringContext | None = None) -> list[DimensionScore]:
        context = self.context_for(games, context)
        if self.embedder is not None:
            vectors = self.embedder.embed([t.text for g in games for t in g.turns])
            out, start = [], 0
            for a in context.games:
                n = len(a.game.turns)
                raw, details = reply_similarity(a.game, vectors[start:start + n],
                                                self.skipped(a),
                                                sigma(self.params.sigma_r),
                                                self.params.restating == "discounted")
                out.append(DimensionScore(self.name, raw, self.higher_is_better, details))
                start += n
            return out
        texts = [t.text for g in games for t in g.turns]
        feats = iter(context.spacy_features(texts, self.spacy_need()))
        return [self._score(a, [next(feats).lemmas or () for _ in a.game.turns])
                for a in context.games]

    def skipped(self, analysis: GameAnalysis) -> frozenset[int]:
        """The turns that earn nothing: left-out repetitions, and with ``degenerate: zero``
        the repeats, frames and echoes of :data:`RECIPE_TURNS`."""
        skip = skipped_turns(analysis, self.params)
        if self.params.degenerate == "keep":
            return skip
        found = degenerate_turns(analysis.game)
        return skip | {t for t, why in found.items() if why in RECIPE_TURNS}

    def _score(self, analysis: GameAnalysis, lemmas: list[tuple[str, ...]]) -> DimensionScore:
        p, game = self.params, analysis.game
        marks, details = recall_marks(game, lemmas, self.skipped(analysis), p)
        return DimensionScore(self.name, unit_scores(game, marks, p.unit), self.higher_is_better,
                              details)


@dataclass(frozen=True)
class Mark:
    """One credited turn's part in relevance: its speaker, how many distinct concepts it
    holds, and how many of them it brings back under the rule (0 for a left-out
    repetition)."""

    speaker: str
    concepts: int
    recalled: int


def recall_marks(game: Transcript, lemmas: Sequence[Sequence[str]], skip: frozenset[int],
                 p: Relevance.Params) -> tuple[list[Mark], list[dict[str, Any]]]:
    """Every credited turn's :class:`Mark`, and the details (the bonus turns)."""
    important = important_concepts(lemmas, p.p, p.min_df)
    turns = game.turns
    last_seen: dict[str, int] = {}
    marks: list[Mark] = []
    details: list[dict[str, Any]] = []
    for t, (turn, found) in enumerate(zip(turns, lemmas)):
        concepts = sorted(set(found))
        hits = [{"lemma": c, "previous_turn": last_seen[c]} for c in concepts
                if c in important and c in last_seen and t - last_seen[c] > p.d
                and (p.own_concepts or not _own(turns[last_seen[c]], turn))]
        if p.take_up and not turn.seed:
            hits += _taken_up(turns, lemmas, t, {str(h["lemma"]) for h in hits})
        if not turn.seed:
            credited = bool(hits) and t not in skip
            marks.append(Mark(turn.speaker, len(concepts), len(hits) if credited else 0))
            if credited:
                details.append({"turn": t, "speaker": turn.speaker, "concepts": hits})
        last_seen.update((c, t) for c in concepts)
    return marks, details


def unit_scores(game: Transcript, marks: Sequence[Mark], unit: str) -> dict[str, float]:
    """Each player's raw score in ``unit`` from the marks of its turns."""
    raw = zero_raw(game)
    for q in raw:
        mine = [m for m in marks if m.speaker == q]
        bonus = sum(1 for m in mine if m.recalled)
        if unit == "count":
            raw[q] = float(bonus)
        elif unit == "per_turn":
            raw[q] = bonus / len(mine) if mine else 0.0
        elif unit == "per_concept":
            used = sum(m.concepts for m in mine)
            raw[q] = sum(m.recalled for m in mine) / used if used else 0.0
        elif unit == "per_concept_charged":  # a concept-less turn: one unrecalled concept
            used = sum(max(m.concepts, 1) for m in mine)
            raw[q] = sum(m.recalled for m in mine) / used if used else 0.0
        else:  # turn_share / turn_sqrt: a mean over the bot's turns (empty ones: 0)
            power = 1.0 if unit == "turn_share" else 0.5
            raw[q] = (sum(m.recalled / m.concepts ** power for m in mine if m.recalled) / len(mine)
                      if mine else 0.0)
    return raw


def reply_similarity(game: Transcript, vectors: Any, skip: frozenset[int],
                     echo: float, discount: bool = False) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """``method: reply``: each player's mean over its credited turns of the cosine of the
    turn's vector with the partner's turn just before it (0 when negative, for a skipped
    repetition, an empty turn, or a near-copy of that turn: cosine >= ``echo``); with
    ``discount``, times the share of the turn's content words not in that turn."""
    total, turns = zero_raw(game), Counter[str]()
    details: list[dict[str, Any]] = []
    for t, turn in enumerate(game.turns):
        if turn.seed:
            continue
        turns[turn.speaker] += 1
        before = _turn_before(game.turns, t)
        if before is None or t in skip or not turn.text.strip():
            continue
        cos = float(vectors[t] @ vectors[before])
        if 0.0 < cos < echo:
            new = new_share(turn.text, game.turns[before].text) if discount else 1.0
            total[turn.speaker] += cos * new
            details.append({"turn": t, "speaker": turn.speaker, "answers": before,
                            "similarity": round(cos, 4),
                            **({"new_words": round(new, 4)} if discount else {})})
    return {q: v / turns[q] if turns[q] else 0.0 for q, v in total.items()}, details


def new_share(text: str, answered: str) -> float:
    """The share of ``text``'s content words (not stop words) absent from ``answered``;
    1 when it has none (nothing restated)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    words = [w for w in _words(text) if w not in ENGLISH_STOP_WORDS]
    if not words:
        return 1.0
    taken = set(_words(answered))
    return sum(w not in taken for w in words) / len(words)


def _turn_before(turns: Sequence[Turn], t: int) -> int | None:
    """The partner's turn just before turn ``t`` (the seed is nobody's own turn)."""
    return next((u for u in range(t - 1, -1, -1)
                 if turns[u].speaker != turns[t].speaker or turns[u].seed), None)


def _taken_up(turns: Sequence[Turn], lemmas: Sequence[Sequence[str]], t: int,
              recalled: set[str]) -> list[dict[str, Any]]:
    """``take_up``: the concepts of turn ``t`` (not already ``recalled``) that the partner's
    turn just before it used; none when ``t`` echoes that turn verbatim."""
    before = _turn_before(turns, t)
    if before is None or _words(turns[t].text) == _words(turns[before].text):
        return []
    return [{"lemma": c, "previous_turn": before}
            for c in sorted(set(lemmas[t]) & set(lemmas[before])) if c not in recalled]


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def _own(previous: Turn, turn: Turn) -> bool:
    """The previous mention was the bot's own turn (the seed is nobody's own)."""
    return previous.speaker == turn.speaker and not previous.seed

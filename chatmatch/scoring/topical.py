"""On topic: whether what a bot says belongs to the conversation (proactivity's
``conversational`` questions, knowledge's ``in_context`` entities).

A piece of a turn (a question, a turn naming an entity) is *on topic* when its sentence
embedding (all-MiniLM-L6-v2 unless configured) has a cosine of at least ``threshold`` with
the partner's turn just before it: it answers to what was said. A turn naming an entity is
tested on its *own words* (:func:`~chatmatch.scoring.surface.own_words`: the turn without
the content words it takes from the partner's turn): a template around the partner's noun
("Did you know greenhouse is classed as a building? Even Pliny the Elder described it.")
is close to the partner's turn through the noun alone, so the names stuffed into it are not
on topic, and a turn whose every content word is the partner's brings none. Questions are
tested on their whole text: own words for them too measured worse by the rule and left the
fifth recipe family failing (docs/validity.md, "The default by the rule: entities on the
turn's own words").

What the partner does next does not count: a polite partner takes up whatever it is told (SmolLM2 and the retrieval
bot followed a recipe's "speaking of <word>, Beethoven was almost deaf ..." every time), so
"taken up by the partner" credited recipes for their partner's manners (docs/validity.md,
"Recipe families written blind"). Every text of a scoring call is embedded in one batch.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from chatmatch.runtime.embed import Embedder
from chatmatch.scoring.surface import own_words, parroted, question_sentences
from chatmatch.transcript import Transcript, Turn


def partner_before(turns: Sequence[Turn], t: int) -> int | None:
    """The partner's turn just before turn ``t`` (the seed counts as the partner's)."""
    me = turns[t].speaker
    return next((u for u in range(t - 1, -1, -1) if turns[u].speaker != me or turns[u].seed),
                None)


class _Batch:
    """Texts to embed, deduplicated, embedded once."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def add(self, text: str) -> int:
        return self.index.setdefault(text, len(self.index))

    def add_own(self, text: str, partner_last: str | None) -> int | None:
        """Add ``text``'s own words (None when it has none: never on topic)."""
        own = own_words(text, partner_last)
        return self.add(own) if own else None

    def embed(self, embedder: Embedder) -> np.ndarray:
        return embedder.embed(list(self.index)) if self.index else np.zeros((0, 1))


def _close(vectors: np.ndarray, piece: int | None, before: int | None,
           threshold: float) -> bool:
    return (piece is not None and before is not None
            and float(vectors[piece] @ vectors[before]) >= threshold)


def on_topic_questions(games: Sequence[Transcript], embedder: Embedder,
                       threshold: float) -> list[dict[int, int]]:
    """Per game, turn index -> how many of its questions are the bot's own (not
    :func:`~chatmatch.scoring.surface.parroted`) and on topic (the question's text close
    to the partner's turn before it)."""
    batch = _Batch()
    plan: list[list[tuple[int, list[int], int | None]]] = []
    for game in games:
        turns, items = game.turns, []
        partner_qs: dict[str, list[str]] = {p: [] for p in game.players}
        for t, turn in enumerate(turns):
            qs = question_sentences(turn.text)
            before = partner_before(turns, t)
            last = turns[before].text if before is not None else None
            other = [p for p in game.players if p != turn.speaker]
            own = [q for q in qs if not parroted(q, partner_qs[other[0]] if other else [], last)]
            partner_qs.setdefault(turn.speaker, []).extend(qs)
            if own and not turn.seed:
                end = None if last is None else batch.add(last)
                items.append((t, [batch.add(q) for q in own], end))
        plan.append(items)
    vectors = batch.embed(embedder)
    return [{t: sum(_close(vectors, q, end, threshold) for q in qs) for t, qs, end in items}
            for items in plan]


def on_topic_turns(games: Sequence[Transcript], wanted: Sequence[set[int]],
                   embedder: Embedder, threshold: float) -> list[set[int]]:
    """Per game, the turns of ``wanted`` (turn indices) that are on topic: the turn's own
    words close to the partner's turn before it."""
    batch = _Batch()
    plan: list[list[tuple[int, int | None, int | None]]] = []
    for game, want in zip(games, wanted):
        items = []
        for t in sorted(want):
            before = partner_before(game.turns, t)
            last = None if before is None else game.turns[before].text
            end = None if last is None else batch.add(last)
            items.append((t, batch.add_own(game.turns[t].text, last), end))
        plan.append(items)
    vectors = batch.embed(embedder)
    return [{t for t, me, end in items if _close(vectors, me, end, threshold)}
            for items in plan]

"""On topic: whether what a bot says belongs to the conversation (proactivity's
``conversational`` questions, knowledge's ``in_context`` entities).

A piece of a turn (a question, a sentence naming an entity) is *on topic* when its sentence
embedding (all-MiniLM-L6-v2 unless configured) has a cosine of at least ``threshold`` with
the partner's turn just before it (relevant to the context) or just after it (taken up by
the partner). Every text of a scoring call is embedded in one batch.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from chatmatch.runtime.embed import Embedder
from chatmatch.scoring.surface import parroted, question_sentences
from chatmatch.transcript import Transcript, Turn


def partner_turns(turns: Sequence[Turn], t: int) -> tuple[int | None, int | None]:
    """The partner's turns just before and just after turn ``t`` (the seed counts as the
    partner's)."""
    me = turns[t].speaker
    before = next((u for u in range(t - 1, -1, -1)
                   if turns[u].speaker != me or turns[u].seed), None)
    after = next((u for u in range(t + 1, len(turns)) if turns[u].speaker != me), None)
    return before, after


class _Batch:
    """Texts to embed, deduplicated, embedded once."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def add(self, text: str) -> int:
        return self.index.setdefault(text, len(self.index))

    def embed(self, embedder: Embedder) -> np.ndarray:
        return embedder.embed(list(self.index)) if self.index else np.zeros((0, 1))


def _close(vectors: np.ndarray, piece: int, turns: Sequence[int | None],
           threshold: float) -> bool:
    return any(u is not None and float(vectors[piece] @ vectors[u]) >= threshold for u in turns)


def on_topic_questions(games: Sequence[Transcript], embedder: Embedder,
                       threshold: float) -> list[dict[int, int]]:
    """Per game, turn index -> how many of its questions are the bot's own (not
    :func:`~chatmatch.scoring.surface.parroted`) and on topic."""
    batch = _Batch()
    plan: list[list[tuple[int, list[int], tuple[int | None, int | None]]]] = []
    for game in games:
        turns, items = game.turns, []
        partner_qs: dict[str, list[str]] = {p: [] for p in game.players}
        for t, turn in enumerate(turns):
            qs = question_sentences(turn.text)
            before, after = partner_turns(turns, t)
            last = turns[before].text if before is not None else None
            other = [p for p in game.players if p != turn.speaker]
            own = [q for q in qs if not parroted(q, partner_qs[other[0]] if other else [], last)]
            partner_qs.setdefault(turn.speaker, []).extend(qs)
            if own and not turn.seed:
                ends = tuple(None if u is None else batch.add(turns[u].text) for u in (before, after))
                items.append((t, [batch.add(q) for q in own], (ends[0], ends[1])))
        plan.append(items)
    vectors = batch.embed(embedder)
    return [{t: sum(_close(vectors, q, ends, threshold) for q in qs) for t, qs, ends in items}
            for items in plan]


def on_topic_turns(games: Sequence[Transcript], wanted: Sequence[set[int]],
                   embedder: Embedder, threshold: float) -> list[set[int]]:
    """Per game, the turns of ``wanted`` (turn indices) that are on topic: the turn's own
    text close to the partner's turn before or after it."""
    batch = _Batch()
    plan: list[list[tuple[int, int, tuple[int | None, int | None]]]] = []
    for game, want in zip(games, wanted):
        items = []
        for t in sorted(want):
            before, after = partner_turns(game.turns, t)
            ends = tuple(None if u is None else batch.add(game.turns[u].text) for u in (before, after))
            items.append((t, batch.add(game.turns[t].text), (ends[0], ends[1])))
        plan.append(items)
    vectors = batch.embed(embedder)
    return [{t for t, me, ends in items if _close(vectors, me, ends, threshold)}
            for items in plan]

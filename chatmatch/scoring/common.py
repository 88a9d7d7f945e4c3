"""Small helpers shared by the dimension modules."""

from __future__ import annotations

from typing import Iterator

from chatmatch.transcript import Transcript, Turn


def credited_turns(game: Transcript) -> Iterator[Turn]:
    """Turns a bot is scored on: every turn but the seed utterance (which the tournament,
    not the starter, wrote; it stays in the history all the same)."""
    return (t for t in game.turns if not t.seed)


def zero_raw(game: Transcript) -> dict[str, float]:
    return {p: 0.0 for p in game.players}

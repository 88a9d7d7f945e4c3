"""Shared fixtures for adapter tests: History builders and a trained ChatterBot (the
private cache folder is the root conftest's ``cache_dir``)."""

from __future__ import annotations

import socket
from typing import Any, Iterator, Sequence

import pytest

from chatmatch.bot import History, Message
from chatmatch_bots.chatterbot_bot import DEFAULT_CORPUS, ChatterBotBot, database_path


def history(partner_turns: Sequence[str], own_turns: Sequence[str] = (), *,
            seed: int = 0, starter: bool = False) -> History:
    """A game seen from one side; turns alternate, partner speaks first unless ``starter``."""
    first, second = (own_turns, partner_turns) if starter else (partner_turns, own_turns)
    roles = ("self", "partner") if starter else ("partner", "self")
    messages: list[Message] = []
    for i in range(max(len(first), len(second))):
        if i < len(first):
            messages.append(Message(roles[0], first[i]))
        if i < len(second):
            messages.append(Message(roles[1], second[i]))
    seed_text = messages[0].text if messages else ""
    return History(tuple(messages), seed_utterance=seed_text, game_id="g",
                   turn_index=len(messages), random_seed=seed)


def _no_network(*args: Any, **kwargs: Any) -> None:
    raise AssertionError(f"network access attempted: {args}")


@pytest.fixture(scope="session")
def trained(cache_dir: str) -> Iterator[ChatterBotBot]:
    """A bot trained from scratch in the test cache folder with sockets disabled (a
    database an earlier test of the session trained, e.g. the README's demo when run
    first, is removed: this one must be built here)."""
    db = database_path(DEFAULT_CORPUS)
    for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        path.unlink(missing_ok=True)
    assert not db.exists()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(socket.socket, "connect", _no_network)
        mp.setattr(socket, "create_connection", _no_network)
        bot = ChatterBotBot("cb")
        bot.load()
    yield bot
    bot.close()

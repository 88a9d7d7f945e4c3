"""Every offline adapter: same seed -> same game; one bot object can play interleaved games."""

from __future__ import annotations

from typing import Iterator

import pytest

from chatmatch.bot import Bot, History, Message
from chatmatch_bots.chatterbot_bot import ChatterBotBot
from chatmatch.adapters import create_bot

ADAPTERS = ["eliza", "canned", "echo", "random-line", "retrieval", "chatterbot"]
SEED_UTTERANCE = "What did you do last week?"


@pytest.fixture(scope="module")
def loaded(trained: ChatterBotBot) -> Iterator[dict[str, Bot]]:
    bots = {}
    for name in ADAPTERS:
        bots[name] = create_bot(f"{name}-1", name, {})
        if name != "chatterbot":
            bots[name].load()
    bots["chatterbot"] = trained
    yield bots
    for name, bot in bots.items():
        if name != "chatterbot":
            bot.close()


def _view(texts: list[str], me: int, game_seed: int) -> History:
    msgs = tuple(Message("self" if i % 2 == me else "partner", t) for i, t in enumerate(texts))
    return History(msgs, SEED_UTTERANCE, game_id=f"g{game_seed}", turn_index=len(texts),
                   random_seed=game_seed * 1000 + len(texts))


def play(a: Bot, b: Bot, game_seed: int, turns: int = 8) -> list[str]:
    texts = [SEED_UTTERANCE]
    for _ in range(turns):
        me = len(texts) % 2
        texts.append((a if me == 0 else b).reply(_view(texts, me, game_seed)))
    return texts


def play_interleaved(a: Bot, b: Bot, seeds: tuple[int, int], turns: int = 8) -> list[list[str]]:
    games = [[SEED_UTTERANCE], [SEED_UTTERANCE]]
    for _ in range(turns):
        for texts, seed in zip(games, seeds):
            me = len(texts) % 2
            texts.append((a if me == 0 else b).reply(_view(texts, me, seed)))
    return games


@pytest.mark.parametrize("name", ADAPTERS)
def test_same_seed_same_game_and_no_per_game_state(name: str, loaded: dict[str, Bot]) -> None:
    bot, eliza = loaded[name], loaded["eliza"]
    first = play(bot, eliza, game_seed=1)
    assert play(bot, eliza, game_seed=1) == first
    assert all(isinstance(t, str) and t.strip() for t in first)
    separate = [first, play(bot, eliza, game_seed=2)]
    assert play_interleaved(bot, eliza, (1, 2)) == separate

"""Scripted bots for the reliability tests (import path ``tests.reliability.slowbots:NAME``).

They are deterministic given ``History.random_seed``, like a sampling model seeded by the
tournament, and can be slowed down so that a real ``chatmatch run`` process is still
playing when a test kills it.
"""

from __future__ import annotations

import random
import time

from chatmatch.bot import Bot, History

_WORDS = ("apples pears Paris Berlin music football rain coffee books sister brother "
          "museum garden river holiday weekend cooking painting chess train").split()


class SamplingBot(Bot):
    """Samples its words from a generator seeded by the turn's ``random_seed`` (so the
    seed of the tournament fixes every reply); asks a question every ``ask_every`` turns;
    sleeps ``sleep_ms`` per reply."""

    description = "test bot: seeded random words"

    def __init__(self, name: str = "", *, sleep_ms: float = 0.0, words: int = 6,
                 ask_every: int = 0) -> None:
        super().__init__(name)
        self.sleep_ms, self.words, self.ask_every = sleep_ms, words, ask_every

    def reply(self, history: History) -> str:
        if self.sleep_ms:
            time.sleep(self.sleep_ms / 1000.0)
        rng = random.Random(history.random_seed)
        text = " ".join(rng.choice(_WORDS) for _ in range(self.words))
        if self.ask_every and (history.turn_index // 2) % self.ask_every == 0:
            text += ". What about you?"
        return text[0].upper() + text[1:]

    def describe(self) -> dict[str, object]:
        return {**super().describe(), "sleep_ms": self.sleep_ms, "words": self.words}

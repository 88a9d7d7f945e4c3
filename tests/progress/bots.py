"""Bots with a slow load() or slow replies, for progress tests (import path
tests.progress.bots:NAME)."""

from __future__ import annotations

import time

from bots.base import Bot, History


class SlowBot(Bot):
    description = "test bot: sleeps in load() and in every reply"

    def __init__(self, name: str = "", *, load_s: float = 0.0, reply_s: float = 0.0) -> None:
        super().__init__(name)
        self.load_s, self.reply_s = load_s, reply_s

    def load(self) -> None:
        time.sleep(self.load_s)

    def reply(self, history: History) -> str:
        time.sleep(self.reply_s)
        return f"{self.name} talks about topic {history.turn_index}. Do you agree?"

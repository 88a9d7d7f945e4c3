"""Bots with a slow load() or slow replies, for progress tests (import path
tests.progress.bots:NAME)."""

from __future__ import annotations

import time

from chatmatch.bot import Bot, History


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


class LoggedBot(Bot):
    """Appends one line to ``log`` per call (a stand-in for a paid remote call), then
    sleeps ``reply_s``; ``remote`` so that ``reply_cache: auto`` caches it."""

    description = "test bot: logs every call to a file"
    remote = True

    def __init__(self, name: str = "", *, log: str, reply_s: float = 0.0) -> None:
        super().__init__(name)
        self.log, self.reply_s = log, reply_s

    def reply(self, history: History) -> str:
        with open(self.log, "a", encoding="utf-8") as f:
            f.write(f"{self.name} {history.game_id} {history.turn_index}\n")
        time.sleep(self.reply_s)
        return f"{self.name} talks about topic {history.turn_index}. Do you agree?"

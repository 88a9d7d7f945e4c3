"""Deterministic scripted bots for engine tests (loadable by import path tests.scripted:NAME)."""

from __future__ import annotations

import threading
from typing import ClassVar, Sequence

from chatmatch.bot import Bot, History


class CountingBot(Bot):
    """Replies with a numbered line; counts its calls (class-wide) so tests can tell how
    many turns were really played."""

    description = "test bot: numbered replies"
    calls: ClassVar[int] = 0
    _lock = threading.Lock()

    def __init__(self, name: str = "", *, style: str = "plain", ask_every: int = 0) -> None:
        super().__init__(name)
        self.style = style
        self.ask_every = ask_every

    def reply(self, history: History) -> str:
        with CountingBot._lock:
            CountingBot.calls += 1
        n = history.turn_index
        words = {"plain": "I like apples and long walks",
                 "rich": "Yesterday I visited Paris with my sister Maria and we saw the Louvre museum",
                 "dull": "ok"}[self.style]
        text = f"{words} {n}" if self.style != "dull" else "ok"
        if self.ask_every and (n // 2) % self.ask_every == 0:
            text += ". What about you?"
        return text


class RecordingBot(Bot):
    """Remembers every History it was given (for checking the own-side view)."""

    description = "test bot: records histories"

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self.seen: list[History] = []

    def reply(self, history: History) -> str:
        self.seen.append(history)
        return f"{self.name} says {history.turn_index}"


class BatchBot(RecordingBot):
    supports_batch = True
    batch_sizes: list[int]

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self.batch_sizes = []

    def reply_batch(self, histories: Sequence[History]) -> list[str]:
        self.batch_sizes.append(len(histories))
        return [self.reply(h) for h in histories]


class FlakyBot(Bot):
    """Fails in a configured way: 'raise' every call, 'raise_once' per turn, 'empty', 'huge',
    'slow' (sleeps), or 'raise_after' N successful replies."""

    description = "test bot: fails on purpose"

    def __init__(self, name: str = "", *, mode: str = "raise", after: int = 0,
                 sleep_s: float = 0.5) -> None:
        super().__init__(name)
        self.mode, self.after, self.sleep_s = mode, after, sleep_s
        self.count = 0
        self.failed_turns: set[tuple[str, int]] = set()

    def reply(self, history: History) -> str:
        self.count += 1
        key = (history.game_id, history.turn_index)
        if self.mode == "raise":
            raise RuntimeError("model exploded")
        if self.mode == "raise_once" and key not in self.failed_turns:
            self.failed_turns.add(key)
            raise RuntimeError("transient failure")
        if self.mode == "raise_after" and self.count > self.after:
            raise RuntimeError("gave up")
        if self.mode == "empty":
            return "   "
        if self.mode == "huge":
            return "word " * 10_000
        if self.mode == "slow":
            import time

            time.sleep(self.sleep_s)
        return f"fine {history.turn_index}"

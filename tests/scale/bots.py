"""Bots for the scale tests (import path ``tests.scale.bots:NAME``)."""

from __future__ import annotations

import threading
import time
from typing import ClassVar

from chatmatch.bot import Bot, History


class OverlapBot(Bot):
    """Sleeps ``sleep_ms`` per reply and records how many calls were in progress at once:
    over all OverlapBots (``peak_all``) and within this one bot (``peak_self``)."""

    description = "test bot: measures concurrent calls"
    _lock: ClassVar[threading.Lock] = threading.Lock()
    running_all: ClassVar[int] = 0
    peak_all: ClassVar[int] = 0

    def __init__(self, name: str = "", *, sleep_ms: float = 5.0) -> None:
        super().__init__(name)
        self.sleep_s = sleep_ms / 1000
        self.running_self = 0
        self.peak_self = 0

    @classmethod
    def reset(cls) -> None:
        cls.running_all = cls.peak_all = 0

    def _enter(self, delta: int) -> None:
        with OverlapBot._lock:
            OverlapBot.running_all += delta
            self.running_self += delta
            OverlapBot.peak_all = max(OverlapBot.peak_all, OverlapBot.running_all)
            self.peak_self = max(self.peak_self, self.running_self)

    def reply(self, history: History) -> str:
        self._enter(1)
        try:
            time.sleep(self.sleep_s)
            return f"{self.name} heard {len(history.last_partner_text)} characters"
        finally:
            self._enter(-1)


class BrokenLoadBot(Bot):
    """Fails in :meth:`load`, as a bot whose model file is missing would."""

    description = "test bot: cannot load"

    def load(self) -> None:
        raise FileNotFoundError("weights.bin not found")

    def reply(self, history: History) -> str:  # pragma: no cover - never loaded
        return "unreachable"

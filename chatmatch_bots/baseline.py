"""Trivial baseline bots: known-bad players that anchor the bottom of a ranking.

- ``canned``: cycles through a fixed list of lines, whatever the partner says;
- ``echo``: repeats the partner's last turn;
- ``random-line``: a line drawn from a fixed list with the game's random seed.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Sequence

from chatmatch.bot import Bot, History

DEFAULT_LINES: tuple[str, ...] = (
    "That is interesting.",
    "Tell me more.",
    "I see.",
    "What do you mean?",
)


def _checked_lines(lines: Sequence[str] | None, default: Sequence[str]) -> tuple[str, ...]:
    if lines is None:
        return tuple(default)
    if isinstance(lines, str) or not all(isinstance(x, str) for x in lines):
        raise ValueError("parameter 'lines' must be a list of strings")
    if not lines:
        raise ValueError("parameter 'lines' must contain at least one line")
    return tuple(lines)


class CannedBot(Bot):
    description = "Cycles through a fixed list of lines, ignoring the partner (baseline)."
    thread_safe: ClassVar[bool] = True

    def __init__(self, name: str = "", *, lines: list[str] | None = None) -> None:
        super().__init__(name)
        self.lines = _checked_lines(lines, DEFAULT_LINES)

    def reply(self, history: History) -> str:
        said = sum(1 for m in history.messages if m.role == "self")
        return self.lines[said % len(self.lines)]

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "adapter": "canned", "lines": list(self.lines)}


class EchoBot(Bot):
    description = "Repeats the partner's last turn (baseline)."
    thread_safe: ClassVar[bool] = True

    def __init__(self, name: str = "", *, fallback: str = "Hello!") -> None:
        super().__init__(name)
        self.fallback = fallback

    def reply(self, history: History) -> str:
        return history.last_partner_text or self.fallback

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "adapter": "echo", "fallback": self.fallback}


class RandomLineBot(Bot):
    description = "Says a line drawn from a fixed list with the game's seed (baseline)."
    thread_safe: ClassVar[bool] = True

    def __init__(self, name: str = "", *, lines: list[str] | None = None) -> None:
        super().__init__(name)
        self.lines = _checked_lines(lines, DEFAULT_LINES)

    def reply(self, history: History) -> str:
        return random.Random(history.random_seed).choice(self.lines)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "adapter": "random-line", "lines": list(self.lines)}

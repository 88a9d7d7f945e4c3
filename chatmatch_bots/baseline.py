"""Trivial baseline bots: known-bad players that anchor the bottom of a ranking.

- ``canned``: cycles through a fixed list of lines, whatever the partner says;
- ``echo``: repeats the partner's last turn;
- ``random-line``: a line drawn from a fixed list with the game's random seed.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from pydantic import field_validator

from chatmatch.adapters.params import BotParams, given
from chatmatch.bot import Bot, History

DEFAULT_LINES: tuple[str, ...] = (
    "That is interesting.",
    "Tell me more.",
    "I see.",
    "What do you mean?",
)


class LinesParams(BotParams):
    """``lines``: the lines to say (default: :data:`DEFAULT_LINES`)."""

    lines: list[str] | None = None

    @field_validator("lines")
    @classmethod
    def _some_lines(cls, v: list[str] | None) -> list[str] | None:
        if v is not None and not v:
            raise ValueError("parameter 'lines' must contain at least one line")
        return v

    def chosen(self) -> tuple[str, ...]:
        return tuple(self.lines) if self.lines is not None else DEFAULT_LINES


class CannedBot(Bot):
    description = "Cycles through a fixed list of lines, ignoring the partner (baseline)."
    thread_safe: ClassVar[bool] = True

    Params = LinesParams

    def __init__(self, name: str = "", params: LinesParams | None = None, **values: Any) -> None:
        super().__init__(name)
        self.lines = given(self.Params, params, values).chosen()

    def reply(self, history: History) -> str:
        said = sum(1 for m in history.messages if m.role == "self")
        return self.lines[said % len(self.lines)]

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "adapter": "canned", "lines": list(self.lines)}


class EchoBot(Bot):
    description = "Repeats the partner's last turn (baseline)."
    thread_safe: ClassVar[bool] = True

    class Params(BotParams):
        fallback: str = "Hello!"  # said when the partner has said nothing yet

    def __init__(self, name: str = "", params: Params | None = None, **values: Any) -> None:
        super().__init__(name)
        self.fallback = given(self.Params, params, values).fallback

    def reply(self, history: History) -> str:
        return history.last_partner_text or self.fallback

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "adapter": "echo", "fallback": self.fallback}


class RandomLineBot(Bot):
    description = "Says a line drawn from a fixed list with the game's seed (baseline)."
    thread_safe: ClassVar[bool] = True

    Params = LinesParams

    def __init__(self, name: str = "", params: LinesParams | None = None, **values: Any) -> None:
        super().__init__(name)
        self.lines = given(self.Params, params, values).chosen()

    def reply(self, history: History) -> str:
        return random.Random(history.random_seed).choice(self.lines)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "adapter": "random-line", "lines": list(self.lines)}

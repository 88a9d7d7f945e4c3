"""Plugin bots that misbehave outside (and inside) ``reply``, for the hostile-input tests
of the bot boundary (:mod:`chatmatch.play.botcall`)."""

from __future__ import annotations

import sys
from typing import Any

from chatmatch.bot import Bot, History


class _BadStr(Exception):
    def __str__(self) -> str:
        raise RuntimeError("__str__ is broken too")


class Evil(Bot):
    """``where`` names the method that misbehaves and ``how`` what it does."""

    def __init__(self, name: str = "", *, where: str = "", how: str = "raise") -> None:
        super().__init__(name)
        self.where, self.how = where, how
        if where == "init":
            self._act()

    def _act(self) -> Any:
        how = self.how
        if how == "raise":
            raise RuntimeError("plugin bug")
        if how == "badstr":
            raise _BadStr()
        if how == "genexit":
            raise GeneratorExit()
        if how == "exit":
            sys.exit(7)
        if how == "escape_error":
            raise RuntimeError("plugin bug \x1b[2J\x1b]0;pwned\x07 here")
        if how == "oserror":
            open("/nonexistent/chatmatch-model.bin", encoding="utf-8")
        return {"surrogate": "hi \ud800 there", "zero-width": "\u200b\u2060\ufeff",
                "nbsp": "\u00a0 \u00a0", "bidi": "\u202e\u200e",
                "escape": "hello \x1b[2J\x1b]0;pwned\x07 there"}[how]

    def load(self) -> None:
        if self.where == "load":
            self._act()

    def reply(self, history: History) -> str:
        if self.where == "reply":
            return str(self._act())
        return f"I like {history.turn_index} apples. Do you?"

    def describe(self) -> dict[str, object]:
        if self.where == "describe":
            self._act()
        return super().describe()

    def close(self) -> None:
        if self.where == "close":
            self._act()


class _Opaque:
    pass


class OddDescription(Bot):
    """``describe()`` returns values JSON cannot hold (an object, a set)."""

    def reply(self, history: History) -> str:
        return "Fine, thanks. And you?"

    def describe(self) -> dict[str, object]:
        return {**super().describe(), "obj": _Opaque(), "ids": {1, 2}}

"""The bot objects built from a tournament's ``bots`` list, once per configuration.

Constructing a bot is cheap (its model loads in :meth:`~chatmatch.bot.Bot.load`) but not
free of effects: an adapter checks its parameters, reads files or opens a client. So the
check of the file (:func:`~chatmatch.config.tournament.load_config`), the pre-flight of
``chatmatch run`` and the local executor use one object per bot: the first builds it, the
next use it, and the executor takes it (loads it, plays it and closes it). A bot taken is
built again if the same configuration runs again. Ray actors build their own copy in
their process.
"""

from __future__ import annotations

from typing import Any

from chatmatch.adapters import create_bot
from chatmatch.bot import Bot
from chatmatch.play.botcall import guarded


class BuiltBots:
    """Name -> the bot built for it, not loaded. Not part of a configuration's value: equal
    to any other :class:`BuiltBots`, and copied or pickled empty (a copy builds its own)."""

    def __init__(self) -> None:
        self._bots: dict[str, Bot] = {}

    def get(self, name: str, adapter: str, params: dict[str, Any]) -> Bot:
        """Bot ``name``, constructed on first use (a constructor's error as
        :func:`~chatmatch.play.botcall.guarded` words it)."""
        if name not in self._bots:
            self._bots[name] = guarded(name, "__init__", lambda: create_bot(name, adapter, params),
                                       adapter=adapter)
        return self._bots[name]

    def take(self, name: str, adapter: str, params: dict[str, Any]) -> Bot:
        """Bot ``name`` handed over to the caller, who loads and closes it; the next
        :meth:`get` or :meth:`take` builds a new one."""
        bot = self.get(name, adapter, params)
        del self._bots[name]
        return bot

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BuiltBots)

    __hash__ = None  # type: ignore[assignment]  # mutable, like the model that holds it

    def __reduce__(self) -> tuple[type[BuiltBots], tuple[()]]:
        return (BuiltBots, ())

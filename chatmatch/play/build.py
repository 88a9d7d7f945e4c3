"""The bot objects of a tournament, built once per run from its ``bots`` list.

Constructing a bot is cheap (its model loads in :meth:`~chatmatch.bot.Bot.load`) but not
free of effects: an adapter checks its parameters, reads files or opens a client. So the
check of the file (:func:`load_tournament`), the pre-flight of ``chatmatch run`` and the
local executor use one object per bot, kept in a :class:`BuiltBots` beside the
configuration (which holds data only), each told the ``runtime:`` block (where its
models run): the first use builds it, the next ones reuse it,
and the executor takes it (loads it, plays it and closes it). A bot taken is built again
if asked for again. Ray actors build their own copy in their process.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from chatmatch.adapters import create_bot
from chatmatch.bot import Bot
from chatmatch.common.yamlloc import load_located_yaml
from chatmatch.config.tournament import BotSpec, TournamentConfig, bot_error, config_from_data
from chatmatch.errors import ChatmatchError
from chatmatch.play.botcall import guarded
from chatmatch.runtime.settings import DEFAULT_RUNTIME, RuntimeSettings


class BuiltBots:
    """Name -> the bot built for it from ``specs``, not loaded: one object per bot until
    it is taken."""

    def __init__(self, specs: Sequence[BotSpec], runtime: RuntimeSettings = DEFAULT_RUNTIME) -> None:
        self._specs = {s.name: s for s in specs}
        self._runtime = runtime
        self._bots: dict[str, Bot] = {}

    def get(self, name: str) -> Bot:
        """Bot ``name``, constructed on first use (a constructor's error as
        :func:`~chatmatch.play.botcall.guarded` words it)."""
        if name not in self._bots:
            spec = self._specs[name]
            self._bots[name] = guarded(name, "__init__", lambda: create_bot(
                name, spec.adapter, dict(spec.params), self._runtime), adapter=spec.adapter)
        return self._bots[name]

    def take(self, name: str) -> Bot:
        """Bot ``name`` handed over to the caller, who loads and closes it; the next
        :meth:`get` or :meth:`take` builds a new one."""
        bot = self.get(name)
        del self._bots[name]
        return bot


def load_tournament(path: str | Path) -> tuple[TournamentConfig, BuiltBots]:
    """Read and check a tournament YAML (:func:`~chatmatch.config.tournament.load_config`)
    and build each of its bots once; a bot that cannot be built is a
    :class:`~chatmatch.errors.ConfigError` at its entry's line, like a bad parameter."""
    located = load_located_yaml(path)
    cfg = config_from_data(located)
    built = BuiltBots(cfg.bots, cfg.runtime)
    for i, spec in enumerate(cfg.bots):
        try:
            built.get(spec.name)
        except ChatmatchError as exc:
            raise bot_error(located, cfg, i, exc) from None
    return cfg, built

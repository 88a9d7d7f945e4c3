"""What every executor is: the :class:`Executor` protocol, its error and callback type."""

from __future__ import annotations

from typing import Callable, Protocol, Sequence

from chatmatch.bot import Bot
from chatmatch.errors import ChatmatchError
from chatmatch.schedule import ScheduledGame
from chatmatch.transcript import Transcript

OnFinished = Callable[[Transcript], None]


class ExecutorError(ChatmatchError):
    """An executor that cannot start (e.g. ``executor: ray`` without Ray installed)."""


class Executor(Protocol):
    #: the bots games are played with, set by :meth:`start`; the runner may replace them
    #: by wrappers (the reply cache, turn counting) before :meth:`play`
    bots: dict[str, Bot]

    def start(self, needed: set[str]) -> dict[str, dict[str, object]]:
        """Load the bots named in ``needed``; return each one's ``describe()``."""

    def play(self, games: Sequence[ScheduledGame], on_finished: OnFinished) -> None:
        """Play ``games``; call ``on_finished`` (never concurrently) as each one ends."""

    def close(self) -> None:
        """Release the bots this executor loaded (and the Ray instance it started)."""

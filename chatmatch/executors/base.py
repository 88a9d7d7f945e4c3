"""What every executor is: the :class:`Executor` protocol, its error and hook types."""

from __future__ import annotations

from typing import Callable, Protocol, Sequence

from chatmatch.bot import Bot
from chatmatch.errors import ChatmatchError
from chatmatch.play.schedule import ScheduledGame
from chatmatch.transcript import Transcript

OnFinished = Callable[[Transcript], None]
#: the caller's hook around the loaded bots (the run's reply cache and turn counter): called
#: once by :meth:`Executor.start`, after loading and describing them; games are played with
#: what it returns, and the executor still closes the bots it loaded
Wrap = Callable[[dict[str, Bot]], dict[str, Bot]]


def no_wrap(bots: dict[str, Bot]) -> dict[str, Bot]:
    """The default :data:`Wrap`: games are played with the loaded bots themselves."""
    return bots


class ExecutorError(ChatmatchError):
    """An executor that cannot start (e.g. ``executor: ray`` without Ray installed)."""


class Executor(Protocol):
    #: the bots games are played with, set by :meth:`start`: the loaded ones as the
    #: executor's ``wrap`` hook returned them
    bots: dict[str, Bot]

    def start(self, needed: set[str]) -> dict[str, dict[str, object]]:
        """Load the bots named in ``needed``, then pass them through the ``wrap`` hook
        the executor was made with; return each loaded bot's ``describe()``."""

    def play(self, games: Sequence[ScheduledGame], on_finished: OnFinished) -> None:
        """Play ``games``; call ``on_finished`` (never concurrently) as each one ends."""

    def close(self) -> None:
        """Release the bots this executor loaded (and the Ray instance it started)."""

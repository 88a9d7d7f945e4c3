"""Where games are played: in this process (``local``) or on a Ray cluster (``ray``).

An executor owns the bots for the length of a run::

    executor = make_executor(cfg)          # or make_executor(cfg, bots) with ready objects,
    try:                                   #   and wrap=: a hook around the loaded bots
        described = executor.start(needed)  # load (and wrap) the bots; {name: bot.describe()}
        executor.play(games, on_finished)   # on_finished(transcript) for each game, in the
    finally:                                #   driver, one call at a time
        executor.close()

Both executors hand every finished transcript to ``on_finished`` in the calling process,
so the run directory, resume, re-scoring and reports do not depend on the executor; and
deterministic bots give the same transcripts whatever the executor, ``workers`` or
``concurrent_games`` (a reply depends only on the game's history and seed).
"""

from __future__ import annotations

from typing import Mapping

from chatmatch.bot import Bot
from chatmatch.config.tournament import TournamentConfig
from chatmatch.executors.base import Executor, ExecutorError, OnFinished, Wrap, no_wrap
from chatmatch.executors.local import LocalExecutor
from chatmatch.executors.ray_executor import RayExecutor  # imports Ray only when made
from chatmatch.play.build import BuiltBots
from chatmatch.progress import Reporter


def make_executor(cfg: TournamentConfig, bots: Mapping[str, Bot] | None = None, *,
                  built: BuiltBots | None = None, reporter: Reporter | None = None,
                  wrap: Wrap = no_wrap) -> Executor:
    """The executor ``cfg.executor`` names; ``bots``: ready bot objects to use instead of
    building them from ``cfg.bots`` (the caller keeps ownership: they are not closed);
    ``built``: where the local executor takes the bots it builds (the objects the file's
    check and the pre-flight built; default: built here);
    ``reporter`` shows the loading of each bot; ``wrap``: the hook :meth:`Executor.start`
    passes the loaded bots through (see :data:`Wrap`)."""
    if cfg.executor == "ray":
        return RayExecutor(cfg, bots, reporter=reporter, wrap=wrap)
    return LocalExecutor(cfg, bots, built=built, reporter=reporter, wrap=wrap)


__all__ = ["Executor", "ExecutorError", "OnFinished", "Wrap", "make_executor", "no_wrap"]

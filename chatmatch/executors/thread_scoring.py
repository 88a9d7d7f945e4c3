"""Scoring beside play, in one thread of this process (the local executor's play stage).

The play loop hands each chunk of ``concurrent_games`` finished games to
:class:`ThreadScoring` and goes on playing while one scoring thread scores it: the
language models of scoring (torch, ONNX Runtime, spaCy) release the GIL while they
compute, so on a machine with a second core the games are scored there instead of
stopping play. The chunks are scored one after another, in the order sent, by the same
scorer objects, so every value is the one the play thread would have computed; the
results are recorded by the caller (the run directory's one writer) in that order.
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Sequence

from chatmatch.records import DimensionScore
from chatmatch.runtime.lm.forward import threads_of_this_thread
from chatmatch.scoring.base import Scorer
from chatmatch.scoring.engine import score_games
from chatmatch.transcript import Transcript

Dims = list[dict[str, DimensionScore]]


class ThreadScoring:
    """:meth:`submit` returns at once; :meth:`ready` gives the chunks scored so far, in the
    order sent; :meth:`drain` waits for all (a scorer's error is raised there, as it is)."""

    def __init__(self, scorers: Sequence[Scorer]) -> None:
        self.scorers = list(scorers)
        # the scorers' torch models (the sentence embedder) use every usable core, whatever
        # count a bot's generating threads set for themselves
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="chatmatch-scoring",
                                        initializer=threads_of_this_thread)
        self.pending: deque[tuple[Future[Dims] | None, Any]] = deque()

    def submit(self, games: Sequence[Transcript], tag: Any = None) -> None:
        chunk = list(games)
        future = self._pool.submit(score_games, chunk, self.scorers) if chunk else None
        self.pending.append((future, tag))

    def ready(self) -> list[tuple[Any, Dims]]:
        out = []
        while self.pending and (self.pending[0][0] is None or self.pending[0][0].done()):
            out.append(self._take())
        return out

    def drain(self) -> list[tuple[Any, Dims]]:
        return [self._take() for _ in range(len(self.pending))]

    def close(self) -> None:
        self._pool.shutdown(wait=True)

    def _take(self) -> tuple[Any, Dims]:
        future, tag = self.pending.popleft()
        return tag, [] if future is None else future.result()


__all__ = ["ThreadScoring"]

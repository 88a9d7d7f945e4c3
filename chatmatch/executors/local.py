"""The local executor: games stepped in this process, sharing one object per bot.

``workers: 1`` (the default) is :func:`chatmatch.play.game.play_games` over all games with
``concurrent_games`` in flight: at each step the games waiting on a batched (neural) bot are
answered by one ``reply_batch`` call, and thread-safe (HTTP) bots answer from a thread pool.

``workers: N`` runs N threads, each stepping its own chunk of ``concurrent_games / N``
games taken from a shared queue, all sharing the same bot objects (one model in memory).
A bot that is not ``thread_safe`` is wrapped in :class:`SerialBot`, so only one thread
calls it at a time. This pays off when different bots can work at the same time: a model
forward pass (which releases the GIL) while another thread runs a rule-based bot or waits
on an HTTP endpoint. It does not make one model faster: its calls are serialised, and each
thread's batch is smaller than one loop's would be (measured in docs/scale.md).
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import Any, Mapping, Sequence

from chatmatch.bot import Bot, BotWrapper, History
from chatmatch.config.settings import FailurePolicy
from chatmatch.config.tournament import TournamentConfig
from chatmatch.executors.base import OnFinished, Wrap, no_wrap
from chatmatch.play.botcall import close_bot, describe_bot, guarded
from chatmatch.play.build import BuiltBots
from chatmatch.play.game import play_games
from chatmatch.play.schedule import ScheduledGame
from chatmatch.progress import Reporter

log = logging.getLogger(__name__)


class SerialBot(BotWrapper):
    """A bot shared by several worker threads: one call at a time, capabilities kept."""

    thread_safe = True  # safe *because* of the lock
    parallel_calls = 1

    def __init__(self, inner: Bot) -> None:
        super().__init__(inner, keep=("thread_safe", "parallel_calls"))
        self._lock = threading.Lock()

    def reply(self, history: History) -> str:
        with self._lock:
            return self.inner.reply(history)

    def reply_batch(self, histories: Sequence[History]) -> list[str]:
        with self._lock:
            return self.inner.reply_batch(histories)


class _Stopped(Exception):
    """Raised inside a worker thread once another worker has failed."""


def play_parallel(games: Sequence[ScheduledGame], bots: Mapping[str, Bot], exchanges: int,
                  policy: FailurePolicy, *, concurrent: int, workers: int,
                  on_finished: OnFinished) -> None:
    """Play ``games`` with ``workers`` threads; ``on_finished`` is called under a lock.

    The first error of any worker (a bot failure with ``on_failure: abort``, or an
    exception from ``on_finished``) stops the others at their next finished game, whose
    transcript is then dropped like any game in flight, and is raised here.
    """
    games = list(games)
    if workers <= 1 or len(games) <= 1:
        play_games(games, bots, exchanges, policy, concurrent=concurrent, on_finished=on_finished)
        return
    shared = {n: b if b.thread_safe else SerialBot(b) for n, b in bots.items()}
    size = max(1, -(-concurrent // workers))
    chunks = deque(games[i:i + size] for i in range(0, len(games), size))
    lock, stop = threading.Lock(), threading.Event()
    errors: list[BaseException] = []

    def deliver(tr: Any) -> None:
        with lock:
            if stop.is_set():
                raise _Stopped()
            try:
                on_finished(tr)
            except BaseException:
                stop.set()  # before the lock is released: no other game is handed over
                raise

    def work() -> None:
        try:
            while not stop.is_set():
                with lock:
                    chunk = chunks.popleft() if chunks else None
                if chunk is None:
                    return
                play_games(chunk, shared, exchanges, policy, concurrent=len(chunk),
                           on_finished=deliver)
        except _Stopped:
            pass
        except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
            errors.append(exc)
            stop.set()

    threads = [threading.Thread(target=work, name=f"chatmatch-worker-{i}", daemon=True)
               for i in range(min(workers, len(chunks)))]
    for t in threads:
        t.start()
    try:
        for t in threads:
            while t.is_alive():
                t.join(0.2)  # a timed join lets Ctrl-C through
    except BaseException:  # e.g. Ctrl-C: let a game being handed over finish, then no more
        with lock:
            stop.set()
        raise
    if errors:
        raise errors[0]


def load_bots(cfg: TournamentConfig, needed: set[str], reporter: Reporter | None = None,
              built: BuiltBots | None = None) -> dict[str, Bot]:
    """Load the bots of ``cfg`` named in ``needed``, taken from ``built`` (built there if
    not yet; default: built here), all closed again on error."""
    built = built or BuiltBots(cfg.bots, cfg.runtime)
    rep = reporter or Reporter.off()
    out: dict[str, Bot] = {}
    try:
        for spec in cfg.bots:
            if spec.name in needed:
                bot = built.take(spec.name)  # the object the file's check built
                with rep.step(f"loading bot {spec.name}"):
                    guarded(spec.name, "load", bot.load, adapter=spec.adapter)
                out[spec.name] = bot
    except BaseException:
        close_bots(out)
        raise
    return out


def close_bots(bots: Mapping[str, Bot]) -> None:
    """Close every bot; a failing ``close()`` is logged as a warning (:func:`close_bot`)."""
    for name, b in bots.items():
        close_bot(name, b.close, log.warning)


def describe_bots(bots: Mapping[str, Bot]) -> dict[str, dict[str, object]]:
    """Each bot's ``describe()`` (a failing one is replaced by its class, with a warning)."""
    return {n: describe_bot(n, b.describe, f"{type(b).__module__}:{type(b).__qualname__}",
                            log.warning) for n, b in bots.items()}


class LocalExecutor:
    """Games stepped in this process (see the module docstring)."""

    def __init__(self, cfg: TournamentConfig, bots: Mapping[str, Bot] | None = None, *,
                 built: BuiltBots | None = None, reporter: Reporter | None = None,
                 wrap: Wrap = no_wrap) -> None:
        self.cfg, self.built = cfg, built
        self.given = dict(bots) if bots is not None else None
        self.loaded: dict[str, Bot] = {}  # what close() closes (unless given)
        self.bots: dict[str, Bot] = {}  # what games are played with: ``loaded`` wrapped
        self.workers = cfg.workers or 1
        self.reporter = reporter
        self.wrap = wrap

    def start(self, needed: set[str]) -> dict[str, dict[str, object]]:
        self.loaded = (dict(self.given) if self.given is not None
                       else load_bots(self.cfg, needed, self.reporter, self.built))
        described = describe_bots(self.loaded)
        self.bots = self.wrap(dict(self.loaded))
        return described

    def play(self, games: Sequence[ScheduledGame], on_finished: OnFinished) -> None:
        play_parallel(games, self.bots, self.cfg.exchanges, self.cfg.failures,
                      concurrent=self.cfg.concurrent_games, workers=self.workers,
                      on_finished=on_finished)

    def close(self) -> None:
        if self.given is None:
            close_bots(self.loaded)  # a wrapper's close() is its inner bot's
        self.loaded, self.bots = {}, {}

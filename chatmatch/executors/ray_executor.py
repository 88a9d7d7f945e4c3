"""The Ray executor (``executor: ray``; ``pip install 'chatmatch[ray]'``).

Each neural bot (``supports_batch``) and each stateful bot (not ``thread_safe``) becomes one
Ray actor that builds and loads the bot once and keeps its model; with ``ray.gpus_per_bot``
and GPUs in the cluster, neural actors reserve that GPU fraction (set the bot's
``device: auto`` so it uses it). Rule-based and HTTP bots stay in the driver unless
``ray.actors: all``.

The game loops run in the driver, in ``workers`` threads (default: one per actor, so every
actor can be busy at once), exactly as the local executor runs them: each thread steps its
share of ``concurrent_games`` games and sends the games waiting on an actor bot to it as
one batched call. The loop is cheap bookkeeping; the work is in the actors. Transcripts
end in the driver and are handed to ``on_finished`` one by one, so they are saved through
the run directory like local ones, and resume, re-rank and reports work unchanged.
"""

from __future__ import annotations

import logging
import os
import pickle
import re
import sys
from typing import Any, Mapping, Sequence

from chatmatch.adapters import create_bot
from chatmatch.bot import Bot, History, copy_capabilities
from chatmatch.config.settings import RayConfig
from chatmatch.config.tournament import TournamentConfig
from chatmatch.errors import BotError, ChatmatchError
from chatmatch.executors.base import ExecutorError, OnFinished, Wrap, no_wrap
from chatmatch.executors.local import close_bots, describe_bots, play_parallel
from chatmatch.play.botcall import guarded, reply_call
from chatmatch.play.schedule import ScheduledGame
from chatmatch.progress import Reporter

INSTALL_HINT = ("executor 'ray' needs Ray: install it with `pip install 'chatmatch[ray]'` "
                "(or `pip install ray`), or set `executor: local`")


def import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise ExecutorError(f"{INSTALL_HINT} ({exc})") from None
    return ray


class _BotHost:
    """The actor body: builds the bot inside the actor process and serves its calls."""

    def __init__(self, payload: bytes, sys_path: list[str]) -> None:
        # the payload is unpickled only now, after the driver's import path is known here
        for p in sys_path:
            if p not in sys.path:
                sys.path.append(p)
        spec = pickle.loads(payload)
        if isinstance(spec, Bot):
            self.bot = spec
        else:
            self.bot = guarded(spec[0], "__init__", lambda: create_bot(*spec), adapter=spec[1])
        guarded(self.bot.name, "load", self.bot.load)

    def describe(self) -> dict[str, Any]:
        return describe_bots({self.bot.name: self.bot})[self.bot.name]

    def reply(self, history: History) -> str:
        return reply_call(lambda: self.bot.reply(history))

    def reply_batch(self, histories: list[History]) -> list[str]:
        return reply_call(lambda: self.bot.reply_batch(histories))

    def close(self) -> None:
        close_bots({self.bot.name: self.bot})


class RemoteBot(Bot):
    """Driver-side stand-in for a bot living in a Ray actor (calls are queued there)."""

    thread_safe = True  # the actor runs one call at a time
    parallel_calls = 1

    def __init__(self, name: str, actor: Any, ray: Any, template: Bot) -> None:
        super().__init__(name)
        self.actor, self._ray = actor, ray
        copy_capabilities(self, template, keep=("thread_safe", "parallel_calls"))
        self.described: dict[str, Any] = {}

    def _get(self, ref: Any) -> Any:
        try:
            return self._ray.get(ref)
        except self._ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            raise (cause if isinstance(cause, Exception) else RuntimeError(str(exc))) from None

    def reply(self, history: History) -> str:
        return self._get(self.actor.reply.remote(history))  # type: ignore[no-any-return]

    def reply_batch(self, histories: Sequence[History]) -> list[str]:
        return self._get(self.actor.reply_batch.remote(list(histories)))  # type: ignore[no-any-return]

    def describe(self) -> dict[str, Any]:
        return self.described


class RayExecutor:
    """Bots as Ray actors, game loops in the driver (see the module docstring)."""

    def __init__(self, cfg: TournamentConfig, bots: Mapping[str, Bot] | None = None, *,
                 reporter: Reporter | None = None, wrap: Wrap = no_wrap) -> None:
        self.ray = import_ray()
        self.reporter = reporter or Reporter.off()
        self.cfg = cfg
        self.given = dict(bots) if bots is not None else None
        self.loaded: dict[str, Bot] = {}  # driver-side bots and RemoteBot stand-ins
        self.bots: dict[str, Bot] = {}  # what games are played with: ``loaded`` wrapped
        self.wrap = wrap
        self.actors: list[Any] = []
        self.owns_ray = False

    def _init_ray(self) -> None:
        self.owns_ray = start_ray(self.ray, self.cfg.ray)

    def _templates(self, needed: set[str]) -> dict[str, tuple[Bot, bytes]]:
        """Each needed bot built cheaply in the driver (no model loaded) and its payload."""
        out: dict[str, tuple[Bot, bytes]] = {}
        for spec in self.cfg.bots:
            if spec.name not in needed:
                continue
            if self.given is not None:
                bot = self.given[spec.name]
                out[spec.name] = (bot, _pickle(bot, spec.name))
            else:
                bot = guarded(spec.name, "__init__", lambda: create_bot(
                    spec.name, spec.adapter, dict(spec.params), self.cfg.runtime),
                    adapter=spec.adapter)
                out[spec.name] = (bot, pickle.dumps((spec.name, spec.adapter, dict(spec.params),
                                                     self.cfg.runtime)))
        return out

    def _wants_actor(self, bot: Bot) -> bool:
        return self.cfg.ray.actors == "all" or bot.supports_batch or not bot.thread_safe

    def start(self, needed: set[str]) -> dict[str, dict[str, object]]:
        self._init_ray()
        gpus = float(self.ray.cluster_resources().get("GPU", 0.0)) > 0
        host = self.ray.remote(_BotHost)
        pending: dict[str, Any] = {}
        for name, (bot, payload) in self._templates(needed).items():
            if not self._wants_actor(bot):
                if self.given is None:
                    with self.reporter.step(f"loading bot {name}"):
                        guarded(name, "load", bot.load)
                self.loaded[name] = bot
                continue
            opts: dict[str, Any] = {"num_cpus": self.cfg.ray.cpus_per_bot}
            if gpus and bot.supports_batch and self.cfg.ray.gpus_per_bot > 0:
                opts["num_gpus"] = self.cfg.ray.gpus_per_bot
            actor = host.options(**opts).remote(payload, [os.path.abspath(p) for p in sys.path])
            self.actors.append(actor)
            self.loaded[name] = RemoteBot(name, actor, self.ray, bot)
            pending[name] = actor.describe.remote()
        for name, ref in pending.items():
            try:
                with self.reporter.step(f"loading bot {name} in its Ray actor"):
                    desc = dict(self.ray.get(ref))
            except self.ray.exceptions.RayError as exc:
                raise BotError(f"bot '{name}' could not be loaded in its Ray actor: "
                               f"{_first_line(exc)}") from None
            self.loaded[name].described = {**desc, "ray_actor": True}  # type: ignore[attr-defined]
        described = describe_bots(self.loaded)
        self.bots = self.wrap(dict(self.loaded))
        return described

    def play(self, games: Sequence[ScheduledGame], on_finished: OnFinished) -> None:
        workers = self.cfg.workers or max(1, len(self.actors))
        play_parallel(games, self.bots, self.cfg.exchanges, self.cfg.failures,
                      concurrent=self.cfg.concurrent_games, workers=workers,
                      on_finished=on_finished)

    def close(self) -> None:
        kill_actors(self.ray, self.actors)
        if self.given is None:
            close_bots({n: b for n, b in self.loaded.items() if not isinstance(b, RemoteBot)})
        self.actors, self.loaded, self.bots = [], {}, {}
        if self.owns_ray:
            self.ray.shutdown()
            self.owns_ray = False


def start_ray(ray: Any, rc: RayConfig) -> bool:
    """Start or join Ray as ``rc`` says, unless ``ray.init()`` was already called; True
    when this call started it (the caller then shuts it down)."""
    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"address": rc.address, "include_dashboard": False,
                              "logging_level": logging.WARNING}
    if rc.address is None and rc.num_cpus is not None:
        kwargs["num_cpus"] = rc.num_cpus
    try:
        ray.init(**kwargs)
    except Exception as exc:  # noqa: BLE001 - shown to the user with the setting to fix
        raise ExecutorError(f"could not start or join Ray (ray.address={rc.address!r}): "
                            f"{type(exc).__name__}: {exc}") from None
    return True


def kill_actors(ray: Any, actors: Sequence[Any]) -> None:
    """Kill every actor of ``actors`` (bots or scoring workers); one already gone is skipped."""
    for actor in actors:
        try:
            ray.kill(actor)
        except Exception:  # noqa: BLE001 - already gone
            pass


def _pickle(bot: Bot, name: str) -> bytes:
    import cloudpickle  # ships with ray

    try:
        return bytes(cloudpickle.dumps(bot))
    except Exception as exc:  # noqa: BLE001
        raise ExecutorError(f"bot '{name}' cannot be sent to a Ray actor ({exc}); pass bots by "
                            "their YAML entries instead of ready objects") from None


def _first_line(exc: BaseException) -> str:
    cause = getattr(exc, "cause", None)
    if isinstance(cause, ChatmatchError):  # already one line naming the bot and the method
        return str(cause)
    if isinstance(cause, BaseException):
        return f"{type(cause).__name__}: {cause}"
    line = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
    # chatmatch's own errors (the guarded load) already name the bot: not their class path
    own = re.match(r"chatmatch\.[\w.]+Error: (.+)", line)
    return own.group(1) if own else line
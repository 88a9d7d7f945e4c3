"""The one small bot interface.

A bot receives the conversation *from its own side* and returns its next utterance::

    class Parrot(Bot):
        description = "Repeats the partner's last turn."

        def reply(self, history: History) -> str:
            return history.last_partner_text or "Hello!"

Lifecycle: the engine constructs a bot once per tournament from its YAML parameters,
calls :meth:`Bot.load` once before the first game, and :meth:`Bot.close` once at the end.
One bot object plays all of its games; it must not keep per-game state on ``self``
(everything it needs is in the :class:`History`).

Capabilities are class attributes, not ``hasattr`` probes:

- ``supports_batch``: :meth:`reply_batch` is faster than calling :meth:`reply` in a loop
  (one forward pass for several games); the runner uses it when several games wait on
  this bot at once.
- ``deterministic``: the same history (and ``History.random_seed``) always gives the same reply.
- ``thread_safe``: :meth:`reply` may be called from several threads at once.
- ``retries_inside``: the bot retries its own transient failures (HTTP adapters: one
  retry layer, honouring ``Retry-After``); the engine then does not call it again after an
  exception or a timeout (``failures.retries`` still covers empty replies).
- ``remote``: each reply is a call to a remote service (paid, slow, rate-limited); the
  reply cache (:mod:`chatmatch.play.reply_cache`) is on for such bots by default.
- ``parallel_calls``: how many of its calls (:meth:`reply_batch` of different games) may
  run at once (default 1: one at a time, in the order of the game loop's steps). A bot
  whose reply depends only on the history, whose calls are safe side by side, and that
  can use more cores that way (a model generating on a CPU of several cores) sets it
  when it loads; the game loop then overlaps its batches of consecutive steps.
- ``has_preflight``: :meth:`preflight` checks something quickly (an endpoint answers and
  serves the model); ``chatmatch run`` calls it before any model loads. A class that
  defines ``preflight`` declares it by doing so (set ``has_preflight = False`` to opt out).

A bot that loads a model runs it where the tournament's top-level ``runtime:`` block says
(device, threads; the block scorers and judges share): the engine calls
:meth:`Bot.use_runtime` once after constructing the bot, before :meth:`Bot.load`.

A bot that wraps another one (the reply cache, the games bar's turn counter, the thread
executor's serialising wrapper, the ``faulty`` adapter) derives from :class:`BotWrapper`,
which forwards every call and the capabilities, and overrides only what it changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol, Sequence

Role = Literal["self", "partner"]


@dataclass(frozen=True)
class Message:
    """One past turn as the receiving bot sees it: its own (``self``) or its partner's."""

    role: Role
    text: str


@dataclass(frozen=True)
class History:
    """Everything a bot may use to produce its next turn.

    ``messages`` is the whole game so far, oldest first, from the bot's own side (the seed
    utterance is the first message: ``self`` for the starter, ``partner`` for the other bot).
    ``random_seed`` is fixed per game and turn by the tournament seed: bots that sample
    should seed their generator with it so runs are reproducible.
    """

    messages: tuple[Message, ...]
    seed_utterance: str
    game_id: str = ""
    turn_index: int = 0
    random_seed: int = 0

    @property
    def last_partner_text(self) -> str:
        for m in reversed(self.messages):
            if m.role == "partner":
                return m.text
        return ""

    def texts(self) -> list[str]:
        return [m.text for m in self.messages]


class Runtime(Protocol):
    """What a bot reads of the ``runtime:`` block
    (:class:`chatmatch.runtime.settings.RuntimeSettings`)."""

    @property
    def device(self) -> str: ...  # auto | cpu | cuda | cuda:N | mps

    @property
    def threads(self) -> int | Literal["auto"]: ...

    @property
    def bot_calls(self) -> int | Literal["auto"]: ...


#: the capability attributes (class attributes of :class:`Bot`) that a wrapper around a bot
#: (reply cache, progress counter, serialising or remote proxy, fault injector) takes over
CAPABILITIES = ("supports_batch", "deterministic", "thread_safe", "retries_inside", "remote",
                "parallel_calls")


def copy_capabilities(wrapper: "Bot", inner: "Bot", *, keep: tuple[str, ...] = ()) -> None:
    """Give ``wrapper`` the capabilities of ``inner`` (as instance attributes), except the
    ones named in ``keep``, which the wrapper decides itself (e.g. a serialising wrapper is
    thread-safe whatever it wraps)."""
    for name in CAPABILITIES:
        if name not in keep:
            setattr(wrapper, name, getattr(inner, name))


class Bot:
    """Base class of every adapter. Subclasses override :meth:`reply` (and optionally more)."""

    description: ClassVar[str] = ""
    supports_batch: ClassVar[bool] = False
    deterministic: ClassVar[bool] = True
    thread_safe: ClassVar[bool] = False
    retries_inside: ClassVar[bool] = False
    remote: ClassVar[bool] = False
    parallel_calls: int = 1
    has_preflight: ClassVar[bool] = False
    #: parameters that change how a reply is fetched (timeouts, retries), not what the bot
    #: says: left out of its identity (the play fingerprint, the reply-cache key)
    operational_params: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "preflight" in vars(cls) and "has_preflight" not in vars(cls):
            cls.has_preflight = True  # defining the check declares it

    def __init__(self, name: str = "", **params: Any) -> None:
        if params:
            unknown = ", ".join(sorted(params))
            raise TypeError(f"unknown parameter(s) for {type(self).__name__}: {unknown}")
        self.name = name

    def preflight(self) -> None:
        """A quick check that the bot can work, before any model loads (declared by
        ``has_preflight``; by default nothing). Called at most once, before :meth:`load`."""

    def use_runtime(self, runtime: Runtime) -> None:
        """Run the bot's models as the tournament's ``runtime:`` block says (device,
        threads). Called once after construction, before :meth:`load`; a bot that loads
        no model ignores it (the default)."""

    def load(self) -> None:
        """Load models or open connections. Called once, before the first game."""

    def reply(self, history: History) -> str:
        raise NotImplementedError(f"{type(self).__name__} must implement reply(history)")

    def reply_batch(self, histories: Sequence[History]) -> list[str]:
        """Replies for several games at once; the default calls :meth:`reply` for each."""
        return [self.reply(h) for h in histories]

    def close(self) -> None:
        """Release what :meth:`load` took. Called once, after the last game."""

    def describe(self) -> dict[str, Any]:
        """Facts about the bot written to the run directory (model id, decoding, ...)."""
        return {"class": f"{type(self).__module__}:{type(self).__qualname__}"}


class BotWrapper(Bot):
    """A bot that passes every call (``load``, ``reply``, ``reply_batch``, ``describe``,
    ``close``) to ``inner`` and takes over its capabilities, except those named in
    ``keep``, which the wrapper's class decides. The reply cache, the games bar's turn
    counter, the serialising wrapper of the thread executor and the fault injector build
    on it and override only what they change."""

    def __init__(self, inner: Bot, *, keep: tuple[str, ...] = ()) -> None:
        super().__init__(inner.name)
        self.inner = inner
        copy_capabilities(self, inner, keep=keep)

    def use_runtime(self, runtime: Runtime) -> None:
        self.inner.use_runtime(runtime)

    def load(self) -> None:
        self.inner.load()

    def reply(self, history: History) -> str:
        return self.inner.reply(history)

    def reply_batch(self, histories: Sequence[History]) -> list[str]:
        return self.inner.reply_batch(histories)

    def close(self) -> None:
        self.inner.close()

    def describe(self) -> dict[str, Any]:
        return self.inner.describe()

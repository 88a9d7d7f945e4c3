"""Which bot adapters exist, and how a tournament YAML entry becomes a bot object.

A bot entry names its adapter either by a registered short name (``eliza``, ``causal-lm``)
or by an import path ``package.module:Class``. Adapters are found the same way whether they
are built in or come from another package (see :mod:`chatmatch.common.registry`):

- a package declares an entry point in the group :data:`ENTRY_POINT_GROUP`, and chatmatch
  declares its own adapters (:mod:`chatmatch_bots`) the same way, in its ``setup.cfg``
  (the core never imports :mod:`chatmatch_bots`)::

      [options.entry_points]
      chatmatch.bots =
          my-bot = my_package.bots:MyBot

  The entry point's name becomes the adapter name; its module is imported when the name is
  first asked for, not when chatmatch starts. It may also point at a module that registers
  its classes itself with ``@ADAPTERS.register("name")``.

A module or plugin that fails to import does not stop the others; its error is kept in
``ADAPTERS.load_errors`` and shown when an adapter cannot be found.
"""

from __future__ import annotations

import types
from typing import Any

from pydantic import BaseModel

from chatmatch.adapters.params import BotParams as BotParams, construct, params_model
from chatmatch.bot import Bot, Runtime
from chatmatch.common.params import ParamsProblem, problem_text, validate_params
from chatmatch.common.registry import Registry, UnknownNameError
from chatmatch.errors import BotError, ChatmatchError

ENTRY_POINT_GROUP = "chatmatch.bots"

def _is_bot_class(obj: object) -> bool:
    return isinstance(obj, type) and issubclass(obj, Bot)


def _check_adapter(obj: object) -> str | None:
    if _is_bot_class(obj):
        return None
    what = f"a {type(obj).__name__}" if not isinstance(obj, type) else "a class"
    return f"it is {what} that does not subclass chatmatch.bot.Bot; an adapter must be a Bot subclass."


def _bot_classes_in(module: types.ModuleType) -> str:
    names = sorted(name for name, obj in vars(module).items() if _is_bot_class(obj) and obj is not Bot)
    return f"Bot classes it defines: {', '.join(names) or 'none'}."


def _describe_adapter(cls: type[Bot]) -> dict[str, object]:
    return {"description": cls.description}


ADAPTERS: Registry[type[Bot]] = Registry(
    "bot adapter", group=ENTRY_POINT_GROUP, provider="chatmatch", noun="adapter",
    check=_check_adapter, candidates=_bot_classes_in, listing="chatmatch bots",
    describe=_describe_adapter, error=BotError)


def resolve_adapter(spec: str) -> type[Bot]:
    """The adapter class for a registered name or an import path ``package.module:Class``."""
    if ":" in spec:
        return ADAPTERS.import_path(spec)
    if spec in ADAPTERS:
        return ADAPTERS.get(spec)
    message = ADAPTERS.miss_message(spec) + "."
    if "." in spec:
        message += f" For an import path write 'package.module:Class' (e.g. '{_colon_hint(spec)}')."
    else:
        message += " Or give an import path 'package.module:Class'."
    raise UnknownNameError(message + ADAPTERS.failed_note())


def _colon_hint(spec: str) -> str:
    module, _, cls = spec.rpartition(".")
    return f"{module}:{cls}"


def list_adapters() -> list[tuple[str, str]]:
    """(name, one-line description) of every registered adapter, sorted by name."""
    listed = []
    for name in ADAPTERS:
        lines = str(ADAPTERS.meta(name)["description"]).strip().splitlines()
        listed.append((name, lines[0] if lines else ""))
    return listed


def operational_params(adapter: str) -> frozenset[str]:
    """The parameters of ``adapter`` that change how a reply is fetched (timeouts, retries,
    concurrency), not what the bot says: an adapter lists them in its class attribute
    ``operational_params``. They are left out of the bot's identity (the run directory's
    play fingerprint and the reply-cache key), so raising a timeout resumes the same run
    with its cache. An adapter that cannot be imported has none."""
    try:
        cls = resolve_adapter(adapter)
    except ChatmatchError:
        return frozenset()
    return frozenset(cls.operational_params)


def identity_params(adapter: str, params: dict[str, Any]) -> dict[str, Any]:
    """``params`` without the adapter's :func:`operational_params`."""
    skip = operational_params(adapter)
    return {k: v for k, v in params.items() if k not in skip}


class BadParam(BotError):
    """A bot's ``params`` that do not fit its model; ``param`` names the parameter at fault
    (for the YAML line; None: the block as a whole)."""

    def __init__(self, message: str, param: str | None) -> None:
        super().__init__(message)
        self.param = param


def check_bot(name: str, adapter: str, params: dict[str, Any] | None = None) -> None:
    """Raise what :func:`create_bot` would raise before constructing: an unknown
    ``adapter`` or ``params`` its parameter model refuses (:class:`BadParam`)."""
    _validated(name, adapter, dict(params or {}))


def _validated(name: str, adapter: str, params: dict[str, Any]
               ) -> tuple[type[Bot], type[BaseModel], BaseModel]:
    """The adapter's class, its parameter model and ``params`` validated by it."""
    cls = resolve_adapter(adapter)
    where = f"Bot '{name}' (adapter '{adapter}')"
    model = params_model(cls)
    if "name" in params:
        raise BadParam(problem_text(where, ParamsProblem(
            "parameter 'name' cannot be set in params: it is the bot's name", "name"), model), "name")
    try:
        return cls, model, validate_params(model, params)
    except ParamsProblem as exc:
        raise BadParam(problem_text(where, exc, model), exc.param) from None


def create_bot(name: str, adapter: str, params: dict[str, Any] | None = None,
               runtime: Runtime | None = None) -> Bot:
    """Construct (cheaply: models load in :meth:`Bot.load`) bot ``name`` of ``adapter``,
    its ``params`` validated by the adapter's parameter model (:mod:`.params`), its models
    to run as ``runtime`` (the ``runtime:`` block; None: the bot's defaults) says."""
    params = dict(params or {})
    cls, model, validated = _validated(name, adapter, params)
    where = f"Bot '{name}' (adapter '{adapter}')"
    try:
        bot = construct(cls, name, validated)
        if runtime is not None:
            bot.use_runtime(runtime)
        return bot
    except (TypeError, ValueError) as exc:
        if not _raised_by_adapter(cls, exc):  # a library deep inside failed: not the YAML's fault
            raise
        if not params:  # nothing was given: the constructor itself failed
            raise BotError(f"{where}: its constructor failed with no parameters given "
                           f"({type(exc).__name__}: {exc}); the adapter's code, not the YAML, "
                           "needs fixing") from exc
        raise BotError(problem_text(where, ParamsProblem(str(exc)), model)) from exc


def _raised_by_adapter(cls: type[Bot], exc: BaseException) -> bool:
    """Whether ``exc`` was raised by the adapter's own package (its parameter checks), not
    inside some library it called (a bug or a missing resource, not the YAML's fault)."""
    packages = {k.__module__.split(".")[0] for k in cls.__mro__}
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return True
    return str(tb.tb_frame.f_globals.get("__name__", "")).split(".")[0] in packages

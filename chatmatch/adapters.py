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

import inspect
import types
import typing
from typing import Any

from chatmatch.bot import Bot
from chatmatch.common.registry import Registry, UnknownNameError, close_matches
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


def accepted_parameters(cls: type[Bot]) -> dict[str, inspect.Parameter]:
    """The constructor parameters a YAML ``params`` mapping may set (all but ``name``)."""
    sig = inspect.signature(cls.__init__)
    return {n: p for n, p in sig.parameters.items()
            if n not in ("self", "name") and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}


def _format_parameters(params: dict[str, inspect.Parameter]) -> str:
    if not params:
        return "none"
    parts = []
    for p in params.values():
        ann = p.annotation if isinstance(p.annotation, str) else getattr(
            p.annotation, "__name__", str(p.annotation))
        ann_text = "" if p.annotation is inspect.Parameter.empty else f": {ann}"
        default = " (required)" if p.default is inspect.Parameter.empty else f" = {p.default!r}"
        parts.append(f"{p.name}{ann_text}{default}")
    return ", ".join(parts)


def _check_params(cls: type[Bot], params: dict[str, Any]) -> str | None:
    accepted = accepted_parameters(cls)
    takes_any = any(p.kind is p.VAR_KEYWORD for n, p in
                    inspect.signature(cls.__init__).parameters.items() if n != "self")
    if "name" in params:
        return "parameter 'name' cannot be set in params: it is the bot's name"
    unknown = sorted(set(params) - set(accepted))
    if unknown and not takes_any:
        hints = [f"'{u}' (did you mean '{close[0]}'?)" if close else f"'{u}'"
                 for u in unknown
                 for close in [close_matches(u, accepted, n=1)]]
        return f"unknown parameter(s) {', '.join(hints)}"
    missing = [n for n, p in accepted.items()
               if p.default is inspect.Parameter.empty and n not in params]
    if missing:
        return f"missing required parameter(s) {', '.join(map(repr, missing))}"
    return None


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
    return frozenset(getattr(cls, "operational_params", ()))


def identity_params(adapter: str, params: dict[str, Any]) -> dict[str, Any]:
    """``params`` without the adapter's :func:`operational_params`."""
    skip = operational_params(adapter)
    return {k: v for k, v in params.items() if k not in skip}


class BadParam(BotError):
    """A bot parameter of the wrong type; ``param`` names it (for the YAML line)."""

    def __init__(self, message: str, param: str) -> None:
        super().__init__(message)
        self.param = param


def _type_hints(cls: type[Bot]) -> dict[str, Any]:
    try:
        return typing.get_type_hints(cls.__init__)
    except Exception:  # noqa: BLE001 - a plugin's annotations may not resolve: no check
        return {}


def _type_problem(value: Any, hint: Any) -> str | None:
    """Why ``value`` does not fit the annotation ``hint`` (None when it does). Lax, as YAML
    gives lists for tuples and ints for floats, but a boolean or a string is never taken
    for a number."""
    from pydantic import TypeAdapter, ValidationError

    try:
        got = TypeAdapter(hint).validate_python(value)
    except ValidationError as exc:
        return exc.errors()[0]["msg"].lower()
    except Exception:  # noqa: BLE001 - a type pydantic cannot check: no check
        return None
    if isinstance(value, bool) and not isinstance(got, bool):
        return "expected a number, not a boolean"
    if isinstance(value, str) and not isinstance(got, str):
        return "expected a number, not a quoted string"
    return None


_TYPE_WORDS = {str: ("text", "strings"), float: ("a number", "numbers"),
               int: ("an integer", "integers"), bool: ("true or false", "booleans"),
               type(None): ("null", "nulls")}


def describe_type(hint: Any, plural: bool = False) -> str:
    """An annotation in words: ``list[str] | None`` -> "a list of strings or null"."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in _TYPE_WORDS:
        return _TYPE_WORDS[hint][plural]
    if origin is typing.Literal:
        return "one of " + " | ".join(map(str, args))
    if origin in (typing.Union, types.UnionType):
        return " or ".join(describe_type(a, plural) for a in args)
    if origin in (list, tuple, set, frozenset) and args:
        return ("lists" if plural else "a list") + " of " + describe_type(args[0], True)
    if origin is dict or hint is dict:
        return "mappings" if plural else "a mapping"
    return getattr(hint, "__name__", str(hint))


def _check_types(cls: type[Bot], params: dict[str, Any]) -> tuple[str, str] | None:
    hints = _type_hints(cls)
    for key, value in params.items():
        if key in hints:
            problem = _type_problem(value, hints[key])
            if problem:
                want = describe_type(hints[key])
                return key, f"parameter '{key}' must be {want}, got {value!r} ({problem})"
    return None


def create_bot(name: str, adapter: str, params: dict[str, Any] | None = None) -> Bot:
    """Construct (cheaply: models load in :meth:`Bot.load`) bot ``name`` of ``adapter``.
    Parameters are checked against the constructor's signature and type annotations."""
    cls = resolve_adapter(adapter)
    params = dict(params or {})
    where = f"Bot '{name}' (adapter '{adapter}')"
    accepted = f"Accepted parameters: {_format_parameters(accepted_parameters(cls))}."
    problem = _check_params(cls, params)
    if problem:
        raise BotError(f"{where}: {problem}. {accepted}")
    wrong = _check_types(cls, params)
    if wrong:
        raise BadParam(f"{where}: bad parameters: {wrong[1]}. {accepted}", wrong[0])
    try:
        return cls(name, **params)
    except (TypeError, ValueError) as exc:
        if not _raised_by_adapter(cls, exc):  # a library deep inside failed: not the YAML's fault
            raise
        if not params:  # nothing was given: the constructor itself failed
            raise BotError(f"{where}: its constructor failed with no parameters given "
                           f"({type(exc).__name__}: {exc}); the adapter's code, not the YAML, "
                           "needs fixing") from exc
        raise BotError(f"{where}: bad parameters: {exc}. {accepted}") from exc


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

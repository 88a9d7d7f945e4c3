"""Which bot adapters exist, and how a tournament YAML entry becomes a bot object.

A bot entry names its adapter either by a registered short name (``eliza``, ``causal-lm``)
or by an import path ``package.module:Class``. Adapters are registered the same way
whether they are built in or come from another package:

- a built-in module in :data:`BUILTIN_MODULES` decorates its class with
  ``@ADAPTERS.register("name")``; the modules are imported on the first lookup, not when
  chatmatch starts;
- a third-party package declares an entry point in the group :data:`ENTRY_POINT_GROUP`::

      [options.entry_points]
      chatmatch.bots =
          my-bot = my_package.bots:MyBot

  The entry point's name becomes the adapter name. It may also point at a module that
  registers its classes itself with ``@ADAPTERS.register``.

A module or plugin that fails to import does not stop the others; its error is kept in
:data:`LOAD_ERRORS` and shown when an adapter cannot be found.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import inspect
import types
from typing import Any, Iterable

from chatmatch_bots.base import Bot
from chatmatch.errors import BotError
from chatmatch.registry import Registry, UnknownNameError

ENTRY_POINT_GROUP = "chatmatch.bots"

# --- Built-in adapter modules -----------------------------------------------------------
# Imported lazily, in this order, on the first registry lookup. Each module registers its
# adapters with ``@ADAPTERS.register("name")`` when imported. To add a built-in adapter,
# add its module here. A listed module that does not exist (yet) is skipped silently; any
# other import failure is recorded in LOAD_ERRORS.
BUILTIN_MODULES: tuple[str, ...] = (
    "chatmatch_bots.baseline",
    "chatmatch_bots.eliza",
    "chatmatch_bots.retrieval",
    "chatmatch_bots.chatterbot_bot",
    "chatmatch_bots.transformers_bot",
    "chatmatch_bots.openai_http",
    "chatmatch_bots.faults",
)
# ------------------------------------------------------------------------------------------

ADAPTERS: Registry[type[Bot]] = Registry("bot adapter")

#: "where: why" for each built-in module or entry point that failed to load.
LOAD_ERRORS: list[str] = []


def _describe_exception(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _import_builtins(modules: Iterable[str] = BUILTIN_MODULES) -> None:
    for module in modules:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:  # the module exists but one of its imports is missing
                LOAD_ERRORS.append(f"built-in module {module}: {_describe_exception(exc)}")
        except Exception as exc:  # noqa: BLE001 - one broken module must not hide the rest
            LOAD_ERRORS.append(f"built-in module {module}: {_describe_exception(exc)}")


def _register_entry_point(ep: importlib.metadata.EntryPoint) -> None:
    obj = ep.load()
    if isinstance(obj, types.ModuleType):
        return  # a module registers its adapters itself when imported
    if not (isinstance(obj, type) and issubclass(obj, Bot)):
        raise TypeError(f"{ep.value} is not a subclass of chatmatch_bots.base.Bot")
    # The registry is loading right now, so look at its items without triggering a load.
    if ADAPTERS._items.get(ep.name) is obj:
        return  # the module registered the class under the same name at import
    ADAPTERS.add(ep.name, obj, source=f"entry point {ep.value}")


def _load_entry_points(eps: Iterable[importlib.metadata.EntryPoint] | None = None) -> None:
    if eps is None:
        eps = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    for ep in eps:
        try:
            _register_entry_point(ep)
        except Exception as exc:  # noqa: BLE001 - a broken plugin must not hide the rest
            LOAD_ERRORS.append(
                f"entry point '{ep.name} = {ep.value}' ({ENTRY_POINT_GROUP}): "
                f"{_describe_exception(exc)}")


ADAPTERS.add_loader(_import_builtins)
ADAPTERS.add_loader(_load_entry_points)


def _bot_classes_in(module: types.ModuleType) -> list[str]:
    return sorted(name for name, obj in vars(module).items()
                  if isinstance(obj, type) and issubclass(obj, Bot) and obj is not Bot)


def _import_module(module_name: str, spec: str) -> types.ModuleType:
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (module_name == exc.name or module_name.startswith(exc.name + ".")):
            if module_name.split(".")[0] == "bots":
                raise BotError(
                    f"Cannot use adapter '{spec}': the package 'bots' was renamed "
                    f"'chatmatch_bots'; write '{spec.replace('bots.', 'chatmatch_bots.', 1)}', "
                    "or use the adapter's registered name (see `chatmatch bots`).") from None
            raise BotError(
                f"Cannot use adapter '{spec}': there is no module named '{module_name}'. "
                "Check the spelling, that its package is installed in this environment, "
                "or that its folder is on PYTHONPATH.") from None
        raise BotError(f"Cannot use adapter '{spec}': importing '{module_name}' failed because "
                       f"module '{exc.name}' is missing; install it.") from exc
    except Exception as exc:
        raise BotError(f"Cannot use adapter '{spec}': importing '{module_name}' raised "
                       f"{_describe_exception(exc)}") from exc


def _resolve_import_path(spec: str) -> type[Bot]:
    module_name, _, attr_path = spec.partition(":")
    if not module_name or not attr_path:
        raise BotError(f"Adapter '{spec}' is not a valid import path: write "
                       "'package.module:ClassName'.")
    obj: Any = _import_module(module_name, spec)
    for part in attr_path.split("."):
        if not hasattr(obj, part):
            known = ", ".join(_bot_classes_in(_import_module(module_name, spec))) or "none"
            raise BotError(f"Cannot use adapter '{spec}': module '{module_name}' has no "
                           f"attribute '{attr_path}'. Bot classes it defines: {known}.")
        obj = getattr(obj, part)
    if not (isinstance(obj, type) and issubclass(obj, Bot)):
        what = f"a {type(obj).__name__}" if not isinstance(obj, type) else "a class"
        raise BotError(f"Cannot use adapter '{spec}': it is {what} that does not subclass "
                       "chatmatch_bots.base.Bot; an adapter must be a Bot subclass.")
    return obj


def resolve_adapter(spec: str) -> type[Bot]:
    """The adapter class for a registered name or an import path ``package.module:Class``."""
    if ":" in spec:
        return _resolve_import_path(spec)
    if spec in ADAPTERS:
        return ADAPTERS.get(spec)
    message = ADAPTERS.miss_message(spec) + "."
    if "." in spec:
        message += f" For an import path write 'package.module:Class' (e.g. '{_colon_hint(spec)}')."
    else:
        message += " Or give an import path 'package.module:Class'."
    if LOAD_ERRORS:
        message += " Some adapters failed to load: " + "; ".join(LOAD_ERRORS)
    raise UnknownNameError(message)


def _colon_hint(spec: str) -> str:
    module, _, cls = spec.rpartition(".")
    return f"{module}:{cls}"


def list_adapters() -> list[tuple[str, str]]:
    """(name, one-line description) of every registered adapter, sorted by name."""
    listed = []
    for name in ADAPTERS:
        lines = ADAPTERS.get(name).description.strip().splitlines()
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
                 for close in [difflib.get_close_matches(u, list(accepted), n=1, cutoff=0.6)]]
        return f"unknown parameter(s) {', '.join(hints)}"
    missing = [n for n, p in accepted.items()
               if p.default is inspect.Parameter.empty and n not in params]
    if missing:
        return f"missing required parameter(s) {', '.join(map(repr, missing))}"
    return None


def create_bot(name: str, adapter: str, params: dict[str, Any] | None = None) -> Bot:
    """Construct (cheaply: models load in :meth:`Bot.load`) bot ``name`` of ``adapter``."""
    cls = resolve_adapter(adapter)
    params = dict(params or {})
    where = f"Bot '{name}' (adapter '{adapter}')"
    accepted = f"Accepted parameters: {_format_parameters(accepted_parameters(cls))}."
    problem = _check_params(cls, params)
    if problem:
        raise BotError(f"{where}: {problem}. {accepted}")
    try:
        return cls(name, **params)
    except (TypeError, ValueError) as exc:
        raise BotError(f"{where}: bad parameters: {exc}. {accepted}") from exc

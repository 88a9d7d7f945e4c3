"""One registry pattern for everything named in a YAML or on the command line: bot adapters,
scorers (the seven dimensions and the model judges), ranking methods and perturbation
families.

An item is found in one of three ways, all lazy (nothing is imported before it is asked for):

- an **entry point** of the registry's group (e.g. ``chatmatch.bots``): chatmatch declares its
  own built-ins this way in its ``setup.cfg``, exactly as another package declares a plugin,
  so the core's code names none of them; the entry point's name becomes the item's name (it
  may also point at a module that registers its items itself when imported);
- an item added with :meth:`Registry.add` / ``@REGISTRY.register("name")`` (e.g. the
  perturbation families defined in the registry's own module);
- an **import path** ``package.module:Attr`` (:meth:`Registry.resolve`).

Metadata (``description``, a scorer's ``higher_is_better``...) is declared once, on the item
where it is defined, and read by the registry's ``describe`` function; :meth:`Registry.add`
may add more. A miss says what exists and suggests the closest name (:func:`did_you_mean`,
the hint of every lookup by name in chatmatch)::

    >>> r: Registry[int] = Registry("metric")
    >>> r.add("acc_norm", 1)
    >>> r.get("acc_nrom")
    Traceback (most recent call last):
    ...
    chatmatch.common.registry.UnknownNameError: Unknown metric 'acc_nrom'. Did you mean: acc_norm? Available: acc_norm

A built-in or plugin that fails to import does not hide the others: its error is kept in
:attr:`Registry.load_errors` and shown when a name cannot be found.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.metadata
import threading
import types
from typing import Any, Callable, Generic, Iterable, Iterator, Mapping, TypeVar

from chatmatch.errors import ChatmatchError

T = TypeVar("T")


class UnknownNameError(ChatmatchError):
    """A name that is not in a registry."""


def close_matches(name: str, names: Iterable[str], n: int = 3) -> list[str]:
    """Up to ``n`` of ``names`` that look like ``name`` (a typo's likely meaning), closest
    first: the one similarity rule of every did-you-mean in chatmatch."""
    return difflib.get_close_matches(name, list(names), n=n, cutoff=0.6)


def did_you_mean(name: str, names: Iterable[str]) -> str:
    """`` Did you mean: a, b?`` for the names close to ``name`` ("" when none is): the hint of
    every registry-like lookup (bots, scorers, ranking methods, presets, perturbation
    families), e.g. ``f"Unknown preset '{name}'.{did_you_mean(name, PRESETS)} Available: ..."``."""
    close = close_matches(name, names)
    return f" Did you mean: {', '.join(close)}?" if close else ""


def describe_exception(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _no_metadata(item: Any) -> dict[str, object]:
    return {}


def _anything(item: object) -> str | None:
    return None


class Registry(Generic[T]):
    """Name -> item, found lazily by name, entry point or import path.

    ``kind`` names the registry in messages ("Unknown {kind} 'x'"); ``noun`` names one item
    in import-path errors ("Cannot use {noun} 'pkg.mod:X'"). ``check(obj)`` returns why an
    imported object cannot be an item (``None``: it can). ``candidates(module)`` says what
    a module defines that could be an item (shown when an import path names a missing
    attribute); ``listing`` is the command that lists the registered names. ``error`` is the
    exception class of import-path errors. ``name_of(item)``: the name an item gives itself
    (a scorer's ``name``), which an entry point must be registered under. ``provider``: the
    distribution whose entry points are the registry's built-ins (``"chatmatch"``); when none
    of them is found, a miss says that it is not installed.
    """

    def __init__(self, kind: str, *, group: str | None = None, provider: str | None = None,
                 noun: str | None = None,
                 check: Callable[[object], str | None] = _anything,
                 candidates: Callable[[types.ModuleType], str] | None = None,
                 listing: str = "",
                 describe: Callable[[T], Mapping[str, object]] = _no_metadata,
                 error: type[ChatmatchError] = ChatmatchError,
                 name_of: Callable[[T], str] | None = None) -> None:
        self.kind = kind
        self.noun = noun or kind
        self.group = group
        self._provider = provider
        self._check = check
        self._candidates = candidates
        self._listing = listing
        self._describe = describe
        self._error = error
        self._name_of = name_of
        self._items: dict[str, T] = {}
        self._meta: dict[str, dict[str, object]] = {}
        #: name -> (where it comes from, how to load it): not imported yet
        self._pending: dict[str, tuple[str, Callable[[], object]]] = {}
        self._discovered = group is None
        #: "where: why" for each built-in or entry point that failed to load
        self.load_errors: list[str] = []
        self._lock = threading.RLock()  # one thread loads; the others wait for it

    # --- registering ----------------------------------------------------------------------
    def add(self, name: str, item: T, **meta: object) -> None:
        if name in self._items:
            raise ValueError(f"{self.kind} '{name}' is registered twice")
        self._items[name] = item
        self._meta[name] = dict(meta)

    def register(self, name: str, **meta: object) -> Callable[[T], T]:
        """Decorator form of :meth:`add`."""

        def deco(item: T) -> T:
            self.add(name, item, **meta)
            return item

        return deco

    def add_entry_points(self, eps: list[importlib.metadata.EntryPoint]) -> None:
        """Make entry points known by name (loaded on first use)."""
        for ep in eps:
            where = f"entry point '{ep.name} = {ep.value}' ({ep.group or self.group})"
            if ep.name in self._pending:
                self.load_errors.append(f"{where}: {self.kind} '{ep.name}' is registered twice")
            else:
                self._pending[ep.name] = (where, ep.load)

    def _discover(self) -> None:
        if not self._discovered:
            self._discovered = True
            try:
                eps = list(importlib.metadata.entry_points(group=self.group or ""))
            except Exception as exc:  # noqa: BLE001 - a broken installed package's metadata
                self.load_errors.append(f"entry points of group '{self.group}' could not be "
                                        f"read ({type(exc).__name__}: {exc}); plugins are "
                                        "unavailable until the broken package is reinstalled")
                return
            self.add_entry_points(eps)
            if self._provider and not any(_distribution(ep) == self._provider for ep in eps):
                self.load_errors.append(
                    f"the built-in {self.noun}s (entry points '{self.group}' of {self._provider}) "
                    f"were not found: {self._provider} is not installed in this Python "
                    "environment, or was installed before they were declared; install it again "
                    "(`pip install -e .` in its folder)")

    # --- loading --------------------------------------------------------------------------
    def _load_one(self, name: str) -> None:
        where, load = self._pending.pop(name)
        try:
            obj = load()
            if isinstance(obj, types.ModuleType):
                return  # a module registers its items itself when imported
            problem = self._check(obj)
            if problem:
                raise TypeError(problem)
            if self._items.get(name) is obj:
                return  # the module registered the same item under the same name
            own = self._name_of(obj) if self._name_of is not None else name  # type: ignore[arg-type]
            if own != name:
                raise ValueError(f"it calls itself '{own}': register it under that name")
            self.add(name, obj)  # type: ignore[arg-type]  # checked above
        except Exception as exc:  # noqa: BLE001 - one broken plugin must not hide the rest
            self.load_errors.append(f"{where}: {describe_exception(exc)}")

    def _load_all(self) -> None:
        with self._lock:
            self._discover()
            while self._pending:
                self._load_one(next(iter(self._pending)))

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        if name in self._items:
            return True
        with self._lock:
            self._discover()
            if name in self._pending:
                self._load_one(name)
            elif name not in self._items:
                self._load_all()  # a self-registering module may define it
            return name in self._items

    def __iter__(self) -> Iterator[str]:
        self._load_all()
        return iter(sorted(self._items))

    def names(self) -> list[str]:
        return list(self)

    def get(self, name: str, *, where: Callable[[dict[str, object]], bool] | None = None,
            kind: str | None = None) -> T:
        """The item called ``name``; with ``where``, only among the items whose metadata it
        accepts (a miss then calls them ``kind``, e.g. the judges among the scorers)."""
        if where is None:
            if name not in self:
                raise UnknownNameError(self.miss_message(name) + self._failed_note("."))
            return self._items[name]
        among = [n for n in self if where(self.meta(n))]
        if name not in among:
            raise UnknownNameError(self.miss_message(name, among=among, kind=kind)
                                   + self._failed_note("."))
        return self._items[name]

    def failed_note(self) -> str:
        """" Some {noun}s failed to load: where: why; ..." (empty when none failed)."""
        return self._failed_note("")

    def _failed_note(self, stop: str) -> str:
        if not self.load_errors:
            return ""
        return f"{stop} Some {self.noun}s failed to load: " + "; ".join(self.load_errors)

    def registered_name(self, item: object) -> str | None:
        """The name a loaded item is registered under (None: not registered), e.g. a
        function named by import path whose module registered it when imported."""
        return next((name for name, it in self._items.items() if it is item), None)

    def meta(self, name: str) -> dict[str, object]:
        """The item's metadata: what it declares itself, then what registration added."""
        item = self.get(name)
        return {**self._describe(item), **self._meta[name]}

    def miss_message(self, name: str, *, among: list[str] | None = None,
                     kind: str | None = None) -> str:
        names = sorted(self if among is None else among)
        return (f"Unknown {kind or self.kind} '{name}'.{did_you_mean(name, names)} "
                f"Available: {', '.join(names) or 'none'}")

    # --- import paths ---------------------------------------------------------------------
    def resolve(self, spec: str) -> T:
        """The item for a registered name or an import path ``package.module:Attr``."""
        if ":" in spec:
            return self.import_path(spec)
        return self.get(spec)

    def import_path(self, spec: str) -> T:
        module_name, _, attr_path = spec.partition(":")
        noun = self.noun
        if not module_name or not attr_path:
            raise self._error(f"{noun[0].upper() + noun[1:]} '{spec}' is not a valid import "
                              "path: write 'package.module:ClassName'.")
        obj: Any = self._import_module(module_name, spec)
        for part in attr_path.split("."):
            if not hasattr(obj, part):
                known = ""
                if self._candidates is not None:
                    known = " " + self._candidates(self._import_module(module_name, spec))
                raise self._error(f"Cannot use {noun} '{spec}': module '{module_name}' has no "
                                  f"attribute '{attr_path}'.{known}")
            obj = getattr(obj, part)
        problem = self._check(obj)
        if problem:
            raise self._error(f"Cannot use {noun} '{spec}': {problem}")
        return obj  # type: ignore[no-any-return]  # checked above

    def _import_module(self, module_name: str, spec: str) -> types.ModuleType:
        noun = self.noun
        try:
            return importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and (module_name == exc.name or module_name.startswith(exc.name + ".")):
                if module_name.split(".")[0] == "bots":
                    moved = {"bots.base": "chatmatch.bot", "bots.registry": "chatmatch.adapters",
                             "bots.reply_cache": "chatmatch.play.reply_cache"}
                    new = moved.get(module_name, "chatmatch_bots" + module_name[len("bots"):])
                    raise self._error(
                        f"Cannot use {noun} '{spec}': the package 'bots' was renamed "
                        f"'chatmatch_bots'; write '{new}:{spec.partition(':')[2]}', "
                        f"or use the {noun}'s registered name"
                        + (f" (see `{self._listing}`)." if self._listing else ".")) from None
                raise self._error(
                    f"Cannot use {noun} '{spec}': there is no module named '{module_name}'. "
                    "Check the spelling, that its package is installed in this environment, "
                    "or that its folder is on PYTHONPATH.") from None
            raise self._error(f"Cannot use {noun} '{spec}': importing '{module_name}' failed "
                              f"because module '{exc.name}' is missing; install it.") from exc
        except Exception as exc:
            raise self._error(f"Cannot use {noun} '{spec}': importing '{module_name}' raised "
                              f"{describe_exception(exc)}") from exc



def _distribution(ep: importlib.metadata.EntryPoint) -> str | None:
    """The name of the distribution that declares ``ep`` (None when unknown)."""
    dist = getattr(ep, "dist", None)
    return None if dist is None else str(dist.name)

"""A small generic registry keyed by name; a miss suggests the closest names."""

from __future__ import annotations

import difflib
from typing import Callable, Generic, Iterator, TypeVar

from chatmatch.errors import ChatmatchError

T = TypeVar("T")


class UnknownNameError(ChatmatchError):
    """A name that is not in a registry."""


class Registry(Generic[T]):
    """Name -> object, with metadata and helpful misses.

    >>> r: Registry[int] = Registry("metric")
    >>> r.add("acc_norm", 1)
    >>> r.get("acc_nrom")
    Traceback (most recent call last):
    ...
    chatmatch.registry.UnknownNameError: Unknown metric 'acc_nrom'. Did you mean: acc_norm? Available: acc_norm
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._items: dict[str, T] = {}
        self._meta: dict[str, dict[str, object]] = {}
        self._lazy: list[Callable[[], None]] = []

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

    def add_loader(self, loader: Callable[[], None]) -> None:
        """A callable run once before the first lookup (e.g. entry-point discovery)."""
        self._lazy.append(loader)

    def _load(self) -> None:
        while self._lazy:
            self._lazy.pop(0)()

    def __contains__(self, name: object) -> bool:
        self._load()
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        self._load()
        return iter(sorted(self._items))

    def names(self) -> list[str]:
        return list(self)

    def meta(self, name: str) -> dict[str, object]:
        self.get(name)
        return self._meta[name]

    def miss_message(self, name: str) -> str:
        self._load()
        close = difflib.get_close_matches(name, list(self._items), n=3, cutoff=0.6)
        hint = f" Did you mean: {', '.join(close)}?" if close else ""
        return f"Unknown {self.kind} '{name}'.{hint} Available: {', '.join(sorted(self._items))}"

    def get(self, name: str) -> T:
        self._load()
        try:
            return self._items[name]
        except KeyError:
            raise UnknownNameError(self.miss_message(name)) from None

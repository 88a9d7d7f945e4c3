"""What ``chatmatch bots`` shows of each adapter: its description, the installed package
that provides it and its parameters (from :func:`chatmatch.adapters.params.params_model`)."""

from __future__ import annotations

import functools
import importlib.metadata
from collections.abc import Mapping
from dataclasses import dataclass

import chatmatch.adapters as adapters
from chatmatch.adapters.params import params_model
from chatmatch.bot import Bot
from chatmatch.common.params import field_texts


@dataclass(frozen=True)
class AdapterInfo:
    name: str
    description: str
    package: str  # the distribution that installs the class's module, or where it is found
    params: tuple[str, ...]  # "name: type = default" each


@functools.cache
def _distributions() -> Mapping[str, list[str]]:
    return importlib.metadata.packages_distributions()


def package_of(cls: type[Bot]) -> str:
    """The installed distribution(s) providing ``cls``'s top-level package, e.g.
    ``chatmatch`` for :mod:`chatmatch_bots`; ``module x.y (not installed)`` otherwise."""
    top = cls.__module__.split(".")[0]
    dists = sorted(set(_distributions().get(top, [])))
    return ", ".join(dists) if dists else f"module {cls.__module__} (not installed)"


def adapter_info(name: str) -> AdapterInfo:
    cls = adapters.ADAPTERS.get(name)
    lines = str(adapters.ADAPTERS.meta(name).get("description", "")).strip().splitlines()
    return AdapterInfo(name, lines[0] if lines else "", package_of(cls),
                       tuple(field_texts(params_model(cls))))


def all_adapters() -> list[AdapterInfo]:
    """Every registered adapter (built in and from installed plugins), sorted by name."""
    return [adapter_info(name) for name in adapters.ADAPTERS]

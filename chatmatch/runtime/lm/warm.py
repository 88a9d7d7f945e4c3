"""Perplexities before the model: a warm ``score`` or ``validate`` never loads the fluency LM.

The machine's perplexity cache (:mod:`chatmatch.runtime.lm.cache`) keys each value by the
LM's fingerprint, and some of that fingerprint (the context token) is only known once the
model is loaded. :class:`WarmLM` stands in for the LM until a text is missing: it makes
an **alias** from what is known without loading anything -- the engine, the device type,
the precision, ``max_tokens``, the sha256 of the model's GGUF or folder, the versions of
every library that computes a value, the hash of chatmatch's perplexity code -- and reads
the values stored under the fingerprint that alias was linked to by the first process that
loaded this LM. When every text asked for is there, no model is loaded (SmolLM2: ~3.5 CPU
s and ~600 MB saved, more with onnxruntime); otherwise the LM is loaded, computes what is
missing (reading the rest from the same cache) and links the alias for next time.

An alias holds everything its fingerprint depends on, so it can only lead to values this
LM would have read after loading: the results are the same bit for bit. A hub model (no
file to hash) has no alias and is loaded as before; so is an LM whose cache is off.
"""

from __future__ import annotations

import json
import platform
import threading
from typing import Callable, Protocol, Sequence

from chatmatch.runtime.lm.cache import (SCHEMA_VERSION, PerplexityStore, code_digest, device_name,
                                        enabled, library_version, model_identity)

#: every library whose version is in some engine's fingerprint
LIBRARIES = ("torch", "transformers", "tokenizers", "onnxruntime", "onnx", "gguf", "numpy")


class LoadedLM(Protocol):
    """What :class:`WarmLM` needs of the LM it stands in for."""

    name: str
    vocab_size: int

    def perplexities(self, texts: Sequence[str]) -> list[float | None]: ...


def warm_alias(where: str, gguf: str | None, *, engine: str, device: str,
               max_tokens: int) -> str | None:
    """The alias of an LM configuration (see the module docstring), or ``None`` when its
    model has no content to hash (a hub id) or the code cannot be identified."""
    identity = model_identity(where, gguf)
    code = code_digest()
    if identity is None or code is None:
        return None
    return json.dumps({"alias": 1, "model": identity, "engine": engine, "precision": "fp32",
                       "device": device_name(device), "max_tokens": max_tokens, "code": code,
                       "versions": {name: library_version(name) for name in LIBRARIES},
                       "machine": platform.machine(), "schema": SCHEMA_VERSION}, sort_keys=True)


#: the name of the LM's vocabulary size in the cache's ``meta`` table
VOCAB_META = "vocab_size"


class WarmLM:
    """The fluency LM behind the cache: loaded by ``load`` at the first text the cache does
    not hold (see the module docstring)."""

    def __init__(self, name: str, alias: Callable[[], str | None],
                 load: Callable[[], LoadedLM]) -> None:
        self.name = name
        self._alias = alias
        self._load = load
        self._lm: LoadedLM | None = None
        self._store: PerplexityStore | None = None
        self._no_alias = False
        self._lock = threading.Lock()
        self.cached = 0  # texts answered before the LM was loaded

    @property
    def loaded(self) -> bool:
        return self._lm is not None

    @property
    def vocab_size(self) -> int:
        """The LM's vocabulary size: from the cache (its ``meta`` row :data:`VOCAB_META`,
        written when the LM was loaded) while the LM is not loaded, so a warm start need not
        load it."""
        with self._lock:
            store = self._linked() if self._lm is None and enabled() else None
            stored = store.get_meta(VOCAB_META) if store is not None else None
            if stored is not None and stored.isdigit() and int(stored) >= 1:
                return int(stored)
            return self.lm().vocab_size

    def lm(self) -> LoadedLM:
        """The LM itself (loaded now if it was not), its alias linked to its fingerprint."""
        if self._lm is None:
            self._lm = self._load()
            store = getattr(self._lm, "store", None)
            alias = self._alias() if enabled() else None
            if isinstance(store, PerplexityStore) and alias is not None:
                store.link(alias)
                store.put_meta(VOCAB_META, str(self._lm.vocab_size))
            if self._store is not None:
                self._store.close()
        return self._lm

    def perplexities(self, texts: Sequence[str]) -> list[float | None]:
        """Each text's perplexity: from the cache while it holds every one, else from the LM."""
        with self._lock:
            if self._lm is None and enabled():
                found = self._stored(list(dict.fromkeys(texts)))
                if all(t in found for t in texts):
                    self.cached += len(found)
                    return [found[t] for t in texts]
            return self.lm().perplexities(texts)

    def close(self) -> None:
        if self._store is not None:
            self._store.close()

    def cacheable(self) -> bool:
        """Whether the cache can answer before loading (the model has content to hash)."""
        return self._linked() is not None

    def _linked(self) -> PerplexityStore | None:
        if self._store is None and not self._no_alias:
            alias = self._alias()
            if alias is None:
                self._no_alias = True
            else:
                self._store = PerplexityStore.linked(alias)
        return self._store

    def _stored(self, texts: list[str]) -> dict[str, float | None]:
        store = self._linked()
        return {} if store is None else store.get(texts)


__all__ = ["LIBRARIES", "VOCAB_META", "WarmLM", "warm_alias"]

"""What an engine that computes a GGUF on the CPU needs (``onnxruntime``:
:mod:`chatmatch.runtime.lm.ort`): the checks of its settings, its ``threads``, and
:class:`CachedGgufLM`, the caches
around their ``score_ids`` (the distinct texts of the object in memory and, when asked, on
disk for the machine: :mod:`chatmatch.runtime.lm.cache`)."""

from __future__ import annotations

import os
import threading
from typing import Any, Callable, Sequence

from chatmatch.runtime.errors import ScoringError
from chatmatch.runtime.lm import LLAMA_AUTO_THREADS, gguf_path
from chatmatch.runtime.lm.cache import PerplexityStore, cached_perplexities, fingerprint, model_identity


def check_cpu_gguf(engine: str, model: str, device: str) -> None:
    """The checks of a CPU engine of a GGUF: a CPU device, a GGUF model."""
    if device not in ("cpu", "auto"):
        raise ScoringError(f"engine {engine!r} runs on the CPU, but device is {device!r}; "
                           "use runtime.engine: torch on a GPU, or runtime.device: cpu")
    gguf_path(model, engine)  # a settings mistake first, then a missing package


def cpu_threads(threads: int | str) -> int:
    """``threads`` of llama-cpp and onnxruntime (``auto``: one a usable core, at most
    :data:`~chatmatch.runtime.lm.LLAMA_AUTO_THREADS`)."""
    from chatmatch.runtime.lm.forward import usable_cpus

    return min(usable_cpus(), LLAMA_AUTO_THREADS) if threads == "auto" else int(threads)


class CachedGgufLM:
    """``perplexities(texts)`` of a GGUF engine: distinct uncached texts go to the
    subclass's :meth:`score_ids` (after :meth:`encode`), one call at a time; values are
    kept for the life of the object and, with ``store``, in the machine's cache under a
    key made of the GGUF's sha256, ``engine``, ``settings()`` and the versions of ``libs``."""

    def __init__(self, gguf: str, engine: str, settings: Callable[[], dict[str, Any]],
                 libs: tuple[str, ...], *, store: bool) -> None:
        self._cache: dict[str, float | None] = {}
        self.store = PerplexityStore(lambda: fingerprint(
            model_identity(os.path.dirname(gguf), os.path.basename(gguf)), engine, settings(),
            libs)) if store else None
        self._lock = threading.Lock()

    def perplexities(self, texts: Sequence[str]) -> list[float | None]:
        """Perplexity of each text; distinct uncached texts are scored in batches."""
        with self._lock:
            return cached_perplexities(texts, self._cache, self.store, self._score_texts)

    def _score_texts(self, texts: Sequence[str]) -> list[float | None]:
        encoded = [self.encode_scored(t) for t in texts]
        return self.score_ids([e[0] for e in encoded], [e[1] for e in encoded])

    def encode(self, text: str) -> list[int]:
        """The context token, then the text's tokens (none for a blank text)."""
        raise NotImplementedError

    def encode_scored(self, text: str) -> tuple[list[int], int]:
        """``(ids, first scored index)`` of a text or of a :func:`~chatmatch.runtime.lm.after`
        request (:func:`~chatmatch.runtime.lm.encode_scored`)."""
        raise NotImplementedError

    def score_ids(self, seqs: list[list[int]], firsts: Sequence[int] | None = None) -> list[float | None]:
        """Perplexity of each id sequence from index ``firsts[i]`` on (default 1; ``None``
        with no token there)."""
        raise NotImplementedError

    def cache_size(self) -> int:
        return len(self._cache)

    def clear_cache(self) -> None:
        self._cache.clear()

    def close(self) -> None:
        """Close the cache file (no worker processes to stop)."""
        if self.store is not None:
            self.store.close()

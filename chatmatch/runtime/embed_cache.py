"""The persistent embedding cache: a text's sentence embedding is computed once per machine.

The same SQLite machinery as the perplexity cache (:class:`chatmatch.runtime.lm.cache.
ValueStore`: WAL journal, safe for several processes and Ray workers at once, a damaged
file set aside, a row holding no vector the encoder can make (NaN, infinite, not of its
length, not of length 1) dropped and computed again, any failure a miss, never an error
(:mod:`chatmatch.common.sqlitecache`), 256 MiB of live data at most) in
``~/.cache/chatmatch/embeddings/embeddings-v1.sqlite`` (or under ``$CHATMATCH_CACHE_DIR``
/ ``$XDG_CACHE_HOME``). A vector is stored as its float32 bytes, so a value read back is
bit for bit the one computed; its key is the model folder's content (sha256 of every
file), the code that computes it (``embed.py``), the versions of torch, transformers and
tokenizers, and the machine type. As with perplexities, which texts share a batch changes
a vector only at float rounding and is not in the key: a text keeps its first value.
``CHATMATCH_EMBED_CACHE=0`` turns it off; deleting the ``embeddings`` folder clears it.
"""

from __future__ import annotations

import hashlib
import json
import platform
from pathlib import Path
from typing import Any

import numpy as np

from chatmatch.runtime.lm.cache import MISS, SCHEMA_VERSION, ValueStore, library_version, model_identity

#: set to ``0`` to compute every embedding (nothing read or written)
SWITCH_ENV = "CHATMATCH_EMBED_CACHE"


class EmbeddingStore(ValueStore[np.ndarray]):
    """The embeddings of one encoder in the machine's embedding file."""

    FOLDER = "embeddings"
    FILE = f"embeddings-v{SCHEMA_VERSION}.sqlite"
    SWITCH = SWITCH_ENV
    WHAT = "embedding cache"
    WITHOUT = "computing embeddings without it"
    #: how far from length 1 a stored vector may be (float32 rounding is ~1e-7)
    NORM_TOLERANCE = 1e-3

    def __init__(self, *args: Any, dim: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: the encoder's vector length when known (its config's ``hidden_size``)
        self.dim = dim

    def _encode(self, value: np.ndarray) -> bytes | None:
        return np.asarray(value, dtype="<f4").tobytes()

    def _valid(self, text: str, value: object) -> bool:
        """A vector the encoder can make: one dimension of the encoder's length, every
        number finite, and of length 1 (the encoder normalises its vectors): a row of the
        wrong length, all zeros, NaN, infinite or 3e38 is dropped and computed again."""
        if not (isinstance(value, np.ndarray) and value.ndim == 1 and value.size > 0
                and bool(np.isfinite(value).all())):
            return False
        if self.dim is not None and value.size != self.dim:
            return False
        norm = float(np.linalg.norm(value.astype(np.float64)))
        return abs(norm - 1.0) <= self.NORM_TOLERANCE

    def _decode(self, blob: Any) -> np.ndarray | object:
        if isinstance(blob, bytes) and blob and len(blob) % 4 == 0:
            return np.frombuffer(blob, dtype="<f4").astype(np.float32)
        return MISS


def embedding_store(folder: str, max_length: int) -> EmbeddingStore:
    """The cache of the encoder in ``folder`` (its key made on first use)."""
    def key() -> str | None:
        identity = model_identity(folder, None)
        code = Path(__file__).with_name("embed.py")
        if identity is None or not code.is_file():
            return None
        return json.dumps({"model": identity, "pooling": "mean", "max_length": max_length,
                           "code": hashlib.sha256(code.read_bytes()).hexdigest(),
                           "versions": {n: library_version(n) for n in ("torch", "transformers", "tokenizers")},
                           "machine": platform.machine(), "schema": SCHEMA_VERSION}, sort_keys=True)

    return EmbeddingStore(key, dim=_hidden_size(folder))


def _hidden_size(folder: str) -> int | None:
    """The vector length of the encoder in ``folder`` (``config.json``), None if unknown."""
    try:
        size = json.loads((Path(folder) / "config.json").read_text("utf-8")).get("hidden_size")
    except (OSError, ValueError, AttributeError):
        return None
    return size if isinstance(size, int) and size > 0 else None


__all__ = ["SWITCH_ENV", "EmbeddingStore", "embedding_store"]

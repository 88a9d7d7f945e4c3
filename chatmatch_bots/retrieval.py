"""A retrieval bot over the Chit-Chat Challenge corpus (``chitchat-dataset``, MIT, 7,168
English conversations).

Every turn of every conversation becomes a (context -> reply) pair, the context being the
``context_turns`` turns before it. A TF-IDF index (scikit-learn, sparse, L2-normalised)
covers the contexts; the bot answers with the reply whose context is most similar (cosine)
to the last ``context_turns`` turns of its game, skipping replies it already said in this
game when ``avoid_repeats`` is on; among equally similar contexts (the corpus repeats
"what did you do?" many times) ``History.random_seed`` picks. When no word of the query
is in the vocabulary it says a reply drawn with ``History.random_seed``.

The index is built once per process for each (max_pairs, context_turns, sample_seed) and
kept on disk under the chatmatch cache (:func:`chatmatch.runtime.resources.cache_dir`), as plain arrays and JSON (no
pickle): about 3 s to build from the whole corpus on two cores, well under 1 s to reload.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import threading
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from pydantic import ValidationInfo, field_validator

from chatmatch.adapters.params import BotParams, given
from chatmatch.bot import Bot, History
from chatmatch.runtime.resources import cache_dir
from chatmatch.errors import BotError

if TYPE_CHECKING:  # scikit-learn and scipy are imported when an index is needed (~0.8 s)
    import scipy.sparse as sp
    from sklearn.feature_extraction.text import TfidfVectorizer

INDEX_FORMAT = 1  # bump when the index layout or the pair extraction changes
CANDIDATES = 64  # best-scoring contexts examined when skipping used replies


@dataclass(frozen=True)
class IndexKey:
    max_pairs: int | None
    context_turns: int
    sample_seed: int

    def slug(self) -> str:
        corpus = version("chitchat-dataset")
        return (f"chitchat{corpus}-f{INDEX_FORMAT}-n{self.max_pairs or 'all'}"
                f"-k{self.context_turns}-s{self.sample_seed}")


@dataclass(frozen=True)
class RetrievalIndex:
    vectorizer: TfidfVectorizer
    contexts: sp.csr_matrix  # one L2-normalised TF-IDF row per pair
    replies: tuple[str, ...]


def corpus_pairs(key: IndexKey) -> list[tuple[str, str]]:
    """(context, reply) pairs from the corpus, subsampled with ``key.sample_seed``."""
    import chitchat_dataset

    pairs = []
    for conversation in chitchat_dataset.ConversationDataset():
        turns = [t.strip() for t in conversation]
        for i in range(1, len(turns)):
            context = " ".join(turns[max(0, i - key.context_turns):i])
            if turns[i] and context:
                pairs.append((context, turns[i]))
    if key.max_pairs is not None and key.max_pairs < len(pairs):
        pairs = random.Random(key.sample_seed).sample(pairs, key.max_pairs)
    return pairs


def build_index(key: IndexKey) -> RetrievalIndex:
    from sklearn.feature_extraction.text import TfidfVectorizer

    pairs = corpus_pairs(key)
    vectorizer = TfidfVectorizer(sublinear_tf=True, lowercase=True)
    matrix = vectorizer.fit_transform([c for c, _ in pairs]).tocsr()
    return RetrievalIndex(vectorizer, matrix, tuple(r for _, r in pairs))


def save_index(index: RetrievalIndex, folder: Path) -> None:
    """Write ``index`` to ``folder`` atomically (build in a temporary sibling, rename)."""
    import scipy.sparse as sp

    tmp = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
    sp.save_npz(tmp / "contexts.npz", index.contexts)
    np.save(tmp / "idf.npy", index.vectorizer.idf_)
    terms = index.vectorizer.get_feature_names_out().tolist()
    meta = {"terms": terms, "replies": list(index.replies)}
    (tmp / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    try:
        os.replace(tmp, folder)
    except OSError:  # another process finished first: keep its copy
        for f in tmp.iterdir():
            f.unlink()
        tmp.rmdir()


def read_index(folder: Path) -> RetrievalIndex:
    import scipy.sparse as sp
    from sklearn.feature_extraction.text import TfidfVectorizer

    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    vocabulary = {t: i for i, t in enumerate(meta["terms"])}
    vectorizer = TfidfVectorizer(sublinear_tf=True, lowercase=True, vocabulary=vocabulary)
    vectorizer.idf_ = np.load(folder / "idf.npy")
    matrix = sp.csr_matrix(sp.load_npz(folder / "contexts.npz"))
    return RetrievalIndex(vectorizer, matrix, tuple(meta["replies"]))


_INDEXES: dict[IndexKey, RetrievalIndex] = {}
_LOCK = threading.Lock()


def get_index(key: IndexKey, use_disk: bool = True) -> RetrievalIndex:
    """The index for ``key``: from this process, else the disk cache, else built."""
    with _LOCK:
        if key in _INDEXES:
            return _INDEXES[key]
        folder = cache_dir("retrieval") / key.slug()
        index = None
        if use_disk and (folder / "meta.json").exists():
            try:
                index = read_index(folder)
            except (OSError, ValueError, KeyError):
                index = None  # a damaged cache entry is rebuilt below
        if index is None:
            index = build_index(key)
            if use_disk:
                save_index(index, folder)
        _INDEXES[key] = index
        return index


class RetrievalParams(BotParams):
    max_pairs: int | None = None  # corpus pairs indexed (None: all), a seeded sample
    context_turns: int = 1  # the last turns matched against the corpus contexts
    avoid_repeats: bool = True  # never say a reply twice in a game
    sample_seed: int = 0  # seed of the max_pairs sample
    disk_cache: bool = True  # keep the index on disk

    @field_validator("max_pairs", "context_turns")
    @classmethod
    def _positive(cls, v: int | None, info: ValidationInfo) -> int | None:
        if v is not None and v < 1:
            raise ValueError(f"parameter '{info.field_name}' must be a positive integer, not {v!r}")
        return v


class RetrievalBot(Bot):
    description = "Answers with the best-matching next turn from the Chit-Chat corpus (TF-IDF)."
    thread_safe: ClassVar[bool] = True

    Params = RetrievalParams

    def __init__(self, name: str = "", params: RetrievalParams | None = None,
                 **values: Any) -> None:
        super().__init__(name)
        p = given(self.Params, params, values)
        self.key = IndexKey(p.max_pairs, p.context_turns, p.sample_seed)
        self.avoid_repeats, self.disk_cache = p.avoid_repeats, p.disk_cache
        self._index: RetrievalIndex | None = None

    def load(self) -> None:
        self._index = get_index(self.key, use_disk=self.disk_cache)

    def close(self) -> None:
        self._index = None

    def reply(self, history: History) -> str:
        index = self._index
        if index is None:
            raise BotError(f"bot '{self.name}' (retrieval): reply() called before load()")
        texts = [m.text for m in history.messages][-self.key.context_turns:]
        used = {m.text for m in history.messages if m.role == "self"} if self.avoid_repeats \
            else set()
        query = index.vectorizer.transform([" ".join(texts)])
        rng = random.Random(history.random_seed)
        if query.nnz:
            scores = (index.contexts @ query.T).toarray().ravel()
            best = [i for i in _top(scores, CANDIDATES)
                    if scores[i] > 0 and index.replies[i] not in used]
            if best:  # equally good contexts (often duplicates): the game's seed picks
                tied = [i for i in best if scores[i] >= scores[best[0]] - 1e-9]
                return index.replies[rng.choice(tied)]
        return _seeded_fallback(index.replies, used, rng)

    def describe(self) -> dict[str, Any]:
        info = {**super().describe(), "adapter": "retrieval",
                "corpus": f"chitchat-dataset {version('chitchat-dataset')}",
                "max_pairs": self.key.max_pairs, "context_turns": self.key.context_turns,
                "sample_seed": self.key.sample_seed, "avoid_repeats": self.avoid_repeats}
        if self._index is not None:
            info["pairs"] = len(self._index.replies)
        return info


def _top(scores: np.ndarray, k: int) -> list[int]:
    """Indices of the ``k`` best scores, best first (equal scores in corpus order)."""
    k = min(k, len(scores))
    best = np.argpartition(-scores, k - 1)[:k]
    return sorted(best.tolist(), key=lambda i: (-scores[i], i))


def _seeded_fallback(replies: tuple[str, ...], used: set[str], rng: random.Random) -> str:
    for _ in range(20):
        reply = replies[rng.randrange(len(replies))]
        if reply not in used:
            return reply
    return replies[rng.randrange(len(replies))]

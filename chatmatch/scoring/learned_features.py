"""The learned judge's features of one side of a game (:mod:`chatmatch.scoring.learned`).

Every feature exists offline and is computed the same way in training and in a tournament:

* the seven scorers' raw values of the side and of its partner (``own:``/``partner:``),
  scored with the settings the model file names (:data:`RULE_PARAMS`: fluency on the
  n-gram model; its perplexity enters as its logarithm). A value that does not apply
  (consistency without a repeated question) is missing: after standardising it counts as
  the training mean (0);
* per-turn statistics of the side and of the partner (:func:`side_stats`): turns, mean
  words a turn and their spread, question rate, exact repeats of an earlier own turn,
  distinct words (Distinct-1, Distinct-2), list/markdown lines;
* the mean all-MiniLM-L6-v2 embedding of the side's turns, reduced by the model file's
  PCA to a few components (``emb:0`` ...): a few thousand rated sides cannot fit 384 free
  weights honestly.
"""

from __future__ import annotations

import math
import re
import statistics
from typing import Mapping, Sequence

import numpy as np

from chatmatch.records import DimensionScore
from chatmatch.scoring.base import DIMENSIONS
from chatmatch.common.text import normalise, tokens
from chatmatch.transcript import Transcript

#: the scorers' parameters the features are computed with (the model file records them)
RULE_PARAMS: dict[str, dict[str, object]] = {"fluency": {"backend": "ngram"}}
STATS = ("turns", "turn_words", "turn_words_sd", "question_rate", "repeat_rate",
         "distinct_1", "distinct_2", "list_rate")
_LIST_LINE = re.compile(r"^\s*([-*\u2022]|\d+[.)]|#{1,6})\s", re.M)


def side_texts(game: Transcript, side: str) -> list[str]:
    """The side's own turns (no seed), normalised, empty ones left out."""
    return [t for t in (normalise(x.text) for x in game.turns_of(side)) if t]


def side_stats(game: Transcript, side: str) -> dict[str, float]:
    """Per-turn statistics of ``side``'s turns (:data:`STATS`); NaN when it said nothing."""
    texts = side_texts(game, side)
    if not texts:
        return {k: (0.0 if k == "turns" else math.nan) for k in STATS}
    toks = [tokens(t) for t in texts]
    words = [len(t.split()) for t in texts]
    flat = [w for ts in toks for w in ts]
    bigrams = [(a, b) for ts in toks for a, b in zip(ts, ts[1:])]
    seen: set[str] = set()
    repeats = 0
    for t in texts:
        key = t.lower()
        repeats += key in seen
        seen.add(key)
    return {"turns": float(len(texts)), "turn_words": statistics.fmean(words),
            "turn_words_sd": statistics.pstdev(words),
            "question_rate": statistics.fmean(float("?" in t) for t in texts),
            "repeat_rate": repeats / len(texts),
            "distinct_1": len(set(flat)) / len(flat) if flat else 0.0,
            "distinct_2": len(set(bigrams)) / len(bigrams) if bigrams else 0.0,
            "list_rate": statistics.fmean(float(bool(_LIST_LINE.search(x.text)))
                                          for x in game.turns_of(side) if x.text.strip())}


def rule_values(scores: Mapping[str, DimensionScore], side: str) -> dict[str, float]:
    """The seven scorers' raw values of ``side``; fluency's perplexity as its log."""
    out = {}
    for d in DIMENSIONS:
        s = scores.get(d)
        v = float(s.raw.get(side, math.nan)) if s is not None else math.nan
        if d == "fluency" and math.isfinite(v):
            v = math.log(max(v, 1.0))
        out[d] = v
    return out


def base_features(game: Transcript, side: str,
                  scores: Mapping[str, DimensionScore]) -> dict[str, float]:
    """Every feature but the embedding's, named ``own:...`` and ``partner:...``."""
    partner = game.other(side)
    out: dict[str, float] = {}
    for who, name in (("own", side), ("partner", partner)):
        for k, v in {**rule_values(scores, name), **side_stats(game, name)}.items():
            out[f"{who}:{k}"] = v
    return out


def pooled_embedding(texts: Sequence[str], vectors: Mapping[str, np.ndarray],
                     dim: int) -> np.ndarray:
    """Mean of the texts' vectors (zeros when the side said nothing)."""
    if not texts:
        return np.zeros(dim)
    out: np.ndarray = np.mean(np.stack([vectors[t] for t in texts]), axis=0)
    return out


__all__ = ["RULE_PARAMS", "STATS", "base_features", "pooled_embedding", "rule_values",
           "side_stats", "side_texts"]

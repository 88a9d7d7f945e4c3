"""The learned judge's features of one side of a game (:mod:`chatmatch.scoring.learned.judge`).

Every feature exists offline and is computed the same way in training and in a tournament:

* the seven scorers' raw values of the side and of its partner (``own:``/``partner:``),
  scored with the settings the model file records: every parameter of all seven scorers
  as they were in training (:func:`training_params`: today's defaults with fluency on the
  n-gram model), never the defaults of the version that reads the file; fluency's raw
  value enters as written by the scorer (a perplexity enters as its logarithm). A value that does not apply
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
from typing import Any, Mapping, Sequence

import numpy as np

from chatmatch.records import DimensionScore
from chatmatch.scoring.base import DIMENSIONS
from chatmatch.common.text import normalise, tokens
from chatmatch.transcript import Transcript

#: where training departs from the scorers' defaults (fluency: the n-gram model, cheap)
TRAINING_OVERRIDES: dict[str, dict[str, Any]] = {"fluency": {"backend": "ngram"}}
STATS = ("turns", "turn_words", "turn_words_sd", "question_rate", "repeat_rate",
         "distinct_1", "distinct_2", "list_rate")
_LIST_LINE = re.compile(r"^\s*([-*\u2022]|\d+[.)]|#{1,6})\s", re.M)


def training_params(overrides: Mapping[str, Mapping[str, Any]] | None = None
                    ) -> dict[str, dict[str, Any]]:
    """Every parameter of all seven scorers, as ``overrides`` (default
    :data:`TRAINING_OVERRIDES`) over this version's defaults: what a model file records and
    what the judge scores with, so a later change of a default cannot move a model's inputs.
    ``sigma_r`` left unset by a scorer follows diversity's, recorded too."""
    from chatmatch.scoring.config import ScoringConfig
    given = {k: dict(v) for k, v in (TRAINING_OVERRIDES if overrides is None else overrides).items()}
    cfg = ScoringConfig(params=given)
    return {d: cfg.scorer_params(d).model_dump(mode="json") for d in DIMENSIONS}


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


def rule_values(scores: Mapping[str, DimensionScore], side: str,
                log_fluency: bool = True) -> dict[str, float]:
    """The seven scorers' raw values of ``side``; fluency's perplexity as its log
    (``log_fluency``; false when fluency's raw value is already a log-ratio, ``slor``)."""
    out = {}
    for d in DIMENSIONS:
        s = scores.get(d)
        v = float(s.raw.get(side, math.nan)) if s is not None else math.nan
        if d == "fluency" and log_fluency and math.isfinite(v):
            v = math.log(max(v, 1.0))
        out[d] = v
    return out


def logs_fluency(params: Mapping[str, Mapping[str, Any]]) -> bool:
    """Whether fluency's raw value under ``params`` is a perplexity (taken as its log)
    rather than a log-ratio (``slor``, ``slor_tokens``)."""
    return params.get("fluency", {}).get("aggregation") not in ("slor", "slor_tokens")


def base_features(game: Transcript, side: str, scores: Mapping[str, DimensionScore],
                  params: Mapping[str, Mapping[str, Any]]) -> dict[str, float]:
    """Every feature but the embedding's, named ``own:...`` and ``partner:...``
    (``params``: the scorers' settings ``scores`` were computed with)."""
    partner = game.other(side)
    log = logs_fluency(params)
    out: dict[str, float] = {}
    for who, name in (("own", side), ("partner", partner)):
        for k, v in {**rule_values(scores, name, log), **side_stats(game, name)}.items():
            out[f"{who}:{k}"] = v
    return out


def with_diffs(row: Mapping[str, float]) -> dict[str, float]:
    """``row`` with ``diff:x = own:x - partner:x`` for every ``own:x`` (a pairwise model's
    features: one side's score is minus the other's)."""
    out = dict(row)
    for k, v in row.items():
        if k.startswith("own:") and "partner:" + k[4:] in row:
            out["diff:" + k[4:]] = v - row["partner:" + k[4:]]
    return out


def point_margins(game: Transcript, side: str,
                  scores: Mapping[str, DimensionScore]) -> list[float]:
    """Per dimension of DIMENSIONS, the side's point minus its partner's (unit weights):
    the rule judge's per-dimension outcome, +1 won, -1 lost, 0 tied or not scored."""
    from chatmatch.scoring.points import result_from_scores
    r = result_from_scores(game.game_id, game.players, scores, {d: 1.0 for d in scores})
    other = game.other(side)
    return [r.points[side].get(d, 0.0) - r.points[other].get(d, 0.0) for d in DIMENSIONS]


#: the combined judge's features (``chatmatch-combined-judge/1``): the rule judge's
#: per-dimension outcome of the side against its partner, the side's own per-turn
#: statistics that recipes move, and its recipe signals
#: (:mod:`chatmatch.scoring.learned.signals`)
COMBINED_STATS = ("turn_words", "turn_words_sd", "question_rate", "repeat_rate", "distinct_2")


def combined_names() -> list[str]:
    from chatmatch.scoring.learned.signals import SIGNALS
    return ([f"margin:{d}" for d in DIMENSIONS] + [f"own:{k}" for k in COMBINED_STATS]
            + [f"sig:{k}" for k in SIGNALS])


def combined_features(game: Transcript, side: str,
                      scores: Mapping[str, DimensionScore]) -> dict[str, float]:
    """Every feature of :func:`combined_names` of ``side`` (``scores``: the seven scorers'
    verdicts on ``game``, with the settings the model file pins)."""
    from chatmatch.scoring.learned.signals import recipe_signals
    stats = side_stats(game, side)
    out = {f"margin:{d}": v for d, v in zip(DIMENSIONS, point_margins(game, side, scores))}
    out.update({f"own:{k}": stats[k] for k in COMBINED_STATS})
    out.update({f"sig:{k}": v for k, v in recipe_signals(game, side).items()})
    return out


def pooled_embedding(texts: Sequence[str], vectors: Mapping[str, np.ndarray],
                     dim: int) -> np.ndarray:
    """Mean of the texts' vectors (zeros when the side said nothing)."""
    if not texts:
        return np.zeros(dim)
    out: np.ndarray = np.mean(np.stack([vectors[t] for t in texts]), axis=0)
    return out


__all__ = ["COMBINED_STATS", "STATS", "combined_features", "combined_names", "point_margins", "TRAINING_OVERRIDES", "base_features", "logs_fluency", "pooled_embedding", "rule_values",
           "side_stats", "side_texts", "training_params", "with_diffs"]

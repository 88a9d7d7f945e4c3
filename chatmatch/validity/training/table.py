"""The learned judge's training table: one row of features per rated side.

:func:`build_table` scores every game of the rated sides with the seven scorers
(:func:`~chatmatch.scoring.learned.features.training_params`: every setting recorded), embeds every rated side's turns
with all-MiniLM-L6-v2 and returns a :class:`Table`. Both steps can be kept on disk
(``cache``: a folder outside the repository): the scorers' raw values per dataset, the
embeddings per text; a cache is only a speed-up, a table built without it is the same.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from chatmatch.records import DimensionScore
from chatmatch.scoring.base import DIMENSIONS, SCORERS
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.engine import score_games
from chatmatch.scoring.learned.features import (base_features, point_margins, pooled_embedding,
                                                side_texts, training_params)
from chatmatch.scoring.points import result_from_scores
from chatmatch.transcript import Transcript
from chatmatch.validity.training.data import RatedSide
from chatmatch.scoring.build import build_scorers

Embed = Callable[[Sequence[str]], np.ndarray]


@dataclass(frozen=True)
class Table:
    names: list[str]  # base feature names (the embedding is kept apart, unreduced)
    x: np.ndarray  # (sides, features), NaN where a feature is missing
    emb: np.ndarray  # (sides, embedding dim): each side's pooled embedding
    y: np.ndarray  # z-scored target
    dataset: np.ndarray
    system: np.ndarray
    rule_points: np.ndarray  # the rule judge's game points of the side (unit weights)
    #: (sides, 7): per dimension of DIMENSIONS, the side's point minus its partner's
    dim_points: np.ndarray
    sides: tuple[RatedSide, ...]
    #: every setting of the seven scorers the features were computed with
    params: Mapping[str, Mapping[str, Any]] = field(default_factory=training_params)

    def column(self, name: str) -> np.ndarray:
        out: np.ndarray = self.x[:, self.names.index(name)]
        return out


def _key(dataset: str, params: Mapping[str, Any]) -> str:
    blob = json.dumps(params, sort_keys=True).encode()
    return f"raw-{dataset}-{hashlib.sha256(blob).hexdigest()[:10]}.json"


def _to_json(scores: Mapping[str, DimensionScore]) -> dict[str, Any]:
    return {d: {"raw": {p: (None if math.isnan(v) else v) for p, v in s.raw.items()},
                "na": list(s.not_applicable)} for d, s in scores.items()}


def _from_json(data: Mapping[str, Any]) -> dict[str, DimensionScore]:
    return {d: DimensionScore(d, {p: math.nan if v is None else float(v)
                                  for p, v in s["raw"].items()},
                              SCORERS.get(d).higher_is_better, [], tuple(s["na"]))
            for d, s in data.items()}


def rule_scores(sides: Sequence[RatedSide], cache: Path | None,
                params: Mapping[str, Mapping[str, Any]] | None = None
                ) -> dict[str, dict[str, DimensionScore]]:
    """Dataset-qualified game id -> the seven scorers' verdicts on that game, scored with
    ``params`` (default :func:`training_params`)."""
    params = training_params() if params is None else params
    out: dict[str, dict[str, DimensionScore]] = {}
    # canned turns are found across a call's games: the learned judge scores one run's
    # games, the table one dataset's, so its features leave them out (as the judge does)
    scorers = build_scorers(ScoringConfig(params={k: dict(v) for k, v in params.items()},
                                          canned=False))
    for name in dict.fromkeys(s.dataset for s in sides):
        games = list({s.game.game_id: s.game for s in sides if s.dataset == name}.values())
        path = cache / _key(name, params) if cache else None
        known: dict[str, Any] = json.loads(path.read_text()) if path and path.is_file() else {}
        todo = [g for g in games if g.game_id not in known]
        if todo:
            for g, sc in zip(todo, score_games(todo, scorers)):
                known[g.game_id] = _to_json(sc)
            if path:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(known))
        out.update({f"{name}:{g.game_id}": _from_json(known[g.game_id]) for g in games})
    return out


def cached_embed(embed: Embed, cache: Path | None) -> Embed:
    """``embed`` with its vectors kept in ``cache/embeddings.npz`` (text -> vector)."""
    path = cache / "embeddings.npz" if cache else None

    def run(texts: Sequence[str]) -> np.ndarray:
        known: dict[str, np.ndarray] = {}
        if path and path.is_file():
            with np.load(path, allow_pickle=False) as z:
                known = dict(zip(z["texts"].tolist(), z["vectors"]))
        todo = sorted(set(texts) - set(known))
        if todo:
            known.update(zip(todo, embed(todo)))
            if path:
                keys = sorted(known)
                np.savez(path, texts=np.array(keys), vectors=np.stack([known[k] for k in keys]))
        return np.stack([known[t] for t in texts])

    return run


def build_table(sides: Sequence[RatedSide], embed: Embed, cache: Path | None = None,
                scores: Mapping[str, Mapping[str, DimensionScore]] | None = None) -> Table:
    """The table of ``sides``; ``scores``: :func:`rule_scores` of them when already
    computed (with :func:`training_params`)."""
    params = training_params()
    scores = rule_scores(sides, cache, params) if scores is None else scores
    rows, points, pooled, dims = [], [], [], []
    texts = sorted({t for s in sides for t in side_texts(s.game, s.side)})
    vectors = dict(zip(texts, cached_embed(embed, cache)(texts))) if texts else {}
    dim = len(next(iter(vectors.values()))) if vectors else 384
    for s in sides:
        sc = scores[f"{s.dataset}:{s.game.game_id}"]
        rows.append(base_features(s.game, s.side, sc, params))
        points.append(side_points(s.game, s.side, sc))
        dims.append(point_margins(s.game, s.side, sc))
        pooled.append(pooled_embedding(side_texts(s.game, s.side), vectors, dim))
    names = list(rows[0]) if rows else []
    return Table(names, np.array([[r[n] for n in names] for r in rows], dtype=float),
                 np.array(pooled, dtype=float), np.array([s.target for s in sides]),
                 np.array([s.dataset for s in sides]), np.array([s.system for s in sides]),
                 np.array(points, dtype=float), np.array(dims, dtype=float), tuple(sides),
                 params)


def side_points(game: Transcript, side: str, scores: Mapping[str, DimensionScore],
                weights: Mapping[str, float] | None = None) -> float:
    """The side's game points against its partner under ``weights`` (default all 1)."""
    w = dict(weights or {d: 1.0 for d in scores})
    return result_from_scores(game.game_id, game.players, scores, w).total[side]

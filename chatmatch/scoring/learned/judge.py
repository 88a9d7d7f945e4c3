"""The learned judge: one score per side, fitted to people's ratings (``learned``).

A linear model (:mod:`chatmatch.scoring.learned.model`) of each side's features
(:mod:`chatmatch.scoring.learned.features`: the seven scorers' raw values of the side and
its partner, per-turn statistics of both, the side's pooled all-MiniLM-L6-v2 embedding
reduced by PCA) predicts people's overall rating of the side, rank-normalised per dataset
(0: an average side of the training data). The seven scorers run with the settings the
model file pins (every parameter as trained), never with this version's defaults or the
tournament's ``scoring.params``. The side with the higher score wins the game's
``learned`` point, so TrueSkill, points and every ranking method work unchanged.

Use it as a dimension (alone, or beside the seven)::

    scoring:
      dimensions: [learned]
      params:
        learned: {model: path/to/model.json}   # optional: the shipped model otherwise

Details: one per side, at its last turn: the score and the features that moved it most
(``chatmatch show`` prints it). The shipped model, what it was trained on and how well it
does out of sample: docs/learned-judge.md. Needs the ``hf`` extra (the embedding).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import numpy as np

from chatmatch.errors import ChatmatchError
from chatmatch.records import DimensionScore
from chatmatch.runtime.errors import ScoringError
from chatmatch.scoring.base import Scorer, ScorerParams, ScoringContext
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.engine import score_games
from chatmatch.scoring.learned.features import (base_features, combined_features,
                                                pooled_embedding, side_texts, with_diffs)
from chatmatch.scoring.learned.model import (COMBINED_FORMATS, LEARNED_FORMATS,
                                             PACKAGED_COMBINED, LearnedModel, load_model)
from chatmatch.scoring.removed import current_params
from chatmatch.transcript import Transcript
from chatmatch.scoring.build import build_scorers

#: features named in a side's detail
TOP = 3


class LearnedJudge(Scorer):
    name = "learned"
    higher_is_better = True
    description = "a linear judge fitted to people's overall ratings (DSTC9, FED, Spot The Bot)"
    progress_unit = ""

    class Params(ScorerParams):
        #: a model file written by python -m chatmatch.validity.training.train (None: shipped)
        model: str | None = None

    params: Params

    def __init__(self, params: ScorerParams | None = None) -> None:
        super().__init__(params)
        self._model: LearnedModel | None = None

    @property
    def model(self) -> LearnedModel:
        if self._model is None:
            self._model = load_model(self.params.model, formats=LEARNED_FORMATS)
        return self._model

    def check_files(self) -> None:
        """The model file is read and checked (a bad one is refused in one line), and the
        embedding model it names can be loaded."""
        from chatmatch.runtime.embed import check_embedder
        if self.model.embedding is not None:
            self._about_embedding(lambda name: check_embedder(name))

    def load(self) -> None:
        from chatmatch.runtime.embed import get_embedder
        if self.model.embedding is not None:
            self._about_embedding(lambda name: get_embedder(name))

    def _about_embedding(self, use: Callable[[str], object]) -> None:
        """``use`` of the file's embedding model; its error names the model file."""
        emb = self.model.embedding
        assert emb is not None
        try:
            use(emb.model)
        except ChatmatchError as exc:
            raise ScoringError(f"{self.model.where}: its embedding model {emb.model!r}: {exc}"
                               ) from None

    def describe(self) -> dict[str, Any]:
        """What the judge is, with the sha256 of its model file (``model_sha256``): a file
        replaced at the same path between runs scores the stored games again."""
        return {**super().describe(), "sklearn": self.model.sklearn,
                "trained_on": self.model.trained_on, "rule_params": self.model.rule_params,
                "model_sha256": self.model.sha256}

    def score_games(self, games: Sequence[Transcript],
                    context: ScoringContext | None = None) -> list[DimensionScore]:
        games = list(games)
        model = self.model
        # the rule points the model was fitted on: canned turns were not counted then
        rules = score_games(games, build_scorers(ScoringConfig(params=current_params(model.rule_params),
                                                               canned=False)))
        vectors = self._vectors(games)
        return [self._score(g, sc, vectors) for g, sc in zip(games, rules)]

    def _vectors(self, games: Sequence[Transcript]) -> dict[str, np.ndarray]:
        emb = self.model.embedding
        if emb is None:
            return {}
        from chatmatch.runtime.embed import get_embedder
        texts = sorted({t for g in games for p in g.players for t in side_texts(g, p)})
        if not texts:
            return {}
        vectors = get_embedder(emb.model).embed(texts)
        if vectors.shape[1] != len(emb.mean):
            raise ScoringError(f"{self.model.where}: its embedding model {emb.model!r} gives "
                               f"vectors of {vectors.shape[1]} numbers, the file's embedding "
                               f"mean has {len(emb.mean)}: it was trained with another model; "
                               "re-train it with python -m chatmatch.validity.training.train")
        return dict(zip(texts, vectors))

    def _score(self, game: Transcript, rules: dict[str, DimensionScore],
               vectors: dict[str, np.ndarray]) -> DimensionScore:
        model = self.model
        raw, details = {}, []
        for p in game.players:
            texts = side_texts(game, p)
            if not texts:
                raw[p] = math.nan  # said nothing: loses to any score
                continue
            contrib = model.contributions(self._row(game, p, rules, vectors, texts))
            raw[p] = float(model.intercept + contrib.sum())
            order = np.argsort(-np.abs(contrib))[:TOP]
            last = max(t.index for t in game.turns_of(p))
            details.append({"turn": last, "speaker": p, "score": round(raw[p], 3),
                            "because": [[model.features[i], round(float(contrib[i]), 3)]
                                        for i in order]})
        return DimensionScore(self.name, raw, True, details)

    def _row(self, game: Transcript, side: str, rules: dict[str, DimensionScore],
             vectors: dict[str, np.ndarray], texts: list[str]) -> dict[str, float]:
        """The side's features, as training computed them."""
        model = self.model
        row = with_diffs(base_features(game, side, rules, model.rule_params))
        if model.embedding is not None:
            row.update(model.reduce(pooled_embedding(texts, vectors, len(model.embedding.mean))))
        return row


class CombinedJudge(LearnedJudge):
    """The rule judge and the learned judge in one (``combined``; docs/learned-judge.md,
    "The combined judge"): a linear model, fitted to people's ratings with bot-bot and
    human-bot sides weighing half each, of the rule judge's per-dimension outcome of the
    side against its partner (the seven scorers with the settings the file pins), the
    side's per-turn statistics and its recipe signals
    (:mod:`chatmatch.scoring.learned.signals`). No embedding of its own. Use it as a
    dimension::

        scoring:
          dimensions: [combined]
          params:
            combined: {model: path/to/model.json}   # optional: the shipped model otherwise
    """

    name = "combined"
    description = ("the rule judge's per-dimension outcomes and recipe signals, weighed by a "
                   "linear model fitted to people (bot-bot and human-bot sides half each)")

    class Params(LearnedJudge.Params):
        """``model``: a file written by python -m chatmatch.validity.training.combined
        (None: the shipped ``combined_judge.json``)."""

    @property
    def model(self) -> LearnedModel:
        if self._model is None:
            self._model = load_model(self.params.model, PACKAGED_COMBINED, COMBINED_FORMATS,
                                     "combined")
        return self._model

    def _row(self, game: Transcript, side: str, rules: dict[str, DimensionScore],
             vectors: dict[str, np.ndarray], texts: list[str]) -> dict[str, float]:
        return combined_features(game, side, rules)

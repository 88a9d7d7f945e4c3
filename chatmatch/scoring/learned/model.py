"""The learned judge's model file: a linear model in plain JSON, read without running code.

The file (``learned_judge.json`` in this package, or any file named by
``scoring.params.learned.model``) holds numbers and names only: the feature names, the
scaler (mean and scale per feature), the ridge coefficients and intercept, the PCA that
reduces the pooled MiniLM embedding (mean and components), the scorers' parameters the
features were computed with, the scikit-learn version that fitted it and what it was
trained on. :func:`load_model` parses it with :func:`json.loads` and checks every shape
with pydantic: nothing in the file is executed or imported (no pickle, no joblib).

``rule_params`` pins the features: format 2 (:data:`FORMAT`) records every parameter of
all seven scorers as trained, and the judge scores with exactly those, whatever this
version's defaults are; each block must still be a valid setting of its scorer (a setting
this version no longer knows is an error asking to re-train; one added since,
:data:`ADDED_SETTINGS`, takes the behaviour of the time the file was written). Format 1 (written before
2026-11-27, when these defaults changed) recorded only fluency's backend; it loads with its recorded settings over
:data:`FORMAT1_SETTINGS`, the defaults it was trained with that have changed since
(fluency ``aggregation: median``, ``degenerate: keep``; consistency ``identity: false``,
``self_contradictions: false``),
and today's defaults for everything else.
"""

from __future__ import annotations

import hashlib
import json
import math
from importlib import resources
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
from pydantic import Field, PrivateAttr, ValidationError, model_validator

from chatmatch.common.safeio import read_text_bounded, why_unreadable
from chatmatch.common.validation import StrictModel, validation_message
from chatmatch.runtime.errors import ScoringError

FORMAT = "chatmatch-learned-judge/2"
FORMAT1 = "chatmatch-learned-judge/1"
#: the combined judge's file (``combined``): the same linear model over other features (the
#: rule judge's per-dimension outcomes, per-turn statistics, recipe signals), no embedding,
#: the seven scorers' settings pinned as in :data:`FORMAT`
FORMAT_COMBINED = "chatmatch-combined-judge/1"
LEARNED_FORMATS = (FORMAT, FORMAT1)
COMBINED_FORMATS = (FORMAT_COMBINED,)
#: the scorer defaults a format-1 file was trained with that changed later
FORMAT1_SETTINGS: dict[str, dict[str, Any]] = {
    "fluency": {"aggregation": "median", "degenerate": "keep"},
    "consistency": {"identity": False, "self_contradictions": False}}
#: settings added to the scorers after format 2 was introduced, with the behaviour files
#: written before them were trained with: a file that does not record one gets this value
ADDED_SETTINGS: dict[str, dict[str, Any]] = {
    "consistency": {"contradiction": "polarity", "degenerate": "tested"},
    "knowledge": {"in_context": False},
    "specificity": {"salad": "keep"},
    "relevance": {"degenerate": "keep"},
    "fluency": {"context": "none"}}
PACKAGED = "learned_judge.json"
PACKAGED_COMBINED = "combined_judge.json"
#: standardised features are clipped to +-CLIP
CLIP = 5.0
#: the largest intercept a model file may hold: training fits people's ratings z-scored
#: (mean 0, sd 1), so its intercept is near 0; a large one would add the same constant to
#: both sides of every game and push their scores into the tie rule's relative tolerance
#: (chatmatch.common.numbers.RAW_TIE_REL), turning real differences into ties
MAX_INTERCEPT = 10.0
#: the largest magnitude of a coefficient, a mean, a scale or an embedding number: a fitted
#: judge's coefficients are a fraction of one standard deviation of people's ratings per
#: standard deviation of a feature, so 1e308 is a broken or hand-edited file (its
#: predictions would be infinite or NaN, written as ties)
MAX_NUMBER = 1e6


def _bounded(name: str, values: Sequence[float]) -> None:
    """A ``ValueError`` when a number of ``values`` is NaN, infinite or beyond MAX_NUMBER."""
    bad = next((v for v in values if not abs(v) <= MAX_NUMBER), None)
    if bad is not None:
        raise ValueError(f"{name} holds {bad:g}: every number must be finite and within "
                         f"+-{MAX_NUMBER:g}")


def feature_problem(features: Sequence[str], k: int, form: str = FORMAT) -> str | None:
    """Why ``features`` are not the learned judge's (or, for :data:`FORMAT_COMBINED`, the
    combined judge's): a name listed twice, or one that no feature of this version is
    called (``own:``/``partner:``/``diff:`` of a scorer or a statistic, ``emb:0`` ..
    ``emb:k-1``; combined: :func:`~chatmatch.scoring.learned.features.combined_names`);
    None when they are."""
    from chatmatch.scoring.base import DIMENSIONS
    from chatmatch.scoring.learned.features import STATS, combined_names

    twice = sorted({f for f in features if features.count(f) > 1})
    if twice:
        return f"feature(s) listed twice: {', '.join(twice)}"
    if form in COMBINED_FORMATS:
        names = combined_names()
        unknown = [f for f in features if f not in names]
        if unknown:
            return (f"unknown feature(s) {', '.join(unknown[:5])}: a combined judge's feature "
                    f"is one of {', '.join(names)}")
        return None
    known = {f"{who}:{x}" for who in ("own", "partner", "diff") for x in (*DIMENSIONS, *STATS)}
    known |= {f"emb:{i}" for i in range(k)}
    unknown = [f for f in features if f not in known]
    if unknown:
        return (f"unknown feature(s) {', '.join(unknown[:5])}: a feature is own:, partner: or "
                f"diff: with one of {', '.join((*DIMENSIONS, *STATS))}, or emb:0..emb:{k - 1}")
    return None


class EmbeddingReduction(StrictModel):
    model: str  # the embedder (chatmatch.runtime.embed): "minilm"
    mean: list[float]
    components: list[list[float]]  # k rows of len(mean)

    @model_validator(mode="after")
    def _shapes(self) -> "EmbeddingReduction":
        if any(len(c) != len(self.mean) for c in self.components):
            raise ValueError("every embedding component must have as many numbers as 'mean'")
        _bounded("embedding.mean", self.mean)
        for c in self.components:
            _bounded("embedding.components", c)
        return self


class LearnedModel(StrictModel):
    """A fitted linear judge: score = intercept + coef . ((features - mean) / scale)."""

    format: str
    sklearn: str  # the scikit-learn version that fitted it
    rule_params: dict[str, dict[str, Any]] = Field(default_factory=dict)
    features: list[str]
    mean: list[float]
    scale: list[float]
    coef: list[float]
    intercept: float
    embedding: EmbeddingReduction | None = None
    trained_on: dict[str, Any] = Field(default_factory=dict)
    #: the file it was read from (its name in messages), and the sha256 of its bytes (a
    #: run records it: a file replaced at the same path scores the stored games again)
    _where: str = PrivateAttr(default="")
    _sha256: str = PrivateAttr(default="")

    @property
    def where(self) -> str:
        return self._where

    @property
    def sha256(self) -> str:
        return self._sha256

    @model_validator(mode="before")
    @classmethod
    def _pin(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("format") in (*LEARNED_FORMATS, *COMBINED_FORMATS):
            given = data.get("rule_params", {})
            if not isinstance(given, dict) or not all(isinstance(v, dict) for v in given.values()):
                raise ValueError("rule_params must map each scorer to its settings")
            data = {**data, "rule_params": _pinned(data["format"], given)}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> "LearnedModel":
        if self.format not in (*LEARNED_FORMATS, *COMBINED_FORMATS):
            raise ValueError(f"format is {self.format!r}, expected {FORMAT!r} (or {FORMAT1!r}, "
                             f"or {FORMAT_COMBINED!r} for the combined judge)")
        if self.format in COMBINED_FORMATS and self.embedding is not None:
            raise ValueError("a combined judge's file holds no embedding")
        n = len(self.features)
        if not (len(self.mean) == len(self.scale) == len(self.coef) == n):
            raise ValueError(f"features, mean, scale and coef must have the same length ({n})")
        for name, values in (("mean", self.mean), ("scale", self.scale), ("coef", self.coef)):
            _bounded(name, values)
        if any(s <= 0 for s in self.scale):
            raise ValueError("every scale must be > 0")
        if not abs(self.intercept) <= MAX_INTERCEPT:
            raise ValueError(f"intercept {self.intercept:g} is outside [-{MAX_INTERCEPT:g}, "
                             f"+{MAX_INTERCEPT:g}]: the judge predicts people's ratings "
                             "z-scored (mean 0), so a model written by "
                             "`python -m chatmatch.validity.training.train` has an intercept near 0")
        k = len(self.embedding.components) if self.embedding else 0
        problem = feature_problem(self.features, k, self.format)
        if problem:
            raise ValueError(problem)
        emb = [f for f in self.features if f.startswith("emb:")]
        if emb != [f"emb:{i}" for i in range(k)]:
            raise ValueError(f"the features emb:0..emb:{k - 1} must match the {k} embedding "
                             "components")
        return self

    def vector(self, row: Mapping[str, float]) -> np.ndarray:
        """The standardised feature vector; a missing or NaN feature counts as the mean (0),
        and a value beyond :data:`CLIP` standard deviations counts as CLIP (a side unlike
        any in the training data does not get an unbounded score)."""
        x = np.array([float(row.get(f, math.nan)) for f in self.features])
        z = (x - np.array(self.mean)) / np.array(self.scale)
        out: np.ndarray = np.clip(np.where(np.isfinite(z), z, 0.0), -CLIP, CLIP)
        return out

    def contributions(self, row: Mapping[str, float]) -> np.ndarray:
        out: np.ndarray = self.vector(row) * np.array(self.coef)
        return out

    def predict(self, row: Mapping[str, float]) -> float:
        return float(self.intercept + self.contributions(row).sum())

    def reduce(self, pooled: np.ndarray) -> dict[str, float]:
        """The pooled embedding's PCA components as features ``emb:0`` ..."""
        if self.embedding is None:
            return {}
        comps = np.array(self.embedding.components)
        z = comps @ (pooled - np.array(self.embedding.mean))
        return {f"emb:{i}": float(v) for i, v in enumerate(z)}


def _pinned(form: str, given: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every setting of the seven scorers the file's features were computed with."""
    from chatmatch.scoring.base import DIMENSIONS, SCORERS
    from chatmatch.scoring.learned.features import training_params
    from chatmatch.scoring.removed import changed_by_removal, current_params
    if form == FORMAT1:
        return training_params({d: {**FORMAT1_SETTINGS.get(d, {}), **given.get(d, {})}
                                for d in {*FORMAT1_SETTINGS, *given}})
    changed = changed_by_removal(given)
    if changed:
        raise ValueError(f"rule_params set {', '.join(changed)}, a scorer setting this version "
                         "no longer has (docs/scoring.md, \"Removed parameters\"): train the "
                         "model again with this version")
    given = {d: {**ADDED_SETTINGS.get(d, {}), **v} for d, v in current_params(given).items()}
    missing = [d for d in DIMENSIONS if d not in given]
    if missing or set(given) - set(DIMENSIONS):
        raise ValueError(f"rule_params must hold the settings of exactly the seven scorers "
                         f"({', '.join(DIMENSIONS)}); missing {', '.join(missing) or 'none'}")
    for d in DIMENSIONS:
        fields = set(SCORERS.get(d).Params.model_fields)
        if set(given[d]) != fields:
            lack = sorted(fields - set(given[d])) or sorted(set(given[d]) - fields)
            raise ValueError(f"rule_params.{d} must record every setting of {d} as this "
                             f"version knows them; differs at {', '.join(lack)}")
        try:
            SCORERS.get(d).Params.model_validate(given[d])
        except ValidationError as exc:
            raise ValueError(validation_message(exc, f"rule_params.{d}")) from None
    return given


def parse_model(text: str, where: str, formats: Sequence[str] | None = None) -> LearnedModel:
    """The model in ``text`` (read from ``where``); ``formats``: the formats the reading
    judge takes (None: any), another one is a one-line error naming the judge it is for."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise ScoringError(f"{where}: JSON nested too deeply to read: not a learned-judge model "
                           "file; give a model file written by "
                           "python -m chatmatch.validity.training.train") from None
    except ValueError as exc:
        raise ScoringError(f"{where}: not a JSON file ({exc}); give a model file written by "
                           "python -m chatmatch.validity.training.train") from None
    try:
        model = LearnedModel.model_validate(data)
    except (ValidationError, RecursionError) as exc:
        why = validation_message(exc, 'model') if isinstance(exc, ValidationError) else \
            "nested too deeply"
        raise ScoringError(f"{where}: not a learned-judge model file: {why}; re-train it with "
                           "python -m chatmatch.validity.training.train") from None
    if formats is not None and model.format not in formats:
        judge, other = (("combined", "learned") if model.format in COMBINED_FORMATS
                        else ("learned", "combined"))
        raise ScoringError(f"{where}: a {judge}-judge model file (format {model.format!r}); "
                           f"the {other} judge needs one of format {', '.join(formats)}")
    model._where, model._sha256 = where, hashlib.sha256(text.encode("utf-8")).hexdigest()
    return model


def load_model(path: str | Path | None = None, packaged: str = PACKAGED,
               formats: Sequence[str] | None = None, dimension: str = "learned") -> LearnedModel:
    """The model file at ``path`` (None: ``packaged``, the one shipped in the package);
    ``formats``: the formats the reading judge (``dimension``) takes (None: any)."""
    if path is None:
        text = resources.files("chatmatch.scoring.learned").joinpath(packaged).read_text("utf-8")
        return parse_model(text, f"chatmatch/scoring/learned/{packaged}", formats)
    p = Path(path)
    try:  # the bounded reader: a named pipe would block, /dev/zero fill the memory
        text = read_text_bounded(p)
    except (OSError, UnicodeDecodeError) as exc:
        raise ScoringError(f"scoring.params.{dimension}.model: {p} cannot be read "
                           f"({why_unreadable(exc)}); give the path of a "
                           "model file, or leave model out for the shipped one") from None
    return parse_model(text, str(p), formats)


def dump_model(model: LearnedModel) -> str:
    """The file's text: sorted keys, fixed indentation (the same model, the same bytes)."""
    return json.dumps(model.model_dump(mode="json"), indent=1, sort_keys=True) + "\n"

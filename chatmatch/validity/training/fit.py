"""Fit the learned judge: PCA of the pooled embedding, standardise, ridge regression.

A :class:`Recipe` says which features and which penalty: ``features`` ``all`` (the side's
and its partner's blocks), ``own`` (the side's block only) or ``pairwise`` (the side's
block minus its partner's, ``diff:...``: the score of one side is minus the other's, as a
game is decided); ``embedding`` PCA components of the pooled embedding (0: none; not with
``pairwise``); ``alpha`` chosen by efficient leave-one-out (``loo``) or by cross-validation
grouped by system within the training rows (``group``: no system in both an inner fold's
training and its test); ``target`` people's rating z-scored (``z``) or rank-normalised
(``rank``) per dataset within the training rows.

Everything is deterministic: PCA with the full SVD, ridge on a fixed grid of penalties,
grouped folds in a fixed order, no random state anywhere. The same rows give the same
coefficients, hence the same model file.
"""

from __future__ import annotations

import warnings
from dataclasses import asdict, dataclass
from typing import Any, Literal, Sequence

import numpy as np
import sklearn
from scipy.stats import rankdata
from sklearn.decomposition import PCA
from sklearn.linear_model import Ridge, RidgeCV
from sklearn.model_selection import GroupKFold

from chatmatch.scoring.learned.features import with_diffs
from chatmatch.scoring.learned.model import CLIP, FORMAT, EmbeddingReduction, LearnedModel
from chatmatch.validity.training.table import Table

ALPHAS = (0.1, 1.0, 10.0, 100.0, 1000.0, 10000.0)
#: PCA components kept of the pooled 384-number embedding
EMBEDDING_COMPONENTS = 8
INNER_FOLDS = 5


@dataclass(frozen=True)
class Recipe:
    features: Literal["all", "own", "pairwise"] = "all"
    embedding: int = EMBEDDING_COMPONENTS
    alpha: Literal["loo", "group"] = "loo"
    target: Literal["z", "rank"] = "z"

    def names(self, table: Table) -> list[str]:
        if self.features == "own":
            return [n for n in table.names if n.startswith("own:")]
        if self.features == "pairwise":
            return ["diff:" + n[4:] for n in table.names if n.startswith("own:")]
        return list(table.names)


#: the recipe of the shipped model and of ``training.train`` (chosen in docs/learned-judge.md)
SHIPPED = Recipe(alpha="group", target="rank")


def _r(v: float) -> float:
    """Rounded to 10 significant digits: the file is the same across BLAS builds."""
    return float(f"{v:.10g}")


def _reduction(emb: np.ndarray, k: int) -> tuple[EmbeddingReduction | None, np.ndarray]:
    if k <= 0 or emb.shape[0] <= k:
        return None, np.zeros((emb.shape[0], 0))
    pca = PCA(n_components=k, svd_solver="full").fit(emb)
    red = EmbeddingReduction(model="minilm", mean=[_r(v) for v in pca.mean_],
                             components=[[_r(v) for v in row] for row in pca.components_])
    comps, mean = np.array(red.components), np.array(red.mean)
    return red, (emb - mean) @ comps.T


def matrix(table: Table, rows: np.ndarray, names: Sequence[str]) -> np.ndarray:
    """``table``'s ``rows`` as columns ``names`` (``diff:x`` is ``own:x - partner:x``)."""
    cols = []
    for n in names:
        if n.startswith("diff:"):
            k = n[5:]
            cols.append(table.column("own:" + k)[rows] - table.column("partner:" + k)[rows])
        else:
            cols.append(table.column(n)[rows])
    return np.stack(cols, axis=1) if cols else np.zeros((len(rows), 0))


def targets(table: Table, rows: np.ndarray, kind: str) -> np.ndarray:
    """The training target of ``rows``: z-scores, or ranks z-scored, per dataset."""
    y: np.ndarray = np.asarray(table.y[rows], dtype=float)
    if kind == "z":
        return y
    out: np.ndarray = np.empty_like(y)
    for d in sorted(set(table.dataset[rows].tolist())):
        m = table.dataset[rows] == d
        r = rankdata(y[m])
        out[m] = (r - r.mean()) / (r.std() or 1.0)
    return out


def _group_alpha(x: np.ndarray, y: np.ndarray, groups: np.ndarray,
                 weights: np.ndarray | None = None) -> float:
    """The penalty of :data:`ALPHAS` with the least squared error over folds that hold out
    whole systems (the first of equals: the smallest); ``weights``: each row's weight in
    the fit and in the error (None: all 1)."""
    w = np.ones(len(y)) if weights is None else weights
    folds = min(INNER_FOLDS, len(set(groups.tolist())))
    if folds < 2:
        return float(RidgeCV(alphas=ALPHAS).fit(x, y, sample_weight=w).alpha_)
    errors = np.zeros(len(ALPHAS))
    for train, test in GroupKFold(n_splits=folds).split(x, y, groups):
        for k, a in enumerate(ALPHAS):
            pred = Ridge(alpha=a).fit(x[train], y[train], sample_weight=w[train]).predict(x[test])
            errors[k] += float((w[test] * (pred - y[test]) ** 2).sum())
    return float(ALPHAS[int(np.argmin(errors))])


def fit_model(table: Table, rows: np.ndarray, recipe: Recipe = SHIPPED,
              trained_on: dict[str, Any] | None = None, weights: np.ndarray | None = None,
              form: str = FORMAT) -> LearnedModel:
    """A model fitted on ``table``'s ``rows`` as ``recipe`` says; ``weights``: each row's
    weight (``sample_weight``, aligned with ``rows``; None: all 1); ``form``: the file's
    format (the combined judge's table fits as :data:`~chatmatch.scoring.learned.model.
    FORMAT_COMBINED`)."""
    names = recipe.names(table)
    emb = 0 if recipe.features == "pairwise" else recipe.embedding
    red, z = _reduction(table.emb[rows], emb)
    x = np.hstack([matrix(table, rows, names), z])
    names += [f"emb:{i}" for i in range(z.shape[1])]
    with warnings.catch_warnings():  # a feature missing on every row (no consistency)
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = np.nanmean(x, axis=0)
        scale = np.nanstd(x, axis=0)
    mean = np.where(np.isfinite(mean), mean, 0.0)
    if recipe.features == "pairwise":
        mean = np.zeros_like(mean)  # side minus partner: 0 is a tie, kept antisymmetric
    scale = np.where(np.isfinite(scale) & (scale > 1e-12), scale, 1.0)
    xs = np.clip(np.where(np.isfinite(x), (x - mean) / scale, 0.0), -CLIP, CLIP)
    y = targets(table, rows, recipe.target)
    groups = np.array([f"{d}/{s}" for d, s in zip(table.dataset[rows], table.system[rows])])
    w = np.ones(len(rows)) if weights is None else np.asarray(weights, dtype=float)
    alpha = (_group_alpha(xs, y, groups, w) if recipe.alpha == "group"
             else float(RidgeCV(alphas=ALPHAS).fit(xs, y, sample_weight=w).alpha_))
    ridge = Ridge(alpha=alpha, fit_intercept=recipe.features != "pairwise").fit(
        xs, y, sample_weight=w)
    return LearnedModel(
        format=form, sklearn=sklearn.__version__,
        rule_params={k: dict(v) for k, v in table.params.items()}, features=names,
        mean=[_r(v) for v in mean], scale=[_r(v) for v in scale],
        coef=[_r(v) for v in ridge.coef_], intercept=_r(float(ridge.intercept_)),
        embedding=red, trained_on={**(trained_on or {}), "rows": int(len(rows)),
                                   "alpha": alpha, "recipe": asdict(recipe)})


def predict(model: LearnedModel, table: Table, rows: np.ndarray) -> np.ndarray:
    """The model's score of each of ``table``'s ``rows`` (computed as the judge computes it)."""
    out = []
    for i in rows:
        row = with_diffs(dict(zip(table.names, table.x[i].tolist())))
        row.update(model.reduce(table.emb[i]))
        out.append(model.predict(row))
    return np.array(out)

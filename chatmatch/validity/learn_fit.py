"""Fit the learned judge: PCA of the pooled embedding, standardise, ridge regression.

Everything is deterministic: PCA with the full SVD, ridge with a fixed grid of penalties
chosen by efficient leave-one-out (:class:`sklearn.linear_model.RidgeCV`), no random
state anywhere. The same rows give the same coefficients, hence the same model file.
"""

from __future__ import annotations

import warnings
from typing import Any, Sequence

import numpy as np
import sklearn
from sklearn.decomposition import PCA
from sklearn.linear_model import RidgeCV

from chatmatch.scoring.learned_model import CLIP, FORMAT, EmbeddingReduction, LearnedModel
from chatmatch.validity.learn_table import Table

ALPHAS = (0.1, 1.0, 10.0, 100.0, 1000.0, 10000.0)
#: PCA components kept of the pooled 384-number embedding
EMBEDDING_COMPONENTS = 8


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


def fit_model(table: Table, rows: np.ndarray, features: Sequence[str] | None = None,
              embedding: int = EMBEDDING_COMPONENTS,
              trained_on: dict[str, Any] | None = None) -> LearnedModel:
    """A model fitted on ``table``'s ``rows`` with ``features`` (default: all base
    features) plus ``embedding`` PCA components of the pooled embedding."""
    names = list(features if features is not None else table.names)
    cols = [table.names.index(n) for n in names]
    red, z = _reduction(table.emb[rows], embedding)
    x = np.hstack([table.x[rows][:, cols], z])
    names += [f"emb:{i}" for i in range(z.shape[1])]
    with warnings.catch_warnings():  # a feature missing on every row (no consistency)
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = np.nanmean(x, axis=0)
        scale = np.nanstd(x, axis=0)
    mean = np.where(np.isfinite(mean), mean, 0.0)
    scale = np.where(np.isfinite(scale) & (scale > 1e-12), scale, 1.0)
    xs = np.clip(np.where(np.isfinite(x), (x - mean) / scale, 0.0), -CLIP, CLIP)
    ridge = RidgeCV(alphas=ALPHAS).fit(xs, table.y[rows])
    return LearnedModel(
        format=FORMAT, sklearn=sklearn.__version__, 
        rule_params={k: dict(v) for k, v in table.params.items()}, features=names,
        mean=[_r(v) for v in mean], scale=[_r(v) for v in scale],
        coef=[_r(v) for v in ridge.coef_], intercept=_r(float(ridge.intercept_)),
        embedding=red, trained_on={**(trained_on or {}), "rows": int(len(rows)),
                                   "alpha": float(ridge.alpha_)})


def predict(model: LearnedModel, table: Table, rows: np.ndarray) -> np.ndarray:
    """The model's score of each of ``table``'s ``rows`` (computed as the judge computes it)."""
    out = []
    for i in rows:
        row = dict(zip(table.names, table.x[i].tolist()))
        row.update(model.reduce(table.emb[i]))
        out.append(model.predict(row))
    return np.array(out)


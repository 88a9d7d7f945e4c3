"""Statistics shared by the agreement measures (the analysis, the annotations' bootstrap,
the validity lab): Kendall tau-b of many rankings at once."""

from __future__ import annotations

import numpy as np


def tau_b_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Kendall tau-b along the last axis: every row of ``x`` (shape ``(..., n)``) against
    ``y``, one ranking of the ``n`` items (shape ``(n,)``) or one a row (the shape of
    ``x``). NaN where a row or ``y`` ranks every item the same."""
    sx = np.sign(x[..., :, None] - x[..., None, :])
    sy = np.sign(y[..., :, None] - y[..., None, :])
    num = (sx * sy).sum(axis=(-2, -1))
    den = np.sqrt((sx != 0).sum(axis=(-2, -1)) * (sy != 0).sum(axis=(-2, -1)).astype(float))
    with np.errstate(invalid="ignore", divide="ignore"):
        tau: np.ndarray = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)
    return tau

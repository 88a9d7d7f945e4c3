"""The cluster bootstrap of the human rankings, vectorised: every resample's Bradley-Terry
fit runs in the same numpy iterations (the same MM updates, prior and normalisation as
:func:`chatmatch.ranking.bradley_terry.fit_bt`, which fits the point estimate), so 200
resamples of eight questions take about a second, not a minute of one fit after another.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

_FLOOR = 1e-12
#: convergence of the resample fits (largest change of a log strength): far below the
#: spread of any interval
TOL = 1e-7


def item_matrices(items: Sequence[Sequence[tuple[str, str, float]]],
                  bots: Sequence[str]) -> np.ndarray:
    """``(items, n, n)``: what each item's judgements add to the win matrix (a's score
    against b, and b's against a)."""
    idx = {b: i for i, b in enumerate(bots)}
    out = np.zeros((len(items), len(bots), len(bots)))
    for k, games in enumerate(items):
        for a, b, s in games:
            out[k, idx[a], idx[b]] += s
            out[k, idx[b], idx[a]] += 1.0 - s
    return out


def fit_many(wins: np.ndarray, prior: float, max_iter: int = 10_000) -> np.ndarray:
    """Log strengths (mean 0 over the bots that played) of every win matrix in ``wins``
    (shape ``(reps, n, n)``), by Hunter's MM iterations."""
    met = (wins + np.swapaxes(wins, 1, 2)) > 0
    w_mat = wins + met * (prior / 2.0)
    games = w_mat + np.swapaxes(w_mat, 1, 2)
    w = w_mat.sum(2)
    played = games.sum(2) > 0
    n_played = np.maximum(played.sum(1, keepdims=True), 1)
    p = np.ones(w.shape)
    for _ in range(max_iter):
        denom = (games / (p[:, :, None] + p[:, None, :])).sum(2)
        new = np.where(played, w / np.where(denom > 0, denom, 1.0), 1.0)
        new = np.maximum(new, _FLOOR)
        new /= np.exp((np.log(new) * played).sum(1, keepdims=True) / n_played)
        done = np.max(np.abs(np.log(new) - np.log(p))) < TOL
        p = new
        if done:
            break
    logs = np.log(p)
    centred: np.ndarray = logs - (logs * played).sum(1, keepdims=True) / n_played
    return centred


def resample(matrices: np.ndarray, reps: int, seed: int) -> np.ndarray:
    """``(reps, n, n)`` win matrices of ``reps`` resamples of the items with replacement
    (``numpy.random.default_rng(seed)``)."""
    rng = np.random.default_rng(seed)
    k = len(matrices)
    counts = np.stack([np.bincount(rng.integers(0, k, k), minlength=k) for _ in range(reps)])
    out: np.ndarray = np.einsum("ri,ijk->rjk", counts.astype(float), matrices)
    return out


def competition_ranks_rows(strengths: np.ndarray) -> np.ndarray:
    """Each row's standard competition ranks (1 = strongest; equal strengths share)."""
    s = np.round(strengths, 6)
    ranks: np.ndarray = 1 + (s[:, None, :] > s[:, :, None]).sum(2)
    return ranks

"""Bootstrap intervals of agreement with people.

**Chats rated by people** (the validity lab, the learned judge's evaluation): agreement
with people and its bootstrap interval, resampling chats within each system.

The data is a list of chats, each belonging to one system and carrying two numbers: what
chatmatch measured (a dimension's raw score, oriented so higher is better) and what people
rated. Two statistics:

* **system level**: Kendall's tau-b between the systems' mean measured value and their mean
  rating (means over the system's chats);
* **chat level**: Spearman's rho between the two numbers over all chats, pooled.

A chat where either number is missing (NaN) is left out of both. The **interval** is the
2.5th to 97.5th percentile over ``samples`` bootstrap resamples: each resample draws, for
every system separately, as many chats as it has, with replacement (so every system keeps
its size), using ``numpy.random.default_rng(seed)``, systems in sorted order. The same seed
and the same chats give the same resamples, which makes :func:`paired_difference` (two
measurements of the same chats resampled together) a fair test of "is B better than A":
B is better only when the interval of B - A lies above 0.

**Items judged by annotators** (``chatmatch annotate``): :func:`item_matrices` turns each
item's judgements into its share of a win matrix and :func:`resample` draws the items with
replacement (a cluster bootstrap: an item keeps all its judgements), so every resample's
Bradley-Terry fit can run in one vectorised call.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from chatmatch.records import nan_to_none
from chatmatch.stats.correlation import rho_rows, tau_b_rows

#: bootstrap resamples when nobody says otherwise
SAMPLES = 1000


@dataclass(frozen=True)
class Estimate:
    """A statistic on all chats and its 95% bootstrap interval (None: undefined)."""

    value: float | None
    low: float | None
    high: float | None

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "low": self.low, "high": self.high}

    def fmt(self) -> str:
        if self.value is None:
            return "n/a"
        if self.low is None or self.high is None:
            return f"{self.value:+.2f}"
        return f"{self.value:+.2f} [{self.low:+.2f}, {self.high:+.2f}]"


def _estimate(full: float, boot: np.ndarray) -> Estimate:
    ok = boot[~np.isnan(boot)]
    if math.isnan(full):
        return Estimate(None, None, None)
    if ok.size == 0:
        return Estimate(nan_to_none(full, 4), None, None)
    return Estimate(nan_to_none(full, 4), nan_to_none(float(np.quantile(ok, 0.025)), 4),
                    nan_to_none(float(np.quantile(ok, 0.975)), 4))


@dataclass(frozen=True)
class Chats:
    """Chats grouped by system: ``columns[k][i]`` is measurement k of chat i."""

    systems: np.ndarray  # system label per chat
    columns: np.ndarray  # shape (k, chats)

    @classmethod
    def build(cls, systems: Sequence[str], *columns: Sequence[float]) -> "Chats":
        cols = np.array([np.asarray(c, dtype=float) for c in columns], dtype=float)
        keep = ~np.isnan(cols).any(axis=0)
        return cls(np.asarray(systems, dtype=object)[keep], cols[:, keep])

    @property
    def names(self) -> list[str]:
        return sorted(set(self.systems.tolist()))

    def _members(self) -> list[np.ndarray]:
        return [np.flatnonzero(self.systems == s) for s in self.names]

    def indices(self, samples: int, seed: int) -> np.ndarray:
        """Chat indices, shape (1 + samples, chats): row 0 is every chat once, the others
        bootstrap resamples, every system resampled within itself. Columns are grouped by
        system (sorted names), the same layout in every row."""
        rng = np.random.default_rng(seed)
        members = self._members()
        out = np.empty((1 + samples, self.systems.size), dtype=int)
        start = 0
        for mine in members:
            out[0, start:start + mine.size] = mine
            out[1:, start:start + mine.size] = mine[rng.integers(0, mine.size,
                                                                 (samples, mine.size))]
            start += mine.size
        return out

    def system_means(self, idx: np.ndarray) -> np.ndarray:
        """Shape (k, rows, systems): per row of ``idx`` (laid out as :meth:`indices`
        lays it out), each system's mean of each measurement."""
        out, start = [], 0
        for mine in self._members():
            out.append(self.columns[:, idx[:, start:start + mine.size]].mean(axis=2))
            start += mine.size
        return np.stack(out, axis=2)


def agreement(systems: Sequence[str], values: Sequence[float], ratings: Sequence[float],
              samples: int = SAMPLES, seed: int = 0) -> tuple[Estimate, Estimate, int, int]:
    """(system-level tau-b, chat-level rho, systems, chats) of ``values`` against
    ``ratings``, each with its bootstrap interval."""
    chats = Chats.build(systems, values, ratings)
    n = chats.systems.size
    if n == 0:
        none = Estimate(None, None, None)
        return none, none, 0, 0
    both = chats.indices(samples, seed)
    means = chats.system_means(both)
    taus = tau_b_rows(means[0], means[1])
    x, y = chats.columns[0][both], chats.columns[1][both]
    rhos = rho_rows(x, y)
    return (_estimate(taus[0], taus[1:]), _estimate(rhos[0], rhos[1:]), len(chats.names), n)


def paired_difference(systems: Sequence[str], before: Sequence[float], after: Sequence[float],
                      ratings: Sequence[float], samples: int = SAMPLES,
                      seed: int = 0) -> tuple[Estimate, Estimate]:
    """System-level tau and chat-level rho of ``after`` minus those of ``before``, on the
    chats where both and the rating are defined, both measured on the same resamples.
    "After is better" holds when the difference's interval lies above 0."""
    chats = Chats.build(systems, before, after, ratings)
    if chats.systems.size == 0:
        none = Estimate(None, None, None)
        return none, none
    both = chats.indices(samples, seed)
    means = chats.system_means(both)
    dtau = tau_b_rows(means[1], means[2]) - tau_b_rows(means[0], means[2])
    r = chats.columns[:, both]
    drho = rho_rows(r[1], r[2]) - rho_rows(r[0], r[2])
    return _estimate(dtau[0], dtau[1:]), _estimate(drho[0], drho[1:])


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

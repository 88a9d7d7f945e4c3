"""How sure is a rank? Resample the stored games with replacement, rank each resample with
the run's method, and count per bot how often it keeps its rank; the 2.5th and 97.5th
percentiles of its resampled ranks give a 95% interval.

Randomness comes only from ``numpy.random.default_rng(seed)`` (plus the run's seeded
TrueSkill shuffles), so the same seed gives the same table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from chatmatch.analysis.agreement import compare
from chatmatch.analysis.human import HumanRanking
from chatmatch.errors import ChatmatchError
from chatmatch.progress import Reporter
from chatmatch.run.storedrun import Run


@dataclass(frozen=True)
class BootstrapRow:
    bot: str
    rank: int  # rank on all stored games
    keep_share: float  # share of resamples giving the same rank
    low: int  # 95% interval of the resampled ranks
    high: int
    mean_rank: float


@dataclass(frozen=True)
class Bootstrap:
    samples: int
    seed: int
    method: str
    rows: tuple[BootstrapRow, ...]
    tau: tuple[float, float, float] | None = None  # mean, 2.5%, 97.5% of tau vs humans


def bootstrap(data: Run, samples: int = 1000, seed: int = 0, method: str | None = None,
              human: HumanRanking | None = None, reporter: Reporter | None = None) -> Bootstrap:
    if samples < 1:
        raise ChatmatchError(f"--bootstrap {samples}: give a number of resamples >= 1")
    rng = np.random.default_rng(seed)
    full = data.rank(method=method)
    bots = list(data.bots)
    n = len(data.results)
    ranks = np.zeros((samples, len(bots)), dtype=int)
    taus: list[float] = []
    rep = reporter or Reporter.off()
    for s in rep.track(range(samples), "bootstrap", unit="resamples"):
        idx = rng.integers(0, n, size=n)
        r = data.rank([data.results[i] for i in idx], method=method).rank_of()
        ranks[s] = [r[b] for b in bots]
        if human is not None:
            taus.append(compare({b: float(v) for b, v in r.items()}, human.ranks,
                                p_values=False).tau.value)
    rows = []
    for j, b in enumerate(bots):
        col = ranks[:, j]
        rows.append(BootstrapRow(b, full.rank_of()[b], float(np.mean(col == full.rank_of()[b])),
                                 int(np.quantile(col, 0.025, method="lower")),
                                 int(np.quantile(col, 0.975, method="higher")), float(np.mean(col))))
    rows.sort(key=lambda r: (r.rank, r.bot))
    tau = None
    defined = [t for t in taus if not math.isnan(t)]
    if defined:
        tau = (float(np.mean(defined)), float(np.quantile(defined, 0.025)),
               float(np.quantile(defined, 0.975)))
    return Bootstrap(samples, seed, full.method, tuple(rows), tau)

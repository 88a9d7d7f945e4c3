"""Generalisability (paper, section 4.3 and Table 6): rank every k-bot subset of the run's
bots from only the games among them, and measure each subset ranking against the humans.

No game is replayed: a subset's tournament is the double round-robin restricted to its
bots, which is exactly the set of stored games whose two players are both in the subset.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from itertools import combinations

from chatmatch.analysis.agreement import Variant, variant
from chatmatch.analysis.human import HumanRanking
from chatmatch.errors import ChatmatchError
from chatmatch.progress import Reporter
from chatmatch.run.storedrun import Run

#: the paper counts subsets whose tau is above this
TAU_THRESHOLD = 0.6


@dataclass(frozen=True)
class SubsetTable:
    k: int
    rows: tuple[Variant, ...]  # best agreement first, like the paper's Table 6
    threshold: float = TAU_THRESHOLD

    @property
    def defined(self) -> list[float]:
        return [r.tau for r in self.rows if not math.isnan(r.tau)]

    @property
    def mean_tau(self) -> float:
        return statistics.fmean(self.defined) if self.defined else math.nan

    @property
    def above(self) -> int:
        """Subsets whose tau is strictly above the threshold."""
        return sum(t > self.threshold for t in self.defined)


def subset_table(data: Run, human: HumanRanking, k: int = 4, method: str | None = None,
                 threshold: float = TAU_THRESHOLD, reporter: Reporter | None = None) -> SubsetTable:
    bots = [b for b in data.bots if b in human.ranks]
    if not 2 <= k <= len(bots):
        raise ChatmatchError(f"--subset-size {k}: need 2 <= k <= {len(bots)} (the bots that both "
                             "the run and the human file rank)")
    rows = []
    rep = reporter or Reporter.off()
    subsets = list(combinations(sorted(bots), k))
    for subset in rep.track(subsets, f"ranking subsets of {k} bots", unit="subsets"):
        keep = set(subset)
        games = [r for r in data.results if set(r.players) <= keep]
        ranking = data.rank(games, list(subset), method=method)
        rows.append(variant(", ".join(subset), ranking, human))
    rows.sort(key=lambda v: (-v.tau if not math.isnan(v.tau) else math.inf, v.label))
    return SubsetTable(k, tuple(rows), threshold)

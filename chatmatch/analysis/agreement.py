"""Agreement between a ranking and human judgement: Kendall tau-b and Spearman rho.

Both are computed by scipy on the bots the two sides share. Kendall's tau-b corrects for
ties (two bots sharing a rank), as does Spearman's rho (average ranks). Values are NaN when
one side gives every bot the same rank (a correlation is undefined then).

Orientation: ranks are "lower is better", scores "higher is better"; :func:`compare`
turns both into "higher is better" first, so +1 always means full agreement.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from scipy import stats

from chatmatch.analysis.human import HumanRanking
from chatmatch.errors import ChatmatchError
from chatmatch.ranking import Ranking
from chatmatch.scoring.points import GameResult


@dataclass(frozen=True)
class Correlation:
    value: float
    p_value: float
    n: int

    def fmt(self) -> str:
        return "n/a" if math.isnan(self.value) else f"{self.value:+.3f}"

    def fmt_p(self) -> str:
        return "n/a" if math.isnan(self.p_value) else f"{self.p_value:.3g}"


@dataclass(frozen=True)
class Agreement:
    """How one ranking (overall or one dimension) agrees with the humans."""

    label: str
    bots: tuple[str, ...]
    tau: Correlation
    rho: Correlation

    def to_json(self) -> dict[str, object]:
        return {"label": self.label, "bots": list(self.bots), "kendall_tau_b": self.tau.value,
                "kendall_p": self.tau.p_value, "spearman_rho": self.rho.value,
                "spearman_p": self.rho.p_value}


def _clean(res: object) -> tuple[float, float]:
    value, p = float(res.statistic), float(res.pvalue)  # type: ignore[attr-defined]
    return value, p


def _pair(x: Sequence[float], y: Sequence[float]) -> None:
    if len(x) != len(y):
        raise ValueError(f"need two sequences of the same length, got {len(x)} and {len(y)}")


def _correlate(test: Any, x: Sequence[float], y: Sequence[float]) -> Correlation:
    _pair(x, y)
    if len(x) < 2:
        return Correlation(math.nan, math.nan, len(x))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant input: NaN is the answer
        return Correlation(*_clean(test(x, y)), len(x))


def kendall(x: Sequence[float], y: Sequence[float]) -> Correlation:
    """Kendall's tau-b of two equally long sequences (ties handled)."""
    return _correlate(lambda a, b: stats.kendalltau(a, b, variant="b"), x, y)


def spearman(x: Sequence[float], y: Sequence[float]) -> Correlation:
    return _correlate(stats.spearmanr, x, y)


def pearson(x: Sequence[float], y: Sequence[float]) -> Correlation:
    return _correlate(stats.pearsonr, x, y)


def compare(system: Mapping[str, float], human: Mapping[str, float], label: str = "overall", *,
            system_lower_better: bool = True, human_lower_better: bool = True) -> Agreement:
    """Correlate two per-bot value maps on their shared bots (ranks by default)."""
    bots = tuple(b for b in system if b in human)
    if len(bots) < 2:
        raise ChatmatchError(f"{label}: the ranking and the human file share {len(bots)} bot(s); "
                             "need at least 2 to measure agreement")
    xs = [-system[b] if system_lower_better else system[b] for b in bots]
    ys = [-human[b] if human_lower_better else human[b] for b in bots]
    return Agreement(label, bots, kendall(xs, ys), spearman(xs, ys))


def tau_against(ranks: Mapping[str, float], human: HumanRanking) -> float:
    """Kendall tau-b of a bot -> rank map against the human ranks (NaN if undefined)."""
    return compare(ranks, human.ranks).tau.value


def dimension_wins(results: Sequence[GameResult], bots: Sequence[str]) -> dict[str, dict[str, float]]:
    """Per dimension, how many games each bot won that dimension in (a per-dimension ranking)."""
    dims = sorted({d for r in results for p in r.players for d in r.points[p]})
    out = {d: {b: 0.0 for b in bots} for d in dims}
    for r in results:
        for p in r.players:
            for d, v in r.points[p].items():
                out[d][p] += float(v > 0)
    return out


def compare_run(ranking: Ranking, results: Sequence[GameResult],
                human: HumanRanking) -> list[Agreement]:
    """Overall agreement, then one row per dimension the human file scores (the run's
    dimension wins against the human dimension scores, both higher-is-better)."""
    rows = [compare({r.bot: float(r.rank) for r in ranking.rows}, human.ranks, "overall")]
    wins = dimension_wins(results, ranking.order())
    human.check_dimensions(sorted(wins))
    for dim, scores in human.dimensions.items():
        rows.append(compare(wins[dim], scores, dim, system_lower_better=False,
                            human_lower_better=False))
    return rows


@dataclass(frozen=True)
class Variant:
    """One re-ranking of a run (a subset, an ablation, another method) and, when human
    ranks are given, its agreement with them."""

    label: str
    ranks: dict[str, int]
    agreement: Agreement | None = None

    @property
    def tau(self) -> float:
        return math.nan if self.agreement is None else self.agreement.tau.value

    def order(self) -> list[str]:
        return sorted(self.ranks, key=lambda b: (self.ranks[b], b))


def variant(label: str, ranking: Ranking, human: HumanRanking | None) -> Variant:
    ranks = ranking.rank_of()
    agree = None if human is None else compare({b: float(r) for b, r in ranks.items()},
                                               human.ranks, label)
    return Variant(label, ranks, agree)

"""How a run's ranking agrees with a human ranking: :func:`compare` correlates two per-bot
value maps (Kendall tau-b and Spearman rho with their p-values, from
:mod:`chatmatch.stats.correlation`), :func:`compare_run` does it for the overall ranking and
each dimension the human file scores; :class:`Variant` is one re-ranking of a run (a subset,
an ablation, another method) beside its agreement.

Orientation: ranks are "lower is better", scores "higher is better"; :func:`compare`
turns both into "higher is better" first, so +1 always means full agreement.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from chatmatch.analysis.human import HumanRanking
from chatmatch.errors import ChatmatchError
from chatmatch.ranking import Ranking
from chatmatch.records import GameResult
from chatmatch.stats.correlation import Correlation, kendall, spearman


@dataclass(frozen=True)
class Agreement:
    """How one ranking (overall or one dimension) agrees with the humans."""

    label: str
    bots: tuple[str, ...]
    tau: Correlation
    rho: Correlation
    #: why tau and rho are undefined (one side ranks every bot equal), else None
    undefined: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"label": self.label, "bots": list(self.bots), "kendall_tau_b": self.tau.value,
                "kendall_p": self.tau.p_value, "kendall_p_method": self.tau.p_method,
                "spearman_rho": self.rho.value, "spearman_p": self.rho.p_value,
                "spearman_p_method": self.rho.p_method, "undefined": self.undefined}


def ranks_text(ranks: Mapping[str, float]) -> dict[str, str]:
    """Each bot's rank as text, tied ranks marked ``=2`` (two bots share rank 2)."""
    counts: dict[float, int] = {}
    for v in ranks.values():
        counts[v] = counts.get(v, 0) + 1
    return {b: ("=" if counts[v] > 1 else "") + (f"{v:g}" if v == int(v) else f"{v:.2f}")
            for b, v in ranks.items()}


def order_text(ranks: Mapping[str, float], *, show_ranks: bool = False) -> str:
    """``a > b = c > d``: bots best first, tied bots joined by ``=``."""
    order = sorted(ranks, key=lambda b: (ranks[b], b))
    labels = ranks_text(ranks)
    out = ""
    for i, b in enumerate(order):
        if i:
            out += " = " if ranks[b] == ranks[order[i - 1]] else " > "
        out += f"{b} ({labels[b].lstrip('=')})" if show_ranks else b
    return out


def compare(system: Mapping[str, float], human: Mapping[str, float], label: str = "overall", *,
            system_lower_better: bool = True, human_lower_better: bool = True,
            p_values: bool = True) -> Agreement:
    """Correlate two per-bot value maps on their shared bots (ranks by default);
    ``p_values=False`` skips the p-values (NaN), e.g. inside a bootstrap loop."""
    bots = tuple(b for b in system if b in human)
    if len(bots) < 2:
        raise ChatmatchError(f"{label}: the ranking and the human file share {len(bots)} bot(s); "
                             "need at least 2 to measure agreement")
    xs = [-system[b] if system_lower_better else system[b] for b in bots]
    ys = [-human[b] if human_lower_better else human[b] for b in bots]
    undefined = ("chatmatch ranks every bot equal" if len(set(xs)) == 1 else
                 "the humans rank every bot equal" if len(set(ys)) == 1 else None)
    return Agreement(label, bots, kendall(xs, ys, p_value=p_values),
                     spearman(xs, ys, p_value=p_values), undefined)


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

    def order_text(self) -> str:
        """Best first, tied bots joined by ``=``."""
        return order_text({b: float(r) for b, r in self.ranks.items()})


def variant(label: str, ranking: Ranking, human: HumanRanking | None) -> Variant:
    ranks = ranking.rank_of()
    agree = None if human is None else compare({b: float(r) for b, r in ranks.items()},
                                               human.ranks, label, p_values=False)
    return Variant(label, ranks, agree)

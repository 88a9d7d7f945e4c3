"""Agreement between a ranking and human judgement: Kendall tau-b and Spearman rho.

Both are computed by scipy on the bots the two sides share. Kendall's tau-b corrects for
ties (two bots sharing a rank), as does Spearman's rho (average ranks). Values are NaN when
one side gives every bot the same rank (a correlation is undefined then).

Orientation: ranks are "lower is better", scores "higher is better"; :func:`compare`
turns both into "higher is better" first, so +1 always means full agreement.

p-values (two-sided, H0: no association). A few bots give few pairs, where the usual
large-sample approximations are poor, so:

- Kendall tau without ties on either side: scipy's exact null distribution
  (``kendalltau(method="exact")``), for any number of bots;
- Kendall tau with ties (two bots sharing a rank), and Spearman rho, with at most
  :data:`EXACT_MAX_N` bots: an exact permutation test (``scipy.stats.permutation_test``
  enumerating every ordering of one side; ties are kept as they are, so the p-value is
  exact given the ties; two-sided = twice the smaller one-sided p, capped at 1);
- otherwise scipy's asymptotic p-value.

``Correlation.p_method`` says which one was used. With fewer than :data:`MIN_BOTS` bots
no p-value can go below 0.05 (:func:`few_bots_note` says so; the CLI and the report show it).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

import numpy as np
from scipy import stats

from chatmatch.analysis.human import HumanRanking
from chatmatch.common.stats import tau_b_rows
from chatmatch.errors import ChatmatchError
from chatmatch.ranking import Ranking
from chatmatch.records import GameResult


#: fewer bots than this: a warning (no p-value can be small; the paper's smallest subsets: 4)
MIN_BOTS = 4
#: exact permutation p-values (every ordering enumerated) up to this many bots
EXACT_MAX_N = 8


@dataclass(frozen=True)
class Correlation:
    value: float
    p_value: float
    n: int
    #: "exact", "exact permutation", "asymptotic" or "" (no p-value asked for)
    p_method: str = ""

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
                "kendall_p": self.tau.p_value, "kendall_p_method": self.tau.p_method,
                "spearman_rho": self.rho.value, "spearman_p": self.rho.p_value,
                "spearman_p_method": self.rho.p_method}


def _pair(x: Sequence[float], y: Sequence[float]) -> None:
    if len(x) != len(y):
        raise ValueError(f"need two sequences of the same length, got {len(x)} and {len(y)}")


#: a vectorised statistic for :func:`scipy.stats.permutation_test`: ``statistic(x, axis=-1)``
Statistic = Callable[..., np.ndarray]


def _tau_b_batch(y: np.ndarray) -> Statistic:
    """Kendall tau-b of every row of ``x`` (shape ``(..., n)``) against ``y``: vectorised."""

    def statistic(x: np.ndarray, axis: int = -1) -> np.ndarray:
        return tau_b_rows(np.moveaxis(x, axis, -1), y)

    return statistic


def _rho_batch(y: np.ndarray) -> Statistic:
    """Spearman rho (Pearson of average ranks) of every row of ``x`` against ``y``."""
    ry = stats.rankdata(y)
    ry = (ry - ry.mean()) / np.linalg.norm(ry - ry.mean())

    def statistic(x: np.ndarray, axis: int = -1) -> np.ndarray:
        rx = stats.rankdata(np.moveaxis(x, axis, -1), axis=-1)
        rx = rx - rx.mean(axis=-1, keepdims=True)
        rho: np.ndarray = (rx * ry).sum(axis=-1) / np.linalg.norm(rx, axis=-1)
        return rho

    return statistic


def _permutation_p(statistic: Statistic, x: Sequence[float]) -> float:
    # scipy-stubs types n_resamples as int, but SciPy documents np.inf (every permutation:
    # the exact test)
    res = stats.permutation_test(  # type: ignore[call-overload]
        (np.asarray(x, dtype=float),), statistic, vectorized=True,
        permutation_type="pairings", n_resamples=np.inf)
    return float(min(1.0, res.pvalue))


def _correlation(value: float, n: int, p: tuple[float, str] | None) -> Correlation:
    if p is None or math.isnan(value):
        return Correlation(value, math.nan, n)
    return Correlation(value, p[0], n, p[1])


def kendall(x: Sequence[float], y: Sequence[float], *, p_value: bool = True) -> Correlation:
    """Kendall's tau-b of two equally long sequences (ties handled) and its p-value (see the
    module docstring: exact for few bots)."""
    _pair(x, y)
    if len(x) < 2:
        return Correlation(math.nan, math.nan, len(x))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant input: NaN is the answer
        res = stats.kendalltau(x, y, variant="b")
        value = float(res.statistic)
        if not p_value or math.isnan(value):
            return _correlation(value, len(x), None)
        if len(set(x)) == len(x) and len(set(y)) == len(y):
            p = (float(stats.kendalltau(x, y, method="exact").pvalue), "exact")
        elif len(x) <= EXACT_MAX_N:
            p = (_permutation_p(_tau_b_batch(np.asarray(y, dtype=float)), x), "exact permutation")
        else:
            p = (float(res.pvalue), "asymptotic")
    return _correlation(value, len(x), p)


def spearman(x: Sequence[float], y: Sequence[float], *, p_value: bool = True) -> Correlation:
    """Spearman's rho and its p-value (exact permutation test up to EXACT_MAX_N bots)."""
    _pair(x, y)
    if len(x) < 2:
        return Correlation(math.nan, math.nan, len(x))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = stats.spearmanr(x, y)
        value = float(res.statistic)
        if not p_value or math.isnan(value):
            return _correlation(value, len(x), None)
        if len(x) <= EXACT_MAX_N:
            p = (_permutation_p(_rho_batch(np.asarray(y, dtype=float)), x), "exact permutation")
        else:
            p = (float(res.pvalue), "asymptotic")
    return _correlation(value, len(x), p)


def pearson(x: Sequence[float], y: Sequence[float]) -> Correlation:
    _pair(x, y)
    if len(x) < 2:
        return Correlation(math.nan, math.nan, len(x))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = stats.pearsonr(x, y)
    return Correlation(float(res.statistic), float(res.pvalue), len(x), "asymptotic")


def few_bots_note(n: int) -> str | None:
    """A warning when ``n`` bots are too few for the correlation to mean much, else None."""
    if n >= MIN_BOTS:
        return None
    smallest = 2 / math.factorial(n) if n >= 2 else math.nan
    return (f"only {n} bots compared: Kendall tau and Spearman rho can take only a few values, "
            f"and no p-value can be below {min(1.0, smallest):.2g} (the exact two-sided minimum "
            f"for {n} bots); compare at least {MIN_BOTS} bots before reading much into it")


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
    return Agreement(label, bots, kendall(xs, ys, p_value=p_values),
                     spearman(xs, ys, p_value=p_values))


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

"""Ask every evaluator to compare good and broken turns; tally accuracy per family.

Accuracy = (wins + ties / 2) / n, where a win is a triple whose good turn gets the better
score; ties are also reported on their own (a scorer that cannot tell the two apart ties).
The 95% interval is Wilson's score interval on that proportion. For the ``stable`` family
(paraphrase) the cell is the share of pairs whose scores stay within ``tolerance`` times
the evaluator's standard deviation over all good turns (judges: a preference within
``0.5 +- tolerance``).
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass
from typing import Sequence

from chatmatch.progress import Reporter
from chatmatch.robustness.evaluators import Evaluator
from chatmatch.robustness.perturb import FAMILIES, Context
from chatmatch.robustness.triples import Triple
from chatmatch.scoring.points import dimension_winner

Z95 = 1.959963984540054
DEFAULT_TOLERANCE = 0.25


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``successes`` out of ``n`` (``(nan, nan)`` when n = 0)."""
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Tally:
    """Good-vs-broken outcomes for one (family, evaluator) cell."""

    wins: int
    ties: int
    losses: int

    @property
    def n(self) -> int:
        return self.wins + self.ties + self.losses

    @property
    def accuracy(self) -> float:
        return (self.wins + self.ties / 2) / self.n if self.n else math.nan

    @property
    def strict(self) -> float:
        return self.wins / self.n if self.n else math.nan

    @property
    def tie_share(self) -> float:
        return self.ties / self.n if self.n else math.nan

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.wins + self.ties / 2, self.n)

    def to_json(self) -> dict[str, object]:
        return {"wins": self.wins, "ties": self.ties, "losses": self.losses, "n": self.n,
                "accuracy": self.accuracy, "strict_accuracy": self.strict,
                "tie_share": self.tie_share, "ci95": list(self.ci)}


@dataclass(frozen=True)
class Stability:
    """Paraphrase pairs whose scores stayed within the tolerance."""

    within: int
    n: int
    tolerance: float

    @property
    def accuracy(self) -> float:
        return self.within / self.n if self.n else math.nan

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.within, self.n)

    def to_json(self) -> dict[str, object]:
        return {"within": self.within, "n": self.n, "tolerance": self.tolerance,
                "share_stable": self.accuracy, "ci95": list(self.ci)}


@dataclass(frozen=True)
class Spread:
    """How an evaluator's scores spread: ``sd``; ``top_share``, the share of scores equal
    to the best score it gave (scores bunched at the ceiling); ``distinct`` values."""

    n: int
    sd: float
    top_share: float
    distinct: int

    def to_json(self) -> dict[str, object]:
        return {"n": self.n, "sd": self.sd, "top_share": self.top_share, "distinct": self.distinct}


def spread(values: Sequence[float], higher_is_better: bool) -> Spread:
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return Spread(0, math.nan, math.nan, 0)
    best = max(finite) if higher_is_better else min(finite)
    top = sum(1 for v in finite if dimension_winner(v, best, True) == 0) / len(finite)
    sd = statistics.pstdev(finite) if len(finite) > 1 else 0.0
    return Spread(len(finite), sd, top, len(set(finite)))


def tally(outcomes: Sequence[int]) -> Tally:
    return Tally(outcomes.count(1), outcomes.count(0), outcomes.count(-1))


def _score_all(ev: Evaluator, triples: Sequence[Triple]) -> dict[tuple[Context, str], float]:
    keys = list(dict.fromkeys(k for t in triples for k in ((t.context, t.good), (t.context, t.broken))))
    values = ev.score([c for c, _ in keys], [r for _, r in keys])  # type: ignore[union-attr]
    if len(values) != len(keys):
        raise RuntimeError(f"evaluator {ev.name} returned {len(values)} scores for {len(keys)} replies")
    return dict(zip(keys, map(float, values)))


def _stable(a: float, b: float, scale: float, tolerance: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= tolerance * scale + 1e-12


def evaluate_scorer(ev: Evaluator, triples: Sequence[Triple], tolerance: float
                    ) -> tuple[dict[str, Tally | Stability], Spread]:
    """One score-kind evaluator over every triple: a cell per family and its spread."""
    scores = _score_all(ev, triples)
    hib = ev.higher_is_better  # type: ignore[union-attr]
    goods = [scores[(t.context, t.good)] for t in triples]
    scale = spread(goods, hib).sd
    cells: dict[str, Tally | Stability] = {}
    for fam in dict.fromkeys(t.family for t in triples):
        mine = [t for t in triples if t.family == fam]
        pairs = [(scores[(t.context, t.good)], scores[(t.context, t.broken)]) for t in mine]
        if FAMILIES.get(fam).kind == "stable":
            within = sum(_stable(g, b, scale if math.isfinite(scale) else 0.0, tolerance) for g, b in pairs)
            cells[fam] = Stability(within, len(pairs), tolerance)
        else:
            cells[fam] = tally([dimension_winner(g, b, hib) for g, b in pairs])
    return cells, spread(list(scores.values()), hib)


def evaluate_judge(ev: Evaluator, triples: Sequence[Triple], tolerance: float, seed: int
                   ) -> dict[str, Tally | Stability]:
    """One compare-kind evaluator; the good turn goes first or second by a seeded coin."""
    rng = random.Random(f"{seed}:order:{ev.name}")
    good_first = [rng.random() < 0.5 for _ in triples]
    first = [t.good if gf else t.broken for t, gf in zip(triples, good_first)]
    second = [t.broken if gf else t.good for t, gf in zip(triples, good_first)]
    prefs = ev.prefer([t.context for t in triples], first, second)  # type: ignore[union-attr]
    pref_good = [float(p) if gf else 1.0 - float(p) for p, gf in zip(prefs, good_first)]
    cells: dict[str, Tally | Stability] = {}
    for fam in dict.fromkeys(t.family for t in triples):
        mine = [p for t, p in zip(triples, pref_good) if t.family == fam]
        if FAMILIES.get(fam).kind == "stable":
            cells[fam] = Stability(sum(abs(p - 0.5) <= tolerance for p in mine), len(mine), tolerance)
        else:
            cells[fam] = tally([0 if p != p or abs(p - 0.5) <= 1e-9 else (1 if p > 0.5 else -1)
                                 for p in mine])  # no verdict (NaN) counts as a tie
    return cells


@dataclass(frozen=True)
class TurnResults:
    cells: dict[tuple[str, str], Tally | Stability]  # (family, evaluator) -> cell
    spreads: dict[str, Spread]


def evaluate(evaluators: Sequence[Evaluator], triples: Sequence[Triple], *, seed: int,
             tolerance: float = DEFAULT_TOLERANCE, reporter: Reporter | None = None) -> TurnResults:
    cells: dict[tuple[str, str], Tally | Stability] = {}
    spreads: dict[str, Spread] = {}
    if not triples:
        return TurnResults(cells, spreads)
    rep = reporter or Reporter.off()
    label = f"evaluating {len(triples)} triples"
    with rep.bar(label, len(evaluators), unit="evaluators") as bar:
        for ev in evaluators:
            bar.update(detail=ev.name)
            if ev.kind == "compare":
                per_family = evaluate_judge(ev, triples, tolerance, seed)
            else:
                per_family, spreads[ev.name] = evaluate_scorer(ev, triples, tolerance)
            cells.update({(fam, ev.name): cell for fam, cell in per_family.items()})
            bar.advance()
    return TurnResults(cells, spreads)

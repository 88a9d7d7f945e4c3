"""From judgements to a human ranking, and how chatmatch's ranking agrees with it.

Per question (overall, then each dimension asked):

- **human ranking**: each judgement is a game between the two bots compared (speaker A
  better: A wins; B better: B wins; "can't tell": half a win each), ranked by Bradley-Terry
  (:func:`chatmatch.ranking.bradley_terry.fit_bt`, with ``prior`` virtual tied games per
  pair that met, as ``ranking.bt`` does), with the win rate beside it;
- **intervals**: a cluster bootstrap over items (an item is drawn with all its judgements,
  since the judgements of one game by several people are not independent), seeded; the
  percentile interval of each bot's strength and rank, and of Kendall's tau, widened
  where needed to hold the estimate itself;
- **agreement with chatmatch**: Kendall tau-b and Spearman rho (:func:`compare`, exact
  p-values for few bots) between chatmatch's ranking (overall: the run's method; a
  dimension: games won on that dimension) and the human strengths; the tau interval covers
  the human side's uncertainty (``chatmatch analyze --only bootstrap`` shows chatmatch's);
- **inter-annotator agreement**: Krippendorff's alpha (the ``krippendorff`` package) over
  the items judged by two or more people, ordinal (A better < can't tell < B better), and
  the plain share of agreeing pairs of annotators. Alpha is NaN when no item was judged by
  two people.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Sequence

import krippendorff
import numpy as np

from chatmatch.analysis.agreement import Agreement, compare
from chatmatch.analysis.human import HumanRanking
from chatmatch.annotate.store import Judgement
from chatmatch.errors import ChatmatchError
from chatmatch.ranking.base import competition_ranks
from chatmatch.ranking import bradley_terry
from chatmatch.ranking.bradley_terry import fit_bt
from chatmatch.records import nan_to_none
from chatmatch.stats.bootstrap import competition_ranks_rows, item_matrices, resample
from chatmatch.stats.correlation import tau_b_rows

#: the ordinal scale of an answer for Krippendorff's alpha
SCALE = {"a": 1.0, "tie": 2.0, "b": 3.0}
PRIOR = 0.5
#: convergence of the resample fits (largest change of a log strength): far below the
#: spread of any interval
TOL = 1e-7
Level = Literal["nominal", "ordinal"]


@dataclass(frozen=True)
class HumanRow:
    """A bot in the human ranking of one question."""

    bot: str
    rank: int
    judged: int
    won: float
    tied: int
    lost: float
    strength: float  # Bradley-Terry log strength, mean 0
    low: float
    high: float
    rank_low: int
    rank_high: int

    @property
    def win_rate(self) -> float:
        return (self.won + 0.5 * self.tied) / self.judged if self.judged else math.nan

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "rank": self.rank, "judged": self.judged, "won": self.won,
                "cant_tell": self.tied, "lost": self.lost, "win_rate": self.win_rate,
                "strength": self.strength, "strength_interval": [self.low, self.high],
                "rank_interval": [self.rank_low, self.rank_high]}


@dataclass(frozen=True)
class QuestionResult:
    question: str
    judgements: int
    items: int
    annotators: int
    rows: tuple[HumanRow, ...]
    agreement: Agreement | None
    tau_interval: tuple[float, float] | None
    alpha: float
    overlap_items: int  # items judged by two or more people
    pair_agreement: float  # share of annotator pairs that gave the same answer
    tau_why: str | None = None  # why tau is n/a (None: it is not, or no reason is known)

    def strengths(self) -> dict[str, float]:
        return {r.bot: r.strength for r in self.rows}

    def to_json(self) -> dict[str, Any]:
        return {"question": self.question, "judgements": self.judgements, "items": self.items,
                "annotators": self.annotators, "ranking": [r.to_json() for r in self.rows],
                "agreement": self.agreement.to_json() if self.agreement else None,
                "kendall_tau_interval": list(self.tau_interval) if self.tau_interval else None,
                "krippendorff_alpha": nan_to_none(self.alpha), "overlap_items": self.overlap_items,
                "pair_agreement": nan_to_none(self.pair_agreement), "kendall_tau_why": self.tau_why}


@dataclass(frozen=True)
class AnnotationSummary:
    """Everything ``compare --annotations`` prints."""

    source: str
    method: str
    judgements: int  # items judged, counted once per annotator
    answers: int  # answers to questions (a judgement answers every question asked)
    annotators: tuple[str, ...]
    items: int
    pairs_judged: int
    pairs_total: int
    questions: tuple[QuestionResult, ...]
    bootstrap: int
    seed: int
    ci: float
    #: bots with judgements that the run no longer ranks (retired) -> judgements left out
    left_out: dict[str, int] = field(default_factory=dict)

    def human_ranking(self) -> HumanRanking:
        """The judgements as a :class:`HumanRanking` (overall ranks, dimension strengths),
        for ``analyze`` and the report's agreement tables."""
        overall = self.questions[0]
        ranks = {r.bot: float(r.rank) for r in overall.rows}
        dims = {q.question: q.strengths() for q in self.questions[1:] if q.rows}
        return HumanRanking(self.source, ranks, len(self.annotators), dims)

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "method": self.method, "judgements": self.judgements,
                "answers": self.answers, "annotators": list(self.annotators), "items": self.items,
                "pairs_judged": self.pairs_judged, "pairs_total": self.pairs_total,
                "bootstrap": self.bootstrap, "seed": self.seed, "ci": self.ci,
                "questions": [q.to_json() for q in self.questions],
                **({"left_out": self.left_out} if self.left_out else {})}


def krippendorff_alpha(judgements: Sequence[Judgement], level: Level = "ordinal") -> tuple[float, int]:
    """(alpha, items judged by two or more people) of one question's judgements."""
    who = sorted({j.annotator for j in judgements})
    items = sorted({j.item for j in judgements})
    data = np.full((len(who), len(items)), np.nan)
    wi, ii = {w: k for k, w in enumerate(who)}, {it: k for k, it in enumerate(items)}
    for j in judgements:
        data[wi[j.annotator], ii[j.item]] = SCALE[j.answer]
    overlap = int(((~np.isnan(data)).sum(axis=0) >= 2).sum())
    if overlap == 0:
        return math.nan, 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # one value only: 0/0, NaN is the answer
        try:
            value = float(krippendorff.alpha(reliability_data=data, level_of_measurement=level,
                                             value_domain=sorted(SCALE.values())))
        except ValueError:
            value = math.nan
    return value, overlap


def pair_agreement(judgements: Sequence[Judgement]) -> float:
    """Over items judged by two or more people: the share of annotator pairs that agree."""
    by_item: dict[str, list[str]] = {}
    for j in judgements:
        by_item.setdefault(j.item, []).append(j.answer)
    same = total = 0
    for answers in by_item.values():
        for x, y in itertools.combinations(answers, 2):
            same += x == y
            total += 1
    return same / total if total else math.nan


def _tally(judgements: Sequence[Judgement], bots: Sequence[str]) -> dict[str, list[float]]:
    t = {b: [0.0, 0.0, 0.0, 0.0] for b in bots}  # judged, won, tied, lost
    for j in judgements:
        for bot, s in ((j.bot_a, j.score_a), (j.bot_b, 1.0 - j.score_a)):
            row = t[bot]
            row[0] += 1
            row[1 if s == 1 else 2 if s == 0.5 else 3] += 1
    return t


def _ranks(strengths: Mapping[str, float], bots: Sequence[str]) -> dict[str, int]:
    order = sorted(bots, key=lambda b: (-strengths[b], b))
    return dict(zip(order, competition_ranks([strengths[b] for b in order])))


def fit_many(wins: np.ndarray, prior: float) -> np.ndarray:
    """Log strengths of every resample's win matrix (``(reps, n, n)``) in the same numpy
    iterations (:func:`chatmatch.ranking.bradley_terry.fit_many`) run to :data:`TOL`: 200
    resamples of eight questions take about a second."""
    return bradley_terry.fit_many(wins, prior, tol=TOL)


def _bootstrap(judgements: Sequence[Judgement], bots: Sequence[str], reps: int,
               seed: int) -> np.ndarray:
    """``(reps, len(bots))`` strengths refitted on resamples of the items (each drawn with
    all its judgements)."""
    by_item: dict[str, list[tuple[str, str, float]]] = {}
    for j in judgements:
        by_item.setdefault(j.item, []).append((j.bot_a, j.bot_b, j.score_a))
    wins = resample(item_matrices(list(by_item.values()), bots), reps, seed)
    return np.round(fit_many(wins, PRIOR), 6)


def _fit(games: Sequence[tuple[str, str, float]], bots: Sequence[str]) -> dict[str, float]:
    """Bradley-Terry strengths rounded to 1e-6, so bots with the same record tie exactly
    (in ranks and in tau-b alike)."""
    return {b: round(v, 6) + 0.0 for b, v in fit_bt(games, bots, PRIOR).items()}


def _interval(values: Sequence[float] | np.ndarray, ci: float,
              point: float) -> tuple[float, float]:
    """The percentile interval of ``values``, widened to hold ``point`` (the estimate on
    all the judgements): with few bots tau takes few values, and a percentile of them can
    fall short of the point, which an interval around it must never do."""
    lo, hi = np.percentile(values, [(1 - ci) / 2 * 100, (1 + ci) / 2 * 100])
    if math.isnan(point):
        return float(lo), float(hi)
    return min(float(lo), point), max(float(hi), point)


def question_result(question: str, judgements: Sequence[Judgement],
                    system: Mapping[str, float] | None, system_lower_better: bool,
                    reps: int, seed: int, ci: float) -> QuestionResult:
    """The human ranking of one question and its agreement with ``system`` (chatmatch's
    ranks, or its per-dimension wins: ``system_lower_better=False``; None: not compared)."""
    bots = sorted({b for j in judgements for b in (j.bot_a, j.bot_b)})
    strengths = _fit([(j.bot_a, j.bot_b, j.score_a) for j in judgements], bots)
    boots = _bootstrap(judgements, bots, reps, seed) if judgements and reps else None
    ranks = _ranks(strengths, bots)
    boot_ranks = None if boots is None else competition_ranks_rows(boots)
    tally = _tally(judgements, bots)
    rows = []
    for b in sorted(bots, key=lambda b: (ranks[b], b)):
        k = bots.index(b)
        s_lo, s_hi = (math.nan, math.nan) if boots is None else _interval(boots[:, k], ci,
                                                                           strengths[b])
        r_lo, r_hi = ((ranks[b], ranks[b]) if boot_ranks is None
                      else _interval(boot_ranks[:, k], ci, ranks[b]))
        n, won, tied, lost = tally[b]
        rows.append(HumanRow(b, ranks[b], int(n), won, int(tied), lost, strengths[b], s_lo, s_hi,
                             int(math.floor(r_lo)), int(math.ceil(r_hi))))
    agreement, interval = _against(question, system, system_lower_better, strengths,
                                   None if boots is None else (bots, boots), ci)
    alpha, overlap = krippendorff_alpha(judgements)
    return QuestionResult(question, len(judgements), len({j.item for j in judgements}),
                          len({j.annotator for j in judgements}), tuple(rows), agreement,
                          interval, alpha, overlap, pair_agreement(judgements),
                          _tau_why(system, strengths, agreement))


def _tau_why(system: Mapping[str, float] | None, strengths: Mapping[str, float],
             agreement: Agreement | None) -> str | None:
    """Why tau is n/a: a side with no order to correlate (every bot tied), or too few bots."""
    if agreement is None:
        if system is None:
            return None
        return "fewer than two judged bots are in chatmatch's ranking"
    if not math.isnan(agreement.tau.value):
        return None
    if system is not None and len({system[b] for b in agreement.bots}) == 1:
        return "chatmatch's ranking ties every judged bot, so there is no order to compare"
    if len({strengths[b] for b in agreement.bots}) == 1:
        return "the annotators' judgements tie every bot, so there is no order to compare"
    return None


def _against(label: str, system: Mapping[str, float] | None, lower_better: bool,
             strengths: Mapping[str, float], boots: tuple[list[str], np.ndarray] | None,
             ci: float) -> tuple[Agreement | None, tuple[float, float] | None]:
    if system is None or len([b for b in strengths if b in system]) < 2:
        return None, None
    agreement = compare(system, strengths, label, system_lower_better=lower_better,
                        human_lower_better=False)
    if boots is None:
        return agreement, None
    order, values = boots
    sys_side = np.array([-system[b] if lower_better else system[b] for b in agreement.bots])
    taus = tau_b_rows(values[:, [order.index(b) for b in agreement.bots]], sys_side)
    taus = taus[~np.isnan(taus)]
    return agreement, (_interval(list(taus), ci, agreement.tau.value) if len(taus) else None)


def summarize(judgements: Sequence[Judgement], bots: Sequence[str], method: str,
              system_ranks: Mapping[str, float], dimension_wins: Mapping[str, Mapping[str, float]],
              source: str, reps: int = 200, seed: int = 0, ci: float = 0.95) -> AnnotationSummary:
    """Every question's human ranking and agreement; ``system_ranks``: chatmatch's rank per
    bot (1 = best); ``dimension_wins``: games each bot won per dimension."""
    known = [j for j in judgements if j.bot_a in bots and j.bot_b in bots]
    if not known:
        raise ChatmatchError(f"{source}: no judgement of this run's bots yet; judge a few games "
                             "on the page of `chatmatch annotate` first")
    questions: dict[str, list[Judgement]] = {"overall": []}
    for j in known:
        questions.setdefault(j.question, []).append(j)
    results = []
    for q, js in questions.items():
        system, lower = ((system_ranks, True) if q == "overall" else
                         (dimension_wins.get(q), False))
        results.append(question_result(q, js, system, lower, reps, seed, ci))
    pairs = {tuple(sorted((j.bot_a, j.bot_b))) for j in known}
    n = len(bots)
    gone = Counter(b for j in judgements for b in (j.bot_a, j.bot_b) if b not in bots)
    return AnnotationSummary(source, method, len({(j.annotator, j.item) for j in known}),
                             len(known),
                             tuple(sorted({j.annotator for j in known})),
                             len({j.item for j in known}), len(pairs), n * (n - 1) // 2,
                             tuple(results), reps, seed, ci, dict(sorted(gone.items())))

"""The judgements of ``RUN/annotations.sqlite`` against the run's ranking, as the tables of
``chatmatch compare --annotations`` and the report's section, and the judgements exported
as CSV or JSON Lines."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Sequence

from chatmatch.analysis.agreement import dimension_wins
from chatmatch.stats.correlation import few_bots_note
from chatmatch.analysis.report import _e, _table
from chatmatch.annotate.agreement import AnnotationSummary, QuestionResult, summarize
from chatmatch.annotate.store import FIELDS, AnnotationStore, Judgement
from chatmatch.common.tables import line_up_ranks, render_table
from chatmatch.ranking.base import rank_labels
from chatmatch.common.display import csv_text
from chatmatch.errors import ChatmatchError
from chatmatch.rundir.store import atomic_write
from chatmatch.run.storedrun import Run


def load_summary(run: Run, *, method: str | None = None, reps: int = 200,
                 seed: int = 0) -> AnnotationSummary:
    """The run's judgements summarized against its ranking (``method``: another one)."""
    store = AnnotationStore.open(run.store.path, create=False)
    ranking = run.rank(method=method)
    wins = dimension_wins(list(run.results), list(run.bots))
    return summarize(store.judgements(), run.bots, ranking.method,
                     {b: float(r) for b, r in ranking.rank_of().items()}, wins, str(store.path),
                     reps, seed)


def has_annotations(run: Run) -> bool:
    """Whether the run has an annotations file with at least one judgement."""
    path = run.store.path / "annotations.sqlite"
    if not path.exists() and not path.is_symlink():  # a pipe or a device: opened, and refused
        return False
    return bool(AnnotationStore.open(run.store.path, create=False).judgements())


def _f(v: float, signed: bool = True) -> str:
    return "n/a" if math.isnan(v) else (f"{v:+.2f}" if signed else f"{v:.2f}")


def _interval(iv: tuple[float, float] | None) -> str:
    """A tau interval, with the digits of its point (:meth:`Correlation.fmt`)."""
    return "n/a" if iv is None else f"[{iv[0]:+.3f}, {iv[1]:+.3f}]"


def headline(s: AnnotationSummary) -> str:
    return (f"{s.judgements} judgement(s) of {s.items} item(s) by {len(s.annotators)} "
            f"annotator(s) ({', '.join(s.annotators)}), {s.answers} answers; "
            f"{s.pairs_judged} of {s.pairs_total} bot pairs judged")


def ranking_rows(q: QuestionResult) -> list[list[object]]:
    """The human ranking's rows; a shared rank marked ``2=`` as in every ranking table."""
    labels = rank_labels([r.rank for r in q.rows])
    return [[label, r.bot, r.judged, f"{r.won:g}", r.tied, f"{r.lost:g}", f"{r.win_rate:.2f}",
             _f(r.strength), f"[{_f(r.low)}, {_f(r.high)}]", f"[{r.rank_low}, {r.rank_high}]"]
            for label, r in zip(labels, q.rows)]


RANK_HEADS = ["rank", "bot", "judged", "won", "can't tell", "lost", "win rate", "strength",
              "95% interval", "rank interval"]
AGREE_HEADS = ["question", "bots", "judgements", "Kendall tau-b", "95% interval", "p",
               "Spearman rho", "alpha", "overlap", "agree"]


def agreement_rows(s: AnnotationSummary) -> list[list[object]]:
    rows: list[list[object]] = []
    for q in s.questions:
        a = q.agreement
        rows.append([q.question, len(a.bots) if a else len(q.rows), q.judgements,
                     a.tau.fmt() if a else "n/a", _interval(q.tau_interval),
                     a.tau.fmt_p() if a else "n/a", a.rho.fmt() if a else "n/a",
                     _f(q.alpha), q.overlap_items,
                     "n/a" if math.isnan(q.pair_agreement) else f"{100 * q.pair_agreement:.0f}%"])
    return rows


def summary_text(s: AnnotationSummary) -> str:
    """What ``compare --annotations`` prints."""
    overall = s.questions[0]
    out = [f"Human judgements: {headline(s)} ({s.source})", "",
           "Human ranking (overall; Bradley-Terry over judgements, can't tell = half a win each)",
           render_table(RANK_HEADS, line_up_ranks(ranking_rows(overall)), text=(1,)), "",
           f"Agreement: {s.method} vs the annotators",
           render_table(AGREE_HEADS, agreement_rows(s)),
           f"tau: chatmatch's ranking (overall: {s.method}; a dimension: games won on it) vs the "
           f"human Bradley-Terry strengths; interval: {100 * s.ci:g}% cluster bootstrap over "
           f"items ({s.bootstrap} resamples, seed {s.seed}); alpha: Krippendorff's alpha "
           "between annotators (ordinal) on the items judged by two or more (overlap); agree: "
           "share of annotator pairs giving the same answer"]
    if s.left_out:
        out += ["", "note: left out the judgements of bots this run no longer ranks (retired): "
                + ", ".join(f"{b} ({n})" for b, n in s.left_out.items())
                + "; bring a bot back in the YAML, or keep retired bots ranked with "
                  "schedule.retired: keep, to count them"]
    note = few_bots_note(len(overall.rows))
    if note:
        out.append(f"warning: {note}")
    out += [f"note: tau of {q.question} is n/a: {q.tau_why}" for q in s.questions if q.tau_why]
    alpha_note = _alpha_note(overall)
    if alpha_note:
        out.append(f"note: {alpha_note}")
    return "\n".join(out)


def _alpha_note(q: QuestionResult) -> str | None:
    """Why the overall alpha is n/a, in terms of the table's own overlap column."""
    if not math.isnan(q.alpha):
        return None
    if q.overlap_items == 0:
        return ("no item was judged by two people yet, so annotator agreement is n/a (the page "
                "gives each item to --overlap people, default 2)")
    return (f"alpha is n/a although {q.overlap_items} item(s) were judged by two or more "
            "people: their answers do not vary (all the same value), and Krippendorff's alpha "
            "is undefined without variation; the agree column shows how often they agree")


def summary_html(s: AnnotationSummary) -> str:
    """The report's section (its tables escape every value)."""
    overall = s.questions[0]
    few = few_bots_note(len(overall.rows))
    return (f"<p>{_e(headline(s))}; from {_e(s.source)}.</p>"
            "<h3>Human ranking (overall)</h3>"
            f"{_table(RANK_HEADS, ranking_rows(overall), name_cols=2)}"
            f"<h3>Agreement: {_e(s.method)} vs the annotators</h3>"
            f"{_table(AGREE_HEADS, agreement_rows(s))}"
            f"<p class='meta'>Kendall tau-b of chatmatch's ranking against the human "
            f"Bradley-Terry strengths, {100 * s.ci:g}% cluster-bootstrap interval over items "
            f"({s.bootstrap} resamples); alpha: Krippendorff's alpha (ordinal) between "
            "annotators on the items judged by two or more.</p>"
            + "".join(f"<p class='note'>Tau of {_e(q.question)} is n/a: {_e(q.tau_why)}.</p>"
                      for q in s.questions if q.tau_why)
            + (f"<p class='note'>Warning: {_e(few)}.</p>" if few else ""))


def export(judgements: Sequence[Judgement], path: Path, source: Path) -> int:
    """Write the judgements to ``path`` (``.csv`` or ``.jsonl``); returns how many."""
    if path.resolve() == source.resolve():
        raise ChatmatchError(f"--export {path}: that is the annotations file itself; give "
                             "another file, e.g. judgements.csv")
    if path.suffix == ".csv":
        text = csv_text(FIELDS, [[getattr(j, k) for k in FIELDS] for j in judgements])
    elif path.suffix == ".jsonl":
        text = "".join(json.dumps(j.to_json(), ensure_ascii=False) + "\n" for j in judgements)
    else:
        raise ChatmatchError(f"--export {path}: give a file ending in .csv or .jsonl")
    atomic_write(path, text)
    return len(judgements)

"""``chatmatch compare``: agreement between a run's ranking and a human ranking."""

from __future__ import annotations

import json
from pathlib import Path

import click

from chatmatch.analysis.agreement import compare, compare_run, ranks_text
from chatmatch.stats.correlation import few_bots_note
from chatmatch.analysis.human import load_human
from chatmatch.annotate.report import export, load_summary, summary_text
from chatmatch.annotate.store import AnnotationStore
from chatmatch.common.tables import render_table
from chatmatch.errors import ChatmatchError
from chatmatch.records import nan_to_none
from chatmatch.run.seedtables import category_rankings
from chatmatch.cli.readrun import load_run
from chatmatch.run.storedrun import Run
from chatmatch.cli.warn import warn


@click.command("compare")
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.option("--human", "human_file", type=click.Path(path_type=Path),
              help="Human ranking, YAML or CSV (see docs/analysis.md).")
@click.option("--annotations", is_flag=True,
              help="Use the judgements made with `chatmatch annotate` (RUN_DIR/annotations.sqlite).")
@click.option("--method", "-m", help="Ranking method to compare (default: the run's).")
@click.option("--bootstrap", "samples", default=200, show_default=True,
              type=click.IntRange(0, 100_000),
              help="With --annotations: resamples of the judged items for the intervals.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of that bootstrap.")
@click.option("--export", "export_file", type=click.Path(dir_okay=False, path_type=Path),
              help="With --annotations: also write every judgement to this .csv or .jsonl file.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def command(run_dir: Path, human_file: Path | None, annotations: bool, method: str | None,
            samples: int, seed: int, export_file: Path | None, as_json: bool) -> None:
    """Kendall tau-b and Spearman rho (with p-values) between the ranking of RUN_DIR and
    the human ranking in --human, overall and for every dimension the human file scores
    (and, for a run whose seeds have categories, the ranking of each seed category: the
    paper's seed-type comparison).

    With --annotations instead, the humans are the judgements people made on the page of
    `chatmatch annotate RUN_DIR`: their Bradley-Terry ranking (with intervals), tau
    against chatmatch per question with a bootstrap interval, and how much the annotators
    agree with each other (Krippendorff's alpha).

    +1 means the same order, -1 the reverse; tau-b and rho both handle ties. Tied ranks
    are shown as =2. p-values are exact for few bots (exact Kendall distribution without
    ties; an exact permutation test with ties, and for rho, up to 8 bots); fewer than 4
    bots give a warning: no p-value can be small then.

    \b
    Examples:
      chatmatch compare runs/demo --human humans.yaml
      chatmatch compare runs/demo --human humans.csv --method points --json
      chatmatch compare runs/demo --annotations --export judgements.csv
    """
    if (human_file is None) == (not annotations):
        raise ChatmatchError("give --human FILE (a ranking you wrote) or --annotations (the "
                             "judgements of `chatmatch annotate`), one of the two")
    if export_file is not None and not annotations:
        raise ChatmatchError("--export writes the judgements of --annotations; add --annotations")
    data = load_run(run_dir)
    if human_file is None:
        _annotations(data, method, samples, seed, export_file, as_json)
        return
    human = load_human(human_file, data.bots)
    ranking = data.rank(method=method)
    rows = compare_run(ranking, list(data.results), human)
    rows += [compare({r.bot: float(r.rank) for r in per.rows}, human.ranks, f"seed: {cat}")
             for cat, per in category_rankings(data, method=method).items()]
    note = few_bots_note(len(rows[0].bots))
    if note:
        warn(note)
    if as_json:
        click.echo(json.dumps({"method": ranking.method, "human": str(human_file),
                               "agreement": [a.to_json() for a in rows]}, indent=2))
        return
    ranks = ranks_text({b: float(r) for b, r in ranking.rank_of().items()})
    humans = ranks_text(human.ranks)
    side = [[b, ranks[b], humans.get(b, "-")] for b in ranking.order()]
    click.echo(f"Ranks: {ranking.method} vs humans ({human.judges} judge(s), {human_file})")
    click.echo(render_table(["bot", ranking.method, "humans"], side, left=1) + "\n")
    click.echo(render_table(["ranking", "bots", "Kendall tau-b", "p", "Spearman rho", "p"],
                            [[a.label, len(a.bots), a.tau.fmt(), a.tau.fmt_p(), a.rho.fmt(),
                              a.rho.fmt_p()] for a in rows], left=1))
    methods = sorted({c.p_method for a in rows for c in (a.tau, a.rho) if c.p_method})
    if methods:
        click.echo(f"p: two-sided, {', '.join(methods)}" + (
            "; =N marks a tied rank" if any(v.startswith("=") for v in [*ranks.values(),
                                                                       *humans.values()]) else ""))
    for a in rows:
        if a.undefined:
            click.echo(f"note: {a.label}: n/a because {a.undefined} (a correlation needs an "
                       "order on both sides)")
    if any(b not in human.ranks for b in data.bots):
        missing = [b for b in data.bots if b not in human.ranks]
        click.echo(f"note: the human file does not rank {', '.join(missing)}; "
                   "compared on the shared bots only")


def _annotations(data: Run, method: str | None, samples: int, seed: int,
                 export_file: Path | None, as_json: bool) -> None:
    summary = load_summary(data, method=method, reps=samples, seed=seed)
    if export_file is not None:
        store = AnnotationStore.open(data.store.path, create=False)
        n = export(store.judgements(), export_file, store.path)
        click.echo(f"wrote {n} judgement(s) to {export_file}", err=True)
    if as_json:
        click.echo(json.dumps(nan_to_none(summary.to_json()), indent=2))
    else:
        click.echo(summary_text(summary))

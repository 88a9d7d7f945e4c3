"""``chatmatch analyze``: the paper's analyses from a stored run, without replaying games."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

import click

from chatmatch.analysis.ablation import ablation_table
from chatmatch.analysis.agreement import Variant, order_text
from chatmatch.stats.correlation import MIN_BOTS, few_bots_note
from chatmatch.analysis.bootstrap import bootstrap
from chatmatch.analysis.human import HumanRanking, load_human
from chatmatch.analysis.methods import method_table
from chatmatch.analysis.subsets import subset_table
from chatmatch.annotate.report import load_summary
from chatmatch.common.tables import render_table
from chatmatch.errors import ChatmatchError
from chatmatch.progress import Reporter
from chatmatch.cli.readrun import load_run
from chatmatch.run.storedrun import Run
from chatmatch.cli.warn import warn

SECTIONS = ("subsets", "ablation", "methods", "bootstrap")


def _tau(v: float) -> str:
    return "n/a" if math.isnan(v) else f"{v:+.2f}"


def _variants(title: str, rows: Sequence[Variant], with_tau: bool) -> str:
    heads = ["setting", "order (best first)", *(["tau"] if with_tau else [])]
    body = [[v.label, v.order_text(), *([_tau(v.tau)] if with_tau else [])] for v in rows]
    return f"{title}\n{render_table(heads, body, left=2)}\n"


#: bots per subset when --subset-size is not given (the paper's 4 of 7)
DEFAULT_SUBSET_SIZE = 4


@click.command("analyze")
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.option("--human", "human_file", type=click.Path(path_type=Path),
              help="Human ranking (YAML or CSV); needed for the subset table and every tau.")
@click.option("--annotations", is_flag=True,
              help="Use as human ranking the judgements of `chatmatch annotate` instead.")
@click.option("--subset-size", "-k", default=None, type=int,
              help="Bots per subset (paper: 4 of 7)  [default: 4, or all the bots when fewer]")
@click.option("--bootstrap", "samples", default=1000, show_default=True,
              type=click.IntRange(0, 1_000_000), help="Bootstrap resamples of the games (0: skip).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the bootstrap.")
@click.option("--method", "-m", help="Ranking method (default: the run's).")
@click.option("--only", type=click.Choice(SECTIONS), multiple=True,
              help="Print only these analyses (repeatable).")
@click.option("--quiet", "-q", is_flag=True, help="No progress (subsets, bootstrap).")
def command(run_dir: Path, human_file: Path | None, annotations: bool, subset_size: int | None,
            samples: int, seed: int, method: str | None, only: tuple[str, ...], quiet: bool) -> None:
    """The paper's analyses of RUN_DIR from its stored results (no game is replayed):

    \b
    subsets    every k-bot subset ranked from only its games, tau vs humans
               (paper Table 6), with the mean tau and how many are above 0.6
    ablation   tau with each dimension's weight set to 0 in turn (Table 8)
    methods    TrueSkill vs points 3/1/0 vs 2/1/0 (section 4.4.5)
    bootstrap  games resampled with replacement: how often each bot keeps its
               rank, and a 95% interval of its rank

    \b
    Examples:
      chatmatch analyze runs/demo --human humans.yaml
      chatmatch analyze runs/demo --human humans.csv -k 3 --bootstrap 200 --seed 7
      chatmatch analyze runs/demo --only bootstrap
      chatmatch analyze runs/demo --annotations
    """
    rep = Reporter(quiet=quiet)
    if human_file and annotations:
        raise ChatmatchError("give --human FILE or --annotations, not both")
    data = load_run(run_dir)
    human = load_human(human_file, data.bots) if human_file else None
    if annotations:  # the human ranking only: its intervals are compare --annotations' job
        human = load_summary(data, method=method, reps=0).human_ranking()
    if subset_size is None:  # not given: the paper's 4, or every bot of a smaller run
        both = len([b for b in data.bots if human is not None and b in human.ranks])
        subset_size = max(2, min(DEFAULT_SUBSET_SIZE, both))
    _warn_few_bots(data, human, subset_size, only)
    todo = set(only or SECTIONS)
    if "subsets" in todo:
        click.echo(_subsets(data, human, subset_size, method, rep))
    if "ablation" in todo:
        click.echo(_variants('"Minus x" ablation (one dimension weight set to 0)',
                             ablation_table(data, human, method), human is not None))
    if "methods" in todo:
        click.echo(_variants("Ranking methods", method_table(data, human), human is not None))
    if "bootstrap" in todo and samples:
        click.echo(_bootstrap(data, human, samples, seed, method, rep))


def _warn_few_bots(data: Run, human: HumanRanking | None, k: int,
                   only: tuple[str, ...]) -> None:
    if human is None:
        return
    note = few_bots_note(len([b for b in data.bots if b in human.ranks]))
    if note:
        warn(note)
    elif k < MIN_BOTS and (not only or "subsets" in only):
        warn(f"subsets of {k} bots: {few_bots_note(k)}")
    click.echo(f"Human ranking: {order_text(human.ranks, show_ranks=True)}\n")


def _subsets(data: Run, human: HumanRanking | None, k: int, method: str | None,
             rep: Reporter) -> str:
    if human is None:
        return "Subsets: skipped (give --human FILE to measure each subset against humans)\n"
    t = subset_table(data, human, k, method, reporter=rep)
    body = [[v.label, v.order_text(), _tau(v.tau)] for v in t.rows]
    return (f"All {len(t.rows)} subsets of {k} bots (tau vs humans)\n"
            f"{render_table(['bots', 'order (best first)', 'tau'], body, left=2)}\n"
            f"mean tau {_tau(t.mean_tau)}; {t.above} of {len(t.rows)} above {t.threshold:g}\n")


def _bootstrap(data: Run, human: HumanRanking | None, samples: int,
               seed: int, method: str | None, rep: Reporter) -> str:
    b = bootstrap(data, samples, seed, method, human, reporter=rep)
    body = [[r.rank, r.bot, f"{100 * r.keep_share:.0f}%", f"[{r.low}, {r.high}]",
             f"{r.mean_rank:.2f}"] for r in b.rows]
    out = (f"Bootstrap over games ({b.samples} resamples, seed {b.seed}, {b.method})\n"
           + render_table(["rank", "bot", "keeps rank", "95% interval", "mean rank"], body,
                          text=(1,)) + "\n")
    if b.tau is not None:
        out += f"tau vs humans: mean {b.tau[0]:+.2f}, 95% interval [{b.tau[1]:+.2f}, {b.tau[2]:+.2f}]\n"
    return out

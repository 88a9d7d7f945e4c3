"""``chatmatch meta-eval``: how the scorers agree with human ratings on public data sets."""

from __future__ import annotations

import json
import math
from pathlib import Path

import click

from chatmatch.stats.correlation import Correlation
from chatmatch.analysis.fed import load_fed, meta_evaluate, rows_to_json
from chatmatch.analysis.scorers import scorer_function
from chatmatch.common.tables import render_table
from chatmatch.progress import Reporter

FAST = "proactivity,specificity,diversity,consistency,knowledge,relevance"


@click.group("meta-eval")
def command() -> None:
    """Meta-evaluate chatmatch's scorers against human ratings.

    \b
    Examples:
      chatmatch meta-eval fed data/fed/fed_data.json
      chatmatch meta-eval fed fed_data.json --dimensions proactivity,diversity --limit 40
    """


def _r(c: Correlation) -> str:
    if math.isnan(c.value):
        return "n/a"
    star = "*" if c.p_value < 0.05 else " "
    return f"{c.value:+.3f}{star}"


@command.command("fed")
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--dimensions", "-d", default=FAST, show_default=True,
              help="Comma-separated dimensions to score ('all' for all seven; fluency loads "
                   "a language model and is slow).")
@click.option("--limit", type=click.IntRange(1, None), help="Only the first N dialogues.")
@click.option("--json", "as_json", is_flag=True, help="Print the rows as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress (loading, scoring).")
def fed(path: Path, dimensions: str, limit: int | None, as_json: bool, quiet: bool) -> None:
    """Correlate every scorer with the FED dialogue-level human ratings (Mehri & Eskenazi
    2020) at PATH, a copy of fed_data.json. Only the system's turns are scored; each
    dimension is compared with its FED quality (consistency: Consistent, diversity:
    Diverse, proactivity: Inquisitive, knowledge: Informative, relevance: Coherent and
    Understanding) and with Overall. A * marks p < 0.05.

    \b
    Examples:
      chatmatch meta-eval fed $CHATMATCH_DATA/fed/fed_data.json
      chatmatch meta-eval fed fed_data.json -d all --limit 50 --json
    """
    dialogues = load_fed(path, limit)
    rows = meta_evaluate(dialogues, scorer_function(dimensions, Reporter(quiet=quiet)))
    if as_json:
        click.echo(json.dumps(rows_to_json(rows), indent=2))
        return
    click.echo(f"FED dialogue level: {len(dialogues)} dialogues, system turns scored "
               "(+ = agrees with humans, * p < 0.05; values: distinct scores, n/a when "
               "a scorer gives every dialogue the same)")
    click.echo(render_table(["dimension", "FED quality", "n", "values", "Spearman", "Pearson",
                             "Kendall"],
                            [[r.dimension, r.quality, r.n, r.distinct, _r(r.spearman),
                              _r(r.pearson), _r(r.kendall)] for r in rows], left=2))

"""``chatmatch rank``: re-rank a stored run without playing or scoring anything."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from chatmatch.cli.table import ranking_table
from chatmatch.common.tables import render_table
from chatmatch.ranking import RANKERS
from chatmatch.run.rerank import rerank, run_seed_spread
from chatmatch.run.storedrun import Run
from chatmatch.run.seedtables import (category_json, category_text, rank_by_category,
                                      unscheduled_categories)
from chatmatch.cli.warn import warn

if TYPE_CHECKING:
    from chatmatch.ranking.trueskill_rank import SeedSpread


@click.command("rank")
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.option("--method", "-m", help="Ranking method (default: the run's). See `chatmatch rank --list`.")
@click.option("--shuffles", type=click.IntRange(1, 10_000), help="TrueSkill game-order shuffles.")
@click.option("--seed", type=int, help="Seed for the shuffles (default: the run's seed).")
@click.option("--seeds", type=click.IntRange(2, 10_000), help="Also rank by TrueSkill under "
              "seeds 0..N-1 and show how much each bot's final rank depends on the seed.")
@click.option("--points", "wtl", metavar="W/T/L", help="Points per match win/tie/loss, e.g. 2/1/0.")
@click.option("--ties", "tie_rule", type=click.Choice(["record", "shuffles", "none"]),
              help="Which bots are shown as tied (default: the run's ranking.ties.rule).")
@click.option("--tie-break", type=click.Choice(["none", "game_points"]),
              help="Tied bots share the rank (none) or are ordered by game points.")
@click.option("--json", "as_json", is_flag=True, help="Print the ranking as JSON.")
@click.option("--save", is_flag=True, help="Also write it to RUN_DIR/rankings/.")
@click.option("--list", "list_methods", is_flag=True, help="List the ranking methods and exit.")
def command(run_dir: Path, method: str | None, shuffles: int | None, seed: int | None,
            seeds: int | None, wtl: str | None, tie_rule: str | None, tie_break: str | None,
            as_json: bool, save: bool, list_methods: bool) -> None:
    """Rank the bots of RUN_DIR from its stored game results.

    \b
    Examples:
      chatmatch rank runs/demo
      chatmatch rank runs/demo --method points --points 2/1/0
      chatmatch rank runs/demo --method trueskill --shuffles 20 --json
      chatmatch rank runs/demo --shuffles 3 --seeds 20   # does the order depend on the seed?
      chatmatch rank runs/demo --ties none               # no tie markers (the old table)

    A run whose seed_utterance is a seed set with categories also gets the rank of every
    bot in each category (ranked on that category's games only) beside the overall one.
    """
    if list_methods:
        for name in RANKERS:
            click.echo(f"{name:12s} {RANKERS.meta(name).get('description', '')}")
        return
    ties = {k: v for k, v in (("rule", tie_rule), ("break_by", tie_break)) if v}
    run = Run.load(run_dir)
    ranking, warnings = rerank(run, method=method, shuffles=shuffles, seed=seed,
                               points=wtl, save=save, ties=ties or None)
    for w in warnings:
        warn(w)
    spread = None
    if seeds:
        spread = run_seed_spread(run_dir, seeds, shuffles)
    per = rank_by_category(run_dir, method=method, shuffles=shuffles, seed=seed, points=wtl,
                           ties=ties or None)
    idle = unscheduled_categories(run_dir) if per else []
    if as_json:
        doc = ranking.to_json()
        if spread is not None:
            doc["seed_spread"] = spread.to_json()
        if per:
            doc["seed_categories"] = category_json(per)
            doc["seed_categories_without_a_match"] = idle
        click.echo(json.dumps(doc, indent=2))
        return
    click.echo(ranking_table(ranking, refusing=run.store.refusing))
    if per:
        title, heads, rows = category_text(ranking, per)
        click.echo(f"\n{title}\n{render_table(heads, rows, left=1)}")
        if idle:
            click.echo(f"note: seed categor{'y' if len(idle) == 1 else 'ies'} "
                       f"{', '.join(idle)} open{'s' if len(idle) == 1 else ''} no match (each "
                       "match opens with one category, and this league has fewer matches "
                       "than categories)")
    if spread is not None:
        click.echo("")
        click.echo(seed_spread_table(spread))


def seed_spread_table(spread: SeedSpread) -> str:
    """Each bot's final TrueSkill rank over the seeds (modal order first)."""
    from collections import Counter

    n = len(spread.seeds)
    rows = []
    for bot in spread.modal_order:
        r = spread.ranks[bot]
        rank, count = Counter(r).most_common(1)[0]
        rows.append([bot, rank, min(r), max(r), f"{100 * count / n:.0f}%"])
    head = (f"Final TrueSkill rank over {n} seeds: {spread.distinct} distinct order(s); "
            f"the most common in {100 * spread.modal_share:.0f}% of seeds")
    return head + "\n" + render_table(["bot", "usual rank", "best", "worst", "at usual"], rows, left=1)

"""``chatmatch rank``: re-rank a stored run without playing or scoring anything."""

from __future__ import annotations

import json
from pathlib import Path

import click

from chatmatch.cli.table import ranking_table


@click.command("rank")
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.option("--method", "-m", help="Ranking method (default: the run's). See `chatmatch rank --list`.")
@click.option("--shuffles", type=click.IntRange(1, 10_000), help="TrueSkill game-order shuffles.")
@click.option("--seed", type=int, help="Seed for the shuffles (default: the run's seed).")
@click.option("--points", "wtl", metavar="W/T/L", help="Points per match win/tie/loss, e.g. 2/1/0.")
@click.option("--json", "as_json", is_flag=True, help="Print the ranking as JSON.")
@click.option("--save", is_flag=True, help="Also write it to RUN_DIR/rankings/.")
@click.option("--list", "list_methods", is_flag=True, help="List the ranking methods and exit.")
def command(run_dir: Path, method: str | None, shuffles: int | None, seed: int | None,
            wtl: str | None, as_json: bool, save: bool, list_methods: bool) -> None:
    """Rank the bots of RUN_DIR from its stored game results.

    \b
    Examples:
      chatmatch rank runs/demo
      chatmatch rank runs/demo --method points --points 2/1/0
      chatmatch rank runs/demo --method trueskill --shuffles 20 --json
    """
    from chatmatch.ranking import RANKERS
    from chatmatch.rerank import rerank

    if list_methods:
        for name in RANKERS:
            click.echo(f"{name:12s} {RANKERS.meta(name).get('description', '')}")
        return
    ranking, warnings = rerank(run_dir, method=method, shuffles=shuffles, seed=seed,
                               points=wtl, save=save)
    for w in warnings:
        click.echo(f"warning: {w}", err=True)
    if as_json:
        click.echo(json.dumps(ranking.to_json(), indent=2))
    else:
        click.echo(ranking_table(ranking))

"""``chatmatch run``: play, score and rank a tournament."""

from __future__ import annotations

from pathlib import Path

import click

from chatmatch.cli.table import ranking_table


@click.command("run")
@click.argument("config_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Run directory (default: output_dir from the YAML, else runs/NAME).")
@click.option("--quiet", "-q", is_flag=True, help="No progress (loading, playing, scoring).")
def command(config_file: Path, out_dir: Path | None, quiet: bool) -> None:
    """Play, score and rank the tournament defined in CONFIG_FILE.

    Every finished game is saved in the run directory at once; run the same command
    again after an interruption and only the missing games are played.

    \b
    Examples:
      chatmatch run tournaments/demo.yaml
      chatmatch run tournaments/paper.yaml --out runs/paper-try2
    """
    from chatmatch.config import load_config
    from chatmatch.progress import Reporter
    from chatmatch.runner import run_tournament
    from chatmatch.schedule import double_round_robin

    cfg = load_config(config_file)
    n = len(cfg.bots)
    games = len(double_round_robin(cfg.bot_names, cfg.seed_utterances, cfg.seed))
    target = out_dir or cfg.default_output_dir()
    click.echo(f"Tournament '{cfg.name}': {n} bots, {n * (n - 1) // 2} matches, {games} games "
               f"of {cfg.exchanges} exchanges; scoring: {', '.join(cfg.scoring.dimensions)}; "
               f"run directory: {target}", err=True)
    summary = run_tournament(cfg, target, config_file=str(config_file),
                             progress=Reporter(quiet=quiet))
    for w in summary.warnings:
        click.echo(f"warning: {w}", err=True)
    click.echo(ranking_table(summary.ranking))
    other = [r for m, r in summary.rankings.items() if m != summary.ranking.method]
    for r in other:
        click.echo("")
        click.echo(ranking_table(r))
    click.echo(f"\n{summary.games_played} game(s) played and {summary.games_scored} scored now, "
               f"in {summary.seconds:.1f} s. Results: {summary.run_dir}", err=True)

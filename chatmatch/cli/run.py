"""``chatmatch run``: play, score and rank a tournament."""

from __future__ import annotations

from pathlib import Path

import click

from chatmatch.cli.progress import ProgressLine
from chatmatch.cli.table import ranking_table


@click.command("run")
@click.argument("config_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Run directory (default: output_dir from the YAML, else runs/NAME).")
@click.option("--quiet", "-q", is_flag=True, help="No progress line.")
@click.option("--replay-forfeits", is_flag=True,
              help="Play the games forfeited in earlier runs again (once the cause is fixed); "
                   "the other games are kept.")
@click.option("--allow-forfeits", is_flag=True,
              help="Exit 0 even when a bot forfeited more than failures.max_forfeit_share of "
                   "its games.")
def command(config_file: Path, out_dir: Path | None, quiet: bool, replay_forfeits: bool,
            allow_forfeits: bool) -> None:
    """Play, score and rank the tournament defined in CONFIG_FILE.

    Every finished game is saved in the run directory at once; run the same command
    again after an interruption and only the missing games are played.

    A run ends with a summary of forfeited games (bot, games, reason). When a bot
    forfeited more than failures.max_forfeit_share of its games (default 0: any), it is
    marked (!) in the leaderboard and the exit status is 3 unless --allow-forfeits.

    \b
    Examples:
      chatmatch run tournaments/demo.yaml
      chatmatch run tournaments/paper.yaml --out runs/paper-try2
      chatmatch run tournaments/remote.yaml --replay-forfeits   # the server is back
    """
    from chatmatch import forfeits
    from chatmatch.config import load_config
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
                             progress=None if quiet else ProgressLine(),
                             replay_forfeits=replay_forfeits)
    for w in summary.warnings:
        click.echo(f"warning: {w}", err=True)
    limit = cfg.failures.max_forfeit_share
    flagged = summary.over_limit(limit)
    marks = {b: forfeits.MARK for b in flagged}
    click.echo(ranking_table(summary.ranking, marks))
    other = [r for m, r in summary.rankings.items() if m != summary.ranking.method]
    for r in other:
        click.echo("")
        click.echo(ranking_table(r, marks))
    if flagged:
        click.echo(f"{forfeits.MARK} forfeited more than {limit:.0%} of its games: its rank "
                   "reflects failures (see the forfeit summary)")
    if replay_forfeits:
        click.echo(f"\n{len(summary.replayed)} forfeited game(s) played again.", err=True)
    if summary.forfeits:
        click.echo("\n" + forfeits.render(summary.forfeits, limit), err=True)
    click.echo(f"\n{summary.games_played} game(s) played and {summary.games_scored} scored now, "
               f"in {summary.seconds:.1f} s. Results: {summary.run_dir}", err=True)
    if flagged and not allow_forfeits:
        raise forfeits.error(flagged, limit, str(config_file))

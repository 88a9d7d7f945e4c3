"""``chatmatch run``: play, score and rank a tournament."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from chatmatch.cli.table import ranking_table
from chatmatch.play import forfeits
from chatmatch.play.build import load_tournament
from chatmatch.play.schedule import ScheduledGame
from chatmatch.progress import Reporter
from chatmatch.run.estimate import estimate_line, games_left
from chatmatch.run.plan import RunPlan, make_plan
from chatmatch.run.tournament import RunSummary, run_tournament
from chatmatch.scoring.fluency import bots_on_the_fluency_lm
from chatmatch.cli.warn import warn
from chatmatch.common.display import shown

#: above this many games to play, a run started from a terminal asks first (see --yes)
CONFIRM_ABOVE_GAMES = 1000


def stdin_is_terminal() -> bool:
    return sys.stdin is not None and sys.stdin.isatty()


@click.command("run")
@click.argument("config_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Run directory (default: output_dir from the YAML, else runs/NAME).")
@click.option("--quiet", "-q", is_flag=True, help="No progress (loading, playing, scoring).")
@click.option("--yes", "-y", "yes", is_flag=True,
              help=f"Start without asking, even above {CONFIRM_ABOVE_GAMES} games to play.")
@click.option("--allow-failures-change", is_flag=True,
              help="Resume although the 'failures' block differs from the stored run's "
                   "(the new settings apply to the games still to play).")
@click.option("--replay-forfeits", is_flag=True,
              help="Play the games forfeited in earlier runs again (once the cause is fixed); "
                   "the other games are kept.")
@click.option("--allow-forfeits", is_flag=True,
              help="Exit 0 even when a bot forfeited more than failures.max_forfeit_share of "
                   "its games.")
@click.option("--debug", is_flag=True,
              help="Print the traceback of each exception a bot raises (always kept in "
                   "RUN/bot_errors.jsonl).")
def command(config_file: Path, out_dir: Path | None, quiet: bool, yes: bool,
            allow_failures_change: bool, replay_forfeits: bool, allow_forfeits: bool,
            debug: bool) -> None:
    """Play, score and rank the tournament defined in CONFIG_FILE.

    Every finished game is saved in the run directory at once; run the same command
    again after an interruption and only the missing games are played.

    A run ends with a summary of forfeited games (bot, games, reason). When a bot
    forfeited more than failures.max_forfeit_share of its games (default 0: any), it is
    marked (!) in the leaderboard and the exit status is 3 unless --allow-forfeits.

    An exception a bot raises is printed as one line (the bot, game, turn, error, and the
    file and line it was raised at) and kept with its traceback in RUN/bot_errors.jsonl;
    --debug prints the traceback too. Only a failure that can pass (a timeout, a
    connection error) is retried on the same history; see docs/bots.md.

    \b
    Examples:
      chatmatch run tournaments/demo.yaml
      chatmatch run tournaments/paper.yaml --out runs/paper-try2
      chatmatch run tournaments/demo.yaml --replay-forfeits   # the cause is fixed
    """
    cfg, built = load_tournament(config_file)  # each bot built once, for the whole run
    # refuses a folder that is not a run before asking anything; the run uses the same plan
    plan = make_plan(cfg, out_dir, str(config_file))
    todo = _announce(plan, replay_forfeits)
    if len(todo) > CONFIRM_ABOVE_GAMES and not yes and stdin_is_terminal():
        if not click.confirm(f"Start {len(todo):,} games? (--yes skips this question)", default=False,
                             err=True):
            raise click.exceptions.Exit(1)
    summary = run_tournament(cfg, plan.path, config_file=str(config_file), plan=plan, built=built,
                             progress=Reporter(quiet=quiet),
                             allow_failures_change=allow_failures_change,
                             replay_forfeits=replay_forfeits, debug=debug)
    flagged = _report(summary, cfg.failures.max_forfeit_share, replay_forfeits)
    if flagged and not allow_forfeits:
        again = str(config_file) + (f" --out {out_dir}" if out_dir is not None else "")
        raise forfeits.error(flagged, cfg.failures.max_forfeit_share, again)


def _announce(plan: RunPlan, replay_forfeits: bool) -> list[ScheduledGame]:
    """Print what the run is and how much is left to play (estimated); the games to play."""
    cfg, target = plan.cfg, plan.path
    if plan.refused is not None:  # the runner says why; no header of a league it will not play
        return games_left(plan, replay_forfeits)
    games = plan.total  # a league that grew plays only its new games
    kept = [b for b in plan.league.roster if b not in plan.league.active] \
        if cfg.schedule.retired == "keep" else []
    also = (f" (and {len(kept)} retired, ranked on the games they played: {', '.join(kept)})"
            if kept else "")
    click.echo(f"Tournament '{cfg.name}': {len(cfg.bots)} bots{also}, {games // 2} matches, "
               f"{games} games of {cfg.exchanges} exchanges; scoring: "
               f"{', '.join(cfg.scoring.dimensions)}; run directory: {target}", err=True)
    if "fluency" in cfg.scoring.dimensions:
        own = bots_on_the_fluency_lm(cfg.scoring.scorer_params("fluency"),
                                     [(b.name, b.adapter, b.params) for b in cfg.bots])
        if own:
            click.echo(f"note: {', '.join(own)} generate{'s' if len(own) == 1 else ''} with the "
                       "fluency LM, which favours its own text (docs/scoring.md, 'Fluency')", err=True)
    budget, full = cfg.schedule.games, len(plan.schedule)
    if budget is not None and budget > full:
        click.echo(f"note: schedule.games: {budget} is more than the {full} games of the full "
                   f"round-robin of these {len(cfg.bots)} bots, so all {full} are played (the "
                   "budget leaves room for bots added later)", err=True)
    todo = games_left(plan, replay_forfeits)
    click.echo(estimate_line(todo, cfg.exchanges, target)
               + ("; forfeited games included" if replay_forfeits else ""), err=True)
    idle = [b for b in plan.league.added if not any(b in g.players for g in todo)]
    if idle and plan.total < len(plan.schedule) and not todo:
        click.echo(f"note: the game budget (schedule.games: {cfg.schedule.games or plan.total}) "
                   f"is spent, so {', '.join(idle)} play(s) no game and is listed with 0 games; "
                   "raise schedule.games to play the new bots' games", err=True)
    return todo


def _report(summary: RunSummary, limit: float, replay_forfeits: bool) -> list[str]:
    """Print the rankings and the run's summary; the bots that forfeited over ``limit``."""
    for w in summary.warnings:
        warn(w)
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
        click.echo("\n" + shown(forfeits.render(summary.forfeits, limit)), err=True)
    click.echo(f"\n{summary.games_played} game(s) played and {summary.games_scored} scored now, "
               f"in {summary.seconds:.1f} s. Results: {summary.run_dir}", err=True)
    return flagged

"""``chatmatch show``: the games of a run, or one game as a readable transcript."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path
from typing import Mapping

import click

from chatmatch.common.tables import render_table
from chatmatch.config.names import printable
from chatmatch.errors import RunDirError
from chatmatch.cli.readrun import load_run
from chatmatch.records import GameResult
from chatmatch.scoring.details import turn_notes
from chatmatch.transcript import Transcript


@click.command("show")
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.argument("game", required=False)
@click.option("--width", default=88, show_default=True, help="Wrap text at this width.")
def command(run_dir: Path, game: str | None, width: int) -> None:
    """List the games of RUN_DIR, or print GAME (an id such as g001) readably: each turn
    tagged with what decided its part in each dimension (a question counted or not, a
    repetition, an entity, its fluency SLOR, a turn left out or counted as degenerate and
    why), then each dimension's raw scores, which way is better, and the points."""
    run = load_run(run_dir, need_results=False)
    transcripts = run.transcripts()
    results = {r.game_id: r for r in run.results}
    if game is None:
        _list_games(transcripts, results)
        return
    tr = transcripts.get(game)
    if tr is None:
        raise RunDirError(f"{run_dir}: no game '{game}'. Games: {', '.join(sorted(transcripts)) or 'none'}")
    notes = turn_notes(run.scores(game))
    click.echo(f"Game {tr.game_id}: {tr.players[0]} (starts) vs {tr.players[1]}, "
               f"{len(tr.turns)} turns")
    indent = " " * 8
    for t in tr.turns:
        head = f"{t.index:>4}  {t.speaker}{' (seed)' if t.seed else ''}:"
        click.echo(head)
        click.echo(textwrap.fill(printable(t.text) or "(empty)", width, initial_indent=indent,
                                 subsequent_indent=indent))
        tags = [f"{n.dimension}: {n.text}" for n in notes.get(t.index, []) if n.shown]
        if tags:
            click.echo(textwrap.fill("[" + " | ".join(tags) + "]", width, initial_indent=indent,
                                     subsequent_indent=indent))
    r = results.get(game)
    if r:
        click.echo("")
        rows = [[d, "higher" if hib else "lower",
                 *(f"{r.raw[p][d]:.3g}" if not math.isnan(r.raw[p][d]) else "-" for p in r.players),
                 *(f"{r.points[p][d]:g}" for p in r.players)] for d, hib in r.higher_is_better.items()]
        rows.append(["total", "", "", "", *(f"{r.total[p]:g}" for p in r.players)])
        a, b = r.players
        click.echo(render_table(["dimension", "better", f"raw {a}", f"raw {b}", f"pts {a}",
                                 f"pts {b}"], rows))
        click.echo(f"winner: {r.winner or 'tie'}" + (f" (forfeit: {r.forfeit.to_json()})" if r.forfeit else ""))


def _list_games(transcripts: Mapping[str, Transcript], results: Mapping[str, GameResult]) -> None:
    """One row a game; games scored from logs (``chatmatch score --out``) also name the
    file (and line, for a ParlAI episode) each came from."""
    sourced = any("file" in t.meta for t in transcripts.values())
    rows = []
    for gid, listed in transcripts.items():
        r = results.get(gid)
        a, b = listed.players
        score = f"{r.total[a]:g}-{r.total[b]:g}" if r else "not scored"
        row: list[object] = [gid, f"{a} vs {b}", len(listed.turns), score,
                             (r.winner or "tie") if r else "", "forfeit" if listed.forfeit else ""]
        if sourced:
            line = listed.meta.get("line")
            row.append(printable(f"{listed.meta.get('file', '')}" + (f":{line}" if line else "")))
        rows.append(row)
    header = ["game", "players (starter first)", "turns", "points", "winner", ""]
    click.echo(render_table(header + (["source"] if sourced else []), rows, left=2,
                            text=(4, 6) if sourced else (4,)))

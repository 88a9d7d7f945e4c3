"""``chatmatch show``: the games of a run, or one game as a readable transcript."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path
from typing import Any

import click

from chatmatch.cli.table import render_table
from chatmatch.errors import RunDirError
from chatmatch.store import RunDir

#: per-turn detail keys shown as tags when truthy (the scorers' detail vocabulary)
_FLAG_KEYS = ("question", "repetition", "penalised", "inconsistency", "bonus", "entities",
              "new_entities", "perplexity", "bonus_lemmas")


def _tags(details: dict[str, list[dict[str, Any]]], turn: int) -> list[str]:
    tags: list[str] = []
    for dim, items in details.items():
        for d in items:
            if d.get("turn") != turn:
                continue
            for k in _FLAG_KEYS:
                v = d.get(k)
                if v in (None, False, 0, [], ""):
                    continue
                if isinstance(v, float):
                    if not math.isnan(v):
                        tags.append(f"{k}={v:.1f}")
                elif isinstance(v, list):
                    tags.append(f"{k}: {', '.join(map(str, v))}")
                elif v is True:
                    tags.append(k)
                else:
                    tags.append(f"{k}={v}")
    return tags


@click.command("show")
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.argument("game", required=False)
@click.option("--width", default=88, show_default=True, help="Wrap text at this width.")
def command(run_dir: Path, game: str | None, width: int) -> None:
    """List the games of RUN_DIR, or print GAME (an id such as g001) readably, with the
    turns that scored tagged (questions, repetitions, entities, perplexity, ...)."""
    store = RunDir(run_dir)
    store.read_manifest()
    transcripts = store.transcripts()
    results = store.results()
    if game is None:
        rows = []
        for gid, tr in transcripts.items():
            r = results.get(gid)
            a, b = tr.players
            score = f"{r.total[a]:g}-{r.total[b]:g}" if r else "not scored"
            rows.append([gid, f"{a} vs {b}", len(tr.turns), score,
                         (r.winner or "tie") if r else "", "forfeit" if tr.meta.get("forfeit") else ""])
        click.echo(render_table(["game", "players (starter first)", "turns", "points", "winner", ""], rows))
        return
    tr = transcripts.get(game)
    if tr is None:
        raise RunDirError(f"{run_dir}: no game '{game}'. Games: {', '.join(sorted(transcripts)) or 'none'}")
    scores = store.load_scores(game) or {}
    details = {d: s.get("details", []) for d, s in (scores.get("dimensions") or {}).items()}
    click.echo(f"Game {tr.game_id}: {tr.players[0]} (starts) vs {tr.players[1]}, "
               f"{len(tr.turns)} turns")
    indent = " " * 8
    for t in tr.turns:
        head = f"{t.index:>4}  {t.speaker}{' (seed)' if t.seed else ''}:"
        click.echo(head)
        click.echo(textwrap.fill(t.text or "(empty)", width, initial_indent=indent,
                                 subsequent_indent=indent))
        tags = _tags(details, t.index)
        if tags:
            click.echo(textwrap.fill("[" + "; ".join(tags) + "]", width, initial_indent=indent,
                                     subsequent_indent=indent))
    r = results.get(game)
    if r:
        click.echo("")
        dims = list(r.higher_is_better)
        rows = [[d, *(f"{r.raw[p][d]:.3g}" if not math.isnan(r.raw[p][d]) else "-" for p in r.players),
                 *(f"{r.points[p][d]:g}" for p in r.players)] for d in dims]
        rows.append(["total", "", "", *(f"{r.total[p]:g}" for p in r.players)])
        a, b = r.players
        click.echo(render_table(["dimension", f"raw {a}", f"raw {b}", f"pts {a}", f"pts {b}"], rows))
        click.echo(f"winner: {r.winner or 'tie'}" + (f" (forfeit: {r.forfeit})" if r.forfeit else ""))

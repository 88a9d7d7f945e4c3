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

def _tag(dim: str, d: dict[str, Any]) -> str | None:
    """A short label for one per-turn detail of a scorer, or None if nothing scored."""
    if dim == "proactivity" and d.get("questions"):
        n = d["questions"]
        return "question" if n == 1 else f"{n} questions"
    if dim == "diversity" and d.get("repeats"):
        of = ", ".join(map(str, d["repeats"]))
        return f"repetition of turn {of}" if d.get("penalised") else f"repeats turn {of} (not penalised)"
    if dim == "consistency" and d.get("inconsistent"):
        return f"inconsistent with turn {d.get('original_answer')}"
    if dim == "knowledge" and d.get("new"):
        return "entities: " + ", ".join(f"{e[0]} ({e[1]})" if isinstance(e, list) and len(e) == 2
                                        else str(e) for e in d["new"])
    if dim == "relevance" and d.get("concepts"):
        return "memory bonus: " + ", ".join(f"{c['lemma']} (turn {c['previous_turn']})"
                                            for c in d["concepts"])
    if dim == "fluency" and isinstance(d.get("perplexity"), (int, float)):
        v = float(d["perplexity"])
        return None if math.isnan(v) else f"ppl {v:.1f}"
    return None


def _tags(details: dict[str, list[dict[str, Any]]], turn: int) -> list[str]:
    tags = []
    for dim, items in details.items():
        for d in items:
            if d.get("turn") == turn and (tag := _tag(dim, d)):
                tags.append(tag)
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

"""``chatmatch score``: score chat logs made elsewhere and rank every speaker found."""

from __future__ import annotations

import json
from pathlib import Path

import click

from chatmatch.cli.table import ranking_table
from chatmatch.config.settings import RayConfig
from chatmatch.progress import Reporter
from chatmatch.run.scorelogs import load_score_config, score_logs
from chatmatch.cli.warn import warn


@click.command("score")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--config", "config_file", type=click.Path(dir_okay=False, path_type=Path),
              help="YAML with 'scoring', 'ranking' and 'seed' sections (a tournament YAML works).")
@click.option("--preset", help="Named settings, e.g. 'paper' (the paper's and authors' "
              "settings); keys set in --config win over it.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Also write a run directory (for chatmatch rank/show/report/analyze).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document on stdout.")
@click.option("--quiet", "-q", is_flag=True, help="No progress (loading, scoring).")
@click.option("--strict", is_flag=True, help="Refuse (exit 2) at the first malformed file "
              "instead of skipping it with a warning.")
@click.option("--executor", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="ray: score on Ray workers (pip install 'chatmatch[ray]'), 8 games at a time.")
@click.option("--workers", type=click.IntRange(1, 1024), default=2, show_default=True,
              help="Ray scoring workers (with --executor ray); each loads the scorers' models once.")
@click.option("--ray-address", default=None, help="Ray cluster to join ('auto', 'ray://host:10001'); "
              "default: a private local Ray for this command.")
@click.option("--gpus-per-worker", type=click.FloatRange(0, 8), default=0.0, show_default=True,
              help="GPU fraction each Ray scoring worker reserves when the cluster has GPUs.")
def command(paths: tuple[Path, ...], config_file: Path | None, preset: str | None,
            out_dir: Path | None, as_json: bool, quiet: bool, strict: bool, executor: str,
            workers: int, ray_address: str | None, gpus_per_worker: float) -> None:
    """Score existing transcripts (PATH: files or folders) on the ChatMatch dimensions and
    rank every speaker found. No bot is run.

    \b
    Formats (told apart by content; all rules in docs/score.md):
      chatmatch JSON Lines   the transcripts a run writes (RUN/transcripts/*.jsonl)
      plain text             "SPEAKER: utterance" starts a turn; an indented line, or one
                             without a colon, continues it; one file = one game
      ParlAI JSON Lines      {"dialog": [[{"id":..,"text":..}, ...]]}; one line = one game

    \b
    Each game keeps its source's name: logs/chat2.txt is game chat2 (chatmatch show
    RUN chat2); a ParlAI episode is FILE-LINE.

    \b
    Limits: a file of at most 256 MiB, a game of at most 10,000 turns, a turn of at most
    100,000 characters; a file beyond them is skipped with a warning (see
    docs/reliability.md).

    \b
    Examples:
      chatmatch score logs/ --json
      chatmatch score a.txt b.txt --config tournaments/demo.yaml --out runs/logs
      chatmatch score logs/ --preset paper
      chatmatch score logs/ --executor ray --workers 4
    """
    cfg = load_score_config(config_file, preset)
    ray = (RayConfig(address=ray_address, scorers=workers, gpus_per_scorer=gpus_per_worker)
           if executor == "ray" else None)
    scored = score_logs(list(paths), cfg, strict=strict, out_dir=out_dir,
                        reporter=Reporter(quiet=quiet), ray=ray)
    for err in scored.skipped:
        warn(f"skipped {err}")
    if as_json:
        click.echo(json.dumps(scored.to_json(), indent=2, ensure_ascii=False, allow_nan=False))
        return
    click.echo(f"{len(scored.games)} game(s) between {len(scored.speakers)} speaker(s)")
    click.echo(ranking_table(scored.ranking))
    if out_dir:
        click.echo(f"run directory: {out_dir}", err=True)

"""``chatmatch plot``: the figures of a run, as PNG and SVG."""

from __future__ import annotations

from pathlib import Path

import click

from chatmatch.analysis.human import load_human
from chatmatch.analysis.plots import NO_HUMAN_MARK, missing_from_human, plot_run
from chatmatch.run.storedrun import Run


@click.command("plot")
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.option("--human", "human_file", type=click.Path(path_type=Path),
              help="Human ranking (YAML or CSV) to draw in the rank chart.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Folder for the figures (default: RUN_DIR/plots).")
def command(run_dir: Path, human_file: Path | None, out_dir: Path | None) -> None:
    """Draw the figures of RUN_DIR: ranks by each method and by humans (the paper's
    Figure 3), TrueSkill mu with sigma bars, the head-to-head matrix of game points and
    the dimension wins per bot. Each is written as NAME.png and NAME.svg. A bot the
    human file leaves out is marked * on the rank chart and named in a note.

    \b
    Examples:
      chatmatch plot runs/demo
      chatmatch plot runs/demo --human humans.yaml --out figures/
    """
    data = Run.load(run_dir)
    human = load_human(human_file, data.bots) if human_file else None
    for p in plot_run(data, out_dir or data.store.path / "plots", human):
        click.echo(str(p))
    missing = missing_from_human(data.bots, human.ranks) if human else []
    if missing:
        click.echo(f"note: {human_file} ranks no {', '.join(missing)}: marked "
                   f"'{NO_HUMAN_MARK.strip()}' on the rank chart, with no human rank drawn", err=True)

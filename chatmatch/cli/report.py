"""``chatmatch report``: one self-contained HTML page about a run."""

from __future__ import annotations

import stat
from pathlib import Path

import click

from chatmatch.analysis.human import load_human
from chatmatch.analysis.report import build_report
from chatmatch.annotate.report import has_annotations, load_summary, summary_html
from chatmatch.annotate.store import AnnotationsError
from chatmatch.errors import StorageError
from chatmatch.rundir.store import atomic_write
from chatmatch.cli.readrun import load_run
from chatmatch.run.storedrun import Run
from chatmatch.cli.warn import warn


@click.command("report")
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.option("--human", "human_file", type=click.Path(path_type=Path),
              help="Human ranking (YAML or CSV): adds the agreement section.")
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=Path),
              help="HTML file to write (default: RUN_DIR/report.html).")
def command(run_dir: Path, human_file: Path | None, out_file: Path | None) -> None:
    """Write an HTML report of RUN_DIR: leaderboard, per-dimension breakdown,
    head-to-head matrix, figures, agreement with humans (with --human), agreement with
    the people who judged games on the `chatmatch annotate` page (when RUN_DIR has
    annotations) and every transcript with the turns that scored highlighted. The file needs no network and no
    other file: open it in any browser or attach it to a mail.

    \b
    Examples:
      chatmatch report runs/demo
      chatmatch report runs/demo --human humans.yaml --out demo.html
    """
    data = load_run(run_dir)
    human = load_human(human_file, data.bots) if human_file else None
    out = out_file or data.store.path / "report.html"
    _refuse_other_file(out)
    atomic_write(out, build_report(data, human, _annotations(data)))
    click.echo(str(out))


#: the start of every page ``chatmatch report`` writes (templates/report.html)
_REPORT_MARK = b"<title>chatmatch report:"


def _refuse_other_file(out: Path) -> None:
    """Refuse ``--out`` naming a file that holds something else than a report (the
    tournament YAML, a run's results.jsonl): writing the page would replace it. An empty
    file and an earlier report are written over."""
    try:
        if not stat.S_ISREG(out.lstat().st_mode) or out.stat().st_size == 0:
            return  # new, empty, or not a file: atomic_write says what is in the way
        with out.open("rb") as fh:
            head = fh.read(4096)
    except OSError:
        return  # unreadable: atomic_write reports what stops the write
    if _REPORT_MARK not in head:
        raise StorageError(f"{out}: already holds a file that is not a chatmatch report, which "
                           "--out would replace; give the name of a new .html file (or "
                           "move that file away first)")


def _annotations(data: Run) -> list[tuple[str, str, str]]:
    """The annotators' section when the run has judgements; a damaged annotations file is
    a warning (the rest of the report is still written)."""
    try:
        if not has_annotations(data):
            return []
        html = summary_html(load_summary(data))
    except AnnotationsError as exc:
        warn(f"{exc}; the report leaves the annotations out")
        return []
    return [("annotators", "Agreement with your annotators", html)]

"""``chatmatch view``: a read-only local web app over one or more runs."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import click

from chatmatch.cli.table import page_options
from chatmatch.common.safeio import file_problem
from chatmatch.errors import ChatmatchError
from chatmatch.run.storedrun import Run
from chatmatch.runtime.resources import require

DEFAULT_PORT = 8770


def _annotations(run: Run) -> Sequence[tuple[str, str, str]]:
    """The annotators' section of a run that has judgements (read-only)."""
    from chatmatch.annotate.report import has_annotations, load_summary, summary_html
    from chatmatch.annotate.store import AnnotationsError

    try:
        if not has_annotations(run):
            return []
        return [("annotators", "Agreement with your annotators", summary_html(load_summary(run)))]
    except AnnotationsError as exc:
        return [("annotators", "Agreement with your annotators",
                 f"<p class='error'>{_escape(str(exc))}</p>")]


def _escape(text: str) -> str:
    import html
    return html.escape(text, quote=True)


@click.command("view")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(path_type=Path))
@page_options(DEFAULT_PORT, "reads every transcript of the runs")
@click.option("--human", "human_file", type=click.Path(path_type=Path),
              help="Human ranking (YAML or CSV, as for `chatmatch compare`): adds the "
                   "agreement and the rank chart to the People page.")
@click.option("--annotate-url", default="http://127.0.0.1:8765/", show_default=True,
              help="Where `chatmatch annotate` serves the same run (the People page links it).")
@click.option("--poll", type=click.FloatRange(0.5, 3600), default=2.0, show_default=True,
              help="Seconds between two looks at the run for new games.")
def command(run_dirs: tuple[Path, ...], port: int, host: str, allow_network: bool, human_file: Path | None,
            annotate_url: str, poll: float) -> None:
    """Serve a page to explore RUN_DIR (or several: two are compared side by side): the
    leaderboard by any ranking method, the per-dimension and head-to-head tables (every
    number opens the games behind it), each game with its scored turns and each dimension's
    verdict, agreement with people. While `chatmatch run` plays into RUN_DIR the page
    follows it. The view only reads: it never writes to a run directory.

    \b
    Examples:
      chatmatch view runs/demo
      chatmatch view runs/demo --human humans.yaml --port 9000
      chatmatch view runs/demo-ngram runs/demo-smollm2     (ranks moved, games flipped)
    """
    require("starlette", extra="annotate", feature="chatmatch view (the run's web page)")
    require("uvicorn", extra="annotate", feature="chatmatch view (the run's web page)")
    from chatmatch.common import webserver
    from chatmatch.view import web
    from chatmatch.view.pages import Views
    from chatmatch.view.state import RunState

    webserver.check_host(host, allow_network, "the runs' pages")
    if human_file is not None and (why := file_problem(human_file)):
        raise click.BadParameter(f"{human_file}: {why}", param_hint="--human")
    states = [RunState(d) for d in run_dirs]
    for state in states:  # read each run now: a typo is one line, and the first page is quick
        snap = state.snapshot()
        if snap.run is None:
            raise ChatmatchError(snap.error)
        if snap.run.results:
            snap.ranking()
    views = Views(states, human_file, _annotations, annotate_url, int(poll * 1000))
    sock = webserver.bind(host, port)
    url = webserver.url_of(sock)
    click.echo(f"Viewing {len(run_dirs)} run(s): {', '.join(map(str, run_dirs))} (read-only)")
    if not webserver.is_loopback(host):
        click.echo(f"warning: listening on {host}: anyone who can reach this machine can open "
                   "the page (it has no password)", err=True)
    click.echo(f"Open {url} in a browser (Ctrl-C stops)")
    try:
        webserver.serve(web.create_app(views, webserver.allowed_hosts(host)), sock)
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    click.echo("stopped")

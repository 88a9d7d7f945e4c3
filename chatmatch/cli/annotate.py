"""``chatmatch annotate``: a local web page on which people judge the run's own games."""

from __future__ import annotations

from pathlib import Path

import click

from chatmatch.annotate.items import MODES
from chatmatch.annotate.session import Session, Settings
from chatmatch.cli.table import page_options
from chatmatch.common import webserver
from chatmatch.errors import ChatmatchError
from chatmatch.runtime.resources import require

DEFAULT_PORT = 8765


@click.command("annotate")
@click.argument("run_dir", type=click.Path(path_type=Path))
@page_options(DEFAULT_PORT, "reads every transcript of the run and can add judgements "
              "under any name")
@click.option("--mode", type=click.Choice(MODES), default="game", show_default=True,
              help="game: one conversation, its two bots compared; pairs: two conversations "
                   "side by side (ACUTE-Eval), one bot of each compared.")
@click.option("--show-names", is_flag=True,
              help="Show the bots' names (default: 'Speaker A' and 'Speaker B').")
@click.option("--dimensions", "dims", default=None, metavar="LIST",
              help="Comma-separated dimensions to ask about besides the overall question "
                   "(default: every dimension the run scored; 'none': overall only).")
@click.option("--per-annotator", "limit", type=click.IntRange(1, None), default=None,
              help="Items each annotator judges (default: all).")
@click.option("--overlap", type=click.IntRange(1, None), default=2, show_default=True,
              help="People per item to aim for (two or more give inter-annotator agreement).")
@click.option("--seed", type=int, default=None, help="Seed of the order and of who is speaker "
              "A (default: the run's seed).")
def command(run_dir: Path, port: int, host: str, allow_network: bool, mode: str,
            show_names: bool, dims: str | None, limit: int | None, overlap: int,
            seed: int | None) -> None:
    """Serve a page on which people judge the games of RUN_DIR: who was better overall and
    on each dimension, with "can't tell". Judgements go to RUN_DIR/annotations.sqlite (the
    run's other files are never touched); stop with Ctrl-C and start again to carry on.
    Then `chatmatch compare RUN_DIR --annotations` measures how chatmatch's ranking agrees.

    \b
    Every pair of bots is judged before any pair twice, and each game is given to
    --overlap people, so annotators can be compared. Keys on the page: 1/2/3 (A, B,
    can't tell), arrows, Enter.

    \b
    Examples:
      chatmatch annotate runs/demo
      chatmatch annotate runs/demo --port 9000 --show-names --dimensions consistency,proactivity
      chatmatch annotate runs/demo --mode pairs --per-annotator 20
    """
    webserver.check_host(host, allow_network, "the page (anyone can also add judgements)")
    require("starlette", extra="annotate", feature="chatmatch annotate (the annotation page)")
    require("uvicorn", extra="annotate", feature="chatmatch annotate (the annotation page)")
    from chatmatch.annotate import web

    only = None if dims is None else tuple(
        d.strip() for d in dims.split(",") if d.strip() and d.strip() != "none")
    settings = Settings(mode="pairs" if mode == "pairs" else "game", show_names=show_names,
                        seed=seed, overlap=overlap, limit=limit,
                        dimensions=only)
    session = Session.open(run_dir, settings)
    sock = webserver.bind(host, port)
    url = webserver.url_of(sock)

    click.echo(f"Judging {len(session.items)} item(s) of run {session.run_name} "
               f"({len(session.questions)} question(s) each); judgements go to "
               f"{session.store.path}")
    if not webserver.is_loopback(host):
        click.echo(f"warning: listening on {host}: anyone who can reach this machine can open "
                   "the page (it has no password)", err=True)
    click.echo(f"Open {url} in a browser (Ctrl-C stops; every saved judgement is kept)")
    try:
        webserver.serve(web.create_app(session, webserver.allowed_hosts(host)), sock)
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    click.echo("stopped; every saved judgement is in " + str(session.store.path))

"""Plain-text tables for the terminal."""

from __future__ import annotations

from typing import Any, Callable, Sequence

import click

from chatmatch.common.tables import line_up_ranks, render_table
from chatmatch.ranking import Ranking
from chatmatch.rundir.integrity import unfinished


def ranking_table(r: Ranking, marks: dict[str, str] | None = None,
                  refusing: Sequence[str] = ()) -> str:
    """``marks``: text put after a bot's name (e.g. forfeits over the limit); ``refusing``:
    the stored files for which ``chatmatch run`` refuses the run directory (the footer of
    an unfinished ranking says so instead of "run again")."""
    headers, rows = r.leaderboard()
    marks = marks or {}
    rows = [[rank, f"{bot} {marks[bot]}" if bot in marks else bot, *rest]
            for rank, bot, *rest in rows]
    rows = line_up_ranks(rows, headers[0])  # shared ranks: "2=" lines up with "1 "
    title = f"Ranking by {r.method}"
    if r.method == "trueskill":
        m = r.meta
        title += (f" ({m.get('shuffles')} shuffles, ranked by "
                  f"{'mu - %g*sigma' % m.get('k', 3) if m.get('rank_by') == 'conservative' else 'mu'})")
    elif r.method == "points":
        title += f" (win/tie/loss = {r.meta.get('win'):g}/{r.meta.get('tie'):g}/{r.meta.get('loss'):g})"
    foot = f"based on {r.games} game(s)"
    if not r.complete:
        foot += f" of {r.expected_games} scheduled: INCOMPLETE, {unfinished(refusing)}"
    return f"{title}\n{render_table(headers, rows, text=(1,))}\n{foot}"


def page_options(default_port: int, exposes: str) -> Callable[[Any], Any]:
    """``--port``, ``--host`` and ``--allow-network`` of a local page (``annotate``, ``view``);
    ``exposes`` says what anyone reaching a non-local ``--host`` gets."""
    options = [
        click.option("--port", default=default_port, show_default=True,
                     type=click.IntRange(0, 65535), help="Port of the page (0: any free port)."),
        click.option("--host", default="127.0.0.1", show_default=True,
                     help="Address to listen on. Another than 127.0.0.1 lets other machines "
                          "reach the page, which has no password; it needs --allow-network."),
        click.option("--allow-network", is_flag=True,
                     help="Allow a --host other than this machine (127.0.0.1, localhost, ::1): "
                          f"anyone who can reach it {exposes}. Only on a network you trust."),
    ]

    def decorate(command: Any) -> Any:
        for option in reversed(options):
            command = option(command)
        return command
    return decorate

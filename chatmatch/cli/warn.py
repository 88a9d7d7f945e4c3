"""The one way a command prints a warning: ``warning: TEXT`` on stderr, with TEXT shown
escaped (:func:`chatmatch.common.display.shown`): a warning often names something read
from outside (a log's file name, a bot's exception, a run directory's file), which may
hold escape sequences that would recolour the terminal or set its title."""

from __future__ import annotations

import click

from chatmatch.common.display import shown


def warn(text: str) -> None:
    click.echo(f"warning: {shown(text)}", err=True)

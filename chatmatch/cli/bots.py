"""``chatmatch bots``: list the bot adapters that can be named in a tournament YAML."""

from __future__ import annotations

import click

from chatmatch.adapters import list_adapters


@click.command("bots")
def command() -> None:
    """List available bot adapters (built-in and from installed plugins).

    Any Bot subclass can also be named by import path, e.g.
    ``adapter: examples.custom_bot:Parrot``.
    """
    rows = list_adapters()
    width = max(len(n) for n, _ in rows) if rows else 0
    for name, desc in rows:
        click.echo(f"{name.ljust(width)}  {desc}")

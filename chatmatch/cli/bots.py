"""``chatmatch bots``: list the bot adapters that can be named in a tournament YAML, with
the package that provides each and its parameters."""

from __future__ import annotations

import click

from chatmatch.adapters.listing import all_adapters


@click.command("bots")
@click.option("--names", "names_only", is_flag=True, help="Only the adapter names and descriptions.")
def command(names_only: bool) -> None:
    """List available bot adapters (built-in and from installed plugins): for each, the
    installed package that provides it and the parameters its ``params:`` block accepts.

    Any Bot subclass can also be named by import path, e.g. examples.custom_bot:Curious
    (in a checkout of chatmatch; docs/bots.md).
    """
    rows = all_adapters()
    width = max((len(r.name) for r in rows), default=0)
    for row in rows:
        if names_only:
            click.echo(f"{row.name.ljust(width)}  {row.description}")
            continue
        click.echo(f"{row.name}  ({row.package})\n  {row.description}")
        click.echo("  params:" + ("" if row.params else " none"))
        for text in row.params:
            click.echo(f"    {text}")

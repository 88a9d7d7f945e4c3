"""How every command that reads a run directory loads it and says what it ignored: the
same warnings (a damaged or untrusted result line, a score record made from another version
of its transcript, an unreadable transcript) whichever command read it."""

from __future__ import annotations

from pathlib import Path

import click

from chatmatch.run.storedrun import Run
from chatmatch.cli.warn import warn


def load_run(run_dir: str | Path, *, need_results: bool = True) -> Run:
    """The run in ``run_dir``; its warnings are printed (``warning: ...`` on stderr, once
    each) when the command is done with it, also when it fails."""
    run = Run.load(run_dir, need_results=need_results)
    click.get_current_context().call_on_close(lambda: print_warnings(run))
    return run


def print_warnings(run: Run) -> None:
    for w in dict.fromkeys(run.store.warnings):
        warn(w)
    run.store.warnings.clear()

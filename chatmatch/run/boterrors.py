"""A run's record of its bots' exceptions: ``RUN/bot_errors.jsonl``.

While a run plays, every failed reply call (:func:`chatmatch.play.botcall.report_failure`)
is appended to ``bot_errors.jsonl`` in the run directory, one JSON object a line: the
bot, game, turn and attempt, the error, ``at`` (file:line where it was raised), whether it
was retried, and the whole traceback. On stderr each failure is one line naming that file;
with ``chatmatch run --debug`` the traceback is printed too.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from chatmatch.common.display import shown
from chatmatch.errors import StorageError
from chatmatch.play.botcall import BOT_ERRORS
from chatmatch.rundir.atomic import open_append

#: the file in a run directory
BOT_ERRORS_FILE = "bot_errors.jsonl"


class BotErrorLog(logging.Handler):
    """Appends each failure record to ``path`` and prints its line (and, with ``debug``,
    its traceback) on stderr."""

    def __init__(self, path: Path, debug: bool) -> None:
        super().__init__(logging.WARNING)
        self.path, self.debug = path, debug
        self.unwritable: str | None = None

    def emit(self, record: logging.LogRecord) -> None:
        rec = getattr(record, "bot_error", None)
        line = record.getMessage()
        if isinstance(rec, dict):
            stored = self._append(rec)
            if self.debug:
                line += "\n" + str(rec.get("traceback") or "").rstrip()
            elif stored:
                line += f" [at {rec.get('at')}; traceback in {self.path}, or run with --debug]"
        # a bot's exception says what it likes (escape sequences too): shown escaped
        sys.stderr.write(shown(line) + "\n")  # looked up now: the progress bars redirect stderr
        sys.stderr.flush()

    def _append(self, rec: dict[str, object]) -> bool:
        """Append ``rec``; a file that cannot be written is said once, and play goes on."""
        if self.unwritable is not None:
            return False
        try:
            with open_append(self.path) as fh:
                fh.write(json.dumps(rec, ensure_ascii=False, default=str) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
            return True
        except (OSError, StorageError) as exc:
            self.unwritable = (str(exc) if isinstance(exc, StorageError)
                               else f"{self.path}: cannot be written ({exc.strerror or exc})")
            sys.stderr.write(f"warning: {shown(self.unwritable)}; the bots' tracebacks are not kept\n")
            return False


@contextmanager
def bot_errors_to(run_dir: Path, *, debug: bool = False) -> Iterator[BotErrorLog]:
    """While the block runs, the bots' failures go to ``run_dir``/:data:`BOT_ERRORS_FILE`."""
    handler = BotErrorLog(run_dir / BOT_ERRORS_FILE, debug)
    BOT_ERRORS.addHandler(handler)
    try:
        yield handler
    finally:
        BOT_ERRORS.removeHandler(handler)

"""A small progress line: games done / total, elapsed and ETA, on stderr."""

from __future__ import annotations

import sys
import time
from typing import TextIO


def _fmt(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else f"{m}m{s:02d}s"


class ProgressLine:
    """Called as ``progress(done, total)``; redraws in place on a terminal, else prints a
    line per finished game."""

    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream or sys.stderr
        self.width = width
        self.t0 = time.monotonic()
        self.first_done: int | None = None
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()

    def __call__(self, done: int, total: int) -> None:
        if self.first_done is None:
            self.first_done = done
            self.t0 = time.monotonic()
        elapsed = time.monotonic() - self.t0
        new = done - self.first_done
        eta = "--" if new <= 0 else _fmt(elapsed / new * (total - done))
        filled = int(self.width * done / total) if total else self.width
        bar = "#" * filled + "-" * (self.width - filled)
        line = f"[{bar}] {done}/{total} games  elapsed {_fmt(elapsed)}  ETA {eta}"
        if self.tty:
            self.stream.write("\r" + line + ("\n" if done >= total else ""))
        elif new > 0 or done >= total or done == 0:
            self.stream.write(line + "\n")
        self.stream.flush()

"""Progress of long steps (loading models, playing, scoring, analyses), on stderr.

One small API for every command, so each shows its progress the same way::

    from chatmatch.progress import Reporter

    rep = Reporter(quiet=quiet)             # stderr; Reporter.off() shows nothing
    with rep.step("loading smollm2"):       # a spinner, then "loading smollm2: 12.3s"
        bot.load()
    with rep.bar("checking", total=len(bots), unit="bot") as bar:
        for b in bots:
            check(b)
            bar.advance(detail=b.name)      # or bar.update(done=k) / bar.set_total(n)
    for item in rep.track(items, "scoring", unit="game"):   # the same as a loop
        ...

On a terminal the steps and bars are drawn by ``rich`` (a live spinner and bars with
elapsed time and ETA, redrawn in place). When stderr is not a terminal (a log file, CI),
plain lines are printed instead, sparsely: a step or a bar that lasts longer than
``min_step_s`` seconds (default 0.5) prints a line then, a bar one more every
``interval_s`` seconds (default 30) while it is open (moving or not: a stalled step
still shows its elapsed time), and both print a last line when they end; quick steps and
bars (an instant load, a small scoring batch) leave no line. ``quiet=True`` (the ``--quiet`` option of every command) prints nothing.

The ETA of a bar counts only from the moment the bar is created: open it after loading
(the runner opens the games bar once every bot is loaded), so loading time never inflates
the estimate. A bar whose units cost very different times (the scoring steps: the
language model's pass is most of the time) is opened with ``estimate=False`` and shows no
ETA: its sub-bar (texts through the LM) shows that one. Bars and steps may be updated from
several threads.

The ``TQDM_DISABLE=1`` the CLI sets (to hide transformers' GGUF loading bars) does not
touch these: they do not use tqdm.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Sized
from typing import Any, Callable, Iterable, Iterator, Protocol, TextIO, TypeVar

#: ``progress(done, total)``: a callback told how much of a long step is done (the games
#: of a run, the texts of a scoring pass), for callers that draw their own progress
Progress = Callable[[int, int], None]

T = TypeVar("T")

#: plain-line mode: one line per open bar this often (seconds), besides its first and last
DEFAULT_INTERVAL_S = 30.0
#: steps quicker than this leave no line (plain-line mode) and vanish (terminal mode)
DEFAULT_MIN_STEP_S = 0.5


def fmt_duration(seconds: float, *, about: bool = False) -> str:
    """``4.2s``, ``3m05s``, ``1h02m03s``; ``about``: an estimate's rough words, ``under a
    minute``, ``about 5 min``, ``about 2h05m``, ``about 3d04h``."""
    if about:
        m = int(round(seconds / 60))
        d, rem = divmod(m, 24 * 60)
        h, m = divmod(rem, 60)
        if seconds < 30:
            return "under a minute"
        return "about " + (f"{d}d{h:02d}h" if d else f"{h}h{m:02d}m" if h else f"{max(m, 1)} min")
    if seconds < 60:
        return f"{seconds:.1f}s"
    s = int(round(seconds))
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else f"{m}m{s:02d}s"


class ProgressBar(Protocol):
    """What code that reports its progress calls: :class:`Bar` is one; the validity lab
    is handed one (the ``validate`` command's bar, or a quiet :class:`Bar`)."""

    def advance(self, n: int = 1, *, detail: str | None = None) -> None: ...

    def update(self, done: int | None = None, *, detail: str | None = None) -> None: ...


class Bar:
    """One bar of a :class:`Reporter` (from :meth:`Reporter.bar`)."""

    def __init__(self, rep: "Reporter", label: str, total: int | None, unit: str,
                 done: int = 0, estimate: bool = True) -> None:
        self.rep, self.label, self.total, self.unit = rep, label, total, unit
        self.estimate = estimate  # False: units of unequal cost, so no ETA is shown
        self.done, self.detail = done, ""
        self.t0 = time.monotonic()
        self._start_done = done  # what was done before the bar opened (resume): not in the ETA
        self._lock = threading.Lock()
        self._task: Any = None
        self._closed = False
        self._printed = False
        self._stop = threading.Event()

    # --- updates ---------------------------------------------------------------------------
    def advance(self, n: int = 1, *, detail: str | None = None) -> None:
        with self._lock:
            self.done += n
        self._changed(detail)

    def update(self, done: int | None = None, *, detail: str | None = None) -> None:
        """Set the count of finished units (and/or the detail text) directly."""
        if done is not None:
            with self._lock:
                self.done = done
        self._changed(detail)

    def set_total(self, total: int) -> None:
        self.total = total
        self._changed(None)

    # --- text --------------------------------------------------------------------------------
    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.t0

    def eta(self) -> float | None:
        """Seconds left at the rate since the bar opened (None until something moved, and
        always for a bar opened with ``estimate=False``)."""
        new = self.done - self._start_done
        if self.total is None or new <= 0 or not self.estimate:
            return None
        return self.elapsed / new * max(0, self.total - self.done)

    def line(self) -> str:
        total = "" if self.total is None else f"/{self.total}"
        eta = self.eta()
        text = f"{self.label}: {self.done}{total} {self.unit}"
        if self.detail:
            text += f" ({self.detail})"
        text += f", elapsed {fmt_duration(self.elapsed)}"
        if self.total is not None and self.done < self.total and self.estimate:
            text += f", ETA {fmt_duration(eta) if eta is not None else '--'}"
        return text

    def close(self) -> None:
        """End the bar (its last line is printed); further calls do nothing."""
        if not self._closed:
            self._closed = True
            self.rep._close_bar(self)

    def _changed(self, detail: str | None) -> None:
        if detail is not None:
            self.detail = detail
        self.rep._bar_changed(self)


class Reporter:
    """Shows steps and bars on ``stream`` (default: stderr); see the module docstring."""

    def __init__(self, stream: TextIO | None = None, *, quiet: bool = False,
                 interval_s: float | None = None, min_step_s: float | None = None,
                 terminal: bool | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet
        self.interval_s = DEFAULT_INTERVAL_S if interval_s is None else interval_s
        self.min_step_s = DEFAULT_MIN_STEP_S if min_step_s is None else min_step_s
        if terminal is None:
            terminal = bool(getattr(self.stream, "isatty", lambda: False)())
        self.terminal = terminal and not quiet
        self._lock = threading.RLock()
        self._live: Any = None  # rich.progress.Progress while something is shown
        self._open = 0

    @classmethod
    def off(cls) -> "Reporter":
        """A reporter that shows nothing."""
        return cls(quiet=True)

    # --- public API -------------------------------------------------------------------------
    @contextlib.contextmanager
    def step(self, label: str) -> Iterator[None]:
        """A step of unknown length (loading a model): a spinner, then the time it took
        (``failed after ...`` when the block raises)."""
        if self.quiet:
            yield
            return
        t0 = time.monotonic()
        failed = False
        if self.terminal:
            progress = self._enter()
            task = progress.add_task(label, total=None, unit="", detail="", step=True)
        else:
            timer = threading.Timer(self.min_step_s, self._write, (f"{label} ...",))
            timer.daemon = True
            timer.start()
        try:
            yield
        except BaseException:
            failed = True
            raise
        finally:
            took = time.monotonic() - t0
            end = f"{label}: {'failed after ' if failed else ''}{fmt_duration(took)}"
            if self.terminal:
                if took >= self.min_step_s or failed:
                    progress.update(task, description=end, total=1, completed=1, failed=failed)
                    progress.stop_task(task)
                else:
                    progress.remove_task(task)
                self._exit()
            else:
                timer.cancel()
                if took >= self.min_step_s or failed:
                    self._write(end)

    @contextlib.contextmanager
    def bar(self, label: str, total: int | None, *, unit: str = "items",
            done: int = 0, estimate: bool = True) -> Iterator[Bar]:
        """A bar of ``total`` units (``None``: unknown), ``done`` of them already finished.
        ``estimate=False``: the units cost very different times (the steps of scoring, where
        the language model dominates), so the bar shows its count and elapsed time but no
        ETA rather than a wrong one."""
        b = self.open_bar(label, total, unit=unit, done=done, estimate=estimate)
        try:
            yield b
        finally:
            b.close()

    def open_bar(self, label: str, total: int | None, *, unit: str = "items",
                 done: int = 0, estimate: bool = True) -> Bar:
        """Like :meth:`bar` for code that cannot use a ``with`` block: call ``close()``."""
        b = Bar(self, label, total, unit, done, estimate)
        if self.quiet:
            return b
        if self.terminal:
            progress = self._enter()
            b._task = progress.add_task(label, total=total, completed=done, unit=unit, detail="",
                                        step=False, estimate=estimate)
        else:
            threading.Thread(target=self._watch, args=(b,), daemon=True,
                             name=f"progress {label}").start()
        return b

    def _watch(self, b: Bar) -> None:
        """Plain-line mode: the first line once the bar has lasted min_step_s (quick bars
        leave none), then one every interval_s until it closes, moving or not, so a log
        shows that a stalled step is still alive."""
        if b._stop.wait(self.min_step_s):
            return
        self._plain_line(b)
        while not b._stop.wait(self.interval_s):
            self._plain_line(b)

    def _close_bar(self, b: Bar) -> None:
        if self.quiet:
            return
        if self.terminal:
            self._draw(b)
            self._exit()
        else:
            b._stop.set()
            if b._printed or b.elapsed >= self.min_step_s:
                end = "done" if b.total is None or b.done >= b.total else "stopped"
                self._write(f"{b.line()} ({end})")

    def track(self, items: Iterable[T], label: str, *, total: int | None = None,
              unit: str = "items") -> Iterator[T]:
        """``items`` one by one, advancing a bar after each."""
        if total is None and isinstance(items, Sized):
            total = len(items)
        with self.bar(label, total, unit=unit) as b:
            for item in items:
                yield item
                b.advance()

    def note(self, text: str) -> None:
        """One line of text (above the bars on a terminal); not printed when quiet."""
        if not self.quiet:
            self._write(text)

    # --- internals --------------------------------------------------------------------------
    def _write(self, text: str) -> None:
        with self._lock:
            if self._live is not None:
                self._live.console.print(text, markup=False, highlight=False)
                return
            self.stream.write(text + "\n")
            self.stream.flush()

    def _bar_changed(self, b: Bar) -> None:
        if self.quiet or b._closed:
            return
        if self.terminal:
            self._draw(b)

    def _plain_line(self, b: Bar) -> None:
        with self._lock:
            if b._closed:
                return
            b._printed = True
            self._write(b.line())

    def _draw(self, b: Bar) -> None:
        with self._lock:
            if self._live is not None and b._task is not None:
                self._live.update(b._task, completed=b.done, total=b.total, eta=b.eta(),
                                  detail=f" ({b.detail})" if b.detail else "")

    def _enter(self) -> Any:
        with self._lock:
            if self._live is None:
                self._live = _rich_progress(self.stream)
                self._live.start()
            self._open += 1
            return self._live

    def _exit(self) -> None:
        with self._lock:
            self._open -= 1
            if self._open == 0 and self._live is not None:
                self._live.stop()
                self._live = None


def _rich_progress(stream: TextIO) -> Any:
    """A rich ``Progress`` on ``stream``: steps show a spinner and their time, bars a bar,
    ``done/total unit (detail)``, the elapsed time and the ETA of :meth:`Bar.eta`."""
    # rich is imported only when a live bar is drawn on a terminal (not at start-up)
    from rich.console import Console
    from rich.progress import BarColumn, Progress, ProgressColumn, SpinnerColumn, Task, TextColumn
    from rich.text import Text

    class Counts(ProgressColumn):
        def render(self, task: Task) -> Text:
            if task.fields.get("step"):
                return Text("")
            total = "?" if task.total is None else f"{task.total:g}"
            return Text(f"{task.completed:g}/{total} {task.fields['unit']}{task.fields['detail']}")

    class Times(ProgressColumn):
        def render(self, task: Task) -> Text:
            elapsed = task.finished_time if task.finished else task.elapsed
            if task.fields.get("step"):
                return Text("" if task.finished else fmt_duration(elapsed or 0.0), style="yellow")
            text = f"elapsed {fmt_duration(elapsed or 0.0)}"
            if not task.finished and task.fields.get("estimate", True):
                left = task.fields.get("eta")
                text += f"  ETA {fmt_duration(left) if left is not None else '--'}"
            return Text(text, style="cyan")

    class Spinner(SpinnerColumn):
        def render(self, task: Task) -> Any:
            return Text("✗", style="red") if task.fields.get("failed") else super().render(task)

    class StepBar(BarColumn):
        def render(self, task: Task) -> Any:
            return Text("") if task.fields.get("step") else super().render(task)

    console = Console(file=stream, force_terminal=True, highlight=False)
    # stderr writes (warnings, log lines) go above the bars; stdout is left alone, so that
    # `chatmatch run x.yaml > table.txt` keeps its table clean
    return Progress(Spinner(finished_text="[green]✓"), TextColumn("{task.description}", markup=False),
                    StepBar(bar_width=30), Counts(), Times(), console=console,
                    redirect_stdout=False, redirect_stderr=stream is sys.stderr)


def reporter(quiet: bool = False) -> Reporter:
    """The reporter a CLI command uses: stderr, or nothing with ``--quiet``."""
    return Reporter(quiet=quiet)


__all__ = ["Bar", "Progress", "ProgressBar", "Reporter", "fmt_duration", "reporter"]

"""What the view knows of a run directory, read again only when it changes.

The view never writes to a run: it reads it the way every other reader does
(:meth:`chatmatch.run.storedrun.Run.load`, which trusts only the result lines that agree
with their transcript and score record), so it can watch a directory that ``chatmatch
run`` is writing. A :class:`Snapshot` is keyed by the size and modification time of the
files a ranking rests on (``results.jsonl``, ``manifest.json``, ``config.yaml``, the
``rankings/`` folder) and of the annotations: a page asks :meth:`RunState.snapshot`, which stats four paths and
reloads only when one moved. Transcripts are read one at a time, for a game's page.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from chatmatch.errors import ChatmatchError
from chatmatch.ranking import Ranking
from chatmatch.run.storedrun import Run
from chatmatch.view.stored import stored_ranking

#: the files whose change means new results or settings
WATCHED = ("results.jsonl", "manifest.json", "config.yaml", "rankings",
           # the judgements of `chatmatch annotate` (the People page)
           "annotations.sqlite", "annotations.sqlite-wal")


@dataclass
class Snapshot:
    """A run as read at one version; ``error``: why it could not be read (then ``run`` is None)."""

    version: str
    run: Run | None
    error: str = ""
    results_mtime: int = 0
    #: rankings and other derived things, computed once per snapshot
    cache: dict[str, Any] = field(default_factory=dict)
    lock: threading.RLock = field(default_factory=threading.RLock)

    def memo(self, key: str, make: Callable[[], Any]) -> Any:
        with self.lock:
            if key not in self.cache:
                self.cache[key] = make()
            return self.cache[key]

    @property
    def games(self) -> int:
        return len(self.run.results) if self.run else 0

    @property
    def expected(self) -> int | None:
        return self.run.manifest.expected_games if self.run else None

    def ranking(self, method: str | None = None) -> Ranking:
        """The run's ranking by ``method`` (its own by default): the stored one when fresh."""
        run = self.run
        assert run is not None
        name = method or run.ranking.method

        def make() -> Ranking:
            found = stored_ranking(run.store.path, name, run.bots, len(run.results),
                                   self.results_mtime)
            return found or run.rank(method=name, expected_games=run.manifest.expected_games)
        r: Ranking = self.memo(f"ranking:{name}", make)
        return r


class RunState:
    """One run directory watched by the view."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._snap: Snapshot | None = None

    def version(self) -> tuple[str, int]:
        """A digest of the watched files' sizes and times, and the results file's time."""
        parts, results_mtime = [], 0
        for name in WATCHED:
            try:
                st = (self.path / name).stat()
            except OSError:
                parts.append(f"{name}:-")
                continue
            parts.append(f"{name}:{st.st_size}:{st.st_mtime_ns}")
            if name == "results.jsonl":
                results_mtime = st.st_mtime_ns
        return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16], results_mtime

    def snapshot(self) -> Snapshot:
        """The run as it is now (the cached snapshot when nothing changed)."""
        version, mtime = self.version()
        with self._lock:
            if self._snap is not None and self._snap.version == version:
                return self._snap
            try:
                snap = Snapshot(version, Run.load(self.path, need_results=False), "", mtime)
            except ChatmatchError as exc:
                snap = Snapshot(version, None, str(exc), mtime)
            self._snap = snap
            return snap

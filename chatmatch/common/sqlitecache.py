"""One SQLite file used as a cache, with the one failure policy of every chatmatch cache
(the reply cache of a run, the machine's perplexities and embeddings).

A cache is worth speed, never a result: whatever goes wrong with its file, the caller gets
its ``default`` (a miss, an unsaved value) and goes on computing:

* **busy**: another process holds the file longer than ``busy_seconds``: this operation
  goes without (a miss, or a batch left unsaved); the next one tries again;
* **damaged** (not SQLite, malformed, or failing the owner's ``check``): the file (and its
  ``-wal``/``-shm``) is moved aside to ``*.corrupt``, with one warning naming both, and a
  new one is started, once for the life of this object;
* **anything else** (the folder cannot be made, the file is read-only or is a folder, the
  disk is full, a second damage): the cache is off for the life of this object, with one
  warning naming the file, what failed and how to fix it.

The file is opened on first use with a WAL journal (readers never wait for a writer), so
several processes can share it.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path
from typing import Callable, Literal, Sequence, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
Warn = Callable[[str], None]
#: how sqlite3 opens transactions (None: autocommit, the owner says BEGIN)
Isolation = Literal["DEFERRED", "EXCLUSIVE", "IMMEDIATE"] | None

_DAMAGED = ("SQLITE_CORRUPT", "SQLITE_NOTADB")
_BUSY = ("SQLITE_BUSY", "SQLITE_LOCKED")


class Damaged(sqlite3.DatabaseError):
    """Raised by a ``check`` when an open file is not a cache of the expected layout."""


class SqliteCache:
    """The SQLite file at ``path`` (a path, or a function giving it on first use), its
    tables made by ``schema``. Not thread-safe: the owner calls it under its own lock."""

    def __init__(self, path: Path | Callable[[], Path], schema: Sequence[str], what: str, *,
                 without: str, switch: str | None = None, turn_off_hint: str = "",
                 warn: Warn | None = None, busy_seconds: float = 2.0,
                 isolation_level: Isolation = "DEFERRED",
                 check: Callable[[sqlite3.Connection], None] | None = None) -> None:
        self._where = path
        self.schema, self.what, self.without = tuple(schema), what, without
        self.switch, self.turn_off_hint = switch, turn_off_hint
        self.warn: Warn = warn or log.warning
        self.busy_seconds, self.isolation_level, self.check = busy_seconds, isolation_level, check
        self._db: sqlite3.Connection | None = None
        self._healed = False
        self.off = False

    @property
    def path(self) -> Path:
        """The file (resolved on first use: the folder of a cache may be made then)."""
        if callable(self._where):
            self._where = self._where()
        return self._where

    @property
    def enabled(self) -> bool:
        """Not turned off, by a failure or by the ``switch`` environment variable (``0``)."""
        return not self.off and (self.switch is None or os.environ.get(self.switch, "1") != "0")

    def run(self, op: Callable[[sqlite3.Connection], T], default: T) -> T:
        """``op`` on the open file; any failure gives ``default`` (the module docstring says
        what each failure does to the cache)."""
        for _ in range(2):  # a second try only after a damaged file was replaced
            if not self.enabled:
                return default
            try:
                return op(self.connection())
            except sqlite3.Error as exc:
                if not self._failed(exc):
                    return default
            except (OSError, ValueError) as exc:  # no folder, a path that is not a file
                self.turn_off(exc)
                return default
        return default

    def connection(self) -> sqlite3.Connection:
        """The open file (opened, and its tables made, on first use)."""
        if self._db is None:
            db = sqlite3.connect(self.path, timeout=self.busy_seconds, check_same_thread=False,
                                 isolation_level=self.isolation_level)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                for statement in self.schema:
                    db.execute(statement)
                db.commit()
                if self.check is not None:
                    self.check(db)
            except BaseException:
                db.close()
                raise
            self._db = db
        return self._db

    def close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            try:
                db.close()
            except sqlite3.Error:
                pass

    def disable(self) -> None:
        """Turn the cache off without a warning (the owner has no safe key for it)."""
        self.close()
        self.off = True

    def turn_off(self, exc: BaseException) -> None:
        """Off for the life of this object, with the one warning that says how to fix it."""
        self.disable()
        try:
            where = str(self.path)
            fix = (f"make sure {self.path.parent} is a writable folder on a disk with free "
                   f"space, or delete {self.path.name}")
        except (OSError, ValueError):  # the path itself could not be made
            where, fix = "(no file)", "make sure the cache folder can be made"
        hint = f"; {self.turn_off_hint}" if self.turn_off_hint else ""
        self.warn(f"{self.what} {where} cannot be used ({exc}); {self.without} from now on. "
                  f"To fix: {fix}{hint}")

    def _failed(self, exc: sqlite3.Error) -> bool:
        """React to a failed operation; True when it is worth trying again at once."""
        name = getattr(exc, "sqlite_errorname", "")
        if name in _BUSY:  # another process holds the file: this call goes without
            log.debug("%s %s busy: %s", self.what, self.path, exc)
            return False
        self.close()
        if (name in _DAMAGED or isinstance(exc, Damaged)) and not self._healed:
            self._healed = True
            return self._set_aside(exc)
        self.turn_off(exc)
        return False

    def _set_aside(self, exc: sqlite3.Error) -> bool:
        """Move a damaged file to ``*.corrupt`` (replacing an older one), so that a fresh
        one is started; False when it cannot be moved (the cache is off then)."""
        path = self.path
        aside = path.with_name(path.name + ".corrupt")
        try:
            for suffix in ("-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
            path.replace(aside)
        except OSError as again:
            self.turn_off(again)
            return False
        self.warn(f"{self.what} {path} was unreadable (damaged: {exc}); moved it to {aside} "
                  "and started a new one")
        return True


__all__ = ["Damaged", "SqliteCache"]

"""``RUN/annotations.sqlite``: every judgement people made on the annotation page, one row
per annotator, item and question.

Safe with several annotators at once: SQLite in WAL mode, every request opens its own
connection, writes take the write lock at once (``BEGIN IMMEDIATE``) and wait up to
:data:`BUSY_TIMEOUT_S` for another writer. Safe after a kill: a submitted page is one
transaction, committed with ``synchronous=FULL`` before the next page is served, so a
killed server loses at most the page being submitted. The file is the only thing the
annotation page writes in the run directory (with SQLite's ``-wal`` and ``-shm`` files).

Judging an item again (two tabs, the back button) replaces that annotator's earlier answers
for it (``UNIQUE(annotator, item, question)``); :meth:`AnnotationStore.save` says whether
the answers were new, the same as before, or replaced, and the page says so.
"""

from __future__ import annotations

import sqlite3
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator, Literal, Mapping

from chatmatch.annotate.items import Item
from chatmatch.common.safeio import check_regular, why_unreadable
from chatmatch.errors import ChatmatchError

FILENAME = "annotations.sqlite"
SCHEMA_VERSION = 1
BUSY_TIMEOUT_S = 30.0
#: the answers a question takes: speaker A better, speaker B better, can't tell
ANSWERS = ("a", "b", "tie")

Saved = Literal["new", "same", "replaced"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS judgements (
    id INTEGER PRIMARY KEY,
    annotator TEXT NOT NULL,
    item TEXT NOT NULL,
    question TEXT NOT NULL,
    game_a TEXT NOT NULL, bot_a TEXT NOT NULL,
    game_b TEXT NOT NULL, bot_b TEXT NOT NULL,
    answer TEXT NOT NULL CHECK (answer IN ('a', 'b', 'tie')),
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    UNIQUE (annotator, item, question)
);
CREATE TABLE IF NOT EXISTS current (annotator TEXT PRIMARY KEY, item TEXT NOT NULL);
"""


class AnnotationsError(ChatmatchError):
    """An annotations file that cannot be used (damaged, of another version, missing)."""


@dataclass(frozen=True)
class Judgement:
    """One answer of one annotator to one question about one item."""

    annotator: str
    item: str
    question: str
    game_a: str
    bot_a: str
    game_b: str
    bot_b: str
    answer: str
    created: str
    updated: str

    @property
    def score_a(self) -> float:
        """1 when speaker A was judged better, 0 when B, 0.5 for can't tell."""
        return {"a": 1.0, "b": 0.0}.get(self.answer, 0.5)

    def to_json(self) -> dict[str, str]:
        return {k: getattr(self, k) for k in FIELDS}


FIELDS = ("annotator", "item", "question", "game_a", "bot_a", "game_b", "bot_b", "answer",
          "created", "updated")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _damaged(path: Path, exc: Exception) -> AnnotationsError:
    return AnnotationsError(
        f"{path}: damaged annotations file ({exc}); move it away (e.g. rename it to "
        f"{path.name}.damaged) to start a new one, or restore it from a backup "
        f"(`sqlite3 {path} .recover` may save its judgements)")


def _refuse_special(path: Path) -> None:
    """Refuse an annotations path that is there but is no regular file (a folder, a named
    pipe, a device, a link to one): SQLite would block, fail with "disk I/O error" or read
    ``/dev/zero`` as a damaged database. Absent: nothing to say here."""
    try:
        check_regular(path)
    except FileNotFoundError:
        if path.is_symlink():
            raise AnnotationsError(f"{path}: a link to a missing file; move it away (the "
                                   "annotations file must be a regular file)") from None
    except OSError as exc:
        raise AnnotationsError(f"{path}: {why_unreadable(exc)}; move it away (the annotations "
                               "file must be a regular file)") from None


def person(name: str) -> str:
    """The one form of an annotator's name: spaces collapsed, NFKC-normalised and
    case-folded ("Alice", "alice" and a full-width "Ａｌｉｃｅ" are one person, "alice");
    judgements stored before names were normalised are read this way too."""
    return unicodedata.normalize("NFKC", " ".join(name.split())).casefold()


class AnnotationStore:
    """The annotations file of a run. :meth:`open` checks it (or creates it)."""

    def __init__(self, path: Path, readonly: bool) -> None:
        self.path = path
        self.readonly = readonly

    @classmethod
    def open(cls, run_dir: Path, *, create: bool) -> "AnnotationStore":
        """The checked file ``run_dir/annotations.sqlite``; ``create``: make it when absent
        (the annotation page), else read only (compare, analyze, report)."""
        path = run_dir / FILENAME
        if not path.exists() and not path.is_symlink() and not create:
            raise AnnotationsError(f"{path}: no annotations yet; start the annotation page with "
                                   f"`chatmatch annotate {run_dir}` and judge a few games first")
        _refuse_special(path)
        store = cls(path, readonly=not create)
        store._check(create)
        return store

    @contextmanager
    def _conn(self, write: bool = False, new: bool = False) -> Iterator[sqlite3.Connection]:
        _refuse_special(self.path)
        if not new and not self.path.is_file():  # deleted under a running page: never start a new file
            raise AnnotationsError(f"{self.path}: the annotations file is gone (its run "
                                   "directory was moved or deleted?); restore it, then start "
                                   "`chatmatch annotate` again")
        try:
            if self.readonly:
                con = sqlite3.connect(f"{self.path.resolve().as_uri()}?{self._ro_query()}",
                                      uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
            else:
                con = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        except sqlite3.Error as exc:  # a missing or read-only folder, not a damaged file
            raise AnnotationsError(f"{self.path}: cannot open the annotations file ({exc}); "
                                   "check that the run directory exists and is writable (or "
                                   "copy the run somewhere writable)") from None
        try:
            if not self.readonly:
                con.execute("PRAGMA synchronous=FULL")
            if write:
                con.execute("BEGIN IMMEDIATE")
            yield con
            if write:
                con.execute("COMMIT")
        except sqlite3.DatabaseError as exc:
            if write and con.in_transaction:
                con.rollback()
            if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                raise AnnotationsError(f"{self.path}: busy for over {BUSY_TIMEOUT_S:g} s (another "
                                       "process holds it); try again") from None
            raise _damaged(self.path, exc) from None
        finally:
            con.close()

    def _ro_query(self) -> str:
        """A reader's URI query. With no ``-wal`` file beside the database no page holds
        it open (the page's connections are closed after each request, which checkpoints
        and removes the WAL): the file is read as ``immutable``, so reading creates no
        ``-wal``/``-shm`` files in the run directory (``report``, ``view`` and ``compare``
        change nothing there). Otherwise the usual read-only connection, which shares
        the writer's WAL."""
        wal = self.path.with_name(self.path.name + "-wal")
        return "mode=ro" if wal.exists() else "mode=ro&immutable=1"

    def _check(self, create: bool) -> None:
        with self._conn(new=create) as con:
            if create:
                con.execute("PRAGMA journal_mode=WAL")
                con.executescript(_SCHEMA)
                con.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)",
                            (str(SCHEMA_VERSION),))
            ok = con.execute("PRAGMA quick_check").fetchone()
            if not ok or ok[0] != "ok":
                raise _damaged(self.path, Exception(f"integrity check: {ok[0] if ok else 'no answer'}"))
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not {"meta", "judgements", "current"} <= tables:
                raise _damaged(self.path, Exception("not a chatmatch annotations file: tables "
                                                    f"{sorted(tables) or 'none'}"))
            row = con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            if row is None or row[0] != str(SCHEMA_VERSION):
                raise AnnotationsError(f"{self.path}: annotations file of schema version "
                                       f"{row[0] if row else '?'}, this chatmatch reads version "
                                       f"{SCHEMA_VERSION}; use the chatmatch that wrote it")

    # --- writes -------------------------------------------------------------------------
    def save(self, annotator: str, item: Item, answers: Mapping[str, str]) -> Saved:
        """Store ``annotator``'s answers (question -> 'a'|'b'|'tie') about ``item`` in one
        transaction; earlier answers of the same annotator to the same item are replaced."""
        bad = {q: a for q, a in answers.items() if a not in ANSWERS}
        if bad:
            raise ValueError(f"answers must be one of {ANSWERS}, got {bad}")
        now = _now()
        with self._conn(write=True) as con:
            old = dict(con.execute("SELECT question, answer FROM judgements WHERE annotator=? "
                                   "AND item=?", (annotator, item.item_id)).fetchall())
            con.executemany(
                "INSERT INTO judgements (annotator, item, question, game_a, bot_a, game_b, bot_b, "
                "answer, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (annotator, item, question) DO UPDATE SET answer=excluded.answer, "
                "updated=excluded.updated WHERE answer != excluded.answer",
                [(annotator, item.item_id, q, item.a.game_id, item.a.bot, item.b.game_id,
                  item.b.bot, a, now, now) for q, a in answers.items()])
        if not old:
            return "new"
        return "same" if all(old.get(q) == a for q, a in answers.items()) else "replaced"

    def set_current(self, annotator: str, item_id: str) -> None:
        """Remember the item ``annotator`` is looking at (a reload shows it again)."""
        with self._conn(write=True) as con:
            con.execute("INSERT INTO current VALUES (?, ?) ON CONFLICT (annotator) DO UPDATE "
                        "SET item=excluded.item", (annotator, item_id))

    # --- reads --------------------------------------------------------------------------
    def current(self, annotator: str) -> str | None:
        with self._conn() as con:
            row = con.execute("SELECT item FROM current WHERE annotator=?", (annotator,)).fetchone()
        return None if row is None else str(row[0])

    def last_item(self, annotator: str) -> str | None:
        """The item ``annotator`` saved last (to change a slip of the finger)."""
        with self._conn() as con:
            row = con.execute("SELECT item FROM judgements WHERE annotator=? ORDER BY updated "
                              "DESC, id DESC LIMIT 1", (annotator,)).fetchone()
        return None if row is None else str(row[0])

    def judged_by(self) -> dict[str, set[str]]:
        """Item id -> the annotators who judged it."""
        out: dict[str, set[str]] = {}
        with self._conn() as con:
            for item, who in con.execute("SELECT DISTINCT item, annotator FROM judgements"):
                out.setdefault(str(item), set()).add(str(who))
        return out

    def answers(self, annotator: str, item_id: str) -> dict[str, str]:
        with self._conn() as con:
            rows = con.execute("SELECT question, answer FROM judgements WHERE annotator=? AND "
                               "item=?", (annotator, item_id)).fetchall()
        return {str(q): str(a) for q, a in rows}

    def judgements(self) -> list[Judgement]:
        """Every judgement, in the order they were first made."""
        with self._conn() as con:
            rows = con.execute(f"SELECT {', '.join(FIELDS)} FROM judgements ORDER BY id").fetchall()
        return [Judgement(person(str(r[0])), *(str(v) for v in r[1:])) for r in rows]

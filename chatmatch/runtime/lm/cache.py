"""The persistent perplexity cache: a text's perplexity under the fluency LM is computed
once per machine, not once per process.

Both engines (torch: :class:`chatmatch.runtime.lm.TransformersLM`, onnxruntime:
:class:`chatmatch.runtime.lm.ort.OrtLM`) already keep every perplexity they compute
for the life of the process. A :class:`PerplexityStore` keeps them on disk too, in one
SQLite file (WAL journal) in the cache folder of :func:`chatmatch.runtime.resources.cache_dir`:
``~/.cache/chatmatch/ppl/perplexities-v1.sqlite`` (or under ``$CHATMATCH_CACHE_DIR`` /
``$XDG_CACHE_HOME``). A value is stored under

* the LM's **fingerprint** (:func:`fingerprint`): everything that can change a value -- the
  model's content (the sha256 of a GGUF file, of every file of a model folder, or a hub
  model's commit), the engine, the precision, the device type, ``max_tokens``, the context
  token, the versions of the libraries that compute it (torch, transformers, tokenizers;
  numpy, onnxruntime, onnx, gguf), a hash of chatmatch's own code that computes a
  perplexity (:data:`CODE_FILES`: any edit starts a fresh set of values)
  and :data:`SCHEMA_VERSION`;
* the text's sha256 (128 bits).

What changes a value only at the level of float rounding is not in the key, exactly as for
the in-process cache: which texts share a batch (``batch_size``, ``max_batch_tokens``,
progress chunks), ``processes``, threads. A text keeps the value it got the first time it
was scored on this machine. The value is stored as its 8 IEEE-754 bytes, so a cached value
is bit for bit the float that was computed (NaN and infinity included).

Only the process that owns the LM reads and writes (worker processes of
:class:`~chatmatch.runtime.lm.forward.ForwardPool` compute only): one read per
``perplexities()`` call for the texts not cached in memory, one write transaction for the
values it computed. Concurrent processes share the file (readers never wait in WAL mode; a
writer waits at most :data:`BUSY_SECONDS` for another, then skips its batch). Whatever goes
wrong costs speed, never a result and never an error (the one failure policy of
chatmatch's caches, :mod:`chatmatch.common.sqlitecache`): a locked file is a miss or an
unsaved batch; a damaged file (not SQLite, malformed) is moved aside to ``*.corrupt`` and
started afresh, once per process; a file or folder that cannot be opened or written, or a
full disk, turns the cache off for the rest of the process with one warning in the log
naming the file and the fix.

Size: when the live data pass :data:`MAX_BYTES` (256 MiB, about three million texts), the
oldest-written quarter of the values is dropped. ``CHATMATCH_PPL_CACHE=0`` turns the cache
off (nothing is read or written); deleting the ``ppl`` folder clears it, at any time.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import platform
import sqlite3
import struct
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Generic, Mapping, Sequence, TypeVar

from chatmatch.common.sqlitecache import SqliteCache
from chatmatch.runtime.gguf_cache import file_sha256
from chatmatch.runtime.resources import cache_dir

log = logging.getLogger(__name__)

#: set to ``0`` to compute every perplexity (nothing read or written)
SWITCH_ENV = "CHATMATCH_PPL_CACHE"
#: the file's layout and the key's rules; a new version is a new file (delete the old one)
SCHEMA_VERSION = 1
CACHE_FILE = f"perplexities-v{SCHEMA_VERSION}.sqlite"
#: seconds a read or write waits for another process's write before giving up (a miss, or
#: a batch left unsaved)
BUSY_SECONDS = 2.0
#: live data beyond this many bytes: the oldest-written quarter of the values is dropped
MAX_BYTES = 256 * 2**20
#: chatmatch's files whose code computes a perplexity: a hash of them is part of the key
CODE_FILES = ("__init__.py", "forward.py", "ort.py", "ort_graph.py")
#: texts per SQL statement (well under SQLite's limit of bound parameters)
_CHUNK = 500
_SCHEMA = ("CREATE TABLE IF NOT EXISTS models (id INTEGER PRIMARY KEY, fingerprint TEXT NOT NULL UNIQUE)",
           "CREATE TABLE IF NOT EXISTS ppl (model INTEGER NOT NULL, text BLOB NOT NULL, value BLOB, "
           "PRIMARY KEY (model, text))",
           # what a warm start knows before loading the LM (its settings, the model's content,
           # the code and library versions) -> the fingerprint the loaded LM computed
           "CREATE TABLE IF NOT EXISTS aliases (alias TEXT PRIMARY KEY, fingerprint TEXT NOT NULL)",
           # facts about a model kept beside its values (the LM's vocabulary size): a file
           # made before this table gets it on open, and a missing row is a miss
           "CREATE TABLE IF NOT EXISTS meta (model INTEGER NOT NULL, name TEXT NOT NULL, "
           "value TEXT NOT NULL, PRIMARY KEY (model, name))")

Values = dict[str, float | None]
T = TypeVar("T")
V = TypeVar("V")
#: what a stored value that cannot be read back decodes to (a miss)
MISS = object()


def enabled(switch: str = SWITCH_ENV) -> bool:
    """Whether the persistent cache is on (``CHATMATCH_PPL_CACHE``, or ``switch``, is not
    ``0``)."""
    return os.environ.get(switch, "1") != "0"


def text_key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()[:16]


def _pack(value: float | None) -> bytes | None:
    return None if value is None else struct.pack("<d", value)


def valid(text: str, value: object) -> bool:
    """Can ``value`` be the perplexity of ``text``: a finite number of at least 1 (the
    exponential of a mean negative log-likelihood, never negative), or None (no perplexity)
    for a blank text only? Only such values are written to the cache; a row read from it
    that holds anything else (NULL for a real text, NaN, an infinity, a number below 1, a
    hand-edited blob) is dropped and computed again. A real text without a perplexity (one
    token, on a model without a context token) is computed each time."""
    if value is None:
        return not text.strip()
    return isinstance(value, float) and math.isfinite(value) and value >= 1.0


class ValueStore(Generic[V]):
    """Values computed from texts by one model configuration (its fingerprint, computed on
    first use: ``None`` means "cannot be identified safely", and the store stays off) in
    one of the machine's SQLite files (``FOLDER``/``FILE`` of the cache folder). Not
    thread-safe: its model calls it under its own lock. Subclasses say how a value is
    stored (:meth:`_encode`, :meth:`_decode`)."""

    FOLDER = "ppl"
    FILE = CACHE_FILE
    SWITCH = SWITCH_ENV  # set to 0: nothing read or written
    WHAT = "perplexity cache"  # how warnings name it
    WITHOUT = "computing perplexities without it"

    def __init__(self, fingerprint: Callable[[], str | None], path: Path | None = None,
                 max_bytes: int = MAX_BYTES, busy_seconds: float = BUSY_SECONDS) -> None:
        self._fingerprint = fingerprint
        self.max_bytes, self.busy_seconds = max_bytes, busy_seconds
        self._file = SqliteCache(path or (lambda: cache_dir(self.FOLDER) / self.FILE), _SCHEMA,
                                 self.WHAT, without=self.WITHOUT, switch=self.SWITCH,
                                 turn_off_hint=f"{self.SWITCH}=0 turns it off", warn=log.warning,
                                 busy_seconds=busy_seconds)
        self._model: int | None = None
        self._key: str | None = None
        self._alias: str | None = None
        self.hits = self.written = 0

    # --- public --------------------------------------------------------------------------
    def get(self, texts: Sequence[str]) -> dict[str, V]:
        """The stored values of those of ``texts`` that have one."""
        return self._safely(lambda db: self._read(db, texts), {})

    def put(self, values: Mapping[str, V]) -> None:
        """Store ``values`` (one transaction); a text already stored keeps its value."""
        if values:
            self._safely(lambda db: self._write(db, values), None)

    def get_meta(self, name: str) -> str | None:
        """The fact ``name`` about this store's model (:meth:`put_meta`); None when none is
        stored (a miss, as for a value)."""
        def read(db: sqlite3.Connection) -> str | None:
            model = self._model_id(db, create=False)
            row = None if model is None else db.execute(
                "SELECT value FROM meta WHERE model = ? AND name = ?", (model, name)).fetchone()
            return None if row is None else str(row[0])
        return self._safely(read, None)

    def put_meta(self, name: str, value: str) -> None:
        """Keep the fact ``name`` = ``value`` about this store's model beside its values."""
        def write(db: sqlite3.Connection) -> None:
            model = self._model_id(db, create=True)
            if model is not None:
                with db:
                    db.execute("INSERT OR REPLACE INTO meta (model, name, value) VALUES (?, ?, ?)",
                               (model, name, value))
        self._safely(write, None)

    def key(self) -> str | None:
        """The fingerprint of this store's LM (made on first use; ``None``: no safe key)."""
        if self._key is None and not self._off:
            try:
                self._key = self._make_key()
            except Exception as exc:  # noqa: BLE001 - a key that cannot be made: no cache
                self._file.turn_off(exc)
        return self._key

    def link(self, alias: str) -> None:
        """Record that ``alias`` (a key made without loading the LM) names this store's
        fingerprint, so that :meth:`linked` finds its values before the LM is loaded."""
        key = self.key()
        if key is not None:
            def write(db: sqlite3.Connection) -> None:
                with db:
                    db.execute("INSERT OR REPLACE INTO aliases (alias, fingerprint) VALUES (?, ?)",
                               (alias, key))
            self._safely(write, None)

    @classmethod
    def linked(cls: type[S], alias: str, path: Path | None = None) -> S:
        """The store of the fingerprint that ``alias`` names (:meth:`link`); off (every
        read a miss) while no loaded LM has linked it."""
        store = cls(lambda: None, path)
        store._alias = alias
        return store

    def close(self) -> None:
        self._file.close()
        self._model = None

    @property
    def path(self) -> Path:
        """The SQLite file (its folder is made on first use)."""
        return self._file.path

    @property
    def _off(self) -> bool:
        """Turned off for the life of this store (a failure, or no safe key)."""
        return self._file.off

    # --- internals -----------------------------------------------------------------------
    def _safely(self, op: Callable[[sqlite3.Connection], T], default: T) -> T:
        """``op`` on the open file; any failure gives ``default`` (the one failure policy of
        :mod:`chatmatch.common.sqlitecache`)."""
        return self._file.run(op, default)

    def _connection(self) -> sqlite3.Connection:
        return self._file.connection()

    def _model_id(self, db: sqlite3.Connection, create: bool) -> int | None:
        if self._model is None:
            if self._key is None:  # made once: it hashes the model's files
                if self._alias is not None:  # a linked store: its LM was never loaded here
                    row = db.execute("SELECT fingerprint FROM aliases WHERE alias = ?",
                                     (self._alias,)).fetchone()
                    self._key = None if row is None else str(row[0])
                    if self._key is None:
                        return None  # not linked yet: a miss, and nothing written
                else:
                    try:
                        self._key = self._make_key()
                    except Exception as exc:  # noqa: BLE001 - a key that cannot be made: no cache
                        self._file.turn_off(exc)
                        return None
                if self._key is None:  # no safe key (a hub model without a commit)
                    self._model = None
                    self._file.disable()
                    return None
            select = "SELECT id FROM models WHERE fingerprint = ?"
            row = db.execute(select, (self._key,)).fetchone()
            if row is None and create:
                with db:
                    db.execute("INSERT OR IGNORE INTO models (fingerprint) VALUES (?)", (self._key,))
                row = db.execute(select, (self._key,)).fetchone()
            self._model = None if row is None else int(row[0])
        return self._model

    def _make_key(self) -> str | None:
        return self._fingerprint()

    def _encode(self, value: V) -> bytes | None:
        raise NotImplementedError

    def _decode(self, blob: Any) -> V | object:
        """The value of a stored blob, or :data:`MISS`."""
        raise NotImplementedError

    def _valid(self, text: str, value: object) -> bool:
        """Whether ``value`` can be what the model computes for ``text`` (checked on every
        read and write: a row that fails is dropped and computed again)."""
        return True

    def _read(self, db: sqlite3.Connection, texts: Sequence[str]) -> dict[str, V]:
        model = self._model_id(db, create=False)
        if model is None:
            return {}
        keys = {text_key(t): t for t in texts}
        found: dict[str, V] = {}
        bad: list[bytes] = []
        ordered = list(keys)
        for i in range(0, len(ordered), _CHUNK):
            part = ordered[i:i + _CHUNK]
            marks = ",".join("?" * len(part))
            for key, value in db.execute(f"SELECT text, value FROM ppl WHERE model = ? AND text IN "
                                         f"({marks})", (model, *part)):
                decoded = self._decode(value)
                if decoded is not MISS and self._valid(keys[key], decoded):
                    found[keys[key]] = decoded  # type: ignore[assignment]
                else:
                    bad.append(key)
        if bad:  # checked like a computed value: a lying row is dropped, then recomputed
            log.warning("%s %s: dropped %d row(s) that hold no valid value (NULL, NaN, "
                        "infinite, below 1, or not the stored layout); computing them again",
                        self.FOLDER, self.path, len(bad))
            with db:
                db.executemany("DELETE FROM ppl WHERE model = ? AND text = ?",
                               [(model, k) for k in bad])
        self.hits += len(found)
        return found

    def _write(self, db: sqlite3.Connection, values: Mapping[str, V]) -> None:
        model = self._model_id(db, create=True)
        if model is None:
            return
        rows = [(model, text_key(t), self._encode(v)) for t, v in values.items()
                if self._valid(t, v)]
        with db:
            db.executemany("INSERT OR IGNORE INTO ppl (model, text, value) VALUES (?, ?, ?)", rows)
        self.written += len(rows)
        self._bound(db)

    def _bound(self, db: sqlite3.Connection) -> None:
        """Drop the oldest-written quarter of the values when the live data pass
        ``max_bytes`` (freed pages are reused; the file does not shrink)."""
        (size,), (pages,), (free,) = (db.execute(f"PRAGMA {p}").fetchone()
                                      for p in ("page_size", "page_count", "freelist_count"))
        if (pages - free) * size <= self.max_bytes:
            return
        (rows,) = db.execute("SELECT count(*) FROM ppl").fetchone()
        with db:
            db.execute("DELETE FROM ppl WHERE rowid IN (SELECT rowid FROM ppl ORDER BY rowid LIMIT ?)",
                       (max(1, rows // 4),))


S = TypeVar("S", bound=ValueStore[Any])


class PerplexityStore(ValueStore[float | None]):
    """The perplexities of one LM configuration in the machine's perplexity file: each
    value as its 8 IEEE-754 bytes (``NULL`` for a text with nothing to score)."""

    def _encode(self, value: float | None) -> bytes | None:
        return _pack(value)

    def _valid(self, text: str, value: object) -> bool:
        return valid(text, value)

    def _decode(self, blob: Any) -> float | None | object:
        if blob is None:
            return None
        if isinstance(blob, bytes) and len(blob) == 8:
            return float(struct.unpack("<d", blob)[0])
        return MISS


def cached_perplexities(texts: Sequence[str], memo: dict[str, float | None],
                        store: PerplexityStore | None,
                        compute: Callable[[list[str]], list[float | None]]) -> list[float | None]:
    """Perplexity of each text: from ``memo`` (this process), else from ``store`` (this
    machine), else ``compute`` d for the distinct texts left (and stored)."""
    todo = [t for t in dict.fromkeys(texts) if t not in memo]
    if todo and store is not None:
        found = store.get(todo)
        memo.update(found)
        todo = [t for t in todo if t not in found]
    new = dict(zip(todo, compute(todo))) if todo else {}
    memo.update(new)
    if new and store is not None:
        store.put(new)
    return [memo[t] for t in texts]


# --- what a value depends on ----------------------------------------------------------------
def model_identity(where: str, gguf: str | None, model: Any = None) -> str | None:
    """What identifies a model's content: the sha256 of its GGUF file, of every file of its
    folder, or a hub model's commit (``model.config._commit_hash``, set by
    ``from_pretrained``); ``None`` when none of these is known."""
    if gguf:
        return "gguf-sha256:" + file_sha256(Path(where) / gguf)
    folder = Path(where)
    if folder.is_dir():
        return "folder-sha256:" + folder_sha256(folder)
    commit = getattr(getattr(model, "config", None), "_commit_hash", None)
    return f"hub:{where}@{commit}" if isinstance(commit, str) and commit else None


def folder_sha256(folder: Path) -> str:
    """One sha256 over every file under ``folder`` (names and contents; hidden entries such
    as ``.git`` left out): about a second a gigabyte, once per process."""
    digest = hashlib.sha256()
    files = sorted(p for p in folder.rglob("*") if p.is_file()
                   and not any(part.startswith(".") for part in p.relative_to(folder).parts))
    for path in files:
        digest.update(f"{path.relative_to(folder).as_posix()}\0{file_sha256(path)}\n".encode())
    return digest.hexdigest()


def code_digest() -> str | None:
    """A hash of chatmatch's code that computes a perplexity (:data:`CODE_FILES`)."""
    here = Path(__file__).parent
    try:
        return hashlib.sha256(b"".join((here / name).read_bytes() for name in CODE_FILES)).hexdigest()
    except OSError:  # not installed as files: no safe key
        return None


def fingerprint(identity: str | None, engine: str, settings: Mapping[str, Any],
                libraries: Sequence[str]) -> str | None:
    """The key of an LM configuration (a JSON text, readable in the file's ``models``
    table), or ``None`` when the model or the code cannot be identified."""
    code = code_digest()
    if identity is None or code is None:
        return None
    versions = {name: _version(name) for name in libraries}
    return json.dumps({"model": identity, "engine": engine, **settings, "versions": versions,
                       "code": code, "machine": platform.machine(), "schema": SCHEMA_VERSION},
                      sort_keys=True)


def device_name(device: Any) -> str:
    """The device type, with the GPU's name for CUDA (``cuda:NVIDIA H100 ...``)."""
    import torch

    dev = torch.device(device)
    if dev.type == "cuda":
        return f"cuda:{torch.cuda.get_device_name(dev)}"
    return dev.type


def library_version(distribution: str) -> str:
    """The installed version of ``distribution`` (``absent`` when it is not installed)."""
    return _version(distribution)


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "absent"

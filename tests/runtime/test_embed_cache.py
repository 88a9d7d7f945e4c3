"""The persistent embedding cache (chatmatch.runtime.embed_cache): a vector read back is bit
for bit the one computed, a warm embedder never loads its model, writers at once (threads
with their own connections, as processes or Ray workers have) all succeed, a damaged row or
a switched-off cache costs speed only."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

from chatmatch.runtime.resources import CACHE_ENV, RESOURCES, MissingResource
from chatmatch.runtime.embed_cache import SWITCH_ENV, EmbeddingStore

TEXTS = ["hi there, how are you?", "i like tea", "What music do you like?", "", "i like tea"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    monkeypatch.setenv(SWITCH_ENV, "1")
    RESOURCES.clear()
    yield tmp_path
    RESOURCES.clear()


def vec(i: int) -> np.ndarray:
    """A unit vector (the encoder normalises its vectors; the cache keeps only such)."""
    v = np.random.default_rng(i).standard_normal(8)
    return (v / np.linalg.norm(v)).astype(np.float32)


def test_vectors_round_trip_bit_for_bit_and_a_bad_row_is_a_miss(cache: Path) -> None:
    path = cache / "e.sqlite"
    EmbeddingStore(lambda: "k", path).put({"a": vec(1), "b": vec(2)})
    got = EmbeddingStore(lambda: "k", path).get(["a", "b", "c"])
    assert set(got) == {"a", "b"} and got["a"].tobytes() == vec(1).tobytes()
    assert EmbeddingStore(lambda: "other", path).get(["a"]) == {}  # another encoder's key
    with sqlite3.connect(path) as db:
        db.execute("UPDATE ppl SET value = ?", (b"xyz",))  # 3 bytes: not float32s
    assert EmbeddingStore(lambda: "k", path).get(["a", "b"]) == {}


def test_switched_off_nothing_is_read_or_written(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = cache / "e.sqlite"
    monkeypatch.setenv(SWITCH_ENV, "0")
    EmbeddingStore(lambda: "k", path).put({"a": vec(1)})
    assert not path.exists()


def test_concurrent_writers_all_succeed(cache: Path) -> None:
    path = cache / "e.sqlite"
    EmbeddingStore(lambda: "k", path).put({"seed": vec(0)})  # the file exists before the race

    def writer(k: int) -> None:
        store = EmbeddingStore(lambda: "k", path)  # its own connection, as a worker has
        for batch in range(10):
            store.put({f"{k}-{batch}-{i}": vec(i) for i in range(30)})
        assert not store._off

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    back = EmbeddingStore(lambda: "k", path).get([f"{k}-9-29" for k in range(4)])
    assert all(v.tobytes() == vec(29).tobytes() for v in back.values()) and len(back) == 4
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM ppl").fetchone() == (4 * 10 * 30 + 1,)


@pytest.mark.slow
def test_a_warm_embedder_never_loads_minilm_and_gives_the_same_bits(cache: Path) -> None:
    pytest.importorskip("torch")
    from chatmatch.runtime.embed import MINILM, get_embedder, model_folder

    try:
        model_folder(MINILM)
    except MissingResource as exc:
        pytest.skip(str(exc))
    cold = get_embedder(MINILM)
    first = cold.embed(TEXTS)
    assert cold.loaded and (cache / "embeddings" / EmbeddingStore.FILE).is_file()
    RESOURCES.clear()  # as a new process
    warm = get_embedder(MINILM)

    def refuse() -> Any:
        raise AssertionError("the encoder was loaded")

    warm._load = refuse
    again = warm.embed(TEXTS)
    assert not warm.loaded and again.tobytes() == first.tobytes()


@pytest.mark.parametrize("bad", [np.zeros(8, np.float32), np.full(8, 3e38, np.float32),
                                 vec(5)[:6] / np.linalg.norm(vec(5)[:6]), vec(6) * 2],
                         ids=["zeros", "3e38", "wrong-length", "not-unit"])
def test_a_row_no_encoder_makes_is_dropped_and_computed_again(cache: Path, bad: np.ndarray) -> None:
    path = cache / "e.sqlite"
    EmbeddingStore(lambda: "k", path, dim=8).put({"a": vec(1), "b": vec(2)})
    with sqlite3.connect(path) as db:
        (row,) = db.execute("SELECT rowid FROM ppl LIMIT 1").fetchone()
        db.execute("UPDATE ppl SET value = ? WHERE rowid = ?",
                   (np.asarray(bad, dtype="<f4").tobytes(), row))
    got = EmbeddingStore(lambda: "k", path, dim=8).get(["a", "b"])
    assert len(got) == 1 and all(v.shape == (8,) for v in got.values())
    with sqlite3.connect(path) as db:  # the lying row is gone: computed and stored again
        assert db.execute("SELECT count(*) FROM ppl").fetchone() == (1,)


def test_the_encoders_vector_length_is_read_from_its_config(tmp_path: Path) -> None:
    from chatmatch.runtime.embed_cache import embedding_store

    (tmp_path / "config.json").write_text('{"hidden_size": 384}')
    assert embedding_store(str(tmp_path), 256).dim == 384
    assert embedding_store(str(tmp_path / "none"), 256).dim is None


@pytest.mark.parametrize("problem", ["file-in-the-way", "read-only"])
def test_its_problems_are_reported_as_the_embedding_caches(cache: Path, problem: str,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    import os

    if problem == "file-in-the-way":
        (cache / "embeddings").write_text("not a folder")
        store = EmbeddingStore(lambda: "k")
    else:
        if os.geteuid() == 0:
            pytest.skip("root writes into read-only folders")
        ro = cache / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        store = EmbeddingStore(lambda: "k", ro / "e.sqlite")
    store.put({"a": vec(1)})
    assert store.get(["a"]) == {}
    text = caplog.text
    assert "embedding cache" in text and "computing embeddings without it" in text
    assert "perplexit" not in text

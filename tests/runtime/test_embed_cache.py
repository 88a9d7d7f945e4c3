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
    return np.random.default_rng(i).standard_normal(8).astype(np.float32)


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

"""Family 7 of issue 35, caches that lie: a value read from the perplexity cache is checked
like a computed one (a finite perplexity of at least 1, or None for a blank text only); a
row holding NULL, NaN, an infinity or a negative number at a real text's key is dropped
and computed again, never handed to a scorer."""

from __future__ import annotations

import sqlite3
import struct
from pathlib import Path

import pytest

from chatmatch.runtime.lm.cache import SWITCH_ENV, PerplexityStore, cached_perplexities, text_key

TEXTS = ["i like tea", "the cat is very good", "what do you like", "a dog is good", "", "you"]
TRUE = {t: 10.0 + i for i, t in enumerate(TEXTS) if t}
TRUE[""] = None


def _compute(calls: list[list[str]]):
    def compute(todo: list[str]) -> list[float | None]:
        calls.append(list(todo))
        return [TRUE[t] for t in todo]
    return compute


def _lie(path: Path, text: str, value: bytes | None) -> None:
    with sqlite3.connect(path) as db:
        db.execute("UPDATE ppl SET value = ? WHERE text = ?", (value, text_key(text)))


@pytest.mark.parametrize("lie", [None, struct.pack("<d", float("nan")),
                                 struct.pack("<d", float("inf")), struct.pack("<d", -3.0),
                                 struct.pack("<d", 0.5), b"\x00\x01"])
def test_a_lying_row_is_dropped_and_recomputed(tmp_path, monkeypatch, lie):
    monkeypatch.setenv(SWITCH_ENV, "1")
    path = tmp_path / "c.sqlite"
    calls: list[list[str]] = []
    cached_perplexities(TEXTS, {}, PerplexityStore(lambda: "key", path), _compute(calls))
    _lie(path, "you", lie)
    got = cached_perplexities(TEXTS, {}, PerplexityStore(lambda: "key", path), _compute(calls))
    assert got == [TRUE[t] for t in TEXTS]
    assert calls[1:] == [["you"]]  # only the bad row is computed again ...
    store = PerplexityStore(lambda: "key", path)
    assert store.get(["you"]) == {"you": TRUE["you"]}  # ... and stored in its place


def test_none_is_trusted_for_a_blank_text_only(tmp_path, monkeypatch):
    monkeypatch.setenv(SWITCH_ENV, "1")
    store = PerplexityStore(lambda: "key", tmp_path / "c.sqlite")
    store.put({"": None, "   ": None, "a real text": None, "fine": 12.5})
    assert PerplexityStore(lambda: "key", tmp_path / "c.sqlite").get(
        ["", "   ", "a real text", "fine"]) == {"": None, "   ": None, "fine": 12.5}

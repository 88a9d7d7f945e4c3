"""RUN/annotations.sqlite: one row per answer, judging twice, several writers, a kill."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from chatmatch.annotate.items import Item, Side
from chatmatch.annotate.store import AnnotationsError, AnnotationStore

ROOT = Path(__file__).resolve().parents[2]


def _item(i: int) -> Item:
    return Item(f"g{i:03d}", Side(f"g{i:03d}", "x"), Side(f"g{i:03d}", "y"))


def test_save_new_same_replaced(tmp_path):
    store = AnnotationStore.open(tmp_path, create=True)
    assert store.save("ann", _item(1), {"overall": "a", "diversity": "tie"}) == "new"
    assert store.save("ann", _item(1), {"overall": "a", "diversity": "tie"}) == "same"
    assert store.save("ann", _item(1), {"overall": "b", "diversity": "tie"}) == "replaced"
    rows = store.judgements()
    assert [(j.question, j.answer) for j in rows] == [("overall", "b"), ("diversity", "tie")]
    assert rows[0].bot_a == "x" and rows[0].score_a == 0.0
    assert store.answers("ann", "g001") == {"overall": "b", "diversity": "tie"}
    with pytest.raises(ValueError, match="answers must be one of"):
        store.save("ann", _item(1), {"overall": "maybe"})
    con = sqlite3.connect(tmp_path / "annotations.sqlite")  # the constraint holds in SQL too
    with pytest.raises(sqlite3.IntegrityError):
        con.execute("INSERT INTO judgements (annotator, item, question, game_a, bot_a, game_b, "
                    "bot_b, answer, created, updated) VALUES ('ann', 'g001', 'overall', "
                    "'g', 'x', 'g', 'y', 'a', 't', 't')")
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_several_writers_at_once(tmp_path):
    AnnotationStore.open(tmp_path, create=True)
    errors: list[BaseException] = []

    def work(name: str) -> None:
        try:
            store = AnnotationStore.open(tmp_path, create=True)  # each its own, like requests
            for i in range(40):
                store.save(name, _item(i), {"overall": "a", "fluency": "b"})
                store.set_current(name, f"g{i + 1:03d}")
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(f"a{k}",)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    store = AnnotationStore.open(tmp_path, create=False)
    assert len(store.judgements()) == 4 * 40 * 2
    assert all(len(w) == 4 for w in store.judged_by().values())
    assert store.current("a0") == "g040"


_WRITER = """
import sys
from pathlib import Path
from chatmatch.annotate.items import Item, Side
from chatmatch.annotate.store import AnnotationStore
store = AnnotationStore.open(Path(sys.argv[1]), create=True)
for i in range(100000):
    store.save("ann", Item(f"g{i}", Side(f"g{i}", "x"), Side(f"g{i}", "y")), {"overall": "a"})
    print(i, flush=True)
"""


def test_a_killed_writer_loses_nothing_committed(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(tmp_path)], stdout=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None
    for line in proc.stdout:
        if int(line) >= 30:
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    committed = int(line) + 1  # every printed save was committed before it was printed
    store = AnnotationStore.open(tmp_path, create=False)  # passes the integrity check
    assert len(store.judgements()) >= committed


def test_damaged_file_is_one_clear_message(tmp_path):
    (tmp_path / "annotations.sqlite").write_bytes(b"this is not a database" * 100)
    for create in (True, False):
        with pytest.raises(AnnotationsError, match=r"damaged annotations file .*move it away"):
            AnnotationStore.open(tmp_path, create=create)


def test_another_sqlite_file_or_version_is_refused(tmp_path):
    con = sqlite3.connect(tmp_path / "annotations.sqlite")
    con.execute("CREATE TABLE notes (x)")
    con.commit()
    con.close()
    with pytest.raises(AnnotationsError, match="not a chatmatch annotations file"):
        AnnotationStore.open(tmp_path, create=False)
    other = tmp_path / "v2"
    other.mkdir()
    AnnotationStore.open(other, create=True)
    con = sqlite3.connect(other / "annotations.sqlite")
    con.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    con.commit()
    con.close()
    with pytest.raises(AnnotationsError, match="schema version 99"):
        AnnotationStore.open(other, create=True)


def test_no_file_yet_says_how_to_make_one(tmp_path):
    with pytest.raises(AnnotationsError, match="no annotations yet; start the annotation page"):
        AnnotationStore.open(tmp_path, create=False)
    assert not (tmp_path / "annotations.sqlite").exists()  # reading never creates it


def test_a_folder_that_cannot_hold_the_file_is_not_called_damaged(tmp_path):
    store = AnnotationStore(tmp_path / "gone" / "annotations.sqlite", readonly=False)
    with pytest.raises(AnnotationsError, match="the annotations file is gone .*restore it"):
        store.save("ann", _item(1), {"overall": "a"})

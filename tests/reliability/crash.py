"""``python -m tests.reliability.crash ARGS...``: the ``chatmatch`` command, killed by a real
``SIGKILL`` at a chosen durable write -- deterministic crash points for the kill/resume
test, instead of sleeps and timing.

``CHATMATCH_TEST_CRASH=OP:N:MODE`` kills the process at the N-th write of kind OP in this
process:

* OP: ``transcript``, ``scores``, ``ranking``, ``manifest``, ``config``,
  ``results_rewrite`` (atomic writes, told apart by path) or ``result`` (an append to
  ``results.jsonl``);
* MODE: ``before`` (nothing of that write done), ``torn`` (half of it written: the
  temporary file of an atomic write, or half a line of an append, fsynced) or ``after``
  (the write done, nothing after it).
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Any

OPS = ("transcript", "scores", "ranking", "manifest", "config", "results_rewrite", "result")
MODES = ("before", "torn", "after")


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _kind(path: Path) -> str:
    if path.parent.name in ("transcripts", "scores", "rankings"):
        return {"transcripts": "transcript", "scores": "scores", "rankings": "ranking"}[path.parent.name]
    return {"manifest.json": "manifest", "config.yaml": "config",
            "results.jsonl": "results_rewrite"}.get(path.name, "other")


def install(spec: str) -> None:
    import chatmatch.rundir.store as store

    op, n, mode = spec.split(":")
    target, count = int(n), {"n": 0}
    assert op in OPS and mode in MODES, spec
    real_write, real_append = store.atomic_write, store.RunDir.append_result

    def hit(kind: str) -> bool:
        if kind != op:
            return False
        count["n"] += 1
        return count["n"] == target

    def atomic_write(path: Path, text: str, **kw: Any) -> None:
        if not hit(_kind(path)):
            return real_write(path, text, **kw)
        if mode == "before":
            _die()
        if mode == "torn":  # the temporary file, half written, as a kill mid-write leaves it
            tmp = path.parent / f".{path.name}.crash{store.TMP_SUFFIX}"
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(text[: len(text) // 2])
                fh.flush()
                os.fsync(fh.fileno())
            _die()
        real_write(path, text, **kw)
        _die()

    def append_result(self: Any, result: Any, scores_sha256: Any = None) -> None:
        if not hit("result"):
            return real_append(self, result, scores_sha256)
        if mode == "before":
            _die()
        if mode == "torn":
            full = self.path / store.RESULTS
            before = full.read_bytes() if full.exists() else b""
            real_append(self, result, scores_sha256)
            data = full.read_bytes()
            with open(full, "wb") as fh:  # keep half of the new line
                fh.write(data[: len(before) + (len(data) - len(before)) // 2])
                fh.flush()
                os.fsync(fh.fileno())
            _die()
        real_append(self, result, scores_sha256)
        _die()

    store.atomic_write = atomic_write  # RunDir's methods look it up here
    store.RunDir.append_result = append_result  # type: ignore[method-assign]


if __name__ == "__main__":
    spec = os.environ.get("CHATMATCH_TEST_CRASH")
    if spec:
        install(spec)
    from chatmatch.cli import main

    sys.argv = ["chatmatch", *sys.argv[1:]]
    main()

"""The file ``results.jsonl`` of a run directory, line by line: each line is
``{"record": GameResult, "sha256": sha256(record), "scores_sha256": sha256(scores file)}``
(:func:`result_line`). Reading it (:func:`read_result_lines`) is bounded: a regular file
of at most :data:`MAX_RESULTS_BYTES`, lines of at most :data:`MAX_RESULT_LINE` (longer
ones are read in pieces and reported damaged, never held whole). Which of the undamaged
lines a run may trust is decided by :func:`chatmatch.rundir.integrity.cross_check_results`.
"""

from __future__ import annotations

import errno
import hashlib
import json
from pathlib import Path
from typing import Any, Iterator

from chatmatch.common.safeio import check_regular
from chatmatch.errors import RunDirError, StorageError
from chatmatch.records import GameResult, nan_to_none

#: one undamaged line: (line number, result, the ``scores_sha256`` it records or None)
ResultLine = tuple[int, GameResult, "str | None"]


def dumps(obj: Any) -> str:
    """Strict JSON (NaN written as null), stable key order."""
    return json.dumps(nan_to_none(obj), ensure_ascii=False, sort_keys=True, allow_nan=False)



#: largest results.jsonl read, and longest line of it (a line is a few kB)
MAX_RESULTS_BYTES = 2**30
MAX_RESULT_LINE = 16 * 2**20


def _bounded_lines(fh: Any, limit: int) -> Iterator[str]:
    """The lines of ``fh``; a line longer than ``limit`` is read in pieces and given as its
    first ``limit + 1`` characters (never held whole)."""
    while True:
        line = fh.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith("\n"):
            rest = line
            while rest and not rest.endswith("\n"):
                rest = fh.readline(limit)
        yield line


def checksum(record: dict[str, Any]) -> str:
    return hashlib.sha256(dumps(record).encode()).hexdigest()


def result_line(result: GameResult, scores_sha256: str | None) -> str:
    record = result.to_json()
    entry: dict[str, Any] = {"record": nan_to_none(record), "sha256": checksum(record)}
    if scores_sha256 is not None:
        entry["scores_sha256"] = scores_sha256
    return json.dumps(entry, ensure_ascii=False, sort_keys=True)


def check_results_file(p: Path) -> None:
    """Refuse a results file that cannot be this run's (a folder, a device such as
    /dev/zero behind a link, more than :data:`MAX_RESULTS_BYTES`) before anything is read
    or printed; a missing one is fine (a new run)."""
    if not p.exists() and not p.is_symlink():
        return
    if p.is_dir():
        raise RunDirError(f"{p}: must be a file of the run, but is a folder; move it away")
    try:
        size = check_regular(p).st_size  # /dev/zero behind a symlink: one endless line
    except OSError as exc:
        if exc.errno == errno.EINVAL:  # a device, a pipe: not this run's file
            raise RunDirError(f"{p}: cannot read ({exc.strerror}); it is not this run's "
                              "results file: move it away and run `chatmatch run` again to "
                              "score the games from their transcripts") from None
        raise StorageError.from_os_error(exc, p, "read") from None
    if size > MAX_RESULTS_BYTES:
        raise RunDirError(f"{p}: {size / 2**30:,.1f} GiB, more than the "
                          f"{MAX_RESULTS_BYTES // 2**30} GiB a results file of a run can hold "
                          "(a result line has a few kB); it is not this run's file: move it "
                          "away and run `chatmatch run` again to score the games from their "
                          "transcripts")


def read_result_lines(p: Path) -> tuple[list[ResultLine], list[str]]:
    """The undamaged lines of ``p`` (none when it is missing) and one warning per damaged
    line (torn, edited under its checksum, too long)."""
    if not p.exists():
        return [], []
    check_results_file(p)
    try:
        fh_cm = open(p, encoding="utf-8", errors="replace")
    except OSError as exc:
        raise StorageError.from_os_error(exc, p, "read") from None
    lines: list[ResultLine] = []
    warnings: list[str] = []
    with fh_cm as fh:
        for n, raw in enumerate(_bounded_lines(fh, MAX_RESULT_LINE), 1):
            if not raw.strip():
                continue
            try:
                lines.append((n, *_parse(raw)))
            except _Damaged as exc:
                what = (f"game {exc.game} is scored again from its transcript" if exc.game
                        else "it names no game, and `chatmatch run` removes it")
                warnings.append(f"{p}:{n}: ignored a damaged result line ({exc}); {what}")
    return lines, warnings


class _Damaged(ValueError):
    """Why a result line cannot be used, in plain words, and the game it names (if any)."""

    def __init__(self, why: str, game: str | None = None) -> None:
        super().__init__(why)
        self.game = game


def _parse(raw: str) -> tuple[GameResult, str | None]:
    if len(raw) > MAX_RESULT_LINE:
        raise _Damaged(f"a line of more than {MAX_RESULT_LINE // 2**20} MiB")
    try:
        entry = json.loads(raw)
    except RecursionError:
        raise _Damaged("JSON nested too deeply to read") from None
    except ValueError:
        raise _Damaged("not JSON: torn or edited") from None
    rec = entry.get("record") if isinstance(entry, dict) else None
    if not isinstance(rec, dict) or "sha256" not in entry:
        raise _Damaged("not a result record: no 'record' and 'sha256'")
    game = rec.get("game_id") if isinstance(rec.get("game_id"), str) else None
    try:
        if entry["sha256"] != checksum(rec):
            raise _Damaged("checksum mismatch", game)
        result = GameResult.from_json(rec)
    except _Damaged:
        raise
    except ValueError as exc:  # a number out of range, named by the record model
        raise _Damaged(str(exc), game) from None
    except (KeyError, TypeError, AttributeError, RecursionError):
        raise _Damaged("not a result record: a field is missing or of the wrong type", game) from None
    digest = entry.get("scores_sha256")
    return result, digest if isinstance(digest, str) else None

"""Writing a file so that it is either the old version or the new one, never half written:
a temporary file, ``fsync``, an atomic rename, ``fsync`` of the folder. Every file chatmatch
writes goes through :func:`atomic_write` (a run directory's own files, ``report --out``,
exports, plots, the judges' records); :mod:`chatmatch.rundir.store` re-exports it.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import TextIO

from chatmatch.common.safeio import file_kind
from chatmatch.errors import StorageError

#: temporary files of atomic_write end with this; a killed run may leave some behind
TMP_SUFFIX = ".tmp"


def atomic_write(path: Path, text: str | bytes, *, own: bool = False) -> None:
    """Write ``text`` (str: UTF-8; or bytes, e.g. a PNG) to a temporary file, fsync it, rename it over ``path``. An
    ``OSError`` (disk full, read-only folder, a file in the way) becomes a one-line
    :class:`StorageError` naming the path; the old file is left as it was. A path that is
    a symbolic link, a named pipe, a device or a socket is refused: the rename would
    replace it (a link or ``/dev/null`` turned into a regular file). ``own``: ``path`` is
    one of a run directory's own files (no path the user gave), which the advice says."""
    kind = not_a_file(path)
    if kind is not None:
        raise StorageError(_in_the_way(path, kind, own))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TMP_SUFFIX, dir=path.parent)
    except OSError as exc:
        raise StorageError.from_os_error(exc, path) from None
    try:
        os.fchmod(fd, 0o666 & ~current_umask())  # mkstemp makes it 0600: as open() would
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8") if isinstance(text, str) else text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise StorageError.from_os_error(exc, path) from None
        raise
    fsync_dir(path.parent)


def current_umask() -> int:
    """The process's umask, read without changing it (``/proc/self/status`` on Linux);
    elsewhere set and restored at once."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _in_the_way(path: Path, kind: str, own: bool) -> str:
    """The refusal of writing ``path``, which is ``kind`` (a link names its target)."""
    try:
        link = os.readlink(path) if kind == "a symbolic link" else None
    except OSError:
        link = None
    target = f" (a link to {link})" if link else ""
    if own and (path.name == "manifest.json" or path.parent.name == "transcripts"):
        # the run's record: moving it away would lose the league record or a played game
        how = (f"replace the link with a copy of the file it points to (cp --remove-destination "
               f"{link} {path})" if link else f"put the real {path.name} back in its place")
        return (f"{path}: is {kind}, not a regular file{target}, and chatmatch writes this file "
                "of the run by renaming a new file into place, which would replace it: "
                f"{how} and run the same command again")
    if own:
        return (f"{path}: is {kind}, not a regular file{target}, and chatmatch writes this file "
                "of the run by renaming a new file into place, which would replace it: move "
                f"{path} away (it is written again) and run the same command again")
    return (f"{path}: is {kind}, not a regular file{target}; chatmatch writes a new file and "
            "renames it into place, which would replace it: give the path of a regular file "
            "(or of a new one)")


def open_append(path: Path) -> TextIO:
    """``path``, one of a run directory's own files that grow by appending (``results.jsonl``,
    ``bot_errors.jsonl``, the ``.lock`` file), opened for appending UTF-8 text; created with
    the permissions of a file you create when missing. Like :func:`atomic_write`, it never
    writes through a symbolic link (into a file outside the run) and never opens a named
    pipe or a device (the open would block for ever): such a path is refused with a one-line
    :class:`StorageError` naming it, as is any other ``OSError``."""
    kind = not_a_file(path)
    if kind is not None:
        raise StorageError(_append_in_the_way(path, kind))
    flags = (os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
             | getattr(os, "O_NONBLOCK", 0))
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        kind = not_a_file(path)  # put there since the check above
        if kind is not None:
            raise StorageError(_append_in_the_way(path, kind)) from None
        raise StorageError.from_os_error(exc, path) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise StorageError(_append_in_the_way(path, file_kind(mode)))
    os.set_blocking(fd, True)
    return os.fdopen(fd, "a", encoding="utf-8")


def _append_in_the_way(path: Path, kind: str) -> str:
    """The refusal of appending to ``path``, which is ``kind`` (a link names its target)."""
    try:
        link = os.readlink(path) if kind == "a symbolic link" else None
    except OSError:
        link = None
    target = f" (a link to {link})" if link else ""
    return (f"{path}: is {kind}, not a regular file{target}, and chatmatch appends to this "
            "file of the run, which would write through the link or wait on the pipe for "
            f"ever: move {path} away (it is written again) and run the same command again")


def not_a_file(path: Path) -> str | None:
    """What ``path`` is when it exists and is neither a regular file nor a folder (a folder
    is refused by the rename itself, with its own message); None otherwise."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) or stat.S_ISDIR(mode) else file_kind(mode)


def fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)

"""Reading files chatmatch did not necessarily write (a run directory someone edited, a
folder of logs, a YAML file) without hanging or filling memory.

:func:`read_bounded` is the one way such a file is read: it must be a regular file (a
named pipe would block the open for ever, ``/dev/zero`` or ``/dev/urandom`` never end --
also behind a symlink) and at most ``limit`` bytes. Problems are ``OSError`` s with a
readable ``strerror``, so every caller's existing "cannot read PATH (...)" message applies.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

#: largest file of a run directory read whole (a transcript, a score record, the manifest)
MAX_RUN_FILE_BYTES = 256 * 2**20


def check_regular(path: str | Path) -> os.stat_result:
    """``os.stat`` of ``path`` (following symlinks); ``OSError`` when it is not a regular
    file (a pipe, a device, a socket), before anything could block on opening it."""
    st = os.stat(path)
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "a folder, not a regular file", str(path))
    if not stat.S_ISREG(st.st_mode):
        raise OSError(errno.EINVAL, f"{file_kind(st.st_mode)}, not a regular file", str(path))
    return st


def read_bounded(path: str | Path, limit: int = MAX_RUN_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path``, refused (``OSError``) beyond ``limit``."""
    check_regular(path)
    with open(path, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit // 2**20} MiB, more than chatmatch reads",
                      str(path))
    return data


def read_text_bounded(path: str | Path, limit: int = MAX_RUN_FILE_BYTES) -> str:
    """:func:`read_bounded` decoded as UTF-8 (``UnicodeDecodeError`` when it is not); a
    byte-order mark (a CSV saved by a spreadsheet) is dropped."""
    return read_bounded(path, limit).decode("utf-8-sig")


def why_unreadable(exc: OSError | UnicodeDecodeError) -> str:
    """The true reason a file given by the user could not be read, for a message of the
    form ``cannot read WHAT PATH (REASON)``: missing, a folder, a pipe or a device, too
    large, permission denied, not UTF-8."""
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text: bad byte at offset {exc.start}; save it as UTF-8"
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, PermissionError):
        return "permission denied"
    return exc.strerror or str(exc)


def file_problem(path: str | Path) -> str | None:
    """Why ``path`` is not a regular file chatmatch can open ("no such file", "a named pipe,
    not a regular file", "a folder, not a regular file", ...), None when it is one: the one
    wording for an input checked before it is read."""
    try:
        check_regular(path)
    except OSError as exc:
        return why_unreadable(exc)
    return None


def folder_problem(path: str | Path) -> str | None:
    """Why ``path`` is not a folder ("no such folder", "a file, not a folder", "a named
    pipe, not a folder", ...), None when it is one."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return "no such folder"
    except OSError as exc:
        return why_unreadable(exc)
    if stat.S_ISDIR(st.st_mode):
        return None
    return f"{file_kind(st.st_mode)}, not a folder"


def file_kind(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, in the words of every message ("a named
    pipe", "a device", "a symbolic link" for an ``lstat`` mode, ...)."""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISREG(mode):
        return "a file"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a socket" if stat.S_ISSOCK(mode) else "a special file"

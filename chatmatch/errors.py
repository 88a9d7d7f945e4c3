"""Errors meant for users. The CLI prints them without a traceback and exits non-zero.

Every message says what was wrong, where, and how to fix it.
"""

from __future__ import annotations


class ChatmatchError(Exception):
    """Base class of every error chatmatch shows to a user (exit status 2)."""

    exit_code = 2


class ConfigError(ChatmatchError):
    """A tournament or scoring YAML that cannot be used.

    Rendered as ``file:line: key.path: message``.
    """

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 path: str | None = None) -> None:
        self.file = file
        self.line = line
        self.path = path
        self.message = message
        super().__init__(self.render())

    def render(self) -> str:
        where = ""
        if self.file:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        key = f"{self.path}: " if self.path else ""
        return f"{where}{key}{self.message}"


class TranscriptError(ChatmatchError):
    """A transcript file that cannot be read (rendered as ``file:line: message``)."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None) -> None:
        self.file = file
        self.line = line
        self.message = message
        where = f"{file}:{line}: " if file and line else (f"{file}: " if file else "")
        super().__init__(f"{where}{message}")


class BotError(ChatmatchError):
    """A bot that failed to load or to reply."""


class RunDirError(ChatmatchError):
    """A run directory that is missing, incomplete or inconsistent."""


class StorageError(RunDirError):
    """A file or folder that cannot be read or written (disk full, read-only, a file
    where a folder belongs, ...): one line naming the path and what to do."""

    @classmethod
    def from_os_error(cls, exc: OSError, path: object = None, doing: str = "write") -> "StorageError":
        return cls(os_error_message(exc, path, doing))


def _in_the_way(path: object) -> str:
    """What stands where a folder of ``path`` belongs: ``a file``, ``a device (/dev/full)``,
    ... (the first part of the path that exists and is not a folder)."""
    import os
    import stat

    if not isinstance(path, (str, os.PathLike)):
        return "a file"
    probe = os.fspath(path)
    while probe:
        try:
            mode = os.lstat(probe).st_mode
        except OSError:
            mode = None
        if mode is not None and not stat.S_ISDIR(mode):
            kind = ("a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
                    "a pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else
                    "a link" if stat.S_ISLNK(mode) else "a file")
            return f"{kind} ({probe})"
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        probe = parent
    return "a file"


def os_error_message(exc: OSError, path: object = None, doing: str = "write") -> str:
    """``PATH: cannot DOING (reason); what to do`` for an ``OSError``."""
    import errno

    where = path if path is not None else (exc.filename or "the output (standard output)")
    reason = exc.strerror or type(exc).__name__
    full = ("free some disk space and run the same command again (what was written before, "
            "finished games included, is kept)")
    in_the_way = "{} is in the way of a folder chatmatch needs: move it away, or choose another folder (--out)"
    hints = {
        errno.ENOSPC: full,
        errno.EDQUOT: full,
        errno.EROFS: "the file system is read-only: choose a writable folder (--out)",
        errno.EACCES: "make the folder writable (or readable) for you, or choose another folder (--out)",
        errno.EPERM: "make the folder writable (or readable) for you, or choose another folder (--out)",
        errno.EISDIR: "a folder is in the way of a file chatmatch writes: move it away, or choose "
                      "another folder (--out)",
        errno.ENOTDIR: in_the_way,
        errno.EEXIST: in_the_way,
        errno.ENOENT: "check that the path exists",
    }
    hint = hints.get(exc.errno or -1, "check the path and run the same command again")
    if hint is in_the_way:  # only then is the path walked to name what stands there
        hint = in_the_way.format(_in_the_way(exc.filename if path is None else path))
    return f"{where}: cannot {doing} ({reason}); {hint}"

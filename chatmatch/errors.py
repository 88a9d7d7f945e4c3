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

"""Progress for CLI commands: see :mod:`chatmatch.progress` (``Reporter``, ``reporter``)."""

from chatmatch.progress import Bar, Reporter, fmt_duration, reporter

__all__ = ["Bar", "Reporter", "fmt_duration", "reporter"]

"""Errors raised by scorers (a model that cannot be loaded, a bad model name, ...)."""

from __future__ import annotations

from chatmatch.errors import ChatmatchError


class ScoringError(ChatmatchError):
    """A scorer that cannot run: its model is missing or unreadable."""

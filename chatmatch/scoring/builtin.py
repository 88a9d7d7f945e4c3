"""Import every built-in dimension module so that :data:`SCORERS` holds all seven."""

from __future__ import annotations

#: The paper's seven dimensions, in the order results are shown.
DIMENSIONS = ("fluency", "knowledge", "proactivity", "specificity", "diversity",
              "consistency", "relevance")


def load_builtin_scorers() -> None:
    """Register the built-in scorers (idempotent; the registry also runs it lazily)."""
    from chatmatch.scoring import (consistency, diversity, fluency, knowledge,  # noqa: F401
                                   proactivity, relevance, specificity)

"""Where adapters keep what is expensive to rebuild (trained databases, indexes).

``$CHATMATCH_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/chatmatch``, else
``~/.cache/chatmatch``. Everything written there can be deleted at any time: adapters
rebuild it on their next :meth:`~chatmatch.bot.Bot.load`. Writers build into a temporary
sibling and rename it into place, so concurrent processes never read half a file.
"""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "CHATMATCH_CACHE_DIR"


def cache_dir(*parts: str) -> Path:
    """The (created) cache folder for ``parts``, e.g. ``cache_dir("retrieval")``."""
    root = os.environ.get(CACHE_ENV)
    if not root:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = os.path.join(xdg, "chatmatch") if xdg else os.path.expanduser("~/.cache/chatmatch")
    path = Path(root, *parts)
    path.mkdir(parents=True, exist_ok=True)
    return path

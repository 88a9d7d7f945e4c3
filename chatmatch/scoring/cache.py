"""Where chatmatch keeps files it builds once and reuses (the n-gram model).

``$CHATMATCH_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/chatmatch``, else
``~/.cache/chatmatch``.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    explicit = os.environ.get("CHATMATCH_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "chatmatch"

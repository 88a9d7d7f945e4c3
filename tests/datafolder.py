"""Where the tests find the lab's public datasets: ``$CHATMATCH_DATA``, else the folder
``shared/data`` beside the checkout (a test-only fallback: the package itself has no
default). Tests that need a dataset skip, saying where they looked, when it is absent."""

from __future__ import annotations

import os
from pathlib import Path

DATA_DIR = Path(os.environ.get("CHATMATCH_DATA") or Path(__file__).resolve().parents[2] / "shared" / "data")

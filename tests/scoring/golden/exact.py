"""Byte-exact golden files: ``preset: paper`` and the default scoring, with the real models.

``generate.py`` scores the committed games with the n-gram fluency backend and compares
within a float tolerance; this script scores the same games with the settings a
tournament file gets when it says nothing (SmolLM2 fluency, the sentence embedder, spaCy)
and with ``preset: paper``, and writes the JSON text that ``test_exact.py`` compares byte
for byte: a change of a default, of an option's meaning or of the LM's engine shows up as
a difference. Regenerate from the repository root only after an intended change::

    python -m tests.scoring.golden.exact
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.scoring.golden.generate import HERE, compute_with

REGENERATE = "python -m tests.scoring.golden.exact"
#: golden file name -> the ``chatmatch score --config`` data it is scored with
CONFIGS: dict[str, dict[str, Any]] = {
    "exact_default": {},
    "exact_paper": {"preset": "paper"},
}


def text(config: str) -> str:
    """The golden file's text for ``CONFIGS[config]``."""
    doc = compute_with(CONFIGS[config], REGENERATE)
    return json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def path(config: str) -> Path:
    return HERE / f"{config}.json"


def main() -> None:
    for config in CONFIGS:
        path(config).write_text(text(config), encoding="utf-8")
        print(f"wrote {path(config)}")


if __name__ == "__main__":
    main()

"""Byte-exact golden files: ``preset: paper`` and the default scoring, with the real models.

``generate.py`` scores the committed games with the n-gram fluency backend and compares
within a float tolerance; this script scores the same games with the settings a
tournament file gets when it says nothing (SmolLM2 fluency, the sentence embedder, spaCy)
and with ``preset: paper``, and writes the JSON that ``test_exact.py`` compares: verdicts,
points, flags and names exactly, numbers within 1e-4 (float32 models move in their 5th-6th
digit on another CPU): a change of a default, of an option's meaning or of the LM's engine
shows up as a difference. Regenerate from the repository root only after an intended change::

    python -m tests.scoring.golden.exact
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from tests.scoring.golden.generate import HERE, compute_with

REGENERATE = "python -m tests.scoring.golden.exact"
#: golden file name -> the ``chatmatch score --config`` data it is scored with
CONFIGS: dict[str, dict[str, Any]] = {
    "exact_default": {},
    "exact_paper": {"preset": "paper"},
}


#: numbers are pinned at 6 significant digits: the default's relevance, consistency and
#: knowledge compare sentence embeddings, whose cosines move in the 8th significant digit
#: with the batch a text was embedded in (a cache warmed by other games, other padding),
#: and SmolLM2's float32 perplexities (both configurations) may move in their last bits
#: on another CPU (other SIMD kernels); the verdicts, details and flags stay exact
SIGNIFICANT: dict[str, int | None] = {"exact_default": 6, "exact_paper": 6}


def _rounded(obj: Any, digits: int) -> Any:
    if isinstance(obj, float):
        return float(f"{obj:.{digits}g}")
    if isinstance(obj, dict):
        return {k: _rounded(v, digits) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_rounded(v, digits) for v in obj]
    return obj


def text(config: str) -> str:
    """The golden file's text for ``CONFIGS[config]``."""
    # a cache of its own: values another test left in the session's cache were computed
    # in other batches
    with tempfile.TemporaryDirectory() as folder:
        before = os.environ.get("CHATMATCH_CACHE_DIR")
        os.environ["CHATMATCH_CACHE_DIR"] = folder
        try:
            doc = compute_with(CONFIGS[config], REGENERATE)
        finally:
            if before is None:
                del os.environ["CHATMATCH_CACHE_DIR"]
            else:
                os.environ["CHATMATCH_CACHE_DIR"] = before
    digits = SIGNIFICANT[config]
    if digits is not None:
        doc = _rounded(doc, digits)
    return json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def path(config: str) -> Path:
    return HERE / f"{config}.json"


def main() -> None:
    for config in CONFIGS:
        path(config).write_text(text(config), encoding="utf-8")
        print(f"wrote {path(config)}")


if __name__ == "__main__":
    main()

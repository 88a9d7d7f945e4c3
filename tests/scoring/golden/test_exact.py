"""``preset: paper`` and the default scoring give the golden verdicts (``exact.py``).

Every verdict, point, flag and name must be equal; a number may move by 1e-4 (relative, or
absolute near zero): SmolLM2's float32 perplexities and the sentence embeddings' cosines
move in their 5th-6th significant digit on another CPU (other SIMD kernels: CI's machine
gave 20.4541 where this one gives 20.4543), far below what a changed default moves.
"""

from __future__ import annotations

import json

import pytest

from tests.scoring.golden.exact import CONFIGS, REGENERATE, path, text
from tests.scoring.golden.test_golden import by_file, differences

pytestmark = pytest.mark.slow  # loads SmolLM2, the sentence embedder and spaCy

#: how far a number may move between CPUs (relative, and absolute near zero)
TOLERANCE = 1e-4


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_scores_equal_the_golden_file(config: str) -> None:
    want = by_file(json.loads(path(config).read_text(encoding="utf-8")))
    got = by_file(json.loads(text(config)))
    diffs = list(differences(want, got, rel_tol=TOLERANCE, abs_tol=TOLERANCE))
    assert not diffs, (
        f"{len(diffs)} difference(s) from {path(config).name}:\n  " + "\n  ".join(diffs[:25])
        + ("\n  ..." if len(diffs) > 25 else "")
        + f"\nIf the change is intended, regenerate with `{REGENERATE}`, review "
          f"`git diff tests/scoring/golden` and commit it.")

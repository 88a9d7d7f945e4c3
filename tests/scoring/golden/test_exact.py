"""``preset: paper`` and the default scoring give byte-identical verdicts (``exact.py``)."""

from __future__ import annotations

import difflib

import pytest

from tests.scoring.golden.exact import CONFIGS, REGENERATE, path, text

pytestmark = pytest.mark.slow  # loads SmolLM2, the sentence embedder and spaCy


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_scores_are_byte_identical_to_the_golden_file(config: str) -> None:
    want = path(config).read_text(encoding="utf-8")
    got = text(config)
    diff = list(difflib.unified_diff(want.splitlines(), got.splitlines(), "golden", "now",
                                     lineterm="", n=1))
    assert got == want, ("\n".join(diff[:60]) + f"\nIf the change is intended, regenerate with "
                         f"`{REGENERATE}`, review `git diff tests/scoring/golden` and commit it.")

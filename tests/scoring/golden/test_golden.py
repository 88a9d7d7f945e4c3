"""Every scorer's details on the committed games equal the golden files (``generate.py``)."""

from __future__ import annotations

import json
import math
from typing import Any, Iterator

import pytest

from tests.scoring.golden.generate import CONFIGS, HERE, REGENERATE, compute

#: floats may differ this much (relative) between platforms and library versions, and
#: between runs for values from a float32 model: a sentence embedding (relevance's reply
#: cosines) or a perplexity moves in its 7th digit with the texts it is batched with
#: (padding changes the matrix shapes), and the test session shares one embedder
REL_TOL = 1e-5


def differences(want: Any, got: Any, where: str = "", rel_tol: float = REL_TOL,
                abs_tol: float = 1e-12) -> Iterator[str]:
    """One line per place where ``got`` differs from ``want`` (floats within ``rel_tol``, or
    ``abs_tol`` near zero); every other value (verdicts, points, flags, names) exactly."""
    if isinstance(want, dict) and isinstance(got, dict):
        for key in sorted(set(want) | set(got)):
            if key not in got:
                yield f"{where}.{key}: missing (expected {json.dumps(want[key])[:80]})"
            elif key not in want:
                yield f"{where}.{key}: not expected (got {json.dumps(got[key])[:80]})"
            else:
                yield from differences(want[key], got[key], f"{where}.{key}", rel_tol, abs_tol)
    elif isinstance(want, list) and isinstance(got, list):
        if len(want) != len(got):
            yield f"{where}: {len(got)} items, expected {len(want)}"
        for i, (w, g) in enumerate(zip(want, got)):
            yield from differences(w, g, f"{where}[{i}]", rel_tol, abs_tol)
    elif isinstance(want, float) or isinstance(got, float):
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (want, got))
        if not (numbers and math.isclose(want, got, rel_tol=rel_tol, abs_tol=abs_tol)):
            yield f"{where}: got {json.dumps(got)[:80]}, expected {json.dumps(want)[:80]}"
    elif want != got:
        yield f"{where}: got {json.dumps(got)[:80]}, expected {json.dumps(want)[:80]}"


def by_file(doc: dict[str, Any]) -> dict[str, Any]:
    """The golden document with its games keyed by file name (for readable differences)."""
    return {**doc, "games": {g["file"]: g for g in doc["games"]}}


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_scorer_details_match_the_golden_file(config: str) -> None:
    path = HERE / f"{config}.json"
    want = by_file(json.loads(path.read_text(encoding="utf-8")))
    got = by_file(json.loads(json.dumps(compute(config), allow_nan=False)))
    diffs = list(differences(want, got))
    assert not diffs, (
        f"{len(diffs)} difference(s) from {path.name}:\n  " + "\n  ".join(diffs[:25])
        + ("\n  ..." if len(diffs) > 25 else "")
        + f"\nIf the change is intended, regenerate the golden files from the repository root "
          f"with `{REGENERATE}`, review `git diff tests/scoring/golden` and commit it.")


def test_the_comparison_reports_what_differs() -> None:
    want = {"raw": {"a": 1.0, "b": None}, "details": [{"turn": 1, "x": "y"}], "winner": "a"}
    assert list(differences(want, want)) == []
    assert list(differences(want, {**want, "raw": {"a": 1.0 + 1e-12, "b": None}})) == []
    got = {"raw": {"a": 1.001, "b": 2.0}, "details": [{"turn": 2}], "winner": None}
    assert list(differences(want, got)) == [
        ".details[0].turn: got 2, expected 1", ".details[0].x: missing (expected \"y\")",
        ".raw.a: got 1.001, expected 1.0", ".raw.b: got 2.0, expected null",
        ".winner: got null, expected \"a\""]

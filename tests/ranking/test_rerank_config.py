"""A bad 'ranking' section in a stored run's config.yaml is one line: file: key.path: message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chatmatch.errors import RunDirError
from chatmatch.run.storedrun import Run


@pytest.mark.parametrize("ranking, message", [
    ("{method: trueskill, trueskill: {sigma: -1}}",
     "ranking.trueskill.sigma: Input should be greater than 0"),
    ("{method: trueskil}", "ranking.method: Unknown ranking method 'trueskil'. Did you mean: "
                           "trueskill? Available: bt, bt-style, elo, points, trueskill"),
    ("[1]", "ranking: must be a block of keys (`key: value` lines indented below it, or "
            "{key: value, ...}), not a list"),
])
def test_bad_ranking_section_is_one_line(tmp_path: Path, ranking: str, message: str) -> None:
    (tmp_path / "config.yaml").write_text(f"bots: [a, b]\nranking: {ranking}\n")
    (tmp_path / "manifest.json").write_text(json.dumps({"bots": ["a", "b"]}))
    with pytest.raises(RunDirError) as err:
        Run.load(tmp_path)
    assert str(err.value) == f"{tmp_path / 'config.yaml'}: {message}"

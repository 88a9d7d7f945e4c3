"""`chatmatch show` tags each turn with what decided its part in each dimension (fluency's
SLOR, a degenerate turn and why, a question counted or not) and says which way each
dimension is better; a run directory stored before SLOR was kept still shows, with the
perplexity."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from chatmatch.cli import cli

YAML = """name: explained
bots:
  - {{name: talker, adapter: canned, params: {{lines: ["I grew tomatoes in my garden this summer.",
        "Did you do any cooking with fresh vegetables last week?",
        "My sister bakes bread every weekend and"]}}}}
  - {{name: parrot, adapter: echo}}
seed_utterance: What did you do last week?
exchanges: 3
scoring:
  dimensions: [fluency, proactivity]
  params: {{fluency: {{backend: ngram}}}}
  canned: false  # talker's lines come back in every game: here each turn shows its SLOR
ranking: {{method: points}}
output_dir: {out}
"""


@pytest.fixture(scope="module")
def explained_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("explained")
    cfg = tmp / "t.yaml"
    cfg.write_text(YAML.format(out=tmp / "run"))
    res = CliRunner().invoke(cli, ["run", str(cfg), "--quiet"])
    assert res.exit_code == 0, res.output
    return tmp / "run"


def _show(run: Path, game: str = "g001") -> str:
    res = CliRunner().invoke(cli, ["show", str(run), game, "--width", "200"])
    assert res.exit_code == 0, res.output
    return res.stdout


def test_show_tags_the_deciding_values_and_degenerate_turns(explained_run: Path) -> None:
    out = _show(explained_run)
    assert re.search(r"fluency: SLOR -?\d+\.\d\d \(ppl \d", out)
    # the echo bot's turns repeat its partner's: degenerate, and the tag says so
    assert "fluency: degenerate (echo): counted as the least fluent turn" in out
    # the talker's line cut after "and" is truncated
    assert "fluency: degenerate (truncated)" in out
    assert "proactivity: question" in out
    assert re.search(r"\[fluency: [^\]|]+ \| proactivity: question\]", out)  # one tag a dimension


def test_show_says_which_way_each_dimension_is_better(explained_run: Path) -> None:
    out = _show(explained_run)
    table = out[out.index("dimension "):]
    assert table.splitlines()[0].split()[:2] == ["dimension", "better"]
    rows = {line.split()[0]: line.split()[1] for line in table.splitlines()[2:]
            if line.split() and line.split()[0] in ("fluency", "proactivity")}
    assert rows == {"fluency": "lower", "proactivity": "higher"}


def test_an_older_run_without_slor_shows_the_perplexity(explained_run: Path, tmp_path: Path) -> None:
    old = tmp_path / "old"
    shutil.copytree(explained_run, old)
    for path in (old / "scores").glob("*.json"):
        doc = json.loads(path.read_text())
        for d in doc["dimensions"]["fluency"]["details"]:
            for key in ("slor", "counted_as"):
                d.pop(key, None)
        path.write_text(json.dumps(doc))
    out = _show(old)
    assert "SLOR" not in out and re.search(r"fluency: ppl \d", out)
    assert "fluency: degenerate (echo): counted as the least fluent turn, its worst" in out

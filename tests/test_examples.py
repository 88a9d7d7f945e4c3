"""Every file in examples/ runs: it imports as a script, and every Bot it defines plays a
short tournament by import path through the CLI, as docs/bots.md tells a user to."""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from chatmatch.bot import Bot
from chatmatch.cli import cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*.py") if p.name != "__init__.py")


def test_there_are_examples():
    assert EXAMPLES


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_runs_as_a_script(path: Path):
    done = subprocess.run([sys.executable, str(path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr


def bots_of(path: Path) -> list[str]:
    module = importlib.import_module(f"examples.{path.stem}")
    return [f"examples.{path.stem}:{name}" for name, obj in vars(module).items()
            if inspect.isclass(obj) and issubclass(obj, Bot) and obj.__module__ == module.__name__]


@pytest.mark.parametrize("adapter", [a for p in EXAMPLES for a in bots_of(p)])
def test_example_bot_plays_a_tournament(adapter: str, tmp_path: Path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the import path is relative to the checkout, as in the docs
    (tmp_path / "t.yaml").write_text(
        f"name: ex\nbots:\n  - {{name: mine, adapter: '{adapter}'}}\n  - eliza\n"
        "exchanges: 3\nscoring: {dimensions: [proactivity, specificity]}\n"
        "ranking: {method: points}\n")
    res = CliRunner().invoke(cli, ["run", str(tmp_path / "t.yaml"), "--out", str(tmp_path / "run")])
    assert res.exit_code == 0, res.output
    lines = (tmp_path / "run" / "results.jsonl").read_text().splitlines()
    assert lines and all("mine" in json.loads(line)["record"]["players"] for line in lines)
    said = [json.loads(t) for f in (tmp_path / "run" / "transcripts").glob("*.jsonl")
            for t in f.read_text().splitlines()]
    assert any(t.get("speaker") == "mine" and not t.get("seed") for t in said), said[:3]

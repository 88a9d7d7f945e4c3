"""Tournaments whose files ship with chatmatch: the fault ladder and the custom-bot example.

``tournaments/ladder.yaml`` ranks a base bot against copies of itself with 20/50/80%
injected faults: the true order is known by construction, and chatmatch must find it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from chatmatch.config.tournament import load_config
from chatmatch.run.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[2]
LADDER = ROOT / "tournaments" / "ladder.yaml"


def construction_order(config: dict[str, Any]) -> list[str]:
    """Bots from fewest to most injected faults (the base bot has rate 0)."""
    return [b["name"] for b in sorted(config["bots"], key=lambda b: b.get("params", {}).get("rate", 0))]


def ranked(run_dir: Path, method: str) -> list[str]:
    table = json.loads((run_dir / "rankings" / f"{method}.json").read_text())
    return [row["bot"] for row in sorted(table["ranking"], key=lambda r: r["rank"])]


def test_ladder_is_built_as_documented() -> None:
    config = yaml.safe_load(LADDER.read_text())
    assert construction_order(config) == ["base", "faulty-20", "faulty-50", "faulty-80"]
    rates = [b.get("params", {}).get("rate", 0.0) for b in config["bots"]]
    assert rates == sorted(rates) and rates[0] == 0.0 and len(set(rates)) == 4
    bases = [b["params"]["base"]["adapter"] for b in config["bots"][1:]]
    assert bases == [config["bots"][0]["adapter"]] * 3


def test_ladder_ranking_matches_construction(tmp_path: Path) -> None:
    """The shipped ladder, with the cheap n-gram fluency model instead of SmolLM2 (whose
    perplexities of 1,200 turns take minutes on 2 cores; see the slow test below)."""
    config = yaml.safe_load(LADDER.read_text())
    config["scoring"]["params"] = {"fluency": {"backend": "ngram"}}
    path = tmp_path / "ladder.yaml"
    path.write_text(yaml.safe_dump(config))
    summary = run_tournament(load_config(path), tmp_path / "run", config_file=str(path))
    expected = construction_order(config)
    assert summary.games_total == 12
    assert ranked(tmp_path / "run", "trueskill") == expected
    assert ranked(tmp_path / "run", "points") == expected


@pytest.mark.slow
def test_ladder_as_shipped_through_the_cli(tmp_path: Path) -> None:
    """``chatmatch run tournaments/ladder.yaml`` with every setting as shipped (~3 min)."""
    cli = Path(sys.executable).with_name("chatmatch")
    done = subprocess.run([str(cli), "run", str(LADDER), "--out", str(tmp_path / "run"), "-q"],
                          capture_output=True, text=True, cwd=ROOT, timeout=1200)
    assert done.returncode == 0, done.stderr[-2000:]
    expected = construction_order(yaml.safe_load(LADDER.read_text()))
    assert ranked(tmp_path / "run", "trueskill") == expected


def test_custom_bot_tournament_by_import_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(ROOT))  # `examples` is imported from the repository root
    config = yaml.safe_load((ROOT / "tournaments" / "custom.yaml").read_text())
    assert config["bots"][0]["adapter"] == "examples.custom_bot:Curious"
    config["exchanges"] = 4
    path = tmp_path / "custom.yaml"
    path.write_text(yaml.safe_dump(config))
    summary = run_tournament(load_config(path), tmp_path / "run", config_file=str(path))
    assert summary.games_total == 6 and {r["bot"] for r in _rows(tmp_path / "run")} == {
        "curious", "eliza", "canned"}
    lines = [json.loads(x) for f in sorted((tmp_path / "run" / "transcripts").iterdir())
             for x in f.read_text().splitlines()]
    said = [x["text"] for x in lines if x.get("speaker") == "curious" and not x.get("seed")]
    assert any(s.startswith("Tell me more: what about ") for s in said)


def _rows(run_dir: Path) -> list[dict[str, Any]]:
    return list(json.loads((run_dir / "rankings" / "trueskill.json").read_text())["ranking"])



def test_every_yaml_example_in_docs_bots_md_builds_a_bot() -> None:
    """The adapter examples in docs/bots.md are valid parameters (bots built, not loaded)."""
    import re

    from chatmatch.adapters import create_bot

    text = (ROOT / "docs" / "bots.md").read_text()
    blocks = [yaml.safe_load(b) for b in re.findall(r"```yaml\n(.*?)```", text, re.S)]
    entries = [e for b in blocks for e in (b["bots"] if isinstance(b, dict) else b)
               if isinstance(e, dict) and "params" in e]
    adapters = {e["adapter"] for e in entries}
    assert {"causal-lm", "smollm2", "seq2seq", "openai-chat", "faulty"} <= adapters
    for e in entries:
        if ":" not in e["adapter"]:
            assert create_bot(e["name"], e["adapter"], e["params"]).name == e["name"]

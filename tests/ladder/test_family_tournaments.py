"""The repetition and consistency ladder families as whole tournaments (``chatmatch run``
with the scripted ``PersonaBot``): a base bot and two copies with more and more of one
fault, so the true order is base > fault-low > fault-high by construction.

- (a) repeated questions, ranked on the two dimensions the repeats must not win
  (proactivity, relevance), and on the five that repeats can touch (proactivity,
  specificity, diversity, consistency, relevance);
- (b) contradictions, ranked on consistency alone, with the contradicting copies asking
  repeated questions more often than the base bot (so the base bot is tested more).

Each is also run with the paper's values of the options (``PAPER``), which gets the order
wrong: these families are the regression tests of those options. (On all five dimensions
the paper's rule still ranks family (a) right: diversity and specificity outweigh the
proactivity the repeater gains; seeds 1-3 measured.)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from chatmatch.config.tournament import load_config
from chatmatch.run.tournament import run_tournament
from tests.ladder.test_families import PAPER

ADAPTER = "tests.scripted:PersonaBot"
FIVE = ["proactivity", "specificity", "diversity", "consistency", "relevance"]
FAMILIES: dict[str, tuple[list[dict[str, Any]], list[str]]] = {
    "repeated-questions": ([
        {"name": "base", "params": {"persona": "ann"}},
        {"name": "reask-30", "params": {"persona": "bob", "reask": 0.3, "offset": 3}},
        {"name": "reask-60", "params": {"persona": "ann", "reask": 0.6, "offset": 5}},
    ], ["proactivity", "relevance"]),
    "contradictions": ([
        {"name": "base", "params": {"persona": "ann", "paraphrase": 0.2, "reask": 0.05}},
        {"name": "contra-40", "params": {"persona": "bob", "paraphrase": 0.2, "reask": 0.3,
                                         "contradict": 0.4, "offset": 3}},
        {"name": "contra-80", "params": {"persona": "ann", "paraphrase": 0.2, "reask": 0.5,
                                         "contradict": 0.8, "offset": 5}},
    ], ["consistency"]),
}


def run_family(tmp_path: Path, family: str, params: dict[str, Any],
               dims: list[str] | None = None, seed: int = 1) -> dict[str, list[str]]:
    bots, default_dims = FAMILIES[family]
    dims = dims or default_dims
    config = {"name": family, "seed_utterance": "What did you do last week?", "exchanges": 30,
              "seed": seed, "bots": [{**b, "adapter": ADAPTER} for b in bots],
              # without canned turns: the scripted bots say the same lines in every game
              # whatever the partner says, and these families test the options' own checks
              "scoring": {"dimensions": dims, "canned": False,
                          "params": {d: p for d, p in params.items() if d in dims}},
              "ranking": {"method": "trueskill", "shuffles": 10}}
    path = tmp_path / f"{family}.yaml"
    path.write_text(yaml.safe_dump(config))
    run_tournament(load_config(path), tmp_path / "run", config_file=str(path))
    out = {}
    for method in ("points", "trueskill"):
        table = json.loads((tmp_path / "run" / "rankings" / f"{method}.json").read_text())
        out[method] = [r["bot"] for r in sorted(table["ranking"], key=lambda r: r["rank"])]
    return out


@pytest.mark.parametrize("family", list(FAMILIES))
def test_family_ranks_in_the_order_of_construction(tmp_path: Path, family: str) -> None:
    expected = [b["name"] for b in FAMILIES[family][0]]
    assert run_family(tmp_path, family, {}) == {"points": expected, "trueskill": expected}


def test_repeated_questions_on_five_dimensions(tmp_path: Path) -> None:
    expected = [b["name"] for b in FAMILIES["repeated-questions"][0]]
    ranked = run_family(tmp_path, "repeated-questions", {}, FIVE)
    assert ranked == {"points": expected, "trueskill": expected}


@pytest.mark.parametrize("family", list(FAMILIES))
def test_family_fails_under_the_papers_rule(tmp_path: Path, family: str) -> None:
    expected = [b["name"] for b in FAMILIES[family][0]]
    ranked = run_family(tmp_path, family, PAPER)
    # (a): every re-asked question is a proactivity credit: reask-60 comes first;
    # (b): the count charges the base bot, which is asked most, so contra-80 comes first
    assert ranked["points"] != expected and ranked["points"][0] != "base"

"""A real (small) run directory played by scripted bots and scored by the fast scorers,
shared by the CLI, report and browser tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from chatmatch.common.yamlloc import parse_located_yaml
from chatmatch.config.tournament import config_from_data
from chatmatch.run.tournament import run_tournament

SCRIPTED_RUN_YAML = """\
name: scripted
exchanges: 4
seed: 11
bots:
  - {name: curious, adapter: "tests.scripted:CountingBot", params: {style: rich, ask_every: 1}}
  - {name: chatty, adapter: "tests.scripted:CountingBot", params: {style: plain, ask_every: 2}}
  - {name: quiet, adapter: "tests.scripted:CountingBot", params: {style: plain, ask_every: 0}}
  - {name: dull, adapter: "tests.scripted:CountingBot", params: {style: dull, ask_every: 0}}
scoring:
  dimensions: [proactivity, specificity, diversity, consistency]
  # the scripted questions are not about what the partner said: every question counts,
  # as these tests check the tables, pages and badges, not which questions are on topic
  params:
    proactivity: {questions: all}
  # scripted bots say the same lines in every game: counted as canned turns they would all
  # lose their points (tests/run/test_canned_run.py tests that); here each game counts alone
  canned: false
"""

HUMAN_YAML = """\
judges:
  ann: {curious: 1, chatty: 2, quiet: 3, dull: 4}
  bob: {curious: 1, chatty: 3, quiet: 2, dull: 4}
dimensions:
  proactivity: {curious: 5, chatty: 4, quiet: 2, dull: 1}
"""


@pytest.fixture(scope="session")
def scripted_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """12 games of 4 exchanges between four scripted bots (a couple of seconds)."""
    out = tmp_path_factory.mktemp("scripted") / "run"
    cfg = config_from_data(parse_located_yaml(SCRIPTED_RUN_YAML, "scripted.yaml"))
    run_tournament(cfg, out)
    return out


@pytest.fixture(scope="session")
def human_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = tmp_path_factory.mktemp("human") / "humans.yaml"
    p.write_text(HUMAN_YAML)
    return p

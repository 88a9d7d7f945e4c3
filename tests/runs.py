"""Run-directory fixtures shared by the page tests (``tests/annotate``, ``tests/view``):
the scripted four-bot run of the analysis tests (12 games, real scorers), played once per
session, and a private copy of it per test (the tests write into it). A conftest imports
them: ``from tests.runs import scripted, scripted_template  # noqa: F401``."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from chatmatch.common.yamlloc import parse_located_yaml
from chatmatch.config.tournament import config_from_data
from chatmatch.run.tournament import run_tournament
from tests.analysis.conftest import SCRIPTED_RUN_YAML


@pytest.fixture(scope="session")
def scripted_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("scripted") / "run"
    run_tournament(config_from_data(parse_located_yaml(SCRIPTED_RUN_YAML, "scripted.yaml")), out)
    return out


@pytest.fixture
def scripted(scripted_template: Path, tmp_path: Path) -> Path:
    """A private copy of the scripted run."""
    dst = tmp_path / "run"
    shutil.copytree(scripted_template, dst)
    return dst

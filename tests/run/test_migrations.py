"""Run directories of older formats are upgraded on read, in memory (chatmatch.run.migrations):
the stored old run (tests/data/old_run, format 1: no ``format`` key) loads, ranks and resumes;
each step is tested on its own; a newer format is refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from chatmatch.config.settings import DEFAULT_TIMEOUT_S
from chatmatch.config.tournament import load_config
from chatmatch.errors import RunDirError
from chatmatch.play.fingerprint import play_fingerprint
from chatmatch.records import Manifest
from chatmatch.run.migrations import (STEPS, format1_play_fingerprint, format_of,
                                      read_manifest, timeout_got_its_default, upgrade)
from chatmatch.run.storedrun import Run
from chatmatch.run.storedsetup import StoredSetup
from chatmatch.run.tournament import run_tournament
from chatmatch.rundir.store import FORMAT, RunDir

OLD = Path(__file__).parents[1] / "data" / "old_run"
REMOTE_YAML = """\
name: remote
bots:
  - {name: a, adapter: openai-chat, params: {base_url: 'http://h/v1', model: m1, timeout_s: 5}}
  - {name: b, adapter: 'tests.scripted:CountingBot'}
exchanges: 2
"""


@pytest.fixture
def old(tmp_path: Path) -> Path:
    shutil.copytree(OLD, tmp_path / "old_run")
    return tmp_path / "old_run"


def test_every_format_before_the_current_one_has_a_step() -> None:
    assert sorted(STEPS) == list(range(1, FORMAT))


def test_the_old_run_is_format_1_and_read_as_the_current_one_without_writing(old: Path) -> None:
    before = (old / "manifest.json").read_bytes()
    stored = RunDir(old).read_manifest()
    assert stored.format is None and format_of(stored) == 1
    manifest = read_manifest(RunDir(old))
    assert manifest.format == FORMAT and format_of(manifest) == FORMAT
    # its fingerprint was already today's (no operational params): nothing else changes
    assert manifest.replace(format=None) == stored
    assert Run.load(old).manifest.format == FORMAT
    assert (old / "manifest.json").read_bytes() == before  # readers never write


def test_the_old_run_resumes_and_is_written_in_the_current_format(old: Path) -> None:
    cfg = load_config(old / "config.yaml")
    summary = run_tournament(cfg, old)
    assert summary.games_played == 0 and summary.games_total == 6
    written = json.loads((old / "manifest.json").read_text())
    assert written["format"] == FORMAT
    assert written["play_fingerprint"] == json.loads(
        (OLD / "manifest.json").read_text())["play_fingerprint"]
    assert Run.load(old).rank(method="points").rows  # and still ranks


def test_step_1_to_2_upgrades_a_fingerprint_that_hashed_operational_params(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text(REMOTE_YAML)
    setup = StoredSetup(tmp_path)
    cfg = setup.tournament
    assert cfg is not None
    legacy = format1_play_fingerprint(cfg)
    assert legacy != play_fingerprint(cfg)  # timeout_s was hashed under format 1
    manifest = upgrade(Manifest(play_fingerprint=legacy, bots=("a", "b")), setup)
    assert manifest.format == FORMAT and manifest.play_fingerprint == play_fingerprint(cfg)
    assert manifest.history[-1]["event"] == "fingerprint_upgraded"
    assert manifest.history[-1]["old"] == legacy
    # a fingerprint neither rule gives is another setup: left for the run's checks to refuse
    other = upgrade(Manifest(play_fingerprint="0123456789abcdef"), setup)
    assert other.play_fingerprint == "0123456789abcdef" and not other.history
    # a manifest of the current format is not upgraded again
    assert upgrade(Manifest(play_fingerprint=legacy, format=FORMAT), setup).play_fingerprint == legacy


def test_a_newer_format_is_refused_with_what_to_do(old: Path) -> None:
    data = json.loads((old / "manifest.json").read_text())
    (old / "manifest.json").write_text(json.dumps({**data, "format": FORMAT + 1}))
    with pytest.raises(RunDirError, match=f"format {FORMAT + 1} was written by a newer chatmatch.*upgrade"):
        Run.load(old)


def test_a_format_that_is_not_a_number_is_refused(old: Path) -> None:
    data = json.loads((old / "manifest.json").read_text())
    (old / "manifest.json").write_text(json.dumps({**data, "format": "two"}))
    with pytest.raises(RunDirError, match="'format' must be a whole number"):
        Run.load(old)


def test_a_format_below_1_is_refused(old: Path) -> None:
    data = json.loads((old / "manifest.json").read_text())
    (old / "manifest.json").write_text(json.dumps({**data, "format": 0}))
    with pytest.raises(RunDirError, match="'format' is 0, not a run directory format"):
        Run.load(old)


def test_a_stored_timeout_of_none_resumed_with_the_default_is_no_change() -> None:
    assert timeout_got_its_default("timeout_s", {"timeout_s": None}, {"timeout_s": DEFAULT_TIMEOUT_S})
    assert not timeout_got_its_default("timeout_s", {"timeout_s": None}, {"timeout_s": 5.0})
    assert not timeout_got_its_default("timeout_s", {"timeout_s": 5.0}, {"timeout_s": DEFAULT_TIMEOUT_S})
    assert not timeout_got_its_default("retries", {"retries": None}, {"retries": DEFAULT_TIMEOUT_S})

"""A run directory whose config.yaml recorded removed scorer keys, or fluency runtime keys
under scoring.params, still reads (chatmatch.config.upgrade, chatmatch.run.storedsetup)."""

from __future__ import annotations

from pathlib import Path

import yaml

from chatmatch.config.upgrade import current_setup
from chatmatch.run.storedsetup import StoredSetup
from chatmatch.runtime.settings import RuntimeSettings


def test_runtime_keys_move_and_removed_keys_are_dropped() -> None:
    stored = {"bots": ["eliza", "canned"], "scoring": {"params": {
        "fluency": {"engine": "torch", "device": "cpu", "cap": 50.0, "aggregation": "authors"},
        "relevance": {"p": 0.5, "unit": "count"}}}, "runtime": {"device": "cuda"}}
    assert current_setup(stored) == {"bots": ["eliza", "canned"], "scoring": {"params": {
        "fluency": {"aggregation": "authors"}, "relevance": {"unit": "count"}}},
        "runtime": {"engine": "torch", "device": "cuda"}}  # a key already in runtime: wins
    assert current_setup({"bots": ["a"]}) == {"bots": ["a"]}
    assert current_setup([1]) == [1]


def test_a_stored_run_with_removed_keys_still_reads(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text(yaml.safe_dump({
        "name": "old", "bots": [{"name": "a", "adapter": "eliza"}, {"name": "b", "adapter": "canned"}],
        "scoring": {"params": {"fluency": {"backend": "ngram", "precision": "fp32",
                                           "processes": 2, "max_tokens": 512},
                               "knowledge": {"min_nidf": 0.35}}}}))
    setup = StoredSetup(tmp_path)
    assert setup.tournament is not None and setup.settings is not None
    assert setup.tournament.runtime == RuntimeSettings(processes=2)
    assert setup.settings.scoring.params == {"fluency": {"backend": "ngram"}, "knowledge": {}}

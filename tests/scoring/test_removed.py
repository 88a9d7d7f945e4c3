"""Removed scorer parameters: a file that sets one is refused with the key and what to
write instead; stored setups drop them; the runtime block reaches every scorer."""

from __future__ import annotations

from pathlib import Path

import pytest

from pydantic import ValidationError

from chatmatch.config.tournament import load_config
from chatmatch.errors import ConfigError
from chatmatch.runtime.settings import RuntimeSettings
from chatmatch.scoring.base import DIMENSIONS, SCORERS
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.removed import (FIXED, MOVED_TO_RUNTIME, REMOVED, changed_by_removal,
                                       current_params, removed_message)
from chatmatch.scoring.build import build_scorers


def test_every_removed_key_is_refused_with_what_to_write_instead() -> None:
    for (dimension, key), instead in REMOVED.items():
        with pytest.raises(ValidationError) as err:
            ScoringConfig(params={dimension: {key: 1}})
        assert f"scorer '{dimension}': parameter '{key}' was removed: {instead}" in str(err.value)


def test_every_removed_key_fixed_at_a_value_says_to_delete_it() -> None:
    """Round five: 'cap was removed: aggregations ... cap each turn at 50' did not say what
    to write instead (nothing: the key goes); every fixed key's message now ends so."""
    from chatmatch.scoring.removed import FIXED
    for (dimension, key) in FIXED:
        with pytest.raises(ValidationError) as err:
            ScoringConfig(params={dimension: {key: 1}})
        assert "delete the key" in str(err.value), (dimension, key, str(err.value))
    with pytest.raises(ValidationError) as err:
        ScoringConfig(params={"fluency": {"engine": "torch"}})
    assert "delete the key" not in str(err.value) and "runtime: {engine: ...}" in str(err.value)


def test_a_tournament_file_names_the_key_its_line_and_the_new_place(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("bots: [eliza, canned]\nscoring:\n  params:\n    fluency:\n"
                    "      aggregation: slor\n      device: cpu\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value) == (
        f"{path}:6: scoring.params.fluency.device: scorer 'fluency': parameter 'device' was "
        "removed: it moved to the top-level runtime block: runtime: {device: ...}")
    path.write_text("bots: [eliza, canned]\nruntime: {device: cpu, engine: torch}\n")
    assert load_config(path).runtime == RuntimeSettings(device="cpu", engine="torch")


def test_a_removed_engine_says_what_to_write_instead(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text("bots: [eliza, canned]\nruntime: {engine: llama-cpp}\n")
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(err.value).startswith(
        f"{path}:2: runtime.engine: engine 'llama-cpp' was removed: write engine: onnxruntime")
    assert "engine: torch" in str(err.value)


def test_the_runtime_keys_name_their_new_place() -> None:
    for key in MOVED_TO_RUNTIME:
        assert f"runtime: {{{key}: ...}}" in str(removed_message("fluency", key))
    assert removed_message("fluency", "aggregation") is None


def test_no_removed_key_is_still_a_parameter_and_every_fixed_one_is_removed() -> None:
    for dimension, key in REMOVED:
        assert key not in SCORERS.get(dimension).Params.model_fields, (dimension, key)
    assert set(FIXED) <= set(REMOVED)
    assert set(REMOVED) - set(FIXED) == {("fluency", k) for k in MOVED_TO_RUNTIME}


def test_half_of_the_parameters_are_left() -> None:
    """65 parameters before the cut; at most half remain (32), and one added since by
    measurement: fluency's ``context`` (docs/validity.md, "each turn read after the one
    before it")."""
    assert sum(len(SCORERS.get(d).Params.model_fields) for d in DIMENSIONS) <= 33


def test_stored_params_drop_removed_keys_and_say_which_values_changed() -> None:
    stored = {"fluency": {"backend": "ngram", "cap": 50.0, "engine": "torch", "trim": 0.2},
              "knowledge": {"exclude_labels": ["DATE", "TIME", "ORDINAL", "CARDINAL"]}}
    assert current_params(stored) == {"fluency": {"backend": "ngram"}, "knowledge": {}}
    assert changed_by_removal(stored) == ["fluency.trim"]
    ScoringConfig(params=current_params(stored))  # valid today


def test_the_runtime_reaches_every_scorer() -> None:
    runtime = RuntimeSettings(device="cpu", engine="torch", processes=2)
    scorers = build_scorers(ScoringConfig(), runtime)
    assert all(s.runtime is runtime for s in scorers)
    assert all(s.runtime == RuntimeSettings() for s in build_scorers(ScoringConfig()))

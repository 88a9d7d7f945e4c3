"""Round five: a block of a tournament file given as a list, a number, text or null said
"Input should be a valid dictionary or instance of ScoringConfig": pydantic's words and a
class name the user never wrote. Every block now says what it must be and what it got
(chatmatch.common.validation.problem_of, the one place pydantic errors become messages)."""

from __future__ import annotations

from pathlib import Path

import pytest

from chatmatch.config.tournament import load_config
from chatmatch.errors import ConfigError

BLOCK = "must be a block of keys (`key: value` lines indented below it, or {key: value, ...})"


@pytest.mark.parametrize("line, where, got", [
    ("scoring: [1]", "scoring", "not a list"),
    ("failures: 3", "failures", "not a number (got 3)"),
    ("ranking: x", "ranking", "not text (got 'x')"),
    ("schedule: null", "schedule", "not an empty value (null)"),
    ("runtime: auto", "runtime", "not text (got 'auto')"),
    ("scoring: {params: {fluency: 3}}", "scoring.params.fluency", "not a number (got 3)"),
])
def test_a_block_that_is_not_a_mapping_says_so_without_class_names(
        tmp_path: Path, line: str, where: str, got: str) -> None:
    p = tmp_path / "t.yaml"
    p.write_text(f"name: t\nbots: [eliza, echo]\nexchanges: 2\n{line}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_config(p, check_bots=False)
    msg = str(err.value)
    assert f"t.yaml:4: {where}: {BLOCK}, {got}" in msg, msg
    assert "instance of" not in msg and "valid dictionary" not in msg


@pytest.mark.parametrize("value, hint", [
    ("1e3", "YAML read 1e3 as text (an exponent needs a dot and a sign there: 1.0e+3)"),
    ("1e400", "and it is beyond the largest number (about 1.8e308)"),
    ("1.0e+400", "YAML reads .inf, and a number beyond about 1.8e308, as infinity"),
])
def test_a_number_yaml_did_not_read_as_one_says_how_to_write_it(
        tmp_path: Path, value: str, hint: str) -> None:
    p = tmp_path / "t.yaml"
    p.write_text(f"name: t\nbots: [eliza, echo]\nexchanges: {value}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_config(p, check_bots=False)
    assert "t.yaml:3: exchanges:" in str(err.value) and hint in str(err.value)

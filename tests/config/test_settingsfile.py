"""The one loader of the settings block: its options for `validate` (check the whole file),
`score` (ignore a tournament's other keys) and a stored run (never raise)."""

import pytest

from chatmatch.common.yamlloc import LocatedYaml
from chatmatch.config.settings import EvalSettings
from chatmatch.config.settingsfile import load_settings, stored_settings
from chatmatch.errors import ChatmatchError, ConfigError

TOURNAMENT = "seed: 4\nexchanges: 3\nscoring: {dimensions: [proactivity]}\nbots: [eliza, canned]\n"


def write(tmp_path, text, name="t.yaml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_every_mode_reads_the_same_settings_of_a_tournament(tmp_path):
    p = write(tmp_path, TOURNAMENT)
    want = EvalSettings.model_validate({"seed": 4, "scoring": {"dimensions": ["proactivity"]}})
    assert load_settings(p) == load_settings(p, others="ignore") == want
    assert stored_settings({"seed": 4, "scoring": {"dimensions": ["proactivity"]},
                            "exchanges": 3}, "config.yaml") == want
    assert load_settings(None) == EvalSettings()


def test_check_validates_the_tournament_keys_and_ignore_leaves_them_out(tmp_path):
    p = write(tmp_path, TOURNAMENT.replace("exchanges: 3", "exchanges: lots"))
    with pytest.raises(ConfigError, match=r"t.yaml:2: exchanges: .*'lots'"):
        load_settings(p, others="check")
    assert load_settings(p, others="ignore").seed == 4
    only = write(tmp_path, "scoring: {dimensions: [diversity]}\n", "only.yaml")  # no bots: fine
    assert load_settings(only).scoring.dimensions == ["diversity"]


def test_problems_name_file_line_and_key_in_every_raising_mode(tmp_path):
    p = write(tmp_path, "scoring:\n  params:\n    diversity: {sigma_r: 3}\n")
    for others in ("check", "ignore"):
        with pytest.raises(ConfigError, match=r"t.yaml:3: scoring.params.diversity.sigma_r: "
                                              r"scorer 'diversity': bad parameters"):
            load_settings(p, others=others)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"x.yaml:1: expected a mapping .*\(got str\)"):
        load_settings(write(tmp_path, "just text\n", "x.yaml"))
    with pytest.raises(ChatmatchError, match="^--preset: Unknown preset 'nope'"):
        load_settings(p, preset="nope")


def test_the_stored_reader_never_raises_and_applies_no_preset():
    assert stored_settings(None, "c.yaml") is None
    assert stored_settings({"scoring": {"dimensions": ["no-such-scorer"]}}, "c.yaml") is None
    assert stored_settings({"seed": True}, "c.yaml") is None  # only `score` reads true as 1
    paper = stored_settings({"preset": "paper", "seed": 2}, "c.yaml")
    assert paper == EvalSettings(seed=2)  # stored resolved: the preset is a record only
    assert load_settings(LocatedYaml({"seed": True}, "s.yaml"), others="ignore").seed == 1

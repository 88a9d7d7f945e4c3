"""Family 6 of issue 23: one name rule for bot names (chatmatch/config/names.py), applied when
the tournament YAML is checked: no control or invisible characters, NFC form, no look-alike
duplicates; one line naming the key and the character."""

from __future__ import annotations

import unicodedata

import pytest

from chatmatch.config.tournament import load_config
from chatmatch.errors import ConfigError


def _load(tmp_path, names):
    p = tmp_path / "t.yaml"
    bots = "".join(f'  - {{name: "{n}", adapter: eliza}}\n' for n in names)
    p.write_text("exchanges: 2\nbots:\n" + bots, encoding="utf-8")
    return load_config(p), p


@pytest.mark.parametrize("name, what", [
    ("ev\\x1b[31mil", "a control character (U+001B at position 3)"),
    ("bell\\x07", "a control character (U+0007 at position 5)"),
    ("nul\\x00", "a control character (U+0000 at position 4)"),
    ("eli\\u200bza", "an invisible format character (U+200B at position 4)"),
    ("\\u202eazile", "an invisible format character (U+202E at position 1)"),
])
def test_names_with_control_or_invisible_characters_are_refused(tmp_path, name, what):
    with pytest.raises(ConfigError) as err:
        _load(tmp_path, [name, "other"])
    msg = str(err.value)
    assert msg.startswith(f"{tmp_path / 't.yaml'}:3: bots.0.name: bot name ") and what in msg, msg


def test_nfd_and_nfc_spellings_are_one_name(tmp_path):
    nfc, nfd = "caf\u00e9", unicodedata.normalize("NFD", "caf\u00e9")
    cfg, _ = _load(tmp_path, [nfd, "other"])
    assert cfg.bot_names == [nfc, "other"]  # stored in NFC
    with pytest.raises(ConfigError) as err:
        _load(tmp_path, [nfc, nfd])
    assert (f"duplicate bot name '{nfd}' (it looks like '{nfc}' but is spelled with other "
            "characters: 'cafe\\u0301') (first defined as bots.0)") in str(err.value)


def test_fullwidth_look_alike_is_a_duplicate(tmp_path):
    with pytest.raises(ConfigError, match=r":4: bots.1.name: duplicate bot name 'ｅｌｉｚａ'"):
        _load(tmp_path, ["eliza", "\uff45\uff4c\uff49\uff5a\uff41"])


def test_overlong_name_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="bot name has 101 characters, more than 100"):
        _load(tmp_path, ["x" * 101, "y"])

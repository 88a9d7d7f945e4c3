"""A tournament file's problems told in full: every validation problem, each with its
file:line, not the first and "(and 1 more problem)"; a YAML syntax error in plain words
with the line as it reads and a fix, not PyYAML's parser jargon."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from chatmatch.cli import cli
from chatmatch.config.tournament import load_config
from chatmatch.errors import ConfigError


def _error(tmp_path: Path, text: str) -> str:
    p = tmp_path / "t.yaml"
    p.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(p, check_bots=False)
    return str(err.value).replace(str(p), "t.yaml")


def test_every_problem_is_listed_with_its_line(tmp_path: Path) -> None:
    msg = _error(tmp_path, "bots: [eliza, parrot]\nexchanges: 0\nconcurrent_games: many\n"
                           "failures: {retries: -1, timeout: 3}\n")
    lines = msg.splitlines()
    assert lines[0].startswith("t.yaml:2: exchanges: ")
    assert "more problem" not in msg
    rest = sorted(lines[1:])
    assert len(rest) == 3, msg
    assert rest[0].startswith("  and t.yaml:3: concurrent_games: ")
    assert any(r.startswith("  and t.yaml:4: failures.retries: ") for r in rest)
    assert any(r.startswith("  and t.yaml:4: failures.timeout: unknown key 'timeout'; did you "
                            "mean 'timeout_s'?") for r in rest)


def test_the_cli_prints_all_problems(tmp_path: Path) -> None:
    p = tmp_path / "t.yaml"
    p.write_text("bots: [eliza, parrot]\nexchanges: 0\nseed: x\n")
    res = CliRunner().invoke(cli, ["run", str(p)])
    assert res.exit_code == 2
    assert f"{p}:2: exchanges:" in res.stderr and f"and {p}:3: seed:" in res.stderr


@pytest.mark.parametrize("text, line, words", [
    # the newcomer's case: a key indented less than its neighbours
    ("scoring:\n    dimensions: [fluency]\n  preset: x\n", 3,
     "the indentation does not line up: this line is indented differently from the other "
     "keys or list items of the block that starts at line 1 (line 3 reads '  preset: x'); "
     "indent every key of one mapping"),
    ("name: x\n exchanges: 3\nbots: [a, b]\n", 2, "a ': ' where no new key can start"),
    ("name: my bot: the best\nbots: [a, b]\n", 1, "put the value in quotes"),
    ("bots:\n  - name: a\n    adapter eliza\n    params: {}\n", 4,
     "a key without ':' (the text that starts at line 3 never reaches a ': ')"),
    ("bots:\n\t- eliza\n", 2, "a tab character; YAML indents with spaces only"),
    ("bots: [eliza, canned\nname: x\n", 1,
     "a list [ ... ] or mapping { ... } opened at line 1 is not closed where expected"),
    ("name: \"abc\nbots: [a, b]\n", 1, "a quote opened at line 1 is never closed"),
    ("name: @me\nbots: [a, b]\n", 1, "a value cannot start with '@'"),
    ("bots: *x\n", 1, "'*x' refers to an anchor '&x' that is not defined above it"),
    ("name: \"C:\\q\"\nbots: [a, b]\n", 1, "'\\q' is not an escape sequence YAML knows"),
    ("name: !!python/object:os.system x\nbots: [a, b]\n", 1, "is not allowed: the file must "
     "hold plain data"),
])
def test_a_yaml_syntax_error_is_told_in_plain_words(tmp_path: Path, text: str, line: int,
                                                     words: str) -> None:
    msg = _error(tmp_path, text)
    assert msg.startswith(f"t.yaml:{line}: invalid YAML: "), msg
    assert words in msg
    for jargon in ("<block", "simple key", "token", "scalar", "stream", "constructor"):
        assert jargon not in msg, msg

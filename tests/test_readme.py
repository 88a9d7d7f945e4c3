"""The README's examples work: its tournament file is valid, every ``chatmatch`` command
in its code blocks exists with the options it shows, and (slow) the commands that run
offline on the demo's run directory succeed after ``make demo``'s own command."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from chatmatch.cli import cli
from chatmatch.common.yamlloc import parse_located_yaml
from chatmatch.config.tournament import config_from_data

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: commands that need what a reader brings (a server, a browser, their own files, the
#: network): checked for their options only
NOT_OFFLINE = {"view": "serves a page until stopped", "annotate": "serves a page until stopped",
               "validate": "needs the datasets ($CHATMATCH_DATA)",
               "meta-eval": "needs the FED dataset", "score": "needs the reader's logs/",
               "robustness": "minutes of scoring (tests/robustness covers it)"}
#: options that need what people made with ``annotate`` or wrote by hand
NEEDS_PEOPLE = {"--annotations", "--human"}


def commands() -> list[str]:
    """Every ``chatmatch ...`` line of the README's code blocks, comments and the optional
    ``[...]`` parts dropped."""
    found = []
    for block in re.findall(r"```(?:bash|sh|text|console)\n(.*?)```", README.read_text(), re.S):
        for line in block.splitlines():
            for part in line.split("&&"):
                part = part.split("  ", 1)[0].split(" #", 1)[0].strip()
                if part.startswith("chatmatch "):
                    found.append(re.sub(r"\s*\[[^\]]*\]", "", part))
    return found


@pytest.mark.parametrize("section", ["A tournament file", "Every key of a tournament file"])
def test_readme_tournament_examples_validate(section: str):
    block = re.search(rf"## {section}\n\n```yaml\n(.*?)```", README.read_text(), re.S)
    assert block, f"README lost its section {section!r}"
    cfg = config_from_data(parse_located_yaml(block.group(1), "README.md"), check_bots=False)
    assert cfg.bot_names == ["smollm2", "mine", "eliza"]
    assert cfg.ranking.method == "trueskill" and cfg.executor == "local"


def test_the_readme_bot_plays_by_import_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    code = re.search(r"## A bot in 12 lines\n\n```python\n(.*?)```", README.read_text(), re.S)
    assert code, "README lost its bot"
    assert len([line for line in code.group(1).splitlines() if line.strip()]) <= 12
    (tmp_path / "mypackage").mkdir()
    (tmp_path / "mypackage" / "__init__.py").write_text("")
    (tmp_path / "mypackage" / "bots.py").write_text(code.group(1))
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "t.yaml").write_text(
        "name: mine\nbots:\n  - {name: mine, adapter: 'mypackage.bots:Curious'}\n  - eliza\n"
        "exchanges: 3\nscoring: {dimensions: [proactivity]}\nranking: {method: points}\n")
    res = CliRunner().invoke(cli, ["run", str(tmp_path / "t.yaml"), "--out", str(tmp_path / "run")])
    assert res.exit_code == 0, res.output
    said = (tmp_path / "run" / "transcripts" / "g001.jsonl").read_text()
    assert "Tell me more: what about" in said or "What's new?" in said


def test_the_readme_shows_commands():
    assert len(commands()) >= 10 and "chatmatch run tournaments/demo.yaml" in commands()


@pytest.mark.parametrize("line", sorted(set(commands())))
def test_every_readme_command_exists_with_the_options_it_shows(line: str):
    words = shlex.split(line)[1:]
    res = CliRunner().invoke(cli, [words[0], "--help"])
    assert res.exit_code == 0, f"{line}: {res.output}"
    for option in (w.split("=")[0] for w in words if w.startswith("--")):
        assert option in res.output, f"{line}: `chatmatch {words[0]} --help` has no {option}"


@pytest.mark.slow
def test_readme_commands_on_the_demo_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """``make demo``'s command, then every README command on runs/demo whose inputs exist.
    The demo file is played as shipped but for its game length (2 exchanges instead of 10,
    so that the test costs a minute, not the demo's five): the commands read the same
    bots, games and dimensions."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tournaments").mkdir()
    for f in (ROOT / "tournaments").iterdir():
        (tmp_path / "tournaments" / f.name).symlink_to(f)
    demo = (ROOT / "tournaments" / "demo.yaml").read_text(encoding="utf-8")
    assert "\nexchanges: 10\n" in demo
    (tmp_path / "tournaments" / "demo.yaml").unlink()
    (tmp_path / "tournaments" / "demo.yaml").write_text(
        demo.replace("\nexchanges: 10\n", "\nexchanges: 2\n"), encoding="utf-8")
    res = CliRunner().invoke(cli, ["run", "tournaments/demo.yaml"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "runs" / "demo" / "results.jsonl").is_file()
    ran = []
    for line in dict.fromkeys(commands()):
        words = shlex.split(line)[1:]
        paths = [w for w in words[1:] if not w.startswith("-") and ("/" in w or "." in w)]
        if (words[0] in NOT_OFFLINE or words[0] == "run" or NEEDS_PEOPLE & set(words)
                or not all(Path(p).exists() for p in paths)):
            continue
        res = CliRunner().invoke(cli, words)
        assert res.exit_code == 0, f"{line}: {res.output}"
        ran.append(words[0])
    assert {"rank", "show", "report", "plot", "bots"} <= set(ran), ran

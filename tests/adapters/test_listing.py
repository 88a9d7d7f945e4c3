"""``chatmatch bots`` shows, for every adapter, the installed package that provides it and
the parameters its ``params:`` block accepts (as ``llm models --options`` does)."""

from __future__ import annotations

import importlib.metadata
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import chatmatch.adapters as adapters
import chatmatch.adapters.listing as listing
from chatmatch.adapters import ENTRY_POINT_GROUP
from chatmatch.cli import cli
from chatmatch.common.registry import Registry
from chatmatch.errors import BotError

PLUGIN = '''
from chatmatch.bot import Bot


class MyBot(Bot):
    description = "Says its word."

    def __init__(self, name: str = "", *, word: str = "hi", times: int = 2) -> None:
        super().__init__(name)
        self.word, self.times = word, times

    def reply(self, history):
        return " ".join([self.word] * self.times)
'''


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A registry of three entry points: a built-in adapter, a plugin package installed as
    the distribution ``my-bots`` and a class of the test suite (installed by nobody)."""
    (tmp_path / "mybots.py").write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(tmp_path))
    eps = [importlib.metadata.EntryPoint(n, v, ENTRY_POINT_GROUP) for n, v in (
        ("eliza", "chatmatch_bots.eliza:ElizaBot"), ("mine", "mybots:MyBot"),
        ("parrot", "tests.scripted:ParrotBot"))]
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda *, group: eps)
    monkeypatch.setattr(adapters, "ADAPTERS", Registry(
        "bot adapter", group=ENTRY_POINT_GROUP, noun="adapter", check=adapters._check_adapter,
        describe=adapters._describe_adapter, error=BotError))
    dists = {**listing._distributions(), "mybots": ["my-bots"]}
    monkeypatch.setattr(listing, "_distributions", lambda: dists)
    yield
    sys.modules.pop("mybots", None)


def test_each_adapter_names_its_package_and_parameters(plugins: None) -> None:
    info = {i.name: i for i in listing.all_adapters()}
    assert info["eliza"].package == "chatmatch"
    assert "memory: bool = True" in info["eliza"].params
    assert info["mine"].package == "my-bots" and info["mine"].description == "Says its word."
    assert info["mine"].params == ("word: str = 'hi'", "times: int = 2")
    assert info["parrot"].package == "module tests.scripted (not installed)"


def test_chatmatch_bots_prints_them(plugins: None) -> None:
    res = CliRunner().invoke(cli, ["bots"])
    assert res.exit_code == 0, res.output
    block = res.output.split("mine  (my-bots)\n", 1)[1].split("\n\n")[0].splitlines()
    assert block[:4] == ["  Says its word.", "  params:", "    word: str = 'hi'", "    times: int = 2"]
    assert "eliza  (chatmatch)" in res.output
    short = CliRunner().invoke(cli, ["bots", "--names"]).output.splitlines()
    assert [line.split()[0] for line in short] == ["eliza", "mine", "parrot"]


def test_the_help_names_an_example_that_exists() -> None:
    res = CliRunner().invoke(cli, ["bots", "--help"])
    path = re.search(r"import path, e\.g\.\s.*?([\w.]+:\w+)", res.output, re.S).group(1)
    module, _, cls = path.partition(":")
    assert hasattr(importlib.import_module(module), cls), path


def test_the_real_listing_shows_every_built_in_adapter() -> None:
    res = CliRunner().invoke(cli, ["bots"])
    for name in ("eliza", "smollm2", "openai-chat", "retrieval"):
        assert f"{name}  (chatmatch)" in res.output
    assert "base_url: str (required)" in res.output


def test_the_docs_show_both_ways_to_declare_a_plugin() -> None:
    import configparser
    import tomllib

    docs = (Path(__file__).resolve().parents[2] / "docs" / "bots.md").read_text()
    toml = tomllib.loads(re.search(r"```toml\n(.*?)```", docs, re.S).group(1))
    ini = configparser.ConfigParser()
    ini.read_string(re.search(r"```ini\n(\[options.entry_points\].*?)```", docs, re.S).group(1))
    from_toml = toml["project"]["entry-points"][ENTRY_POINT_GROUP]
    from_ini = dict(line.split(" = ") for line in ini["options.entry_points"][ENTRY_POINT_GROUP].split("\n") if line)
    assert from_toml == from_ini == {"my-bot": "my_package.bots:MyBot"}

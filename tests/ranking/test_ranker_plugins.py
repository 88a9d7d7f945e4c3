"""Ranking methods are loaded like plugins: a method's module is imported when the method
is named (reading a tournament YAML imports none), and a method of another package, named
by its registered name or its import path, is configured from the YAML's ``ranking:``
block like the built-in ones."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from chatmatch.errors import RunDirError
from chatmatch.ranking import RankingConfig, rank
from chatmatch.ranking import RANKERS
from chatmatch.ranking.params import PointsRule
from chatmatch.records import GameResult
from chatmatch.run.storedrun import Run
from chatmatch.scoring.points import award_points
from tests.ranking_plugin import WinsParams, rank_by_wins

PLUGIN = "tests.ranking_plugin:rank_by_wins"
HIB = {"fluency": False, "proactivity": True}


def _game(gid: str, a: str, b: str, ra: tuple[float, float], rb: tuple[float, float]) -> GameResult:
    return award_points(gid, (a, b), {a: dict(zip(HIB, ra)), b: dict(zip(HIB, rb))}, HIB, {})


RESULTS = [_game("g1", "A", "B", (1, 9), (9, 1)), _game("g2", "B", "C", (5, 5), (5, 5)),
           _game("g3", "C", "A", (1, 9), (9, 1)), _game("g4", "B", "C", (5, 5), (5, 5))]
BOTS = ["A", "B", "C"]


@pytest.fixture(autouse=True)
def by_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    """``by-wins`` registered with its params model for one test, as a plugin's module
    registers its method when imported (other tests see the built-ins only)."""
    RANKERS.names()  # load the built-ins first: what loads during the test would be forgotten
    monkeypatch.setattr(RANKERS, "_items", dict(RANKERS._items))
    monkeypatch.setattr(RANKERS, "_meta", dict(RANKERS._meta))
    RANKERS.add("by-wins", rank_by_wins, description="wins and ties, weighted", params=WinsParams)


def _imported_rankers(code: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", "import sys\n" + code + "\nprint(sorted(m for m in "
                          "sys.modules if m.startswith('chatmatch.ranking.')))"],
                         capture_output=True, text=True, check=True)
    return [m for m in eval(out.stdout) if m.rsplit(".", 1)[1] in  # noqa: S307 - our own print
            ("points", "trueskill_rank", "trueskill_batch", "bradley_terry", "elo")]


def test_reading_a_config_imports_no_ranking_method_until_one_is_named() -> None:
    assert _imported_rankers("from chatmatch.config.tournament import TournamentConfig") == []
    assert _imported_rankers("from chatmatch.ranking import RankingConfig; "
                             "RankingConfig(method='points')") == ["chatmatch.ranking.points"]
    assert _imported_rankers("from chatmatch.ranking import RankingConfig; "
                             "RankingConfig(method='elo')") == ["chatmatch.ranking.bradley_terry",
                                                                "chatmatch.ranking.elo"]


@pytest.mark.parametrize("method", [PLUGIN, "by-wins"])
def test_a_plugin_method_is_configured_by_its_block(method: str) -> None:
    data = yaml.safe_load(f"method: {method}\n{method}: {{per_win: 2, per_tie: 0.5}}\n")
    config = RankingConfig.model_validate(data)
    assert config.params(method) == WinsParams(per_win=2, per_tie=0.5)
    ranking = rank(RESULTS, BOTS, config)
    assert [(r.bot, r.score) for r in ranking.rows] == [("C", 3.0), ("A", 2.0), ("B", 1.0)]
    assert ranking.meta["params"] == {"per_win": 2.0, "per_tie": 0.5}
    # written to the run directory and read back the same
    dumped = config.model_dump(mode="json")
    assert dumped[method] == {"per_win": 2.0, "per_tie": 0.5}
    assert RankingConfig.model_validate(dumped) == config


def test_a_plugin_method_without_a_block_gets_its_defaults_and_one_without_params_none() -> None:
    assert RankingConfig(method=PLUGIN).params(PLUGIN) == WinsParams()
    assert RankingConfig(method="by-wins").params(PLUGIN) == WinsParams()  # the same method
    plain = "tests.ranking_plugin:rank_by_name"
    assert rank(RESULTS, BOTS, RankingConfig(method=plain)).order() == ["A", "B", "C"]


def test_a_builtin_named_by_import_path_uses_its_block() -> None:
    config = RankingConfig(method="points", points=PointsRule(win=2, tie=1, loss=0))
    by_path = rank(RESULTS, BOTS, config, method="chatmatch.ranking.points:rank_points")
    assert by_path.to_json() == rank(RESULTS, BOTS, config).to_json()


@pytest.mark.parametrize("ranking, message", [
    (f"{{method: {PLUGIN}, {PLUGIN}: {{per_win: 0}}}}",
     f"ranking.{PLUGIN}.per_win: Input should be greater than 0"),
    ("{by-wins: {per_wim: 1}}", "ranking.by-wins.per_wim: Extra inputs are not permitted"),
    ("{tests.ranking_plugin:rank_by_name: {x: 1}}",
     "ranking: ranking method 'tests.ranking_plugin:rank_by_name' takes no "
     "parameters (it registered no params model); remove the block "
     "ranking.tests.ranking_plugin:rank_by_name"),
    ("{tests.ranking_plugin:nope: {x: 1}}",
     "ranking: Cannot use ranking method 'tests.ranking_plugin:nope': module "
     "'tests.ranking_plugin' has no attribute 'nope'."),
    # a key that names no method is refused as before
    ("{glicko: {tau: 1}}", "ranking.glicko: Extra inputs are not permitted"),
])
def test_a_bad_plugin_block_is_one_line_at_its_key(tmp_path: Path, ranking: str,
                                                   message: str) -> None:
    (tmp_path / "config.yaml").write_text(f"bots: [a, b]\nranking: {ranking}\n")
    (tmp_path / "manifest.json").write_text(json.dumps({"bots": ["a", "b"]}))
    with pytest.raises(RunDirError) as err:
        Run.load(tmp_path)
    assert str(err.value) == f"{tmp_path / 'config.yaml'}: {message}"


def test_the_builtin_blocks_and_their_dump_are_unchanged() -> None:
    assert list(RankingConfig().model_dump()) == ["method", "shuffles", "points", "trueskill",
                                                  "bt", "elo"]
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        RankingConfig.model_validate({"shufles": 3})

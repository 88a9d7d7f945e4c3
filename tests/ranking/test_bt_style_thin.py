"""bt-style on thin data: every game going one way (2 bots, a bot that loses or forfeits
every game, a few games among many bots) is a defined ranking, not scikit-learn's "needs
samples of at least 2 classes"; a covariate that is not scored is refused with the
config, before a game is played; the view offers every registered ranking method."""

from __future__ import annotations

import pytest

from chatmatch.config.settings import EvalSettings
from chatmatch.errors import ChatmatchError
from chatmatch.ranking import RankingConfig, rank
from chatmatch.ranking.bt_style import fit_style
from chatmatch.records import Forfeit, GameResult


def _game(gid: str, a: str, b: str, winner: str, forfeit: bool = False) -> GameResult:
    raw = {a: {"q": 1.0, "turn_length": 10.0}, b: {"q": 0.0, "turn_length": 4.0}}
    pts = {p: {"q": 1.0 if p == winner else 0.0} for p in (a, b)}
    loser = b if winner == a else a
    return GameResult(gid, (a, b), raw, pts, {"q": True, "turn_length": True},
                      forfeit=Forfeit(loser, "exploded") if forfeit else None)


CFG = RankingConfig.model_validate({"method": "bt-style", "bt-style": {"bootstrap": 30}})


@pytest.mark.parametrize("games", [
    [("a", 0.0, (1.0,)), ("a", 0.0, (2.0,))],  # the first-listed side loses every game
    [("a", 1.0, (1.0,)), ("a", 1.0, (-1.0,))],  # ... or wins every game
])
def test_one_sided_games_are_fitted(games):
    scores, betas = fit_style([("x", "y", s, d) for _, s, d in games], ["x", "y"], 1.0, 1)
    assert (scores["x"] < scores["y"]) == (games[0][1] == 0.0) and len(betas) == 1


@pytest.mark.parametrize("results, bots", [
    ([_game("g1", "a", "b", "b"), _game("g2", "b", "a", "b")], ["a", "b"]),
    ([_game("g1", "a", "b", "b", True), _game("g2", "c", "a", "c", True),
      _game("g3", "b", "c", "b")], ["a", "b", "c"]),  # a forfeits every game
    ([_game("g1", "a", "b", "b"), _game("g2", "c", "d", "d"), _game("g3", "b", "d", "d"),
      _game("g4", "c", "a", "a")], ["a", "b", "c", "d"]),  # 4 bots, 4 games
])
def test_thin_data_ranks(results, bots):
    r = rank(results, bots, CFG)
    assert sorted(row.bot for row in r.rows) == sorted(bots)
    assert r.rows[0].bot in {"b", "d"}


def test_an_unscored_covariate_is_refused_with_the_settings():
    data = {"scoring": {"dimensions": ["proactivity"]},
            "ranking": {"method": "bt-style", "bt-style": {"covariates": ["turn_length"]}}}
    with pytest.raises(ValueError, match="covariate.*turn_length not in scoring.dimensions"):
        EvalSettings.model_validate(data)
    data["scoring"]["dimensions"] = ["proactivity", "turn_length"]
    assert EvalSettings.model_validate(data).ranking.method == "bt-style"


def test_an_unscored_covariate_fails_before_any_game(tmp_path):
    from tests.reliability.helpers import run_cli, tournament_yaml

    y = tmp_path / "t.yaml"
    y.write_text(tournament_yaml(bots=3, exchanges=1).replace(
        "ranking: {method: trueskill, shuffles: 3}", "ranking: {method: bt-style}"))
    r = run_cli("run", str(y), "--out", str(tmp_path / "run"))
    assert r.returncode == 2 and "turn_length not in scoring.dimensions" in r.stderr, r.stderr
    assert not (tmp_path / "run" / "transcripts").exists()


def test_the_view_offers_bt_style(tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from chatmatch.view.pages import Views, methods
    from chatmatch.view.state import RunState
    from chatmatch.view.web import create_app
    from tests.analysis.helpers import write_run

    assert "bt-style" in methods()
    results = [_game("g1", "a", "b", "b"), _game("g2", "b", "a", "b"), _game("g3", "a", "b", "a")]
    c = TestClient(create_app(Views([RunState(write_run(tmp_path / "run", ["a", "b"], results))])))
    page = c.get("/run/0/?method=bt-style")
    assert page.status_code == 200 and 'id="method-bt-style"' in page.text
    assert 'id="method-bt-style"' in c.get("/run/0/").text
    with pytest.raises(ChatmatchError, match="bt-style"):
        rank(results, ["a", "b"], RankingConfig.model_validate(
            {"method": "bt-style", "bt-style": {"covariates": ["markdown"]}}))

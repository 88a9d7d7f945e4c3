"""The lab's agreement measures on hand-made game results (no scorer runs)."""

import pytest

from chatmatch.ranking import RankingConfig
from chatmatch.records import DimensionScore
from chatmatch.transcript import make_transcript
from chatmatch.validity.lab.games import GameDataset, evaluate_games, fire_rate, longer_games, tau


def test_tau_orientation_and_undefined():
    ref = {"a": 3.0, "b": 2.0, "c": 1.0}  # higher is better
    assert tau({"a": 1, "b": 2, "c": 3}, ref) == 1.0
    assert tau({"a": 3, "b": 2, "c": 1}, ref) == -1.0
    assert tau({"a": 1, "b": 1, "c": 1}, ref) is None  # every bot tied: undefined, not 0


def _games():
    """a beats b and c, b beats c on 'good'; 'flat' always ties; 'bad' says the opposite.
    Game length: the a-c games are long (10 turns), the others short (4)."""
    games, scores = [], []
    strength = {"a": 3.0, "b": 2.0, "c": 1.0}
    for i, (x, y) in enumerate([("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"),
                                ("c", "b")]):
        n = 10 if {x, y} == {"a", "c"} else 4
        games.append(make_transcript(f"g{i}", (x, y), ["hi"] * n))
        scores.append({
            "good": DimensionScore("good", {x: strength[x], y: strength[y]}, True),
            "flat": DimensionScore("flat", {x: 0.0, y: 0.0}, True),
            "bad": DimensionScore("bad", {x: strength[x], y: strength[y]}, False)})
    return games, scores


def test_evaluate_games_alone_minus_and_never_firing():
    games, scores = _games()
    ds = GameDataset("toy", tuple(games), {"people": {"a": 1.0, "b": 0.5, "c": 0.0}})
    cfg = RankingConfig(method="points")
    out = evaluate_games(ds, scores, {"good": 2.0, "flat": 1.0, "bad": 1.0}, cfg, seeds=3)
    ref = out["references"]["people"]
    assert out["ranking"] == ["a", "b", "c"] and ref["full"] == 1.0
    assert ref["alone"] == {"good": 1.0, "flat": None, "bad": -1.0}
    assert out["dimensions"]["flat"] == {"fires": 0.0, "fired_games": 0, "fires_shorter": 0.0,
                                        "fires_longer": 0.0, "never_fires": True}
    assert out["dimensions"]["good"]["fires_longer"] == 1.0
    assert ref["minus"]["good"] == -1.0  # only 'bad' is left
    assert ref["minus"]["bad"] == 1.0
    assert ref["seeds"]["values"] == [1.0, 1.0, 1.0]  # points: no randomness
    assert any("never fires" in n and "flat" in n for n in out["notes"])
    # the longer games are the a-c ones only: b plays none, so a and c are compared
    assert out["facts"]["longer_games"] == 2
    assert ref["longer"] == 1.0 and ref["longer_bots"] == 2 and ref["shorter_bots"] == 3


def test_fire_rate_and_longer_games():
    games, scores = _games()
    from chatmatch.scoring.points import result_from_scores

    results = [result_from_scores(g.game_id, g.players, s, {}) for g, s in zip(games, scores)]
    assert fire_rate(results, "good") == 1.0 and fire_rate(results, "flat") == 0.0
    assert fire_rate([], "good") == 0.0
    assert longer_games(games) == {"g2", "g3"}


@pytest.mark.parametrize("method", ["trueskill", "points", "bt", "elo"])
def test_every_ranking_method_runs_in_the_lab(method):
    games, scores = _games()
    ds = GameDataset("toy", tuple(games), {"people": {"a": 1.0, "b": 0.5, "c": 0.0}})
    out = evaluate_games(ds, scores, {}, RankingConfig(method=method, shuffles=2), seeds=2)
    assert out["references"]["people"]["alone"]["good"] == 1.0

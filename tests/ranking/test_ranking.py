import math

import pytest

from chatmatch.ranking import Ranking, RankingConfig, RankRow, rank
from chatmatch.ranking.points import PointsRule, match_outcomes
from chatmatch.records import Forfeit, GameResult
from chatmatch.scoring.points import award_points, dimension_winner, forfeit_result, reweight

HIB = {"fluency": False, "proactivity": True}


def game(gid, a, b, ra, rb, weights=None):
    raw = {a: dict(zip(HIB, ra)), b: dict(zip(HIB, rb))}
    return award_points(gid, (a, b), raw, HIB, weights or {})


def test_dimension_points_direction_ties_and_nan():
    g = game("g1", "A", "B", (10.0, 3), (20.0, 3))
    assert g.points == {"A": {"fluency": 1.0, "proactivity": 0.0},
                        "B": {"fluency": 0.0, "proactivity": 0.0}}
    assert g.winner == "A" and g.score_of("A") == 1 and g.score_of("B") == 0
    assert dimension_winner(math.nan, 5.0, True) == -1
    assert dimension_winner(math.nan, math.nan, False) == 0
    tie = game("g2", "A", "B", (10.0, 2), (10.0, 2))
    assert tie.winner is None and tie.total == {"A": 0.0, "B": 0.0}


def test_weights_and_reweighting():
    g = game("g1", "A", "B", (10.0, 1), (20.0, 5), weights={"fluency": 2.0})
    assert g.total == {"A": 2.0, "B": 1.0}
    minus = reweight(g, {"fluency": 0.0, "proactivity": 1.0})
    assert minus.total == {"A": 0.0, "B": 1.0} and minus.winner == "B"


def test_json_roundtrip():
    g = game("g1", "A", "B", (10.0, 1), (20.0, 5))
    assert GameResult.from_json(g.to_json()) == g


def _league():
    # A beats B twice; B and C split; A and C tie both games
    return [game("g1", "A", "B", (1, 9), (9, 1)), game("g2", "B", "A", (9, 1), (1, 9)),
            game("g3", "B", "C", (1, 9), (9, 1)), game("g4", "C", "B", (1, 9), (9, 1)),
            game("g5", "A", "C", (5, 5), (5, 5)), game("g6", "C", "A", (5, 5), (5, 5))]


def test_match_outcomes():
    assert match_outcomes(_league()) == [("A", "B", "A"), ("A", "C", None), ("B", "C", None)]


@pytest.mark.parametrize("rule,expected", [
    (PointsRule(win=3, tie=1, loss=0), {"A": 4.0, "B": 1.0, "C": 2.0}),
    (PointsRule(win=2, tie=1, loss=0), {"A": 3.0, "B": 1.0, "C": 2.0}),
    (PointsRule(win=5, tie=2, loss=-1), {"A": 7.0, "B": 1.0, "C": 4.0}),
])
def test_points_table_custom_wtl(rule, expected):
    r = rank(_league(), ["A", "B", "C"], RankingConfig(method="points", points=rule))
    assert {row.bot: row.score for row in r.rows} == expected
    assert r.order() == ["A", "C", "B"] and r.games == 6


def test_points_rule_validation():
    with pytest.raises(ValueError, match="win >= tie >= loss"):
        PointsRule(win=0, tie=1, loss=0)


def test_trueskill_deterministic_for_seed_and_averages_shuffles():
    results = _league()
    cfg = RankingConfig(method="trueskill", shuffles=5)
    r1 = rank(results, ["A", "B", "C"], cfg, seed=11)
    r2 = rank(list(reversed(results)), ["A", "B", "C"], cfg, seed=11)
    assert r1.to_json() == r2.to_json()  # stored order does not matter, the seed does
    assert r1.order()[0] == "A"
    row = r1.rows[0]
    assert len(row.stats.ranks) == 5
    assert row.stats.conservative == pytest.approx(row.stats.mu - 3 * row.stats.sigma)
    # the average over shuffles equals averaging per-shuffle ratings by hand
    import random
    import statistics

    from chatmatch.ranking.trueskill_rank import _env, play_order

    def mean_mu_of_a(seed):
        rng = random.Random(seed)
        base = sorted(results, key=lambda r: r.game_id)
        mus = []
        for _ in range(5):
            order = list(base)
            rng.shuffle(order)
            mus.append(play_order(order, _env(cfg.trueskill), ["A", "B", "C"])["A"].mu)
        return statistics.fmean(mus)

    assert row.stats.mu == pytest.approx(mean_mu_of_a(11))
    # another seed plays other orders, and TrueSkill depends on the order
    r3 = rank(results, ["A", "B", "C"], cfg, seed=12)
    a3 = next(r for r in r3.rows if r.bot == "A")
    assert a3.stats.mu == pytest.approx(mean_mu_of_a(12))
    assert a3.stats.mu != pytest.approx(row.stats.mu, abs=1e-6)


def test_trueskill_rank_by_mu():
    cfg = RankingConfig(method="trueskill", trueskill={"rank_by": "mu"})
    r = rank(_league(), ["A", "B", "C"], cfg)
    assert r.rows[0].score == pytest.approx(r.rows[0].stats.mu)


def test_forfeit_gives_every_point_to_the_other_bot():
    f = forfeit_result("g9", ("A", "B"), "A", "boom", HIB, {"fluency": 2})
    assert f.winner == "B" and f.total == {"A": 0.0, "B": 3.0}
    assert f.forfeit == Forfeit("A", "boom")
    r = rank([f], ["A", "B"], RankingConfig(method="points"))
    assert r.rows[0].bot == "B" and r.rows[1].games.forfeits == 1


def test_incomplete_ranking_is_marked():
    r = rank(_league()[:3], ["A", "B", "C"], RankingConfig(), expected_games=6)
    assert not r.complete and r.to_json()["complete"] is False and r.games == 3


def alphabetical(results, bots, params, seed=0):
    """A ranking method of "another package": bots in name order (params: None)."""
    assert params is None
    return Ranking("alphabetical", tuple(RankRow(b, i + 1, float(-i)) for i, b in enumerate(sorted(bots))),
                   len(results))


def test_a_ranking_method_can_be_named_by_import_path():
    cfg = RankingConfig(method=f"{__name__}:alphabetical")
    r = rank(_league(), ["C", "A", "B"], cfg)
    assert r.method == "alphabetical" and r.order() == ["A", "B", "C"]
    with pytest.raises(ValueError, match="Cannot use ranking method 'no_such_module_xyz:f': there is no module"):
        RankingConfig(method="no_such_module_xyz:f")


def test_rank_takes_a_method_by_import_path_too():
    """`chatmatch rank RUN --method package.module:function`, like ranking.method in YAML."""
    from pathlib import Path

    from chatmatch.run.rerank import rerank

    r, _ = rerank(Path(__file__).parents[1] / "data" / "old_run", method=f"{__name__}:alphabetical")
    assert r.method == "alphabetical" and r.order() == sorted(r.order())

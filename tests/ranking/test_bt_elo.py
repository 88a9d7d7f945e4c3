"""Bradley-Terry against a hand-solved case, Elo by hand, bootstrap CIs, config and CLI."""

import math

import pytest

from chatmatch.ranking import RANKERS, RankingConfig, rank
from chatmatch.ranking.bradley_terry import fit_bt
from chatmatch.ranking.elo import elo_ratings
from chatmatch.records import GameResult


def game(gid, a, b, winner):
    """A one-dimension game won by ``winner`` (None: tie)."""
    pa = 1.0 if winner == a else 0.0
    pb = 1.0 if winner == b else 0.0
    return GameResult(gid, (a, b), {a: {"d": pa}, b: {"d": pb}}, {a: {"d": pa}, b: {"d": pb}},
                      {"d": True})


def series(a, b, wins_a, wins_b, ties=0, start=0):
    out = [game(f"g{start + i:03d}", a, b, a) for i in range(wins_a)]
    out += [game(f"g{start + wins_a + i:03d}", b, a, b) for i in range(wins_b)]
    out += [game(f"g{start + wins_a + wins_b + i:03d}", a, b, None) for i in range(ties)]
    return out


def test_bt_hand_solved_three_players():
    # strengths 4:2:1 fit these counts exactly (each pair's win share = p_i/(p_i+p_j)):
    # A-B 2:1 (4/6), B-C 2:1 (2/3), A-C 4:1 (4/5); so the MLE is log(4), log(2), 0, centred.
    games = [(a, b, s) for a, b, s in [("A", "B", 1), ("A", "B", 1), ("A", "B", 0),
                                        ("B", "C", 1), ("B", "C", 1), ("B", "C", 0),
                                        ("A", "C", 1), ("A", "C", 1), ("A", "C", 1),
                                        ("A", "C", 1), ("A", "C", 0)]]
    s = fit_bt(games, ["A", "B", "C"], prior=0.0)
    c = (math.log(4) + math.log(2)) / 3
    assert s["A"] == pytest.approx(math.log(4) - c, abs=1e-8)
    assert s["B"] == pytest.approx(math.log(2) - c, abs=1e-8)
    assert s["C"] == pytest.approx(-c, abs=1e-8)


def test_bt_ties_are_half_wins():
    # A-B: 1 win each and 2 ties -> 2:2 -> equal; B-C: one win and one tie for B -> 1.5:0.5
    games = [("A", "B", 1), ("A", "B", 0), ("A", "B", 0.5), ("A", "B", 0.5),
             ("B", "C", 1), ("B", "C", 0.5)]
    s = fit_bt(games, ["A", "B", "C"], prior=0.0)
    # saturated on a tree: A = B, and p_B / p_C = 1.5 / 0.5 = 3
    assert s["A"] == pytest.approx(s["B"], abs=1e-8)
    assert s["B"] - s["C"] == pytest.approx(math.log(3), abs=1e-8)


def test_bt_prior_keeps_an_all_losing_bot_finite():
    games = [("A", "B", 1), ("A", "B", 1), ("B", "C", 1)]
    s = fit_bt(games, ["A", "B", "C"], prior=0.5)
    assert all(math.isfinite(v) for v in s.values()) and s["A"] > s["B"] > s["C"]


def test_elo_by_hand():
    r = elo_ratings([("A", "B", 1.0), ("B", "A", 0.5)], ["A", "B"], k=16, initial=1000)
    # game 1: E=.5 -> A 1008, B 992. game 2 (B first, tie): E_B = 1/(1+10^(16/400))
    e_b = 1 / (1 + 10 ** (16 / 400))
    assert r["B"] == pytest.approx(992 + 16 * (0.5 - e_b))
    assert r["A"] == pytest.approx(1008 - 16 * (0.5 - e_b))


def test_rankers_with_bootstrap_cis_are_seeded():
    results = series("A", "B", 3, 1) + series("B", "C", 3, 1, start=10) + series("A", "C", 4, 0, 1, start=20)
    cfg = RankingConfig(method="bt", bt={"bootstrap": 50}, elo={"bootstrap": 50})
    for method, label in (("bt", "log_strength"), ("elo", "elo")):
        r1 = rank(results, ["A", "B", "C"], cfg, seed=3, method=method)
        r2 = rank(results, ["A", "B", "C"], cfg, seed=3, method=method)
        assert r1.order() == ["A", "B", "C"]
        assert r1.to_json() == r2.to_json()
        for row in r1.rows:
            s = row.stats
            assert s.label == label and s.ci_low <= s.value + 1e-9 <= s.ci_high + 2e-9
            assert 1 <= s.rank_ci_low <= s.rank_ci_high <= 3
        other = rank(results, ["A", "B", "C"], cfg, seed=4, method=method)
        assert other.to_json() != r1.to_json()  # the seed drives the bootstrap
    assert {"bt", "elo"} <= set(RANKERS.names())


def test_config_validation():
    with pytest.raises(Exception, match="greater than 0"):
        RankingConfig(elo={"k": 0})
    assert RankingConfig(method="elo").elo.k == 16


def test_cli_rank_method_bt_and_elo(tmp_path):
    from click.testing import CliRunner

    from chatmatch.cli import cli as main
    from chatmatch.run.tournament import run_tournament
    from tests.run.test_runner import make_cfg

    s = run_tournament(make_cfg(tmp_path, exchanges=2))
    for method in ("bt", "elo"):
        out = CliRunner().invoke(main, ["rank", str(s.run_dir), "--method", method])
        assert out.exit_code == 0, out.output
        assert f"Ranking by {method}" in out.output and "ci lo" in out.output

"""Ablation ("minus x", paper Table 8) and ranking methods (section 4.4.5) by hand."""

import pytest

from chatmatch.analysis.ablation import ablation_table
from chatmatch.analysis.human import HumanRanking
from chatmatch.analysis.methods import method_table
from chatmatch.run.storedrun import Run
from tests.analysis.helpers import game, won, write_run

DIMS = ("x", "y", "z")


def g(gid, a, b, a_wins=(), b_wins=()):
    return game(gid, a, b, a_wins, b_wins, dims=DIMS)


def test_removing_one_dimension_flips_the_order(tmp_path):
    # A vs B: A wins x and z, B wins y  -> A wins; without x: 1-1 tie
    # A vs C: A wins x only             -> A wins; without x: tie
    # B vs C: B wins y only             -> B wins; without x: still B
    games = []
    for i, (first, second) in enumerate([("A", "B"), ("B", "A")]):
        a_w, b_w = ("x", "z"), ("y",)
        games.append(g(f"ab{i}", first, second, *((a_w, b_w) if first == "A" else (b_w, a_w))))
    games += [g("ac0", "A", "C", ("x",)), g("ac1", "C", "A", (), ("x",)),
              g("bc0", "B", "C", ("y",)), g("bc1", "C", "B", (), ("y",))]
    data = Run.load(write_run(tmp_path / "run", ["A", "B", "C"], games, method="points"))
    human = HumanRanking("h", {"A": 1, "B": 2, "C": 3})
    rows = {v.label: v for v in ablation_table(data, human)}
    assert list(rows) == ["all", "-x", "-y", "-z"]
    # all: A 3+3 = 6 match points, B 0+3 = 3, C 0 -> A > B > C, tau 1
    assert rows["all"].order() == ["A", "B", "C"] and rows["all"].tau == pytest.approx(1.0)
    # -x: A ties B and C (1+1 = 2), B ties A, beats C (1+3 = 4), C 1 -> B > A > C
    assert rows["-x"].ranks == {"B": 1, "A": 2, "C": 3}
    assert rows["-x"].tau == pytest.approx(1 / 3)  # only the pair (A, B) is discordant
    # -y: A beats B and C; B and C tie on 1 point and 0 game points -> share rank 2
    assert rows["-y"].ranks == {"A": 1, "B": 2, "C": 2}
    # tau-b with one tie in the run: 2 concordant, 0 discordant, n0 = 3, ties 1 and 0
    assert rows["-y"].tau == pytest.approx(2 / (2 * 3) ** 0.5)
    # ablation re-weights: every game of "-x" has no point on x
    assert data.weights == {"x": 1.0, "y": 1.0, "z": 1.0}


def test_ablation_without_humans_still_ranks(tmp_path):
    games = [g("g1", "A", "B", ("x",)), g("g2", "B", "A", (), ("x",))]
    data = Run.load(write_run(tmp_path / "run", ["A", "B"], games))
    rows = ablation_table(data)
    assert [v.agreement for v in rows] == [None] * 4
    assert rows[0].ranks == {"A": 1, "B": 2} and rows[1].ranks == {"A": 1, "B": 1}


def test_three_one_zero_and_two_one_zero_differ(tmp_path):
    # W beats X and Z, ties Y; X beats Z, ties Y; Y ties everyone; Z ties Y.
    # 3/1/0: W 7, X 4, Y 3, Z 1.  2/1/0: W 5, X 3, Y 3, Z 1 and the tie X/Y is broken by
    # game points: X 8 + 6 + 0 = 14, Y 6 + 6 + 6 = 18 -> Y above X.
    plan = [("W", "X", 4, 0), ("W", "Z", 4, 0), ("X", "Z", 4, 0),
            ("W", "Y", 3, 3), ("X", "Y", 3, 3), ("Z", "Y", 3, 3)]
    games, n = [], 0
    for a, b, pa, pb in plan:
        for first, second in ((a, b), (b, a)):
            n += 1
            p = {a: pa, b: pb}
            games.append(won(f"g{n:02d}", first, second, p[first], p[second]))
    data = Run.load(write_run(tmp_path / "run", ["W", "X", "Y", "Z"], games))
    human = HumanRanking("h", {"W": 1, "X": 2, "Y": 3, "Z": 4})
    rows = method_table(data, human)
    assert [v.label for v in rows] == ["trueskill (3 shuffles, by mu-3*sigma)",
                                       "points 3/1/0", "points 2/1/0"]
    assert rows[1].order() == ["W", "X", "Y", "Z"] and rows[1].tau == pytest.approx(1.0)
    assert rows[2].order() == ["W", "Y", "X", "Z"] and rows[2].tau == pytest.approx(4 / 6)
    assert rows[0].ranks == data.rank(method="trueskill").rank_of()

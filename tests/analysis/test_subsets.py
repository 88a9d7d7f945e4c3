"""Generalisability table (paper Table 6) on a 4-bot run worked out by hand."""

import pytest

from chatmatch.analysis.human import HumanRanking
from chatmatch.analysis.subsets import subset_table
from chatmatch.errors import ChatmatchError
from chatmatch.run.storedrun import Run
from tests.analysis.helpers import won, write_run

BOTS = ["A", "B", "C", "D"]
HUMAN = HumanRanking("humans", {"A": 1, "B": 2, "C": 3, "D": 4})


def four_bot_results():
    """A beats everyone, B beats C and D, and D beats C (humans put C above D).
    So the run's order is A > B > D > C: only the pair (C, D) disagrees with humans."""
    beats = [("A", "B"), ("A", "C"), ("A", "D"), ("B", "C"), ("B", "D"), ("D", "C")]
    out, n = [], 0
    for w, l in beats:
        for first, second in ((w, l), (l, w)):  # both games of the match
            n += 1
            pts = {w: 4, l: 1}
            out.append(won(f"g{n:03d}", first, second, pts[first], pts[second]))
    return out


@pytest.fixture(scope="module", params=["points", "trueskill"])
def run4(request, tmp_path_factory):
    path = tmp_path_factory.mktemp("sub") / request.param
    return Run.load(write_run(path, BOTS, four_bot_results(), method=request.param))


def test_subsets_of_three_by_hand(run4):
    t = subset_table(run4, HUMAN, k=3)
    # {A,B,C} and {A,B,D}: same order as humans -> tau 1.
    # {A,C,D}: run A > D > C, humans A > C > D: 2 concordant, 1 discordant of 3 -> 1/3.
    # {B,C,D}: run B > D > C, humans B > C > D: likewise 1/3.
    expected = [("A, B, C", ["A", "B", "C"], 1.0), ("A, B, D", ["A", "B", "D"], 1.0),
                ("A, C, D", ["A", "D", "C"], 1 / 3), ("B, C, D", ["B", "D", "C"], 1 / 3)]
    assert [(v.label, v.order()) for v in t.rows] == [(lab, order) for lab, order, _ in expected]
    assert [v.tau for v in t.rows] == pytest.approx([tau for *_, tau in expected])
    assert t.mean_tau == pytest.approx((1 + 1 + 1 / 3 + 1 / 3) / 4)
    assert t.above == 2  # strictly above 0.6, as the paper counts


def test_subset_of_all_four_is_the_whole_run(run4):
    t = subset_table(run4, HUMAN, k=4)
    assert len(t.rows) == 1 and t.rows[0].order() == ["A", "B", "D", "C"]
    # 6 pairs, 1 discordant: (5 - 1) / 6
    assert t.rows[0].tau == pytest.approx(4 / 6) and t.above == 1


def test_subset_games_are_only_the_games_among_the_subset(run4):
    t = subset_table(run4, HUMAN, k=2)
    assert len(t.rows) == 6
    cd = next(v for v in t.rows if v.label == "C, D")
    assert cd.order() == ["D", "C"] and cd.tau == pytest.approx(-1.0)


def test_bad_subset_size(run4):
    with pytest.raises(ChatmatchError, match="need 2 <= k <= 4"):
        subset_table(run4, HUMAN, k=5)

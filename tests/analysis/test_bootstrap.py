"""Bootstrap over games: deterministic for a seed, and sensible on a clear-cut run."""

import pytest

from chatmatch.analysis.bootstrap import bootstrap
from chatmatch.analysis.human import HumanRanking
from chatmatch.errors import ChatmatchError
from chatmatch.run.storedrun import Run
from tests.analysis.helpers import won, write_run


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    # A dominates; B and C are close (each wins one game of their match)
    games = [won("g1", "A", "B", 6, 0), won("g2", "B", "A", 0, 6),
             won("g3", "A", "C", 6, 0), won("g4", "C", "A", 0, 6),
             won("g5", "B", "C", 3, 2), won("g6", "C", "B", 4, 2)]
    path = write_run(tmp_path_factory.mktemp("boot") / "run", ["A", "B", "C"], games)
    return Run.load(path)


def test_same_seed_same_table(data):
    human = HumanRanking("h", {"A": 1, "B": 2, "C": 3})
    a = bootstrap(data, samples=200, seed=7, human=human)
    b = bootstrap(data, samples=200, seed=7, human=human)
    assert a == b
    c = bootstrap(data, samples=200, seed=8, human=human)
    assert [r.keep_share for r in a.rows] != [r.keep_share for r in c.rows]


def test_clear_leader_keeps_its_rank(data):
    b = bootstrap(data, samples=300, seed=1)
    rows = {r.bot: r for r in b.rows}
    # B and C have the same record (1 won, 3 lost) and the same match points, but C has more
    # game points: the points table ranks by match points, then game points, and ties only
    # bots equal on both (chatmatch.ranking.ties), so C is 2 and B is 3
    assert [(r.bot, r.rank) for r in b.rows] == [("A", 1), ("C", 2), ("B", 3)]
    # A wins every game it plays; it only loses first place in resamples that hold few of
    # its games (a league table counts matches, so a bot with more sampled games can pass)
    assert rows["A"].keep_share > 0.9 and rows["A"].low == 1 and rows["A"].mean_rank < 1.1
    # B and C swap places often
    assert 0.2 < rows["B"].keep_share < 0.9 and (rows["B"].low, rows["B"].high) == (2, 3)
    for r in b.rows:
        assert r.low <= r.rank <= r.high and r.low <= r.mean_rank <= r.high
    assert b.samples == 300 and b.method == "points" and b.tau is None


def test_tau_interval_with_humans(data):
    b = bootstrap(data, samples=100, seed=3, human=HumanRanking("h", {"A": 1, "B": 2, "C": 3}))
    mean, lo, hi = b.tau
    assert -1 <= lo <= mean <= hi <= 1 and lo < hi


def test_needs_a_positive_sample_count(data):
    with pytest.raises(ChatmatchError, match="resamples >= 1"):
        bootstrap(data, samples=0)

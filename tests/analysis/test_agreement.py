"""Kendall tau-b and Spearman rho with known answers."""

import math

import pytest

from chatmatch.analysis.agreement import compare
from chatmatch.stats.correlation import kendall, pearson, spearman
from chatmatch.errors import ChatmatchError


def test_identical_rankings_agree_fully():
    t = kendall([1, 2, 3, 4, 5], [1, 2, 3, 4, 5])
    r = spearman([1, 2, 3, 4, 5], [1, 2, 3, 4, 5])
    assert t.value == pytest.approx(1.0) and r.value == pytest.approx(1.0)
    # exact two-sided p of tau = 1 with n = 5: 2 / 5! = 1/60
    assert t.p_value == pytest.approx(2 / 120)


def test_reversed_rankings_disagree_fully():
    assert kendall([1, 2, 3, 4, 5], [5, 4, 3, 2, 1]).value == pytest.approx(-1.0)
    assert spearman([1, 2, 3, 4, 5], [5, 4, 3, 2, 1]).value == pytest.approx(-1.0)


def test_one_swap_of_five():
    # 10 pairs, 1 discordant: (9 - 1) / 10
    assert kendall([1, 2, 3, 4, 5], [2, 1, 3, 4, 5]).value == pytest.approx(0.8)
    # rho = 1 - 6 * sum d^2 / (n (n^2 - 1)) = 1 - 6 * 2 / 120
    assert spearman([1, 2, 3, 4, 5], [2, 1, 3, 4, 5]).value == pytest.approx(0.9)


def test_ties_use_tau_b():
    # x has one tied pair; concordant 5, discordant 0, n0 = 6, ties in x = 1, in y = 0
    t = kendall([1, 2, 3, 3], [1, 2, 3, 4])
    assert t.value == pytest.approx(5 / math.sqrt((6 - 1) * (6 - 0)))


def test_constant_ranking_is_undefined_not_an_error():
    t = kendall([1, 1, 1], [1, 2, 3])
    assert math.isnan(t.value) and t.fmt() == "n/a"
    assert math.isnan(pearson([2, 2, 2], [1, 2, 3]).value)


def test_compare_orients_ranks_and_scores():
    ranks = {"a": 1, "b": 2, "c": 3}
    assert compare(ranks, {"a": 1, "b": 2, "c": 3}).tau.value == pytest.approx(1.0)
    # a dimension: win counts (higher better) against human scores (higher better)
    agree = compare({"a": 9, "b": 5, "c": 1}, {"a": 4.5, "b": 3.0, "c": 1.0}, "diversity",
                    system_lower_better=False, human_lower_better=False)
    assert agree.tau.value == pytest.approx(1.0) and agree.label == "diversity"
    # ranks against scores: the best rank goes with the best score
    assert compare(ranks, {"a": 5, "b": 3, "c": 1}, human_lower_better=False).tau.value == \
        pytest.approx(1.0)


def test_compare_uses_shared_bots_and_needs_two():
    a = compare({"a": 1, "b": 2, "c": 3}, {"c": 1, "b": 2})
    assert a.bots == ("b", "c") and a.tau.value == pytest.approx(-1.0)
    with pytest.raises(ChatmatchError, match="share 1 bot"):
        compare({"a": 1, "b": 2}, {"a": 1})

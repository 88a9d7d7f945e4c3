"""The Spot The Bot human ranking, derived by hand on a small example."""

import pytest

from chatmatch.validity.datasets.human_stb import (Judgement, fooling_rates, judgement_from_record,
                                          pairwise_wins, segment_outcome, win_rate_scores)

H, B, U = True, False, None  # judged human, judged a bot, undecided

#: nine annotated segments among systems A, B, C (worked out by hand below)
EXAMPLE = [
    Judgement("A", "B", H, B),  # 1: A judged human, B not: A wins
    Judgement("A", "B", U, B),  # 2: undecided beats bot: A wins
    Judgement("A", "B", B, B, 4, 4),  # 3: both spotted at the same turn: draw
    Judgement("B", "A", H, H),  # 4: both judged human: draw
    Judgement("B", "C", B, B, 6, 4),  # 5: both bots, B spotted later (survived): B wins
    Judgement("C", "B", H, U),  # 6: C wins
    Judgement("A", "C", B, U),  # 7: C wins
    Judgement("A", "C", H, B),  # 8: A wins
    Judgement("C", "A", H, B),  # 9: C wins
]


def test_segment_outcomes_one_by_one():
    assert [segment_outcome(j) for j in EXAMPLE] == [1, 1, 0, 0, 1, 1, -1, 1, 1]


def test_survival_only_breaks_ties_between_non_humans():
    assert segment_outcome(Judgement("A", "B", H, H, 2, 10)) == 0  # both human: a draw
    assert segment_outcome(Judgement("A", "B", B, B, 2, 10)) == -1  # B survived longer
    assert segment_outcome(Judgement("A", "B", U, U, 10, 2)) == 1
    assert segment_outcome(Judgement("A", "B", B, B, None, 10)) == 0  # unknown: a draw


def test_pairwise_wins_by_hand():
    # segment 4 (B vs A) was a draw: the pair is recorded with 0 wins for B
    assert pairwise_wins(EXAMPLE) == {("A", "B"): 2, ("B", "A"): 0, ("B", "C"): 1,
                                      ("C", "B"): 1, ("C", "A"): 2, ("A", "C"): 1}


def test_win_rate_ranking_by_hand():
    # A-B: A won 2, B 0 (two draws left out) -> A 1, B 0
    # B-C: 1 each -> 1/2 each;  A-C: A 1, C 2 -> A 1/3, C 2/3
    # mean over the 2 other systems: A (1 + 1/3)/2 = 2/3, B (0 + 1/2)/2 = 1/4,
    # C (1/2 + 2/3)/2 = 7/12  ->  A > C > B
    scores = win_rate_scores(EXAMPLE)
    assert scores == pytest.approx({"A": 2 / 3, "B": 1 / 4, "C": 7 / 12})
    assert sorted(scores, key=lambda s: -scores[s]) == ["A", "C", "B"]


def test_fooling_rate_by_hand():
    # A is in segments 1,2,3,4,7,8,9 and judged human in 1,4,8: 3/7
    # B in 1-6, judged human in 4: 1/6;  C in 5-9, judged human in 6 and 9: 2/5
    assert fooling_rates(EXAMPLE) == pytest.approx({"A": 3 / 7, "B": 1 / 6, "C": 2 / 5})


def test_a_pair_that_only_drew_counts_zero_for_both():
    scores = win_rate_scores([Judgement("A", "B", H, H), Judgement("A", "C", H, B),
                              Judgement("B", "C", H, B)])
    # A: vs B nothing decisive (0), vs C 1 -> 1/2; B likewise 1/2; C lost both -> 0
    assert scores == pytest.approx({"A": 0.5, "B": 0.5, "C": 0.0})


def test_record_in_mongodb_extended_json():
    rec = {"entity0_annotation": {"is_human": None, "decision_turn": {"$numberLong": "6"}},
           "entity1_annotation": {"is_human": False, "decision_turn": 6}}
    j = judgement_from_record(rec, {"system_type0": "x", "system_type1": "y"})
    assert j == Judgement("x", "y", None, False, 6, 6)
    with pytest.raises(TypeError):
        judgement_from_record({**rec, "entity1_annotation": {"is_human": "yes"}},
                              {"system_type0": "x", "system_type1": "y"})

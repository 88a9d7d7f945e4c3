"""Probability arithmetic of the judges on hand-made logprob tables."""

import math

import pytest

from chatmatch.judges.aspect import extract_score, level_of
from chatmatch.judges.backends import LabelProbs, first_label, label_mass, renormalise
from chatmatch.judges.base import evenly_spaced, mean_or_nan
from chatmatch.judges.geval import weighted_score
from chatmatch.judges.paireval import preference, swap_average
from chatmatch.judges.prompts import TEMPLATES, PromptTemplate
from chatmatch.judges.backends import JudgeError


def test_label_mass_sums_spellings_and_ignores_other_tokens():
    top = {"A": 0.3, " A": 0.2, "B": 0.1, "The": 0.4, " a": 0.05}
    assert label_mass(top, ["A", "B"]) == pytest.approx({"A": 0.5, "B": 0.1})
    assert label_mass({"x": 1.0}, ["A", "B"]) == {"A": 0.0, "B": 0.0}


def test_renormalise_over_the_labels():
    lp = LabelProbs({"A": 0.3, "B": 0.1}, "logprobs")
    assert lp.mass == pytest.approx(0.4)
    assert renormalise(lp) == pytest.approx({"A": 0.75, "B": 0.25})
    assert renormalise(LabelProbs({"A": 0.0, "B": 0.0}, "logprobs")) is None
    assert renormalise(None) is None


def test_geval_weighted_score_is_renormalised_expectation():
    # p(1..5) = .1 .1 .2 .4 .1 (mass .9): sum p*s = .1+.2+.6+1.6+.5 = 3.0 -> 3.0/.9
    probs = {"1": 0.1, "2": 0.1, "3": 0.2, "4": 0.4, "5": 0.1, "six": 0.1}
    assert weighted_score(probs, range(1, 6)) == pytest.approx(3.0 / 0.9)
    assert weighted_score({"5": 0.01}, range(1, 6)) == pytest.approx(5.0)
    assert weighted_score({"7": 1.0}, range(1, 6)) is None  # missing, never 0
    assert weighted_score(None, range(1, 6)) is None


def test_preference_and_position_swap_average():
    # X shown as A: P(A)=.6,P(B)=.2 -> .75; X shown as B: P(A)=.5,P(B)=.5 -> .5
    p, flip = swap_average({"A": 0.6, "B": 0.2}, {"A": 0.5, "B": 0.5})
    assert p == pytest.approx(0.625) and flip is True  # .75 prefers X, .5 prefers nobody
    # a judge that always says "A": X wins as A (.9), loses as B (.1) -> .5, orders disagree
    p, flip = swap_average({"A": 0.9, "B": 0.1}, {"A": 0.9, "B": 0.1})
    assert p == pytest.approx(0.5) and flip is True
    # consistent judge: prefers X in both orders
    p, flip = swap_average({"A": 0.8, "B": 0.2}, {"A": 0.3, "B": 0.7})
    assert p == pytest.approx(0.75) and flip is False
    assert preference({"A": 0.0, "B": 0.0}, "A") is None
    p, flip = swap_average(None, {"A": 0.2, "B": 0.6})
    assert p == pytest.approx(0.75) and flip is None
    assert swap_average(None, None) == (None, None)


def test_first_label_and_score_extraction():
    assert first_label("B. Response B is better", ["A", "B"]) == "B"
    assert first_label("Answer: A", ["A", "B"]) == "A"
    assert first_label("4.5 maybe", [str(i) for i in range(1, 6)]) is None
    assert first_label("Coherence: 4", [str(i) for i in range(1, 6)]) == "4"
    assert extract_score("The response is consistent. Therefore, the score is 1.") == 1.0
    assert extract_score("Score: .7") == pytest.approx(0.7)
    assert extract_score("I give it 8/10") == pytest.approx(0.8)
    assert extract_score("level 7, score 3") is None
    assert extract_score("no idea") is None
    assert extract_score("The score is from 0 to 1.") is None  # the instruction echoed back
    assert extract_score("The score is 0.0-0.1, so 0.05") == pytest.approx(0.05)
    assert [level_of(x) for x in (0.0, 0.05, 0.1, 0.95, 1.0)] == [1, 1, 2, 10, 10]


def test_helpers():
    # positions 0, 4.5 and 9; round() takes half to even, so 4.5 -> 4
    assert evenly_spaced(list(range(10)), 3) == [0, 4, 9]
    assert evenly_spaced(list(range(9)), 3) == [0, 4, 8]
    assert evenly_spaced([1, 2], 5) == [1, 2]
    assert math.isnan(mean_or_nan([None, math.nan]))
    assert mean_or_nan([1.0, None, 3.0]) == 2.0


def test_templates_are_versioned_and_render_strictly():
    for t in TEMPLATES.values():
        assert t.version and len(t.sha256) == 64 and t.record()["text"] == t.text
    t = PromptTemplate("x", "1", "{{a}} and {{b}}", "{{a}}:")
    assert t.render(a=1, b=2) == ("1 and 2", "1:")
    with pytest.raises(JudgeError, match="no value for b"):
        t.render(a=1)

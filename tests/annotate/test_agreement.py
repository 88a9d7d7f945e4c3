"""The agreement maths on hand-built judgements with known answers."""

from __future__ import annotations

import itertools
import math

import pytest

from chatmatch.annotate.agreement import krippendorff_alpha, pair_agreement, summarize
from chatmatch.errors import ChatmatchError
from tests.annotate.conftest import judgement

BOTS = ["a", "b", "c", "d"]


def _ordered_judgements(order, annotators=("ann", "bob")):
    """Every annotator judges every pair twice (the better bot by ``order`` shown once as
    speaker A, once as B); the better bot always wins."""
    out = []
    k = 0
    for i, x in enumerate(order):
        for y in order[i + 1:]:
            for a, b, answer in ((x, y, "a"), (y, x, "b")):
                k += 1
                for who in annotators:
                    out.append(judgement(who, f"g{k:03d}", a, b, answer))
    return out


def test_human_ranking_and_tau_against_a_known_order():
    js = _ordered_judgements(BOTS)
    # chatmatch swaps c and d: 5 concordant pairs, 1 discordant -> tau = 4/6
    s = summarize(js, BOTS, "points", {"a": 1, "b": 2, "c": 4, "d": 3}, {}, "test", reps=100)
    overall = s.questions[0]
    assert [r.bot for r in overall.rows] == BOTS
    assert [r.rank for r in overall.rows] == [1, 2, 3, 4]
    assert overall.rows[0].win_rate == 1.0 and overall.rows[-1].win_rate == 0.0
    assert overall.agreement is not None
    assert overall.agreement.tau.value == pytest.approx(4 / 6)
    lo, hi = overall.tau_interval
    assert lo <= 4 / 6 <= hi
    # both annotators always agree: alpha 1, every pair agrees
    assert overall.alpha == pytest.approx(1.0) and overall.pair_agreement == 1.0
    assert (s.judgements, s.answers, s.items, s.pairs_judged, s.pairs_total) == (24, 24, 12, 6, 6)


def test_dimension_questions_compare_with_dimension_wins():
    js = [judgement(j.annotator, j.item, j.bot_a, j.bot_b, j.answer, "proactivity")
          for j in _ordered_judgements(BOTS)]
    js += _ordered_judgements(BOTS)
    wins = {"proactivity": {"a": 0.0, "b": 1.0, "c": 2.0, "d": 3.0}}  # the reverse order
    s = summarize(js, BOTS, "points", {"a": 1, "b": 2, "c": 3, "d": 4}, wins, "test", reps=0)
    by_q = {q.question: q for q in s.questions}
    assert by_q["overall"].agreement.tau.value == pytest.approx(1.0)
    assert by_q["proactivity"].agreement.tau.value == pytest.approx(-1.0)
    assert s.human_ranking().dimensions["proactivity"]["a"] > 0


def test_cant_tell_is_half_a_win_each():
    js = [judgement("ann", f"g{i}", "a", "b", "tie") for i in range(4)]
    s = summarize(js, ["a", "b"], "points", {"a": 1, "b": 2}, {}, "test", reps=20)
    rows = s.questions[0].rows
    assert [r.rank for r in rows] == [1, 1]  # a tie is a tie
    assert rows[0].tied == 4 and rows[0].win_rate == 0.5
    assert math.isnan(s.questions[0].alpha)  # nobody judged an item twice
    twice = js + [judgement("bob", f"g{i}", "a", "b", "tie") for i in range(4)]
    # everyone always answers the same: no variation, so alpha is undefined (not 1)
    assert math.isnan(krippendorff_alpha(twice)[0]) and pair_agreement(twice) == 1.0


def test_krippendorff_alpha_hand_computed():
    """Two annotators, four items: (a,a) (b,b) (a,b) (tie,tie). Coincidences: n_a = n_b = 3,
    n_tie = 2, n = 8, o_ab = o_ba = 1.
    Nominal: 1 - (n-1) * 2 / (n^2 - sum n_c^2) = 1 - 7*2/42 = 2/3.
    Ordinal (a < tie < b): delta^2(a,tie) = delta^2(tie,b) = (5/2)^2, delta^2(a,b) = (8-3)^2
    = 25; 1 - 7 * (2*25) / (2*(6*6.25 + 6*6.25 + 9*25)) = 1 - 350/600 = 5/12."""
    js = [judgement(w, item, "x", "y", ans) for item, pair in
          (("g1", ("a", "a")), ("g2", ("b", "b")), ("g3", ("a", "b")), ("g4", ("tie", "tie")))
          for w, ans in zip(("ann", "bob"), pair)]
    assert krippendorff_alpha(js, "nominal") == (pytest.approx(2 / 3), 4)
    assert krippendorff_alpha(js, "ordinal") == (pytest.approx(5 / 12), 4)
    assert pair_agreement(js) == 0.75


def test_no_judgement_of_the_run_bots_is_refused():
    with pytest.raises(ChatmatchError, match="no judgement of this run's bots yet"):
        summarize([judgement("ann", "g1", "zz", "yy", "a")], BOTS, "points", {}, {}, "f.sqlite")


def test_vectorised_bootstrap_fit_matches_fit_bt():
    """fit_many (all resamples at once) gives fit_bt's strengths, prior and floor included."""
    import numpy as np

    from chatmatch.annotate.agreement import fit_many
    from chatmatch.stats.bootstrap import item_matrices
    from chatmatch.stats.correlation import tau_b_rows
    from chatmatch.ranking.bradley_terry import fit_bt

    rng = np.random.default_rng(3)
    bots = ["a", "b", "c", "d", "e"]
    cases = []
    for _ in range(4):
        games = [(x, y, float(rng.choice([0.0, 0.5, 1.0])))
                 for x, y in itertools.permutations(bots[:4], 2)]  # "e" never plays
        games += [("a", "b", 1.0)] * 3  # a lopsided pair
        cases.append(games)
    wins = np.stack([item_matrices([g], bots)[0] for g in cases])
    got = fit_many(wins, prior=0.5)
    for row, games in zip(got, cases):
        want = fit_bt(games, bots, 0.5)
        assert row == pytest.approx([want[b] for b in bots], abs=1e-5)
    x = np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0], [1.0, 1.0, 1.0]])
    taus = tau_b_rows(x, np.array([1.0, 2.0, 3.0]))
    assert taus[0] == 1.0 and taus[1] == -1.0 and math.isnan(taus[2])

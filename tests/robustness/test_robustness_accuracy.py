"""Accuracy, ties, Wilson intervals, stability and spread on hand-made cases."""

from __future__ import annotations

import math

import pytest
from robustness_toys import LengthScorer, NotAnEvaluator, ShorterJudge

from chatmatch.robustness.accuracy import Stability, Tally, evaluate, spread, wilson
from chatmatch.robustness.evaluators import DimensionEvaluator, as_evaluator, as_game, load_object
from chatmatch.robustness.perturb import Context, Sample
from chatmatch.robustness.triples import RobustnessError, Triple

CTX = Context(("hi", "hello, how are you?"), ("A", "B"), "A")


def triple(family: str, good: str, broken: str, ctx: Context = CTX) -> Triple:
    return Triple(family, "hand", Sample(ctx, good), broken)


def test_wilson_matches_reference_values() -> None:
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(0, 10)[1] == pytest.approx(0.2775, abs=1e-4)
    assert wilson(10, 10)[1] == pytest.approx(1.0)
    assert all(math.isnan(x) for x in wilson(0, 0))


def test_tally_counts_ties_as_half() -> None:
    t = Tally(wins=6, ties=2, losses=2)
    assert t.n == 10 and t.accuracy == 0.7 and t.strict == 0.6 and t.tie_share == 0.2
    assert t.ci == wilson(7, 10)


def test_evaluate_scorer_on_hand_made_triples() -> None:
    triples = [triple("dull", "I went hiking in the hills", "ok"),          # win
               triple("dull", "fine thanks", "me too"),                      # tie (2 words each)
               triple("dull", "yes", "I do not know really"),                # loss
               triple("dull", "I love long walks", "Okay."),                 # win
               triple("paraphrase", "I'm good", "I am good"),                # 2 vs 3 words
               triple("paraphrase", "yeah sure", "yes sure")]                # unchanged
    res = evaluate([LengthScorer()], triples, seed=0, tolerance=0.25)
    cell = res.cells[("dull", "length")]
    assert isinstance(cell, Tally) and (cell.wins, cell.ties, cell.losses) == (2, 1, 1)
    assert cell.accuracy == 0.625
    para = res.cells[("paraphrase", "length")]
    # sd of good lengths [6, 2, 1, 4, 2, 2] = 1.7 -> tolerance 0.43: only the unchanged pair is stable
    assert isinstance(para, Stability) and (para.within, para.n) == (1, 2)
    sp = res.spreads["length"]
    assert sp.n == 12 and sp.distinct == len({6, 1, 2, 5, 4, 3}) and sp.top_share == pytest.approx(1 / 12)


def test_judge_sees_both_orders_and_maps_back() -> None:
    triples = [triple("dull", "short", "a much longer reply"), triple("dull", "a much longer reply", "short"),
               triple("dull", "same", "same"), triple("paraphrase", "abc", "abd")]
    res = evaluate([ShorterJudge()], triples * 5, seed=3)
    cell = res.cells[("dull", "shorter")]
    assert isinstance(cell, Tally) and (cell.wins, cell.ties, cell.losses) == (5, 5, 5)
    para = res.cells[("paraphrase", "shorter")]
    assert isinstance(para, Stability) and para.within == 5  # equal length -> 0.5 -> stable
    assert "shorter" not in res.spreads


def test_nan_scores_lose() -> None:
    class NanScorer(LengthScorer):
        def score(self, contexts, replies):  # type: ignore[no-untyped-def]
            return [math.nan if r == "x" else 1.0 for r in replies]

    res = evaluate([NanScorer()], [triple("dull", "good", "x"), triple("dull", "x", "y")], seed=0)
    cell = res.cells[("dull", "length")]
    assert isinstance(cell, Tally) and (cell.wins, cell.losses) == (1, 1)


def test_spread_top_share_direction() -> None:
    assert spread([1, 1, 3, 5], higher_is_better=False).top_share == 0.5
    assert spread([1, 1, 3, 5], higher_is_better=True).top_share == 0.25
    assert spread([0, 0, 0], True).sd == 0 and spread([0, 0, 0], True).top_share == 1.0


def test_dimension_adapter_builds_the_game_and_reads_the_speaker() -> None:
    from chatmatch.scoring.proactivity import Proactivity

    game = as_game(CTX, "what about you?")
    assert [t.speaker for t in game.turns] == ["A", "B", "A"] and game.turns[-1].text == "what about you?"
    # the count of every question (the paper's rule): 1 or 0 here; "what about you?" is
    # generic, and the default's specific-question rule is tested in tests/scoring
    ev = DimensionEvaluator(Proactivity(Proactivity.Params(unit="turns", questions="all")))
    assert ev.score([CTX, CTX], ["what about you?", "fine."]) == [1.0, 0.0]
    alone = Context(("hello",), ("A",), "A")
    assert as_game(alone, "again").players == ("A", "partner")


def test_loading_evaluators_by_import_path() -> None:
    assert isinstance(as_evaluator(load_object("robustness_toys:LengthScorer")), LengthScorer)
    with pytest.raises(RobustnessError, match="not an evaluator"):
        as_evaluator(NotAnEvaluator(), "robustness_toys:NotAnEvaluator")
    with pytest.raises(RobustnessError, match="expected an import path"):
        load_object("nocolon")
    with pytest.raises(RobustnessError, match="cannot import"):
        load_object("no_such_module_xyz:Thing")
    with pytest.raises(RobustnessError, match="has no 'Missing'"):
        load_object("robustness_toys:Missing")

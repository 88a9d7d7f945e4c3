"""Every point explainable: the per-turn details hold the value that decided each turn's
part in fluency (its SLOR, not only its perplexity), why a turn was left out or counted as
degenerate, and the notes that `show`, the view and the report print say so."""

from __future__ import annotations

import math
import statistics

import pytest
from scoring_dialogues import game
from test_fluency import fluency

from chatmatch.records import DimensionScore, ScoreRecord
from chatmatch.scoring.details import TurnNote, detail_notes, turn_notes
from chatmatch.scoring.fluency import Fluency
from chatmatch.scoring.variety import chitchat_unigrams


def test_slor_details_hold_the_value_the_median_is_taken_over() -> None:
    f, _ = fluency(aggregation="slor")
    s = f.score_games([game(["seed words here", "a b", "a b c d", "a", "a b c"], seed_first=True)])[0]
    table = chitchat_unigrams()
    want = {d["turn"]: math.log(d["perplexity"]) - (table.log_perplexity(t.split()) or 0.0)
            for d, t in zip(s.details, ["a b", "a b c d", "a", "a b c"])}
    assert {d["turn"]: d["slor"] for d in s.details} == {k: pytest.approx(v, abs=1e-4)
                                                         for k, v in want.items()}
    # the raw score is the median of exactly these values
    for bot in ("A", "B"):
        mine = [d["slor"] for d in s.details if d["speaker"] == bot]
        assert s.raw[bot] == pytest.approx(statistics.median(mine), abs=1e-4)


def test_a_degenerate_turn_says_why_and_what_it_counted_as() -> None:
    # B echoes A's turn 2; A's turn 4 stops on "the" (cut mid-sentence)
    texts = ["seed words here", "i like green tea a lot", "i like green tea a lot",
             "what do you drink", "we went to the shop and the"]
    slor, _ = fluency(aggregation="slor", degenerate="worst")
    d = {x["turn"]: x for x in slor.score_games([game(texts, seed_first=True)])[0].details}
    assert d[2]["degenerate"] == "echo" and d[2]["slor"] == round(math.log(1000), 6)
    assert d[4]["degenerate"] == "truncated" and d[4]["slor"] == round(math.log(1000), 6)
    assert "degenerate" not in d[1] and "degenerate" not in d[3]
    ppl, _ = fluency(aggregation="median", degenerate="worst")
    d = {x["turn"]: x for x in ppl.score_games([game(texts, seed_first=True)])[0].details}
    assert d[2]["counted_as"] == 1000 and "slor" not in d[2] and "counted_as" not in d[1]


def test_the_authors_rule_marks_capped_and_dropped_turns() -> None:
    # B: 10, 30, 90 (x 10 words): capped at 50 -> 10, 30, 50; the 50 dropped
    texts = ["seed"] + [w for n in (1, 3, 9) for w in (" ".join(["a"] * n), "b")]
    f, _ = fluency(aggregation="authors")
    s = f.score_games([game(texts, seed_first=True)])[0]
    b = [d for d in s.details if d["speaker"] == "B"]
    assert [d.get("capped_at") for d in b] == [None, None, 50]
    assert [d.get("dropped") for d in b] == [None, None, "worst turn"]
    assert s.raw["B"] == 20.0
    # trimmed_mean drops int(0.1 * 10) = 1 turn at each end of B's ten
    texts = ["seed"] + [w for n in range(1, 11) for w in (" ".join(["a"] * n), "b")]
    trimmed, _ = fluency(aggregation="trimmed_mean")
    t = [d for d in trimmed.score_games([game(texts, seed_first=True)])[0].details if d["speaker"] == "B"]
    assert [d.get("dropped", "")[:7] for d in t] == ["trimmed"] + [""] * 8 + ["trimmed"]


def test_the_paper_preset_adds_details_only() -> None:
    """The same raw scores with and without the new details (they are computed beside)."""
    texts = ["seed"] + [w for n in (1, 2, 3, 9) for w in (" ".join(["a"] * n), "b b")]
    f, _ = fluency(aggregation="authors", skip_repetitions=True)
    s = f.score_games([game(texts, seed_first=True)])[0]
    values = {p: [min(d["perplexity"], 50.0) for d in s.details
                  if d["speaker"] == p and "excluded" not in d] for p in ("A", "B")}
    assert s.raw == {p: Fluency.aggregate(f, v) for p, v in values.items()}


# --- the notes that show, the view and the report print ---------------------------------
def test_fluency_notes_show_slor_and_fall_back_to_perplexity() -> None:
    assert detail_notes("fluency", {"turn": 1, "perplexity": 45.21, "slor": -2.3141}) == [
        TurnNote("fluency", "SLOR -2.31 (ppl 45.2)", False, True)]
    # a record written before SLOR was stored: the perplexity, as before
    assert detail_notes("fluency", {"turn": 1, "perplexity": 12.0}) == [
        TurnNote("fluency", "ppl 12.0", False, True)]
    assert detail_notes("fluency", {"turn": 1, "perplexity": None}) == [
        TurnNote("fluency", "no perplexity", False, False)]


def test_degenerate_and_left_out_turns_are_tagged() -> None:
    echo = detail_notes("fluency", {"perplexity": 3.2, "degenerate": "echo", "slor": 6.9078})[0]
    assert echo.scored and echo.shown
    assert echo.text == "degenerate (echo): counted as the least fluent turn, SLOR 6.91; ppl 3.2"
    left = detail_notes("fluency", {"perplexity": 8.0, "excluded": "repetition"})[0]
    assert left.shown and left.text == "left out (repetition); ppl 8.0"
    dropped = detail_notes("fluency", {"perplexity": 70.0, "capped_at": 50.0, "dropped": "worst turn"})
    assert dropped[0].text == "ppl 70.0, capped at 50; dropped (worst turn)"
    question = detail_notes("proactivity", {"questions": 0, "asked": 1, "not_counted": "repetition"})
    assert question == [TurnNote("proactivity", "question not counted (repetition)", False, True)]
    stock = detail_notes("proactivity", {"questions": 0, "asked": 1, "not_counted": "stock question",
                                         "stock": ["Collab soon?"]})
    assert stock[0].text == ('question not counted (stock question: "Collab soon?", asked in '
                             'its other games too)')
    echo_reply = detail_notes("relevance", {"answers": 2, "similarity": 0.99, "excluded": "echo"})
    assert echo_reply == [TurnNote("relevance", "no credit: echoes turn 2 (similarity 0.99)",
                                   False, True)]
    known = detail_notes("knowledge", {"new": [], "already_mentioned": [["Paris", "GPE"]]})
    assert known == [TurnNote("knowledge", "not credited, mentioned before: Paris (GPE)", False, True)]
    pool = detail_notes("specificity", {"excluded": "answer to a repeated question"})
    assert pool[0].shown and "answer to a repeated question" in pool[0].text


def test_turn_notes_of_a_record() -> None:
    dims = {"fluency": DimensionScore("fluency", {"a": 1.0, "b": 2.0}, False, [
        {"turn": 1, "speaker": "a", "perplexity": 9.0, "slor": -1.0},
        {"turn": 2, "speaker": "b", "perplexity": 9.0, "degenerate": "repeat", "slor": 6.9}])}
    notes = turn_notes(ScoreRecord("g", ("a", "b"), dims))
    assert notes[1][0].text.startswith("SLOR -1.00") and notes[2][0].scored


"""FED meta-evaluation: loader and correlations on a fixture that mirrors fed_data.json,
plus one test on the real file when it is present."""

import json
import math
import os
from pathlib import Path

import pytest

from chatmatch.analysis.fed import (FedError, load_fed, mean_rating, meta_evaluate,
                                    parse_context, system_scores)
from chatmatch.analysis.scorers import scorer_function
from chatmatch.records import DimensionScore
from tests.datafolder import DATA_DIR

REPO = Path(__file__).resolve().parents[2]
REAL_FED = Path(os.environ.get("CHATMATCH_FED_PATH") or DATA_DIR / "fed" / "fed_data.json")
QUALITIES = ("Coherent", "Error recovery", "Consistent", "Diverse", "Depth", "Likeable",
             "Understanding", "Flexible", "Informative", "Inquisitive", "Overall")


# each question follows from what the user said just before it, so that it is on topic
# (proactivity counts only the bot's own questions that answer to the turn before)
OPENER = "Hi! I just moved to a new home."
ANSWERS = ("I live in Paris, a big city, and I work there.",
           "My job is teaching, I am a teacher. I drink tea in the breaks.",
           "Yes, I like green tea a lot. My cat likes it too.", "I have a pet cat.")


def dialogue(questions: int, system: str = "Meena") -> dict:
    """A dialogue-level item whose system asks ``questions`` different questions (a repeated
    one would earn nothing); its Inquisitive and Overall ratings grow with that number,
    Consistent does not."""
    lines = [f"User: {OPENER}"]
    for i in range(4):
        asks = ("Where do you live?", "What is your job?", "Do you like tea?", "Any pets?")[i]
        lines.append(f"System: {asks if i < questions else f'I like tea number {i}.'}")
        lines.append(f"User: {ANSWERS[i]}")
    ann = {q: [1, 1, 1, 1, 1] for q in QUALITIES}
    ann["Inquisitive"] = [questions, questions, questions + 1, "N/A (no idea)", questions]
    ann["Overall"] = [questions + 1] * 5
    ann["Error recovery"] = ["N/A (No errors)"] * 5
    return {"context": "\n".join(lines), "system": system, "annotations": ann}


def turn_level(item: dict) -> dict:
    return {**item, "response": "Sure.", "annotations": {"Interesting": [1, 2, 1, 1, 1]}}


@pytest.fixture()
def fed_file(tmp_path):
    items = [dialogue(q, s) for q, s in [(0, "Meena"), (1, "Mitsuku"), (2, "Human"), (3, "Meena")]]
    items.insert(1, turn_level(items[0]))
    p = tmp_path / "fed_data.json"
    p.write_text(json.dumps(items))
    return p


def test_loader_keeps_dialogue_level_items_and_averages_numbers(fed_file):
    ds = load_fed(fed_file)
    assert [d.index for d in ds] == [0, 2, 3, 4] and [d.system for d in ds] == \
        ["Meena", "Mitsuku", "Human", "Meena"]
    d = ds[2]  # 2 questions
    assert d.ratings["Inquisitive"] == pytest.approx((2 + 2 + 3 + 2) / 4)  # "N/A" skipped
    assert "Error recovery" not in d.ratings  # only N/A ratings: no rating at all
    assert d.turns[:3] == (("User", OPENER), ("System", "Where do you live?"), ("User", ANSWERS[0]))
    tr = d.transcript()
    assert tr.players == ("User", "System") and len(tr.turns) == 9
    assert not any(t.seed for t in tr.turns)  # the human wrote turn 0: credit it normally
    assert len(load_fed(fed_file, limit=2)) == 2


def test_parse_context_and_ratings():
    assert parse_context("User: a\nSystem: b: c\nmore of b\nUser: d") == \
        (("User", "a"), ("System", "b: c more of b"), ("User", "d"))
    assert mean_rating([1, "N/A", 2, True]) == 1.5 and mean_rating(["N/A"]) is None


@pytest.mark.parametrize("content,message", [
    ("{}", "expected a JSON list"), ("[1", "not a readable JSON file"),
    ('[{"context": "User: hi", "annotations": 3}]', "item 0 has no 'context' text"),
    ('[{"context": "x", "response": "y", "annotations": {}}]', "no dialogue-level items"),
])
def test_loader_errors(tmp_path, content, message):
    p = tmp_path / "fed.json"
    p.write_text(content)
    with pytest.raises(FedError, match=message):
        load_fed(p)
    with pytest.raises(FedError, match="FED file not found"):
        load_fed(tmp_path / "missing.json")


def fake_score(games):
    """Counts '?' in the system's turns (higher better) and in the user's turns (lower better)."""
    out = []
    for g in games:
        q = {p: float(sum(t.text.count("?") for t in g.turns_of(p))) for p in g.players}
        out.append({"proactivity": DimensionScore("proactivity", q, True),
                    "fluency": DimensionScore("fluency", {p: -v for p, v in q.items()}, False)})
    return out


def test_meta_eval_correlations_by_hand(fed_file):
    rows = {(r.dimension, r.quality): r for r in meta_evaluate(load_fed(fed_file), fake_score)}
    assert set(rows) == {("proactivity", "Inquisitive"), ("proactivity", "Overall"),
                         ("fluency", "Overall"), ("all (game points)", "Overall"),
                         ("all (mean z)", "Overall")}
    inq = rows["proactivity", "Inquisitive"]
    assert inq.n == 4 and inq.spearman.value == pytest.approx(1.0)
    assert inq.kendall.value == pytest.approx(1.0) and inq.pearson.value == pytest.approx(1.0)
    # lower-is-better raw scores are negated: -(-q) = q still agrees
    assert rows["fluency", "Overall"].spearman.value == pytest.approx(1.0)
    # game points vs the user, who never asks: with 0 questions both dimensions are ties
    # (0 points); with any question the system wins both (2 points)
    pts = system_scores(load_fed(fed_file), fake_score)["all (game points)"]
    assert pts == [0.0, 2.0, 2.0, 2.0]
    assert math.isclose(rows["all (mean z)", "Overall"].spearman.value, 1.0)


def test_meta_eval_with_the_real_proactivity_scorer(fed_file):
    rows = meta_evaluate(load_fed(fed_file), scorer_function("proactivity,diversity"))
    by = {(r.dimension, r.quality): r for r in rows}
    assert by["proactivity", "Inquisitive"].spearman.value == pytest.approx(1.0)
    assert ("diversity", "Diverse") in by
    # Diverse is constant in the fixture: the correlation is undefined, not an error
    assert math.isnan(by["diversity", "Diverse"].spearman.value)


@pytest.mark.skipif(not REAL_FED.is_file(), reason=f"FED data not found at {REAL_FED}; set "
                    "CHATMATCH_FED_PATH to a copy of fed_data.json to run this test")
def test_real_fed_file():
    ds = load_fed(REAL_FED)
    assert len(ds) == 125
    assert {d.system for d in ds} == {"Meena", "Mitsuku", "Human"}
    assert all(d.turns and d.turns[0][0] == "User" for d in ds)
    assert all(0 <= d.ratings["Overall"] <= 5 for d in ds)
    rows = {(r.dimension, r.quality): r for r in meta_evaluate(ds, scorer_function("proactivity"))}
    r = rows["proactivity", "Inquisitive"]
    assert r.n == 125 and -1 <= r.spearman.value <= 1 and not math.isnan(r.pearson.value)

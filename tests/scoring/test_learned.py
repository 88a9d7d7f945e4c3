"""The learned judge as a scorer: the shipped model file loads without running code, bad
files are one-line errors, and a game is decided per side with the reasons in its details."""

import json
import math
from pathlib import Path

import pytest

from chatmatch.errors import ChatmatchError
from chatmatch.scoring.base import DIMENSIONS, SCORERS
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.details import detail_notes
from chatmatch.scoring.learned.judge import LearnedJudge
from chatmatch.scoring.learned.features import training_params
from chatmatch.scoring.learned.model import (CLIP, FORMAT, FORMAT1, dump_model, load_model,
                                             parse_model)
from chatmatch.scoring.points import result_from_scores
from chatmatch.transcript import Transcript, Turn
from chatmatch.scoring.build import build_scorers


def game():
    a = ["Hi! I just got back from hiking in the Alps. Have you ever been to Switzerland?",
         "The views from Zermatt were amazing. What do you do for fun?",
         "Nice! Which books do you like best?"]
    b = ["ok", "ok", "ok"]
    turns = [Turn(2 * i + k, p, t) for i, (x, y) in enumerate(zip(a, b))
             for k, (p, t) in enumerate((("ann", x), ("bob", y)))]
    return Transcript("g1", ("ann", "bob"), tuple(turns))


def test_shipped_model_is_plain_json_with_its_provenance():
    m = load_model()
    assert m.sklearn and m.trained_on["datasets"]
    assert len(m.features) == len(m.coef) == len(m.mean) == len(m.scale)
    assert m.format == FORMAT and set(m.rule_params) == set(DIMENSIONS)
    for d in DIMENSIONS:  # every setting pinned: no default of this version is consulted
        assert set(m.rule_params[d]) == set(SCORERS.get(d).Params.model_fields)
    assert m.rule_params["fluency"]["backend"] == "ngram"
    # written before fluency read turns after the one before: it keeps reading them alone
    assert m.rule_params["fluency"]["context"] == "none"
    assert dump_model(m) == dump_model(parse_model(dump_model(m), "x"))


def test_registered_and_usable_as_a_dimension():
    assert SCORERS.get("learned") is LearnedJudge
    cfg = ScoringConfig(dimensions=["learned"])
    assert isinstance(build_scorers(cfg)[0], LearnedJudge)


def test_a_game_is_decided_per_side_with_reasons():
    score = LearnedJudge().score_games([game()])[0]
    assert set(score.raw) == {"ann", "bob"}
    r = result_from_scores("g1", ("ann", "bob"), {"learned": score}, {"learned": 1.0})
    assert r.winner == "ann", score.raw  # asks, tells, varies; bob says "ok" three times
    notes = [n for d in score.details for n in detail_notes("learned", d)]
    assert len(notes) == 2 and all(n.shown for n in notes)
    assert "learned judge: ann scores" in notes[0].text and "most:" in notes[0].text


def test_a_silent_side_loses(tmp_path):
    g = game()
    silent = Transcript("g2", g.players, tuple(t for t in g.turns if t.speaker == "ann"))
    score = LearnedJudge().score_games([silent])[0]
    r = result_from_scores("g2", g.players, {"learned": score}, {"learned": 1.0})
    assert r.winner == "ann"


@pytest.mark.parametrize("text, says", [
    ("not json", "not a JSON file"),
    ('{"format": "pickle"}', "not a learned-judge model file"),
    ("__import__('os').system('echo hacked')", "not a JSON file"),
])
def test_bad_model_files_are_one_line_errors_and_run_nothing(tmp_path, text, says):
    p = tmp_path / "m.json"
    p.write_text(text)
    with pytest.raises(ChatmatchError, match=says) as exc:
        LearnedJudge(LearnedJudge.Params(model=str(p))).model
    assert "\n" not in str(exc.value)
    with pytest.raises(ChatmatchError, match="cannot be read"):
        load_model(tmp_path / "absent.json")


def test_shapes_are_checked(tmp_path):
    doc = json.loads(dump_model(load_model()))
    doc["coef"] = doc["coef"][:-1]
    with pytest.raises(ChatmatchError, match="same length"):
        parse_model(json.dumps(doc), "m.json")


def test_far_out_features_are_clipped():
    m = load_model()
    row = {f: 1e12 for f in m.features}
    assert abs(m.predict(row) - m.intercept) <= CLIP * sum(abs(c) for c in m.coef) + 1e-9


def fluency_only(tmp_path, form, rule_params):
    """A model file whose score is the side's fluency feature itself."""
    doc = {"format": form, "sklearn": "test", "rule_params": rule_params,
           "features": ["own:fluency"], "mean": [0.0], "scale": [1.0], "coef": [1.0],
           "intercept": 0.0}
    p = tmp_path / "m.json"
    p.write_text(json.dumps(doc))
    return LearnedJudge(LearnedJudge.Params(model=str(p))).score_games([game()])[0].raw["ann"]


def fluency_of(params):
    scorer = build_scorers(ScoringConfig(dimensions=["fluency"], params={"fluency": params}))[0]
    return scorer.score_games([game()])[0].raw["ann"]


def test_a_model_scores_with_its_files_settings_not_todays_defaults(tmp_path):
    # the file pins fluency to the mean of perplexities; today's default is slor
    pinned = training_params({"fluency": {"backend": "ngram", "aggregation": "mean"}})
    expected = math.log(fluency_of({"backend": "ngram", "aggregation": "mean"}))
    assert fluency_only(tmp_path, FORMAT, pinned) == pytest.approx(expected)
    assert expected != pytest.approx(fluency_of({"backend": "ngram"}))  # the default differs


def test_a_format1_file_scores_with_the_settings_it_was_trained_with(tmp_path):
    # format 1 recorded only fluency's backend: the rest are the pre-issue-32 defaults
    raw = fluency_only(tmp_path, FORMAT1, {"fluency": {"backend": "ngram"}})
    old = {"backend": "ngram", "aggregation": "median", "degenerate": "keep"}
    assert raw == pytest.approx(math.log(fluency_of(old)))
    m = load_model(tmp_path / "m.json")
    assert m.rule_params["consistency"]["identity"] is False
    assert m.rule_params["consistency"]["self_contradictions"] is False  # default since
    assert m.rule_params["fluency"]["aggregation"] == "median"


def test_a_format2_file_gets_the_old_behaviour_of_a_setting_added_since():
    # consistency's contradiction rule was added after the shipped model was written: a
    # file that does not record it scores with the rule of its time (polarity), not today's
    doc = json.loads(dump_model(load_model()))
    doc["format"], doc["rule_params"] = FORMAT, training_params()
    del doc["rule_params"]["consistency"]["contradiction"]
    m = parse_model(json.dumps(doc), "m.json")
    assert m.rule_params["consistency"]["contradiction"] == "polarity"
    assert training_params()["consistency"]["contradiction"] == "same_predicate"
    shipped = json.loads((Path(__file__).parents[2] / "chatmatch" / "scoring" / "learned"
                          / "learned_judge.json").read_text())
    assert "contradiction" not in shipped["rule_params"]["consistency"]
    assert load_model().rule_params["consistency"]["contradiction"] == "polarity"


@pytest.mark.parametrize("change, says", [
    (lambda p: p.pop("consistency"), "seven scorers.*missing consistency"),
    (lambda p: p["fluency"].pop("aggregation"), "every setting of fluency.*aggregation"),
    (lambda p: p["fluency"].update(aggregation="best"), "rule_params.fluency"),
])
def test_a_format2_file_must_pin_every_setting(change, says):
    doc = json.loads(dump_model(load_model()))
    doc["format"], doc["rule_params"] = FORMAT, training_params()
    change(doc["rule_params"])
    with pytest.raises(ChatmatchError, match=says) as exc:
        parse_model(json.dumps(doc), "m.json")
    assert "\n" not in str(exc.value)

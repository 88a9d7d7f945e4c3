"""The combined judge (``combined``, issue 43 part 3): its model file loads without running
code and refuses a learned judge's file (and the reverse), its features on a tiny game
catch the recipes, the kinds weigh half each in training, and training on a tiny DSTC9
fixture writes the same file twice."""

import json

import numpy as np
import pytest

from chatmatch.errors import ChatmatchError
from chatmatch.records import DimensionScore
from chatmatch.scoring.base import DIMENSIONS, SCORERS
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.details import detail_notes
from chatmatch.scoring.build import build_scorers
from chatmatch.scoring.learned.features import combined_features, combined_names, training_params
from chatmatch.scoring.learned.judge import CombinedJudge, LearnedJudge
from chatmatch.scoring.learned.model import (COMBINED_FORMATS, FORMAT, FORMAT_COMBINED,
                                             PACKAGED_COMBINED, dump_model, load_model,
                                             parse_model)
from chatmatch.scoring.learned.signals import SIGNALS, recipe_signals
from chatmatch.scoring.points import result_from_scores
from chatmatch.transcript import Transcript, Turn, make_transcript
from chatmatch.validity.training.combined import (evaluate_combined, fit_combined, kind_means,
                                                  kind_weights, main)
from chatmatch.validity.training.table import Table
from tests.validity import dstc9_fixture

PIRATE = "Arr! Ye speak of {}? Aboard the Black Pearl we'd call that treasure. What say ye?"


def pirate_game():
    said = ["I went hiking in the Alps with my sister last week.",
            "Ha, maybe. The mountains were cold but the views were lovely.",
            "We also visited a small museum about glaciers in Chamonix.",
            "Do you like museums?"]
    texts = ["What did you do last week?"]
    for s, w in zip(said, ["hiking", "mountains", "museum", "museums"]):
        texts += [s, PIRATE.format(w)]
    return make_transcript("g1", ["pirate", "ann"], texts, seed_first=True)


def test_signals_catch_a_template_a_salad_and_an_echo():
    sig = recipe_signals(pirate_game(), "pirate")
    assert set(sig) == set(SIGNALS)
    assert sig["frame"] == 0.75  # every turn after the first repeats the frame
    assert recipe_signals(pirate_game(), "ann")["frame"] == 0.0
    turns = [Turn(0, "a", "What did you do last week?", seed=True),
             Turn(1, "b", "I baked bread with my grandmother on Sunday."),
             Turn(2, "a", "Indeed, you baked bread with your grandmother on Sunday."),
             Turn(3, "b", "Quixotic obsidian palimpsest zephyr lugubrious cartography marzipan."),
             Turn(4, "a", "Indeed, quixotic obsidian palimpsest zephyr lugubrious cartography.")]
    g = Transcript("g2", ("a", "b"), tuple(turns))
    a, b = recipe_signals(g, "a"), recipe_signals(g, "b")
    assert a["echo"] == 1.0 and a["copy"] > 0.8 and b["echo"] == 0.0
    assert b["salad"] == 0.5 and recipe_signals(pirate_game(), "ann")["function"] > b["function"]
    silent = Transcript("g3", ("a", "b"), (turns[0], turns[1]))
    assert all(np.isnan(v) for v in recipe_signals(silent, "a").values())


def test_combined_features_of_a_tiny_game():
    g = pirate_game()
    row = combined_features(g, "pirate", {})  # no verdict: every margin 0
    assert list(row) == combined_names()
    assert all(row[f"margin:{d}"] == 0.0 for d in DIMENSIONS)
    won = {"proactivity": DimensionScore("proactivity", {"pirate": 4.0, "ann": 1.0}, True)}
    assert combined_features(g, "pirate", won)["margin:proactivity"] == 1.0
    assert combined_features(g, "ann", won)["margin:proactivity"] == -1.0


def test_kinds_weigh_half_each():
    ds = np.array(["dstc9"] * 6 + ["fed"] * 2 + ["stb"] * 2)
    w = kind_weights(ds)
    assert w.sum() == pytest.approx(10)
    assert w[ds == "stb"].sum() == pytest.approx(w[ds != "stb"].sum())
    assert np.all(kind_weights(np.array(["dstc9", "fed", "dstc9"])) == 1.0)  # one kind


def _synthetic(n_human=90, n_bot=30):
    """A table where one feature predicts people one way on human-bot rows and the other
    way on bot-bot rows: the weighting decides which way the fit leans."""
    rng = np.random.default_rng(0)
    names = combined_names()
    n = n_human + n_bot
    x = rng.normal(size=(n, len(names)))
    k = names.index("sig:frame")
    sign = np.r_[np.ones(n_human), -np.ones(n_bot)]
    y = sign * x[:, k] + 0.1 * rng.normal(size=n)
    dataset = np.array(["dstc9"] * n_human + ["stb"] * n_bot)
    system = np.array([f"s{i % 6}" for i in range(n_human)] + [f"d/b{i % 6}" for i in range(n_bot)])
    table = Table(names, x, np.zeros((n, 0)), y, dataset, system, np.zeros(n),
                  np.zeros((n, 7)), (), training_params())
    return table, k


def test_the_weighting_gives_bot_bot_sides_half_the_say():
    table, k = _synthetic()
    rows = np.arange(len(table.y))
    unweighted = fit_combined(table, rows, weighted=False)
    weighted = fit_combined(table, rows)
    assert weighted.format == FORMAT_COMBINED and weighted.embedding is None
    # unweighted, the 90 human-bot rows win: the feature's weight is clearly positive;
    # weighted, the two kinds cancel
    assert unweighted.coef[k] > 0.2
    assert abs(weighted.coef[k]) < 0.05


def test_model_file_round_trip_and_refusals(tmp_path):
    table, _ = _synthetic()
    model = fit_combined(table, np.arange(len(table.y)))
    text = dump_model(model)
    assert dump_model(parse_model(text, "x")) == text
    p = tmp_path / "c.json"
    p.write_text(text)
    judge = CombinedJudge(CombinedJudge.Params(model=str(p)))
    assert judge.model.format in COMBINED_FORMATS
    assert set(judge.model.rule_params) == set(DIMENSIONS)
    # a combined file is not a learned judge's, and the reverse
    with pytest.raises(ChatmatchError, match="combined-judge model file") as exc:
        LearnedJudge(LearnedJudge.Params(model=str(p))).model
    assert "\n" not in str(exc.value)
    with pytest.raises(ChatmatchError, match="learned-judge model file"):
        load_model(None, formats=COMBINED_FORMATS, dimension="combined")
    for change, says in [({"features": ["emb:0"] + model.features[1:]}, "unknown feature"),
                         ({"embedding": {"model": "minilm", "mean": [0.0],
                                         "components": [[1.0]]}}, "no embedding"),
                         ({"format": "chatmatch-combined-judge/9"}, "format is"),
                         ({"coef": model.coef[:-1]}, "same length")]:
        doc = {**json.loads(text), **change}
        with pytest.raises(ChatmatchError, match=says):
            parse_model(json.dumps(doc), "c.json", COMBINED_FORMATS)
    with pytest.raises(ChatmatchError, match="not a JSON file"):
        parse_model("__import__('os')", "c.json", COMBINED_FORMATS)


def test_registered_and_the_shipped_model_decides_a_game():
    assert SCORERS.get("combined") is CombinedJudge
    m = load_model(None, PACKAGED_COMBINED, COMBINED_FORMATS, "combined")
    assert m.format == FORMAT_COMBINED and m.features == combined_names()
    assert m.rule_params["fluency"]["backend"] == "ngram"
    assert m.trained_on["datasets"] and "half" in m.trained_on["weights"]
    judge = build_scorers(ScoringConfig(dimensions=["combined"]))[0]
    assert isinstance(judge, CombinedJudge)
    score = judge.score_games([pirate_game()])[0]
    r = result_from_scores("g1", ("pirate", "ann"), {"combined": score}, {"combined": 1.0})
    assert r.winner == "ann", score.raw  # the template loses to the person
    notes = [n for d in score.details for n in detail_notes("combined", d)]
    assert len(notes) == 2 and "combined judge: " in notes[0].text


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("data")
    dstc9_fixture.build(root / "dstc9", chats=4)
    return root


def test_training_is_one_deterministic_command(data, tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    args = ["--data", str(data), "--datasets", "dstc9"]
    assert main([*args, "--out", str(a)]) == 0
    assert main([*args, "--out", str(b), "--cache", str(tmp_path / "cache"),
                 "--evaluate", str(tmp_path / "e.json"), "--bootstrap", "20"]) == 0
    assert a.read_bytes() == b.read_bytes()
    model = load_model(a, formats=COMBINED_FORMATS)
    assert model.trained_on["datasets"] == {"dstc9": 12}
    assert model.rule_params == training_params()
    report = json.loads((tmp_path / "e.json").read_text())
    rows = report["cells"]["dstc9"]
    # one kind only: no leave-one-kind-out or leave-dataset-out; systems out always
    assert {"rule judge", "length alone", "learned, leave-systems-out",
            "combined, leave-systems-out", "combined, kinds unweighted, leave-systems-out"} \
        == set(rows)
    assert "vs_learned" in rows["combined, leave-systems-out"]
    assert main(["--data", str(tmp_path / "nope"), "--out", str(tmp_path / "x.json")]) == 2


def test_kind_means_follow_the_written_rule():
    cell = lambda v: {"p": {"system_tau": {"value": v}}}  # noqa: E731
    means = kind_means({"stb": cell(0.9), "stb/a": cell(0.2), "stb/b": cell(0.4),
                        "dstc9": cell(0.6), "fed": cell(1.0)})["p"]
    assert means["bot-bot"] == pytest.approx(0.3)  # the domains, not the pooled cell
    assert means["human-bot"] == pytest.approx(0.8)
    assert means["score"] == pytest.approx(0.55)
    assert means["worst"] == {"cell": "stb/a", "tau": 0.2}
    assert evaluate_combined  # imported: the report's builder

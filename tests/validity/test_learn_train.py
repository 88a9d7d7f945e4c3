"""Re-training the learned judge (python -m chatmatch.validity.training.train) on a tiny DSTC9
fixture built here: one command, the same file twice, and an evaluation that never tests
a system on a model that saw it."""

import json

import numpy as np
import pytest

from chatmatch.scoring.learned.features import training_params, with_diffs
from chatmatch.scoring.learned.model import FORMAT, load_model
from chatmatch.validity.training.data import load_sides
from chatmatch.validity.training.evaluate import evaluate, leave_systems_out
from chatmatch.validity.training.fit import Recipe, fit_model
from chatmatch.validity.training.table import build_table
from chatmatch.validity.training.variants import compare, variants_text
from chatmatch.validity.training.train import main
from tests.validity import dstc9_fixture


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("data")
    dstc9_fixture.build(root / "dstc9", chats=4)
    return root


def train(data, out, *extra):
    return main(["--data", str(data), "--datasets", "dstc9", "--out", str(out), *extra])


def test_one_command_writes_the_same_file_twice(data, tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert train(data, a) == 0
    assert train(data, b, "--cache", str(tmp_path / "cache")) == 0  # a cache changes nothing
    assert a.read_bytes() == b.read_bytes()
    model = load_model(a)
    assert model.format == FORMAT and model.trained_on["datasets"] == {"dstc9": 12}
    assert model.rule_params == training_params()  # every setting of the seven, as trained
    assert model.features[:2] == ["own:fluency", "own:knowledge"]
    assert len(model.coef) == len(model.features)


def test_the_model_ranks_the_fixture_as_people_do(data, tmp_path):
    out = tmp_path / "m.json"
    train(data, out)
    model = load_model(out)
    from chatmatch.scoring.learned.judge import LearnedJudge
    judge = LearnedJudge(LearnedJudge.Params(model=str(out)))
    sides = load_sides(data, ["dstc9"])
    by_system = {}
    for s, score in zip(sides, judge.score_games([s.game for s in sides])):
        by_system.setdefault(s.system, []).append(score.raw["System"])
    means = {k: np.mean(v) for k, v in by_system.items()}
    # in sample (a fixture of 3 systems): chatbot1 (overall 5) > chatbot2 (3) > chatbot3 (1)
    assert means["chatbot1"] > means["chatbot2"] > means["chatbot3"], means
    assert model.sklearn


def test_leave_systems_out_never_trains_on_the_tested_system(data, monkeypatch):
    table = build_table(load_sides(data, ["dstc9"]), _embed())
    seen = []

    def fit(t, train, test):
        seen.append((set(t.system[train]), set(t.system[test])))
        return np.zeros(len(test))

    leave_systems_out(table, "dstc9", fit)
    assert len(seen) == 3
    assert all(not (tr & te) and len(te) == 1 for tr, te in seen)


def test_evaluation_reports_every_predictor_with_intervals(data):
    report = evaluate(build_table(load_sides(data, ["dstc9"]), _embed()), samples=20)
    rows = report["dstc9"]
    assert {"rule judge", "length alone", "learned, leave-systems-out",
            "fitted weights, leave-systems-out", "minus fluency"} <= set(rows)
    r = rows["learned, leave-systems-out"]
    assert r["systems"] == 3 and r["sides"] == 12
    assert set(r["system_tau"]) == {"value", "low", "high"} and "vs_rule" in r
    json.dumps(report)


def test_missing_data_is_one_line(tmp_path, capsys):
    assert main(["--data", str(tmp_path / "nope"), "--out", str(tmp_path / "m.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --data") and err.count("\n") == 1
    assert not (tmp_path / "m.json").exists()
    assert main(["--data", str(tmp_path), "--datasets", "usr"]) == 2
    assert "--datasets: unknown usr" in capsys.readouterr().err


def _embed():
    from chatmatch.validity.training.train import minilm
    return minilm()


def test_variants_are_compared_cell_by_cell_and_by_their_mean(data):
    table = build_table(load_sides(data, ["dstc9"]), _embed())
    recipes = {"pairwise": Recipe(features="pairwise"),
               "grouped": Recipe(alpha="group", target="rank", embedding=0)}
    found = compare(table, recipes, samples=20)
    assert list(found) == ["rule judge", "length alone", "pairwise", "grouped"]
    for label in recipes:
        cell = found[label]["cells"]["dstc9/systems out"]
        assert found[label]["mean_tau"] == cell["system_tau"]["value"]  # one dataset
        assert set(cell) == {"system_tau", "chat_rho", "length_rho"}
    assert "mean tau" in variants_text(found)


def test_a_pairwise_model_scores_one_side_as_minus_the_other(data):
    table = build_table(load_sides(data, ["dstc9"]), _embed())
    model = fit_model(table, np.arange(len(table.y)), Recipe(features="pairwise", alpha="group"))
    assert model.intercept == 0 and all(f.startswith("diff:") for f in model.features)
    assert model.trained_on["recipe"]["features"] == "pairwise"
    row = with_diffs(dict(zip(table.names, table.x[0].tolist())))
    swapped = with_diffs({("partner:" + k[4:] if k.startswith("own:") else "own:" + k[8:]): v
                          for k, v in zip(table.names, table.x[0].tolist())})
    assert model.predict(row) == pytest.approx(-model.predict(swapped))

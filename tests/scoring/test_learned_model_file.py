"""The learned judge's model file, checked as a whole when it is read: every number finite
and bounded, every feature name one this version computes (none twice), its embedding
model's errors and a file nested too deeply named by the file; a file replaced at the same
path between two runs of one tournament scores the stored games again (its sha256 is in
the run's manifest), so one ranking never holds two judges."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chatmatch.errors import ChatmatchError
from chatmatch.scoring.learned.judge import LearnedJudge
from chatmatch.scoring.learned.model import dump_model, load_model

SHIPPED = json.loads(dump_model(load_model()))


def _without_embedding() -> dict:
    """The shipped model without its embedding features (no MiniLM needed)."""
    keep = [i for i, f in enumerate(SHIPPED["features"]) if not f.startswith("emb:")]
    out = {**SHIPPED, "embedding": None}
    for k in ("features", "mean", "scale", "coef"):
        out[k] = [SHIPPED[k][i] for i in keep]
    return out


def _file(tmp_path: Path, data: dict, name: str = "m.json") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(data))
    return p


@pytest.mark.parametrize("key, index, value, says", [
    ("coef", 0, 1e308, "coef holds 1e+308"),
    ("mean", 1, -1e300, "mean holds -1e+300"),
    ("scale", 2, 1e200, "scale holds 1e+200"),
    ("features", 0, "own:charisma", "unknown feature(s) own:charisma"),
    ("features", 0, "own:knowledge", "listed twice: own:knowledge"),
])
def test_a_bad_number_or_feature_name_is_refused_naming_the_file(tmp_path, key, index, value, says):
    data = _without_embedding()
    data[key] = list(data[key])
    data[key][index] = value
    p = _file(tmp_path, data)
    with pytest.raises(ChatmatchError) as err:
        load_model(p)
    assert str(p) in str(err.value) and says in str(err.value), str(err.value)


def test_extra_keys_and_bad_embedding_numbers_are_refused(tmp_path):
    with pytest.raises(ChatmatchError, match="extra"):
        load_model(_file(tmp_path, {**_without_embedding(), "bias": 3.0}))
    data = json.loads(json.dumps(SHIPPED))
    data["embedding"]["components"][0][0] = 3e38
    with pytest.raises(ChatmatchError, match="embedding.components holds 3e"):
        load_model(_file(tmp_path, data, "e.json"))


def test_a_deeply_nested_file_is_named(tmp_path):
    p = tmp_path / "deep.json"
    p.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ChatmatchError) as err:
        load_model(p)
    assert str(p) in str(err.value) and "nested too deeply" in str(err.value)


def test_an_embedding_model_that_is_not_there_names_the_model_file(tmp_path):
    data = json.loads(json.dumps(SHIPPED))
    data["embedding"]["model"] = str(tmp_path / "no-such-encoder")
    p = _file(tmp_path, data)
    judge = LearnedJudge(LearnedJudge.Params(model=str(p)))
    with pytest.raises(ChatmatchError) as err:
        judge.check_files()
    assert str(err.value).startswith(f"{p}: its embedding model"), str(err.value)


def test_the_description_carries_the_file_digest(tmp_path):
    a = _file(tmp_path, _without_embedding(), "a.json")
    d1 = LearnedJudge(LearnedJudge.Params(model=str(a))).describe()["model_sha256"]
    data = _without_embedding()
    data["coef"] = [c * 2 for c in data["coef"]]
    a.write_text(json.dumps(data))
    d2 = LearnedJudge(LearnedJudge.Params(model=str(a))).describe()["model_sha256"]
    assert len(d1) == 64 and d1 != d2


def test_a_model_file_replaced_between_runs_rescored_with_a_note(tmp_path):
    from tests.reliability.helpers import run_cli, tournament_yaml

    model = _file(tmp_path, _without_embedding())
    y = tmp_path / "t.yaml"
    y.write_text(tournament_yaml(bots=3, exchanges=2).replace(
        "  dimensions: [proactivity, specificity, diversity, consistency]",
        f"  dimensions: [learned]\n  params:\n    learned: {{model: {model}}}"))
    rd = tmp_path / "run"
    r = run_cli("run", str(y), "--out", str(rd), timeout=600)
    assert r.returncode == 0, r.stderr
    before = (rd / "results.jsonl").read_text()
    data = _without_embedding()
    data["coef"] = [-c for c in data["coef"]]  # another judge, at the same path
    model.write_text(json.dumps(data))
    r = run_cli("run", str(y), "--out", str(rd), timeout=600)
    assert r.returncode == 0, r.stderr
    assert "another file of learned" in r.stderr + r.stdout, r.stderr
    after = (rd / "results.jsonl").read_text()
    assert after != before and len(after.splitlines()) == len(before.splitlines())
    m = json.loads((rd / "manifest.json").read_text())
    assert m["scorers"]["learned"]["model_sha256"] == __import__("hashlib").sha256(
        model.read_bytes()).hexdigest()

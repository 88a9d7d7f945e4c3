"""``chatmatch validate`` end to end on a tiny data folder built in the test."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from chatmatch.cli import cli
from tests.validity.dstc9_fixture import build as build_dstc9
from tests.validity.stb_fixture import build_data_dir
from tests.datafolder import DATA_DIR

ROOT = Path(__file__).resolve().parents[2]
# the fixtures' scripted questions are not about what the partner said: every question
# counts (questions: all), as these tests check the lab's tables, not which questions count
# the fixtures' scripted systems say the same lines in every chat: canned turns would take
# their points, so these plumbing tests score each chat alone (tests/scoring/test_canned.py
# and tests/run/test_canned_run.py test canned turns)
FAST = ("scoring:\n  dimensions: [proactivity, specificity, diversity, consistency]\n"
        "  params:\n    proactivity: {questions: all}\n  canned: false\n")


@pytest.fixture()
def data(tmp_path):
    return build_data_dir(tmp_path / "data")


@pytest.fixture()
def fast_config(tmp_path):
    p = tmp_path / "lab.yaml"
    p.write_text(FAST + "ranking:\n  method: trueskill\n  shuffles: 2\n")
    return p


def invoke(*args):
    return CliRunner().invoke(cli, ["validate", *map(str, args)])


def test_table_on_tiny_stb_and_fed(data, fast_config):
    res = invoke("--data", data, "--datasets", "stb,fed", "--config", fast_config, "--seeds", 2, "-q")
    assert res.exit_code == 0, res.output
    out = res.output
    for needle in ("Agreement with people", "Each dimension alone", "Minus each dimension",
                   "How often each dimension decides", "stb/convai2", "stb/empathetic",
                   "fed", "win rate", "fooling rate", "turns cleaned of artefacts (bad 24)",
                   "system Overall, cross-system games", "fed x-sys tau"):
        assert needle in out, needle
    # consistency never fires on these scripted games (nobody repeats a question)
    assert "never" in out and "never fires" in out


def test_json_schema(data, fast_config):
    res = invoke("--data", data, "--datasets", "stb,fed,dstc9", "--config", fast_config,
                 "--seeds", 3, "--json", "-q", "--bootstrap", 20)
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert set(report) == {"config", "scoring", "ranking", "seed", "seeds", "datasets"}
    # dstc9 is in the default datasets but absent from this folder: skipped, with the reason
    assert report["ranking"]["shuffles"] == 2 and report["seeds"] == 3
    names = [d["dataset"] for d in report["datasets"]]
    assert names == ["stb/convai2", "stb/dailydialog", "stb/empathetic", "fed", "dstc9"]
    skipped = report["datasets"].pop()
    assert skipped["kind"] == "skipped" and "DSTC9 folder not found" in skipped["notes"][0]
    dims = ["proactivity", "specificity", "diversity", "consistency"]
    for ds in report["datasets"]:
        assert set(ds) == {"dataset", "kind", "bots", "games", "facts", "ranking",
                           "references", "dimensions", "notes", "per_dimension", "length_bias"}
        assert list(ds["dimensions"]) == dims
        for ref in ds["references"].values():
            assert set(ref) >= {"statistic", "full", "seeds", "shorter", "longer", "alone", "minus"}
            assert list(ref["alone"]) == dims and list(ref["minus"]) == dims
    stb = report["datasets"][0]
    assert stb["bots"] == ["bad", "good", "mid"] and stb["games"] == 12
    assert stb["facts"]["turns_cleaned"] == 24
    # every tiny game has 8 turns: none is longer than the median, all are "shorter"
    assert stb["facts"]["longer_games"] == 0 and stb["facts"]["shorter_games"] == 12
    win = stb["references"]["win rate"]
    assert win["reference_order"] == ["good", "mid", "bad"]
    assert len(win["seeds"]["values"]) == 3
    assert win["seeds"]["min"] <= win["seeds"]["median"] <= win["seeds"]["max"]
    assert win["longer"] is None and win["longer_bots"] == 0 and win["shorter"] == win["full"]
    assert stb["dimensions"]["proactivity"]["fires_longer"] is None  # no longer game
    assert stb["dimensions"]["consistency"]["never_fires"] is True
    assert win["alone"]["consistency"] is None  # not a tau of 0
    # proactivity alone: "good" asks questions every other turn, "mid" once, "bad" never
    assert win["alone"]["proactivity"] == 1.0
    fed = report["datasets"][3]
    assert fed["references"]["system Overall"]["reference_order"] == ["Human", "Meena", "Mitsuku"]
    assert fed["references"]["dialogue Overall"]["statistic"] == "spearman_rho"
    cross = fed["references"]["system Overall, cross-system games"]
    assert cross["statistic"] == "kendall_tau_b"
    assert cross["reference_order"] == ["Human", "Meena", "Mitsuku"]
    assert "ranking, cross-system games" in {r["dimension"] for r in fed["per_dimension"]}


def test_ladder_in_the_lab(tmp_path, fast_config):
    res = invoke("--datasets", "ladder", "--ladder", ROOT / "tournaments" / "ladder.yaml",
                 "--ladder-exchanges", 6, "--config", fast_config, "--seeds", 1, "--json", "-q")
    assert res.exit_code == 0, res.output
    (ladder,) = json.loads(res.output)["datasets"]
    assert ladder["games"] == 12 and ladder["facts"]["exchanges"] == 6
    ref = ladder["references"]["construction"]
    assert ref["reference_order"] == ["base", "faulty-20", "faulty-50", "faulty-80"]
    assert ref["full"] == 1.0  # the tournament finds the order the ladder is built with


def test_missing_data_dir_is_one_line_exit_2(tmp_path):
    res = invoke("--data", tmp_path / "nope", "--datasets", "stb")
    assert res.exit_code == 2
    assert res.output.count("\n") == 1 and "--data" in res.output and "no such folder" in res.output


def test_missing_dataset_file_fails_before_scoring(tmp_path):
    (tmp_path / "stb").mkdir()
    res = invoke("--data", tmp_path, "--datasets", "fed,stb")
    assert res.exit_code == 2 and res.output.count("\n") == 1
    assert "stb/MongoDump.zip: no such file" in res.output and "--datasets" in res.output


def test_corrupt_zip_is_one_line_exit_2(tmp_path, fast_config):
    (tmp_path / "stb").mkdir()
    (tmp_path / "stb" / "MongoDump.zip").write_bytes(b"garbage, not a zip")
    res = invoke("--data", tmp_path, "--datasets", "stb", "--config", fast_config, "-q")
    assert res.exit_code == 2
    assert res.output.count("\n") == 1 and "not a readable zip" in res.output


def test_unknown_dataset_and_bad_config(tmp_path):
    res = invoke("--datasets", "stb,imdb")
    assert res.exit_code == 2 and "unknown dataset(s) imdb" in res.output
    bad = tmp_path / "bad.yaml"
    bad.write_text("scoring:\n  dimensions: [fluency, proactivty]\n")
    res = invoke("--config", bad, "--data", tmp_path)
    assert res.exit_code == 2 and "bad.yaml:2: scoring.dimensions" in res.output
    assert "proactivity" in res.output  # the suggestion
    bad.write_text("scoring:\n  dimensions: [proactivity]\nrankin: {method: points}\n")
    res = invoke("--config", bad, "--data", tmp_path)
    assert res.exit_code == 2 and "bad.yaml:3: rankin: unknown key 'rankin'" in res.output
    bad.write_text("just text\n")
    res = invoke("--config", bad, "--data", tmp_path)
    assert res.exit_code == 2 and "expected a mapping" in res.output


def test_a_full_tournament_file_is_accepted(tmp_path, data):
    t = tmp_path / "t.yaml"
    t.write_text("bots: [eliza, echo]\nseed: 3\n" + FAST + "ranking: {method: points}\n")
    res = invoke("--config", t, "--data", data, "--datasets", "stb", "--json", "-q")
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["seed"] == 3 and report["ranking"]["method"] == "points"


def test_progress_shows_although_the_cli_disables_tqdm(data, fast_config, monkeypatch):
    monkeypatch.setenv("TQDM_DISABLE", "1")  # the progress is rich's (chatmatch.progress), not tqdm's
    monkeypatch.setattr("chatmatch.progress.DEFAULT_MIN_STEP_S", 0.0)  # a quick lab shows its line too
    res = CliRunner().invoke(
        cli, ["validate", "--data", str(data), "--datasets", "fed", "--config", str(fast_config)])
    assert res.exit_code == 0, res.stderr
    assert "validating: " in res.stderr and " steps (" in res.stderr


REAL = DATA_DIR


@pytest.mark.skipif(not (REAL / "stb" / "MongoDump.zip").is_file(),
                    reason=f"Spot The Bot release not found under {REAL} (../shared/data; "
                    "set CHATMATCH_DATA to point elsewhere)")
def test_real_stb_through_the_lab(tmp_path):
    cfg = tmp_path / "lab.yaml"
    cfg.write_text("scoring:\n  dimensions: [proactivity, specificity]\n")
    res = invoke("--data", REAL, "--datasets", "stb", "--config", cfg, "--seeds", 2, "--json", "-q")
    assert res.exit_code == 0, res.output
    convai2, daily, empathetic = json.loads(res.output)["datasets"]
    assert convai2["facts"]["turns_cleaned"] == 1198 and convai2["games"] == 675
    assert len(convai2["bots"]) == 6 and len(daily["bots"]) == 4 and len(empathetic["bots"]) == 5
    for ds in (convai2, daily, empathetic):
        assert set(ds["references"]) == {"win rate", "fooling rate"}
        for ref in ds["references"].values():
            assert ref["full"] is None or -1 <= ref["full"] <= 1


def test_per_dimension_and_length_tables_on_tiny_dstc9(data, fast_config):
    build_dstc9(data / "dstc9")
    res = invoke("--data", data, "--datasets", "fed,dstc9", "--config", fast_config, "-q",
                 "--bootstrap", 50, "--json")
    assert res.exit_code == 0, res.output
    fed, dstc9 = json.loads(res.output)["datasets"]
    rows = {(r["dimension"], r["quality"]): r for r in dstc9["per_dimension"]}
    # the fixture's systems ask 2, 1 and 0 questions a chat and are rated 3, 2, 1 on
    # inquisitive: the order agrees in every resample
    pro = rows[("proactivity", "inquisitive")]
    assert pro["fit"] == "close" and (pro["systems"], pro["chats"]) == (3, 12)
    assert pro["system_tau"] == {"value": 1.0, "low": 1.0, "high": 1.0}
    assert rows[("specificity", "diverse")]["fit"] == "loose"
    assert rows[("ranking", "human (overall)")]["system_tau"]["value"] is not None
    assert rows[("consistency", "consistent")]["system_tau"]["value"] is None  # never applies
    # FED's fixture rates only Overall and Consistent: no row for unrated qualities
    assert {r["quality"] for r in fed["per_dimension"]} == {"Overall", "Consistent"}
    measures = [r["measure"] for r in dstc9["length_bias"]]
    assert measures[-1] == "people: human (overall)" and "proactivity" in measures
    assert dstc9["facts"]["chats"] == 12 and dstc9["bots"] == ["chatbot1", "chatbot2", "chatbot3"]
    text = invoke("--data", data, "--datasets", "dstc9", "--config", fast_config, "-q",
                  "--bootstrap", 20, "--sample", 2)
    assert text.exit_code == 0, text.output
    for needle in ("Each dimension vs people's rating", "Length bias", "inquisitive",
                   "+1.00 [+1.00, +1.00]", "dstc9: 6 chats (2 chats a system (seed 0))"):
        assert needle in text.output, needle


def test_absent_dstc9_is_skipped_with_the_reason(data, fast_config):
    res = invoke("--data", data, "--datasets", "fed,dstc9", "--config", fast_config, "-q",
                 "--bootstrap", 10)
    assert res.exit_code == 0, res.output
    assert "dstc9: not run" in res.output and "DSTC9 folder not found" in res.output


def test_dstc9_given_by_name_must_exist(data, tmp_path):
    res = invoke("--data", data, "--datasets", "dstc9", "--dstc9", tmp_path / "none", "-q")
    assert res.exit_code == 2
    assert "DSTC9 folder not found" in res.output and "Traceback" not in res.output


def test_baseline_difference_is_paired(data, fast_config, tmp_path):
    build_dstc9(data / "dstc9")
    worse = tmp_path / "worse.yaml"  # proactivity reversed: fewer questions score higher
    worse.write_text("scoring:\n  dimensions: [proactivity, specificity]\n"
                     "  params:\n    proactivity: {questions: all}\n  canned: false\n")
    res = invoke("--data", data, "--datasets", "dstc9", "--config", fast_config, "--baseline",
                 worse, "-q", "--bootstrap", 30, "--json")
    assert res.exit_code == 0, res.output
    (ds,) = json.loads(res.output)["datasets"]
    rows = {(r["dimension"], r["quality"]): r for r in ds["per_dimension"]}
    same = rows[("proactivity", "inquisitive")]["vs_baseline"]["system_tau"]
    assert same == {"value": 0.0, "low": 0.0, "high": 0.0}  # the same scorer both times
    assert "vs_baseline" not in rows[("diversity", "diverse")]  # the baseline lacks it
    assert ds["facts"]["baseline"] == str(worse)
    text = invoke("--data", data, "--datasets", "dstc9", "--config", fast_config, "--baseline",
                  worse, "-q", "--bootstrap", 30)
    assert "tau - baseline [95%]" in text.output and "+0.00 [+0.00, +0.00]" in text.output


def test_stb_checkboxes_give_a_per_dimension_table(data, fast_config):
    res = invoke("--data", data, "--datasets", "stb", "--config", fast_config, "--seeds", 1,
                 "-q", "--bootstrap", 30, "--json")
    assert res.exit_code == 0, res.output
    convai2 = json.loads(res.output)["datasets"][0]
    rows = {(r["dimension"], r["quality"]): r for r in convai2["per_dimension"]}
    # two sides of each of the 12 judged games; 3 systems
    spec = rows[("specificity", "specific")]
    assert (spec["systems"], spec["chats"], spec["fit"]) == (3, 24, "close")
    # people: good always specific and human, mid half the time, bad never; the game points
    # put good first and bad last in every game
    assert rows[("ranking", "human")]["system_tau"]["value"] == 1.0
    assert ("fluency", "fluent") not in rows  # fluency is not among the fast config's dimensions
    assert [r["measure"] for r in convai2["length_bias"]][-1] == "people: human"


@pytest.mark.slow
def test_learned_judge_beside_the_rule_judge_out_of_sample(data, fast_config, tmp_path):
    build_dstc9(data / "dstc9")
    res = invoke("--data", data, "--datasets", "dstc9", "--config", fast_config, "-q",
                 "--bootstrap", 20, "--learned", "--learned-cache", tmp_path / "cache")
    assert res.exit_code == 0, res.output
    for needle in ("Learned judge out of sample", "rule judge", "length alone",
                   "learned, leave-systems-out", "fitted weights, leave-systems-out"):
        assert needle in res.output, needle
    res = invoke("--data", data, "--datasets", "ladder", "--learned", "-q")
    assert res.exit_code == 2 and "--learned: choose at least one of dstc9, fed, stb" in res.output


def test_usr_in_the_lab_per_responder_and_per_reply(data, fast_config):
    from tests.validity.usr_fixture import build as build_usr

    build_usr(data / "usr")
    res = invoke("--data", data, "--datasets", "usr", "--config", fast_config, "-q",
                 "--bootstrap", 20, "--json")
    assert res.exit_code == 0, res.output
    (usr,) = json.loads(res.output)["datasets"]
    assert usr["dataset"] == "usr" and usr["games"] == 20
    assert usr["facts"]["replies"] == 20 and usr["facts"]["responders"] == 5
    rows = {(r["dimension"], r["quality"]): r for r in usr["per_dimension"]}
    spec = rows[("specificity", "Engaging")]
    assert (spec["systems"], spec["chats"]) == (5, 20) and spec["fit"] == "loose"
    assert rows[("ranking", "Overall")]["systems"] == 5
    assert [r["measure"] for r in usr["length_bias"]][-1] == "people: Overall"
    assert usr["references"]["system Overall"]["reference_order"][0] == "Original Ground Truth"
    text = invoke("--data", data, "--datasets", "usr", "--config", fast_config, "-q", "--bootstrap", 20)
    assert "usr: 20 replies by 5 responders" in text.output


def test_usr_missing_is_an_error_when_named_and_skipped_by_default(data, fast_config):
    res = invoke("--data", data, "--datasets", "fed,usr", "--config", fast_config, "-q")
    assert res.exit_code == 2 and res.output.count("\n") == 1
    assert "usr/pc_usr_data.json: no such file" in res.output and "--datasets" in res.output
    from chatmatch.validity.lab.core import Lab, load_lab_config

    lab = Lab(load_lab_config(fast_config), data, ("usr",), bootstrap=10)
    (report,) = lab.run()["datasets"]
    assert report["kind"] == "skipped" and "pc_usr_data.json: no such file" in report["notes"][0]


def test_construct_row_groups_and_order(data, tmp_path):
    from tests.validity.usr_fixture import build as build_usr

    build_usr(data / "usr")
    cfg = tmp_path / "ngram.yaml"
    cfg.write_text("scoring:\n  dimensions: [fluency]\n  params:\n    fluency: {backend: ngram}\n")
    res = invoke("--data", data, "--datasets", "construct", "--config", cfg, "-q",
                 "--bootstrap", 20, "--json")
    assert res.exit_code == 0, res.output
    (rep,) = json.loads(res.output)["datasets"]
    groups = {r["group"]: r for r in rep["rows"]}
    assert {"FED people", "USR people", "retrieval corpus (chitchat)", "generic replies",
            "echo (a person's turn repeated back)"} <= set(groups)
    assert groups["USR people"]["turns"] == 8 and groups["generic replies"]["kind"] == "bland"
    # the greedy small LM (a stand-in here: tests/conftest.py) is bland under the n-gram LM
    assert groups["SmolLM2 greedy (the smollm2 bot)"]["kind"] == "bland"
    assert rep["own_lm_holds"] is None
    for r in rep["rows"]:
        assert r["median"] is None or r["low"] <= r["median"] <= r["high"]
    humans = [r["median"] for r in rep["rows"] if r["kind"] == "human-written"]
    bland = [r["median"] for r in rep["rows"] if r["kind"] == "bland"]
    assert rep["holds"] == (min(humans) >= max(bland))
    text = invoke("--data", data, "--datasets", "construct", "--config", cfg, "-q", "--bootstrap", 20)
    assert "Construct check" in text.output and "construct: " in text.output


def test_construct_needs_fluency(data, fast_config):
    res = invoke("--data", data, "--datasets", "construct", "--config", fast_config, "-q", "--json")
    (rep,) = json.loads(res.output)["datasets"]
    assert rep["kind"] == "skipped" and "fluency is not among" in rep["notes"][0]

"""Every judge in a tournament YAML against real HTTP servers on 127.0.0.1: one that
returns logprobs and one that does not (then answers are sampled and counted)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chatmatch.config.tournament import load_config
from chatmatch.judges.backends import JudgeError, OpenAIJudge
from chatmatch.run.tournament import run_tournament

KEY = "sk-judge-test-secret-42"


def tournament(tmp_path: Path, base_url: str, api: str = "chat", extra_params: str = "") -> Path:
    backend = f"backend: openai, base_url: '{base_url}', model: judge-1, api: {api}, samples: 4"
    text = f"""\
name: judged
exchanges: 3
output_dir: {tmp_path / 'run'}
bots:
  - name: rich
    adapter: tests.scripted:CountingBot
    params: {{style: rich}}
  - name: dull
    adapter: tests.scripted:CountingBot
    params: {{style: dull}}
scoring:
  dimensions: [paireval, geval, amr_judge, aspect_judge]
  params:
    paireval: {{{backend}, max_turns: 2{extra_params}}}
    geval: {{{backend}, max_turns: 1, criteria: [coherence, naturalness], auto_steps: true}}
    amr_judge: {{{backend}, max_turns: 1, criteria: [coherence], slm_contexts: 150}}
    aspect_judge: {{{backend}, max_turns: 1, aspects: [relevance, fluency], facts: 'Paris is in France.'}}
ranking: {{method: bt, bt: {{bootstrap: 20}}}}
"""
    p = tmp_path / "judged.yaml"
    p.write_text(text)
    return p


def scores(run: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted((run / "scores").glob("*.json"))]


def check_run(run: Path, method: str) -> None:
    games = scores(run)
    assert len(games) == 2
    for g in games:
        dims = g["dimensions"]
        for d in ("paireval", "geval", "amr_judge", "aspect_judge"):
            assert dims[d]["raw"]["rich"] > dims[d]["raw"]["dull"], (d, dims[d]["raw"])
        pe = dims["paireval"]
        assert pe["raw"]["rich"] + pe["raw"]["dull"] == pytest.approx(1.0)
        assert pe["details"][0]["position_bias"]["pairs"] == 2
        assert {r["method"] for r in dims["geval"]["details"][1:]} == {method}
        assert dims["amr_judge"]["details"][1]["graph_kind"].startswith("Dependency graph")
        assert g["winner"] == "rich"
    rec = json.loads((run / "judges" / "paireval.json").read_text())
    assert rec["position_bias"]["pairs"] == 4 and rec["prompts"][0]["version"] == "1"
    assert 0.0 <= rec["position_bias"]["rate"] <= 1.0
    steps = json.loads((run / "judges" / "geval.json").read_text())["generated_steps"]
    assert set(steps) == {"coherence", "naturalness"} and "Rate it" in steps["coherence"]
    assert json.loads((run / "rankings" / "bt.json").read_text())["ranking"][0]["bot"] == "rich"


def test_judges_against_a_server_with_logprobs(tmp_path, logprob_server):
    run = run_tournament(load_config(tournament(tmp_path, logprob_server.base_url))).run_dir
    check_run(run, "logprobs")
    label_calls = [r for r in logprob_server.requests if r["body"].get("logprobs")]
    assert label_calls and all(r["body"]["max_tokens"] == 1 for r in label_calls)
    # the fake judge's table: P(A)=.8*(wa+1)/(wa+wb+2), renormalised over A/B = that / .8
    g = scores(run)[0]["dimensions"]["paireval"]["details"][1]
    assert g["x_first"]["A"] + g["x_first"]["B"] == pytest.approx(1.0)


def test_judges_against_a_server_without_logprobs(tmp_path, plain_server):
    run = run_tournament(load_config(tournament(tmp_path, plain_server.base_url))).run_dir
    check_run(run, "sampling")
    sampled = [r for r in plain_server.requests if r["body"].get("n") == 4]
    assert sampled
    # the server's sampled answers: top label 3 of 4 times -> probabilities .75/.25
    row = scores(run)[0]["dimensions"]["geval"]["details"][1]
    assert sorted(row["probs"].values())[-2:] == [0.25, 0.75]


def test_completions_api_game_level_paireval_and_key_not_stored(tmp_path, logprob_server, monkeypatch):
    monkeypatch.setenv("JUDGE_KEY", KEY)
    cfg = tournament(tmp_path, logprob_server.base_url, api="completions",
                     extra_params=", level: game, api_key_env: JUDGE_KEY")
    run = run_tournament(load_config(cfg)).run_dir
    assert any(r["path"].endswith("/v1/completions") for r in logprob_server.requests)
    pe_auth = [r["headers"].get("Authorization") for r in logprob_server.requests if "Which speaker" in r["body"]["prompt"]]
    assert pe_auth and set(pe_auth) == {f"Bearer {KEY}"}
    for g in scores(run):
        pe = g["dimensions"]["paireval"]
        assert pe["details"][0]["level"] == "game" and pe["raw"]["rich"] > 0.5
    for p in run.rglob("*"):
        if p.is_file():
            assert KEY not in p.read_text(errors="replace")


def test_missing_key_and_dead_server_are_clear_errors(monkeypatch):
    monkeypatch.delenv("NO_SUCH_KEY", raising=False)
    with pytest.raises(JudgeError, match="NO_SUCH_KEY"):
        OpenAIJudge("http://127.0.0.1:9/v1", "m", api_key_env="NO_SUCH_KEY").generate("hi")
    with pytest.raises(JudgeError, match="base_url"):
        OpenAIJudge("http://127.0.0.1:9/v1", "m", timeout_s=2, retries=0).generate("hi")


def test_bad_judge_params_are_config_errors(tmp_path):
    from chatmatch.errors import ChatmatchError

    p = tmp_path / "bad.yaml"
    p.write_text("bots: [eliza, canned]\nscoring:\n  dimensions: [geval]\n"
                 "  params:\n    geval: {criteria: [wit]}\n")
    with pytest.raises(ChatmatchError, match="wit"):
        load_config(p)


def test_score_out_writes_the_same_judge_records_as_run(tmp_path, logprob_server):
    """Regression: `chatmatch score --out` wrote no RUN/judges/ record (it did not share
    the run's save stage); now both commands write the same records."""
    from click.testing import CliRunner

    from chatmatch.cli import cli

    cfg = tournament(tmp_path, logprob_server.base_url)
    run = run_tournament(load_config(cfg)).run_dir
    out = tmp_path / "scored"
    res = CliRunner().invoke(cli, ["score", str(run / "transcripts"), "--config", str(cfg),
                                   "--out", str(out), "-q"])
    assert res.exit_code == 0, res.output
    check_run(out, "logprobs")
    for judge in ("paireval", "geval", "amr_judge", "aspect_judge"):
        ours, theirs = (json.loads((d / "judges" / f"{judge}.json").read_text()) for d in (out, run))
        # the run wrote its record before the backend was made (the judges that never
        # rewrite it keep that); score --out writes it once scoring is done
        assert ours.pop("backend")["model"] == theirs.pop("backend")["model"] == "judge-1"
        assert ours == theirs, judge


def test_judge_retries_a_busy_server(logprob_server):
    logprob_server.fail_from, logprob_server.fail_count, logprob_server.status = 1, 2, 503
    judge = OpenAIJudge(logprob_server.base_url, "judge-1", backoff_s=0)
    assert judge.generate("Which response is better?\nResponse A: a b\nResponse B: c") in "AB"
    assert judge.endpoint.counts["retries"] == 2


def test_judge_calls_are_cached_by_prompt_and_model(tmp_path, logprob_server):
    def judge(model: str) -> OpenAIJudge:
        j = OpenAIJudge(logprob_server.base_url, model)
        j.use_cache(tmp_path / "calls.sqlite")
        return j
    prompt = "Which response is better?\nResponse A: one two three\nResponse B: four"
    first = judge("judge-1").label_probs(prompt, ["A", "B"])
    asked = len(logprob_server.requests)
    assert judge("judge-1").label_probs(prompt, ["A", "B"]) == first  # a new object, no call
    assert len(logprob_server.requests) == asked
    judge("judge-2").label_probs(prompt, ["A", "B"])  # another model is asked
    judge("judge-1").label_probs(prompt + " five", ["A", "B"])  # and another prompt
    assert len(logprob_server.requests) == asked + 2


def test_a_rescored_run_asks_the_judge_nothing(tmp_path, logprob_server):
    cfg = tournament(tmp_path, logprob_server.base_url)
    run = run_tournament(load_config(cfg)).run_dir
    assert (run / "judges" / "calls.sqlite").is_file()
    asked = len(logprob_server.requests)
    (run / "results.jsonl").write_text("")  # every game is scored again
    for p in (run / "scores").glob("*.json"):
        p.unlink()
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["scoring_fingerprint"] = "0" * 16
    (run / "manifest.json").write_text(json.dumps(manifest))
    run_tournament(load_config(cfg))
    posts = [r for r in logprob_server.requests[asked:] if r["body"].get("max_tokens") != 1
             or "Say OK." not in json.dumps(r["body"])]
    assert posts == []  # only the pre-flight test request


def test_a_wrong_judge_model_stops_the_run_before_any_game(tmp_path, logprob_server):
    logprob_server.models = ["judge-2"]
    with pytest.raises(JudgeError, match="model 'judge-1' cannot be used.*did you mean 'judge-2'"):
        run_tournament(load_config(tournament(tmp_path, logprob_server.base_url)))
    assert not list((tmp_path / "run").glob("transcripts/*.jsonl"))


def test_a_committee_averages_its_members(tmp_path, logprob_server, plain_server):
    from chatmatch.judges.backends import BackendParams, Committee, make_backend

    p = BackendParams(backend="openai", base_url=logprob_server.base_url, model="judge-1",
                      samples=4, committee=[{}, {"base_url": plain_server.base_url}])
    backend = make_backend(p)
    assert isinstance(backend, Committee) and len(backend.members) == 2
    prompt = "Which response is better?\nResponse A: one two three\nResponse B: four"
    one, two = (m.label_probs(prompt, ["A", "B"]) for m in backend.members)
    both = backend.label_probs(prompt, ["A", "B"])
    assert one.method == "logprobs" and two.method == "sampling"
    assert both.method == "committee of 2/2"
    want = (one.probs["A"] / one.mass + two.probs["A"] / two.mass) / 2
    assert both.probs["A"] == pytest.approx(want)
    with pytest.raises(JudgeError, match="at least 2 members"):
        make_backend(BackendParams(backend="openai", base_url="http://h/v1", committee=[{}]))


def test_a_key_in_a_judge_url_is_refused_before_anything_is_written(tmp_path):
    from chatmatch.errors import ChatmatchError

    cfg = tournament(tmp_path, "http://127.0.0.1:9/v1/sk-abcdef0123456789xyz")
    with pytest.raises(ChatmatchError, match="looks like a key in its path"):
        load_config(cfg)
    assert not (tmp_path / "run").exists()


def test_a_judge_answer_that_echoes_the_key_is_cached_without_it(tmp_path, monkeypatch):
    from tests.fake_openai import FakeOpenAI, chat_completion

    monkeypatch.setenv("JUDGE_KEY", KEY)
    with FakeOpenAI(answer=lambda path, body: chat_completion(f"4 (your key: {KEY})")) as fake:
        judge = OpenAIJudge(fake.base_url, "judge-1", api_key_env="JUDGE_KEY")
        judge.use_cache(tmp_path / "calls.sqlite")
        assert judge.generate("Rate it 1-5.") == "4 (your key: ***)"
        judge.cache.close()
    for p in tmp_path.iterdir():
        assert KEY.encode() not in p.read_bytes()

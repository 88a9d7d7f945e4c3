"""End-to-end engine tests with scripted bots (by import path) and the real rule scorers."""

import json
from pathlib import Path

import pytest

from chatmatch.common.yamlloc import parse_located_yaml
from chatmatch.config.tournament import config_from_data, load_config
from chatmatch.errors import RunDirError
from chatmatch.run.rerank import rerank
from chatmatch.run.tournament import run_tournament
from chatmatch.rundir.store import RunDir
from tests.scripted import CountingBot
from chatmatch.scoring.build import build_scorers

FAST_DIMS = ["proactivity", "specificity", "diversity", "consistency"]


def make_cfg(tmp_path: Path, exchanges=3, bots=None, dims=FAST_DIMS, extra=""):
    bots = bots or [("rich", "rich", 1), ("plain", "plain", 0), ("dull", "dull", 0)]
    lines = ["name: t", f"exchanges: {exchanges}", f"output_dir: {tmp_path / 'run'}", "bots:"]
    for name, style, ask in bots:
        lines += [f"  - name: {name}", "    adapter: tests.scripted:CountingBot",
                  f"    params: {{style: {style}, ask_every: {ask}}}"]
    lines += ["scoring:", f"  dimensions: [{', '.join(dims)}]"]
    text = "\n".join(lines) + "\n" + extra
    p = tmp_path / "t.yaml"
    p.write_text(text)
    return load_config(p)


def test_full_run_writes_a_complete_run_directory(tmp_path):
    cfg = make_cfg(tmp_path)
    s = run_tournament(cfg)
    run = tmp_path / "run"
    assert s.games_total == 6 and s.games_played == 6 and s.games_scored == 6
    assert sorted(p.name for p in (run / "transcripts").iterdir()) == [f"g00{i}.jsonl" for i in range(1, 7)]
    assert len((run / "results.jsonl").read_text().splitlines()) == 6
    for name in ("trueskill", "points"):
        doc = json.loads((run / "rankings" / f"{name}.json").read_text())
        assert doc["games"] == 6 and doc["complete"] is True
        assert (run / "rankings" / f"{name}.csv").read_text().startswith("rank,bot,score")
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["expected_games"] == 6 and manifest["chatmatch_version"]
    assert (run / "config.yaml").exists()
    scores = json.loads((run / "scores" / "g001.json").read_text())
    assert set(scores["dimensions"]) == set(FAST_DIMS)
    # the bot that asks questions wins proactivity against the one that never does
    assert s.ranking.order()[-1] == "dull"


def test_resume_does_not_replay_finished_games(tmp_path):
    cfg = make_cfg(tmp_path)

    class Stop(Exception):
        pass

    calls = {"n": 0}

    def progress(done, total):
        calls["n"] += 1
        if done == 3:
            raise Stop()

    with pytest.raises(Stop):
        run_tournament(cfg, progress=progress)
    store = RunDir(tmp_path / "run")
    assert len(store.transcripts()) == 3
    CountingBot.calls = 0
    s = run_tournament(cfg)
    assert s.games_played == 3  # only the missing ones
    assert CountingBot.calls == 3 * 5  # 3 games x (2*3 - 1 seed) turns
    full = tmp_path / "full"
    cfg2 = cfg.model_copy(update={"output_dir": str(full)})
    s2 = run_tournament(cfg2)
    strip = lambda d: [(t.game_id, [(x.speaker, x.text) for x in t.turns])
                       for t in RunDir(d).transcripts().values()]
    assert strip(tmp_path / "run") == strip(full)
    assert s.ranking.to_json() == s2.ranking.to_json()


def test_rerun_of_a_finished_run_plays_and_scores_nothing(tmp_path):
    cfg = make_cfg(tmp_path)
    run_tournament(cfg)
    s = run_tournament(cfg)
    assert s.games_played == 0 and s.games_scored == 0


def test_unscored_transcripts_are_scored_on_resume(tmp_path):
    cfg = make_cfg(tmp_path)
    run_tournament(cfg)
    res = tmp_path / "run" / "results.jsonl"
    lines = res.read_text().splitlines()
    res.write_text("\n".join(lines[:4]) + "\n" + lines[4][:30] + "\n")  # torn last write
    s = run_tournament(cfg)
    assert s.games_played == 0 and s.games_scored == 2
    assert any("damaged result line" in w for w in s.warnings)


def test_changed_bots_are_refused_with_what_changed(tmp_path):
    run_tournament(make_cfg(tmp_path))
    other = make_cfg(tmp_path, exchanges=4)
    with pytest.raises(RunDirError, match=r"another tournament setup \(changed: exchanges 3 -> 4\)"):
        run_tournament(other)


def test_changed_scoring_rescores_without_replaying(tmp_path):
    run_tournament(make_cfg(tmp_path))
    cfg = make_cfg(tmp_path, dims=["proactivity"])
    s = run_tournament(cfg)
    assert s.games_played == 0 and s.games_scored == 6
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert [e["event"] for e in manifest["history"]].count("rescored") == 1
    assert set(RunDir(tmp_path / "run").results()["g001"].raw["rich"]) == {"proactivity"}


def test_rerank_from_run_directory(tmp_path):
    run_tournament(make_cfg(tmp_path))
    r, warnings = rerank(tmp_path / "run", method="points", points="2/1/0")
    assert r.method == "points" and r.meta["win"] == 2 and r.games == 6 and not warnings
    r2, _ = rerank(tmp_path / "run", method="trueskill", shuffles=7, seed=1)
    assert len(r2.rows[0].stats.ranks) == 7


def test_rerank_marks_an_incomplete_run(tmp_path):
    cfg = make_cfg(tmp_path)

    def progress(done, total):
        if done == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tournament(cfg, progress=progress)
    r, warnings = rerank(tmp_path / "run")
    assert r.games == 2 and not r.complete
    assert warnings == ["ranking rests on 2 of 6 scheduled games (the run is unfinished)"]


def test_forfeited_game_is_recorded_and_lost(tmp_path):
    text = f"""
bots:
  - {{name: ok, adapter: tests.scripted:CountingBot}}
  - {{name: bad, adapter: tests.scripted:FlakyBot, params: {{mode: raise}}}}
exchanges: 2
output_dir: {tmp_path / 'run'}
scoring: {{dimensions: [proactivity, specificity]}}
failures: {{retries: 1}}
"""
    cfg = config_from_data(parse_located_yaml(text, "x.yaml"))
    s = run_tournament(cfg)
    assert s.ranking.order() == ["ok", "bad"]
    for res in RunDir(tmp_path / "run").results().values():
        assert res.forfeit.bot == "bad" and res.winner == "ok"
    # re-ranking the stored run says so too, once per forfeiting bot
    _, warnings = rerank(tmp_path / "run")
    assert len(warnings) == 1
    assert warnings[0].startswith("bad forfeited 2 of its 2 games (100%: g001, g002)")
    assert "--replay-forfeits" in warnings[0]


def test_missing_scoring_model_fails_before_any_game_is_played(tmp_path):
    from chatmatch.runtime.errors import ScoringError

    text = f"""
bots: [{{name: a, adapter: tests.scripted:CountingBot}}, {{name: b, adapter: tests.scripted:CountingBot}}]
exchanges: 2
output_dir: {tmp_path / 'run'}
scoring:
  dimensions: [fluency]
  params: {{fluency: {{model: {tmp_path / 'no-such-model.gguf'}}}}}
"""
    cfg = config_from_data(parse_located_yaml(text, "x.yaml"))
    CountingBot.calls = 0
    with pytest.raises(ScoringError, match="cannot load language model"):
        run_tournament(cfg)
    assert CountingBot.calls == 0
    assert not (tmp_path / "run" / "transcripts").exists()


def test_a_scorer_declaring_a_preflight_is_checked_before_any_game(tmp_path):
    from chatmatch.errors import ChatmatchError

    cfg = make_cfg(tmp_path)
    first, *rest = build_scorers(cfg.scoring)

    class Undeclared(type(first)):  # a method named preflight is not a declaration
        def preflight(self):
            raise AssertionError("called without has_preflight")

    class Down(type(first)):
        has_preflight = True

        def preflight(self):
            raise ChatmatchError("scorer server is down")

    run_tournament(cfg, tmp_path / "ok", scorers=[Undeclared(first.params), *rest])
    assert (tmp_path / "ok" / "results.jsonl").exists()
    CountingBot.calls = 0
    with pytest.raises(ChatmatchError, match="scorer server is down"):
        run_tournament(cfg, tmp_path / "down", scorers=[Down(first.params), *rest])
    assert CountingBot.calls == 0
    assert not (tmp_path / "down" / "transcripts").exists()

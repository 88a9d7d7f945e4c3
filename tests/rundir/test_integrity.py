"""Integrity of a run directory: what it records, which changes a resume refuses, which it
allows (and records), and rankings that say how many games they rest on."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import chatmatch
from chatmatch.config.tournament import load_config
from chatmatch.errors import RunDirError
from chatmatch.play.fingerprint import play_fingerprint, scoring_fingerprint
from chatmatch.run.league import IN_PLACE
from chatmatch.run.tournament import run_tournament
from chatmatch.rundir.store import RunDir
from tests.reliability.helpers import run_cli, tournament_yaml


def _write(tmp_path: Path, text: str, name: str = "t.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def _base(tmp_path: Path, **kw) -> tuple[Path, Path]:
    kw.setdefault("bots", 3)
    kw.setdefault("exchanges", 3)
    cfg = _write(tmp_path, tournament_yaml(**kw))
    run = tmp_path / "run"
    run_tournament(load_config(cfg), run)
    return cfg, run


def _manifest(run: Path) -> dict:
    return json.loads((run / "manifest.json").read_text())


def test_manifest_records_version_fingerprints_config_hash_and_models(tmp_path):
    cfg_file, run = _base(tmp_path)
    cfg = load_config(cfg_file)
    m = _manifest(run)
    assert m["chatmatch_version"] == chatmatch.__version__
    assert m["play_fingerprint"] == play_fingerprint(cfg)
    assert m["scoring_fingerprint"] == scoring_fingerprint(cfg)
    assert m["config_sha256"] == hashlib.sha256((run / "config.yaml").read_bytes()).hexdigest()
    assert m["bots"] == ["bot0", "bot1", "bot2"] and m["expected_games"] == 6
    assert m["bots_described"]["bot1"] == {"class": "tests.scripted:SamplingBot",
                                           "sleep_ms": 0.0, "words": 5}
    assert set(m["scorers"]) == {"proactivity", "specificity", "diversity", "consistency"}
    # canned turns: every game scored again together once play ends
    assert [e["event"] for e in m["history"]] == ["created", "scored together", "ranked"]


def test_resume_that_needs_only_some_bots_keeps_every_bot_described(tmp_path):
    cfg = load_config(_write(tmp_path, tournament_yaml(bots=4, exchanges=2, concurrent=1)))

    class Stop(Exception):
        pass

    def stop_at_10(done: int, total: int) -> None:
        if done == 10:
            raise Stop

    with pytest.raises(Stop):
        run_tournament(cfg, tmp_path / "run", progress=stop_at_10)
    s = run_tournament(cfg, tmp_path / "run")  # g011, g012: bot2 vs bot3 only
    assert s.games_played == 2
    assert sorted(_manifest(tmp_path / "run")["bots_described"]) == ["bot0", "bot1", "bot2", "bot3"]


@pytest.mark.parametrize("change, expected", [
    (dict(exchanges=4), "changed: exchanges 3 -> 4"),
    (dict(seed=5), "changed: seed 0 -> 5"),
])
def test_resume_with_another_play_setup_is_refused_with_what_changed(tmp_path, change, expected):
    _, run = _base(tmp_path)
    kw = {"bots": 3, "exchanges": 3, **change}
    with pytest.raises(RunDirError) as err:
        run_tournament(load_config(_write(tmp_path, tournament_yaml(**kw), "new.yaml")), run)
    msg = str(err.value)
    assert msg == (f"{run} holds a run of another tournament setup ({expected}). Its games "
                   f"cannot be reused. {IN_PLACE} Start a new run with --out NEW_DIR (or set "
                   "output_dir), or delete the old directory.")


def test_changed_seed_utterance_and_bot_params_are_refused_through_the_cli(tmp_path):
    cfg, run = _base(tmp_path)
    before = {p.name: p.read_bytes() for p in (run / "transcripts").iterdir()}
    text = cfg.read_text()
    other_seed = _write(tmp_path, text.replace("Hello there!", "Good morning!"), "seed.yaml")
    r = run_cli("run", str(other_seed), "--out", str(run))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert ("error: " + str(run) + " holds a run of another tournament setup (changed: "
            "seed_utterance ['What did you do last week?', 'Hello there!'] -> "
            "['What did you do last week?', 'Good morning!'])") in r.stderr
    assert "--out NEW_DIR" in r.stderr
    params = _write(tmp_path, text.replace("words: 5", "words: 9"), "params.yaml")
    r = run_cli("run", str(params), "--out", str(run))
    assert r.returncode == 2
    assert "(changed: bots: changed adapter or params of bot1)" in r.stderr
    assert {p.name: p.read_bytes() for p in (run / "transcripts").iterdir()} == before


def test_changed_scoring_rescores_without_replaying_and_is_recorded(tmp_path):
    cfg, run = _base(tmp_path)
    old = _manifest(run)
    transcripts = {p.name: p.read_bytes() for p in (run / "transcripts").iterdir()}
    new = _write(tmp_path, cfg.read_text().replace("dimensions: [proactivity, specificity, ",
                                                   "dimensions: [specificity, "), "new.yaml")
    new_cfg = load_config(new)
    s = run_tournament(new_cfg, run)
    assert (s.games_played, s.games_scored) == (0, 6)
    m = _manifest(run)
    rescored = [e for e in m["history"] if e["event"] == "rescored"]
    assert rescored == [{**rescored[0], "old": old["scoring_fingerprint"],
                         "new": scoring_fingerprint(new_cfg)}]
    assert m["scoring_fingerprint"] == scoring_fingerprint(new_cfg)
    assert m["config_sha256"] == hashlib.sha256((run / "config.yaml").read_bytes()).hexdigest()
    assert m["config_sha256"] != old["config_sha256"]
    assert set(m["scorers"]) == {"specificity", "diversity", "consistency"}
    results = RunDir(run).results()
    assert len(results) == 6
    assert all(set(r.raw[p]) == {"specificity", "diversity", "consistency"}
               for r in results.values() for p in r.players)
    assert {p.name: p.read_bytes() for p in (run / "transcripts").iterdir()} == transcripts


def test_changed_ranking_or_timings_setting_is_allowed_and_recorded(tmp_path):
    cfg, run = _base(tmp_path)
    text = cfg.read_text().replace("shuffles: 3", "shuffles: 5").replace(
        "record_timings: true", "record_timings: false")
    s = run_tournament(load_config(_write(tmp_path, text, "new.yaml")), run)
    assert (s.games_played, s.games_scored) == (0, 0)
    ev = [e for e in _manifest(run)["history"] if e["event"] == "config_changed"]
    assert len(ev) == 1 and ev[0]["keys"] == ["ranking", "record_timings"]
    assert "shuffles: 5" in (run / "config.yaml").read_text()
    assert json.loads((run / "rankings" / "trueskill.json").read_text())["meta"]["shuffles"] == 5


def test_ranking_of_an_unfinished_run_is_marked_incomplete(tmp_path):
    cfg = load_config(_write(tmp_path, tournament_yaml(bots=3, exchanges=2, concurrent=1)))

    class Stop(Exception):
        pass

    def stop_at_4(done: int, total: int) -> None:
        if done == 4:
            raise Stop

    run = tmp_path / "run"
    with pytest.raises(Stop):
        run_tournament(cfg, run, progress=stop_at_4)
    r = run_cli("rank", str(run), "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert (doc["games"], doc["expected_games"], doc["complete"]) == (4, 6, False)
    assert "warning: ranking rests on 4 of 6 scheduled games (the run is unfinished)" in r.stderr
    table = run_cli("rank", str(run), "--method", "points")
    assert "based on 4 game(s) of 6 scheduled: INCOMPLETE, run again to finish" in table.stdout
    s = run_tournament(cfg, run)
    assert s.ranking.complete and s.ranking.games == 6
    doc = json.loads((run / "rankings" / "points.json").read_text())
    assert (doc["games"], doc["expected_games"], doc["complete"]) == (6, 6, True)


def test_aborted_run_exits_2_and_keeps_finished_games(tmp_path):
    text = tournament_yaml(bots=3, exchanges=2, concurrent=1) + (
        "failures: {on_failure: abort, retries: 0}\n")
    text = text.replace("  - name: bot2\n    adapter: tests.scripted:SamplingBot\n"
                        "    params: {sleep_ms: 0.0, words: 7, ask_every: 2}",
                        "  - name: bot2\n    adapter: tests.scripted:FlakyBot\n"
                        "    params: {mode: raise}")
    cfg = _write(tmp_path, text)
    r = run_cli("run", str(cfg), "--out", str(tmp_path / "run"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "error: bot 'bot2' failed in game g003 at turn 1: RuntimeError: model exploded" in r.stderr
    assert sorted(RunDir(tmp_path / "run").results()) == ["g001", "g002"]  # bot0 vs bot1 kept


def test_scores_made_under_older_rules_are_made_again(tmp_path):
    # a run scored before stock questions (2026-12-04): the same settings, but proactivity's
    # description has no "rules"; resuming it scores the stored games again, once
    cfg, run = _base(tmp_path)
    m = _manifest(run)
    assert m["scorers"]["proactivity"]["rules"] == "stock questions"
    del m["scorers"]["proactivity"]["rules"]
    (run / "manifest.json").write_text(json.dumps(m))
    s = run_tournament(load_config(cfg), run)
    assert (s.games_played, s.games_scored) == (0, 6)
    (ev,) = [e for e in _manifest(run)["history"] if e["event"] == "rescored"]
    assert ev["settings_changed"] == ["proactivity"]
    s = run_tournament(load_config(cfg), run)
    assert (s.games_played, s.games_scored) == (0, 0)


def test_a_default_changed_since_the_scores_were_made_rescores_them(tmp_path):
    # a run made by an older chatmatch: same tournament file (same scoring fingerprint),
    # but its scores were made with other consistency settings (self-contradictions off,
    # no contradiction rule: the defaults before issue 32's third round)
    cfg, run = _base(tmp_path)
    m = _manifest(run)
    params = m["scorers"]["consistency"]["params"]
    params.pop("contradiction")
    params["self_contradictions"] = False
    (run / "manifest.json").write_text(json.dumps(m))
    transcripts = {p.name: p.read_bytes() for p in (run / "transcripts").iterdir()}
    s = run_tournament(load_config(cfg), run)
    assert (s.games_played, s.games_scored) == (0, 6)
    now = _manifest(run)
    (ev,) = [e for e in now["history"] if e["event"] == "rescored"]
    assert ev["settings_changed"] == ["consistency"] and ev["old"] == ev["new"]
    assert "contradiction" in now["scorers"]["consistency"]["params"]
    assert {p.name: p.read_bytes() for p in (run / "transcripts").iterdir()} == transcripts
    # the settings now match: a second run scores nothing again
    s = run_tournament(load_config(cfg), run)
    assert (s.games_played, s.games_scored) == (0, 0)
    assert len([e for e in _manifest(run)["history"] if e["event"] == "rescored"]) == 1

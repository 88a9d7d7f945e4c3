"""Reproducibility: one seed fixes the schedule, the seed utterances, the bots' sampling and
the TrueSkill shuffles; two runs with the same seed and deterministic bots give
byte-identical transcripts, scores, results and rankings."""

from __future__ import annotations

from pathlib import Path

from chatmatch.config.tournament import load_config
from chatmatch.play.schedule import double_round_robin
from chatmatch.ranking import rank
from chatmatch.run.tournament import run_tournament
from chatmatch.rundir.store import RunDir
from tests.reliability.helpers import cli_env, run_cli, run_contents, tournament_yaml

BYTE_IDENTICAL = ["results.jsonl", "config.yaml"]


def _files(run: Path) -> dict[str, bytes]:
    out = {name: (run / name).read_bytes() for name in BYTE_IDENTICAL}
    for sub in ("transcripts", "scores", "rankings"):
        for f in sorted((run / sub).iterdir()):
            out[f"{sub}/{f.name}"] = f.read_bytes()
    return out


def _cfg(tmp_path: Path, name: str, **kw):
    p = tmp_path / f"{name}.yaml"
    p.write_text(tournament_yaml(**kw))
    return load_config(p)


def test_same_seed_gives_byte_identical_run_directories_across_processes(tmp_path):
    cfg = tmp_path / "t.yaml"
    cfg.write_text(tournament_yaml(bots=3, exchanges=4, seed=7, record_timings=False))
    a, b = tmp_path / "a", tmp_path / "b"
    # different hash seeds: nothing may depend on set or dict-of-str iteration order
    ra = run_cli("run", str(cfg), "--out", str(a), env=cli_env(PYTHONHASHSEED="1"))
    rb = run_cli("run", str(cfg), "--out", str(b), env=cli_env(PYTHONHASHSEED="2"))
    assert ra.returncode == 0 and rb.returncode == 0, ra.stderr + rb.stderr
    fa, fb = _files(a), _files(b)
    assert len([k for k in fa if k.startswith("transcripts/")]) == 6
    assert fa == fb
    assert ra.stdout == rb.stdout
    assert b'"seconds": 0.0' in fa["transcripts/g001.jsonl"]


def test_with_timings_only_the_seconds_differ(tmp_path):
    cfg = _cfg(tmp_path, "t", bots=3, exchanges=3, seed=3, sleep_ms=1)
    run_tournament(cfg, tmp_path / "a")
    run_tournament(cfg, tmp_path / "b")
    ca, cb = run_contents(tmp_path / "a", timings=False), run_contents(tmp_path / "b", timings=False)
    assert ca == cb
    # and the timings really are recorded (a bot that sleeps 1 ms takes > 0 s)
    tr = RunDir(tmp_path / "a").transcripts()["g001"]
    assert all(t.seconds > 0 for t in tr.turns if not t.seed)
    assert (tmp_path / "a" / "results.jsonl").read_bytes() == (tmp_path / "b" / "results.jsonl").read_bytes()


def test_concurrency_does_not_change_the_games(tmp_path):
    one = _cfg(tmp_path, "one", bots=3, exchanges=3, concurrent=1, record_timings=False)
    many = _cfg(tmp_path, "many", bots=3, exchanges=3, concurrent=6, record_timings=False)
    run_tournament(one, tmp_path / "one")
    run_tournament(many, tmp_path / "many")
    a, b = _files(tmp_path / "one"), _files(tmp_path / "many")
    for key in a:
        if key.startswith(("transcripts/", "scores/", "rankings/")):
            assert a[key] == b[key], key


def test_another_seed_changes_sampling_and_shuffles_but_not_the_pairings(tmp_path):
    # proactivity as a count of asking turns, so that the scripted bots' games are decided
    # (scored as shares of their turns, these 3-exchange games leave every rating at 25)
    decided = "  params:\n    proactivity: {unit: turns}\n"
    s0 = _cfg(tmp_path, "s0", bots=3, exchanges=3, seed=0, record_timings=False, extra=decided)
    s1 = _cfg(tmp_path, "s1", bots=3, exchanges=3, seed=1, record_timings=False, extra=decided)
    g0 = double_round_robin(s0.bot_names, s0.seed_utterances, s0.seed)
    g1 = double_round_robin(s1.bot_names, s1.seed_utterances, s1.seed)
    assert [(g.game_id, g.players, g.seed_utterance) for g in g0] == \
        [(g.game_id, g.players, g.seed_utterance) for g in g1]
    assert all(a.random_seed != b.random_seed for a, b in zip(g0, g1))
    r0, r1 = run_tournament(s0, tmp_path / "r0"), run_tournament(s1, tmp_path / "r1")
    t0, t1 = RunDir(r0.run_dir).transcripts(), RunDir(r1.run_dir).transcripts()
    assert all(t0[g].turns[1].text != t1[g].turns[1].text for g in t0)  # seeded sampling
    # TrueSkill: same results, another shuffle seed -> other game orders -> other ratings
    results = list(RunDir(r0.run_dir).results().values())
    a = rank(results, s0.bot_names, s0.ranking, seed=0)
    b = rank(results, s0.bot_names, s0.ranking, seed=1)
    again = rank(results, s0.bot_names, s0.ranking, seed=0)
    assert a.to_json() == again.to_json()
    assert [r.stats.mu for r in a.rows] != [r.stats.mu for r in b.rows]
    assert r0.ranking.meta["seed"] == 0 and r1.ranking.meta["seed"] == 1

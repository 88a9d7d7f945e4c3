"""Issue 35, round three's remaining cases of family 2 (and 3j): every command that reads a
run (rank, show, report, and a resumed ``chatmatch run``) uses a stored game only when it
is a game of the run's schedule, in a regular file, scored with the run's scoring setup
from the transcript as it is now, and says the same thing about what it ignored, ending
with what ``chatmatch run`` really does about it (one source of the texts:
``chatmatch.rundir.integrity``)."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
from pathlib import Path

import pytest

from chatmatch.rundir.store import RunDir
from tests.reliability.helpers import run_cli, tournament_yaml

READERS = (("rank",), ("show", "g001"), ("report",))


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """Two finished runs of the same bots and seed: one scored on two dimensions, the
    other on two others (so the same game ids and transcripts, another scoring setup)."""
    base = tmp_path_factory.mktemp("rules")
    out = {}
    for name, dims in (("mine", ["proactivity", "specificity"]), ("other", ["diversity", "consistency"])):
        cfg = base / f"{name}.yaml"
        cfg.write_text(tournament_yaml(bots=3, exchanges=3, concurrent=1, record_timings=False, dims=dims))
        assert run_cli("run", str(cfg), "--out", str(base / name)).returncode == 0
        out[name] = base / name
    return out


def _copy(runs: dict[str, Path], tmp_path: Path) -> tuple[Path, Path]:
    shutil.copytree(runs["mine"], tmp_path / "run")
    cfg = tmp_path / "mine.yaml"
    shutil.copy(runs["mine"].parent / "mine.yaml", cfg)
    return cfg, tmp_path / "run"


def _graft(run: Path, donor: Path, gid: str) -> None:
    """``donor``'s score file and result line of ``gid`` in place of ``run``'s."""
    shutil.copy(donor / "scores" / f"{gid}.json", run / "scores" / f"{gid}.json")
    mine = [x for x in (run / "results.jsonl").read_text().splitlines() if f'"game_id": "{gid}"' not in x]
    theirs = [x for x in (donor / "results.jsonl").read_text().splitlines() if f'"game_id": "{gid}"' in x]
    (run / "results.jsonl").write_text("\n".join(mine + theirs) + "\n")


def _games(run: Path) -> int:
    return int(json.loads(run_cli("rank", str(run), "--json").stdout)["games"])


def _said_by_every_reader(run: Path, text: str) -> None:
    for args in READERS:
        r = run_cli(args[0], str(run), *args[1:])
        assert text in r.stderr, (args, r.stderr)
        assert "Traceback" not in r.stderr


def test_another_runs_scores_with_another_scoring_setup_are_not_used(runs, tmp_path):
    """2d: the other run's score file and result line of g001 (other dimensions) were used
    silently by rank, show, report and a resumed run."""
    cfg, run = _copy(runs, tmp_path)
    _graft(run, runs["other"], "g001")
    why = "scores/g001.json was made with another scoring setup"
    _said_by_every_reader(run, why)
    assert _games(run) == 5
    assert "`chatmatch run` scores the game again from its transcript" in run_cli("rank", str(run)).stderr
    r = run_cli("run", str(cfg), "--out", str(run))
    assert r.returncode == 0 and why in r.stderr and "0 game(s) played and 1 scored now" in r.stderr
    again = run_cli("rank", str(run), "--json")
    assert "warning" not in again.stderr and json.loads(again.stdout)["games"] == 6
    dims = json.loads((run / "scores" / "g001.json").read_text())["dimensions"]
    assert sorted(dims) == ["proactivity", "specificity"]


def _unscheduled_copy_of_g001(run: Path, gid: str = "g099") -> None:
    """A consistent set of files (transcript, score record, result line) for a game id the
    schedule does not have."""
    store = RunDir(run)
    tr, res, rec = store.transcripts()["g001"], store.results()["g001"], store.load_scores("g001")
    assert rec is not None
    store.save_transcript(dataclasses.replace(tr, game_id=gid))
    digest = store.save_scores(dataclasses.replace(rec, game_id=gid, transcript_sha256=store.transcript_digest(gid)))
    store.append_result(dataclasses.replace(res, game_id=gid), digest)


def test_an_unscheduled_games_consistent_files_are_ignored_by_readers_and_refused_by_run(runs, tmp_path):
    """2e: such a game was counted by rank, show and report, and refused by run."""
    cfg, run = _copy(runs, tmp_path)
    _unscheduled_copy_of_g001(run)
    why = "transcripts/g099.jsonl is not in this tournament's schedule"
    fix = "`chatmatch run` refuses this run directory for it: move transcripts/g099.jsonl and scores/g099.json out"
    for args in (("rank",), ("report",)):
        r = run_cli(args[0], str(run))
        assert why in r.stderr and fix in r.stderr, r.stderr
    assert _games(run) == 6
    shown = run_cli("show", str(run), "g099")
    assert why in shown.stderr and "[question]" not in shown.stdout  # its text, without its scores
    r = run_cli("run", str(cfg), "--out", str(run))
    assert r.returncode != 0 and f"{why}; {fix}" in r.stderr.splitlines()[-1], r.stderr
    (run / "transcripts" / "g099.jsonl").unlink()  # as the message says (its result line stays)
    (run / "scores" / "g099.json").unlink()
    r = run_cli("run", str(cfg), "--out", str(run))
    assert r.returncode == 0, r.stderr
    assert "game g099 is not in this tournament's schedule and has no transcript" in r.stderr
    assert "g099" not in (run / "results.jsonl").read_text()


def test_an_unscheduled_transcript_without_a_result_line_is_named_too(runs, tmp_path):
    _, run = _copy(runs, tmp_path)
    shutil.copy(run / "transcripts" / "g001.jsonl", run / "transcripts" / "g042.jsonl")
    r = run_cli("rank", str(run))
    assert r.returncode == 0 and "transcripts/g042.jsonl: ignored game g042:" in r.stderr, r.stderr


def _edit_seed(run: Path) -> None:
    path = run / "transcripts" / "g001.jsonl"
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    head["seed_utterance"] = "Something else entirely"
    path.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")


def test_rank_and_run_say_the_same_about_a_transcript_run_refuses(runs, tmp_path):
    """2b/2c/2j: an edited seed utterance: rank said "`chatmatch run` scores the game again",
    run refused the directory with another reason."""
    cfg, run = _copy(runs, tmp_path)
    _edit_seed(run)
    why = ("transcripts/g001.jsonl is bot0 vs bot1 from 'Something else entirely', but this "
           "tournament schedules bot0 vs bot1 from 'What did you do last week?'")
    ranked = run_cli("rank", str(run)).stderr
    assert why in ranked and "`chatmatch run` refuses this run directory for it" in ranked, ranked
    assert "scores the game again" not in ranked
    r = run_cli("run", str(cfg), "--out", str(run))
    assert r.returncode != 0 and why in r.stderr and "refuses this run directory" in r.stderr


def test_an_edited_transcript_run_cannot_read_is_announced_as_played_again(runs, tmp_path):
    """2b/2c: a transcript made unreadable by an edit is played again by run (rank said it
    would be scored again)."""
    cfg, run = _copy(runs, tmp_path)
    path = run / "transcripts" / "g001.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join([*lines[:2], lines[2][:-5], *lines[3:]]) + "\n")
    said = run_cli("rank", str(run)).stderr
    assert "`chatmatch run` plays the game again and replaces the unreadable transcript" in said, said
    assert len([x for x in said.splitlines() if "g001" in x]) == 1, said  # one message
    r = run_cli("run", str(cfg), "--out", str(run))
    assert r.returncode == 0 and "1 game(s) played" in r.stderr, r.stderr
    assert len([x for x in r.stderr.splitlines() if "transcripts/g001.jsonl" in x]) == 1, r.stderr


def test_a_foreign_score_record_is_not_blamed_on_the_genuine_transcript(runs, tmp_path):
    """2f: a consistent score record and result line made from another transcript of g001
    (another run's) were reported as "transcripts/g001.jsonl was changed after the game was
    scored", blaming a file nobody touched."""
    _, run = _copy(runs, tmp_path)
    store = RunDir(run)
    res, rec = store.results()["g001"], store.load_scores("g001")
    assert rec is not None
    lines = [x for x in (run / "results.jsonl").read_text().splitlines() if '"game_id": "g001"' not in x]
    (run / "results.jsonl").write_text("\n".join(lines) + "\n")
    digest = store.save_scores(dataclasses.replace(rec, transcript_sha256="0" * 64))
    store.append_result(res, digest)
    r = run_cli("rank", str(run))
    assert "was changed after the game was scored" not in r.stderr
    assert ("scores/g001.json was not made from transcripts/g001.jsonl as it is now (the "
            "transcript was edited after the game was scored, or the score record is another "
            "run's)") in r.stderr, r.stderr


def test_a_named_pipe_in_place_of_a_transcript_gets_one_message_and_is_never_replaced(runs, tmp_path):
    """3j: rank said "the run has no transcript", show "skipped unreadable transcript", and
    run played the game again, replacing the user's named pipe with a file."""
    cfg, run = _copy(runs, tmp_path)
    fifo = run / "transcripts" / "g002.jsonl"
    fifo.unlink()
    os.mkfifo(fifo)
    why = "transcripts/g002.jsonl is a named pipe, not a regular file"
    for args in (("rank",), ("show", "g001"), ("report",)):
        r = run_cli(args[0], str(run), *args[1:], timeout=60)
        warned = [x for x in r.stderr.splitlines() if "g002" in x]
        assert len(warned) == 1 and why in warned[0] and "refuses this run directory" in warned[0], r.stderr
    r = run_cli("run", str(cfg), "--out", str(run), timeout=60)
    assert r.returncode != 0 and why in r.stderr
    assert fifo.is_fifo()


def test_two_swapped_transcripts_are_named_and_never_scored_or_replaced(runs, tmp_path):
    """Found by the attack after the fixes: transcripts/g001.jsonl and g002.jsonl swapped
    were scored by run under the header's id and left swapped (every reader then warned for
    ever), while rank had said they would be played again."""
    cfg, run = _copy(runs, tmp_path)
    t = run / "transcripts"
    one, two = (t / "g001.jsonl").read_bytes(), (t / "g002.jsonl").read_bytes()
    (t / "g001.jsonl").write_bytes(two)
    (t / "g002.jsonl").write_bytes(one)
    said = run_cli("rank", str(run)).stderr
    assert ("transcripts/g001.jsonl holds game 'g002' and transcripts/g002.jsonl holds game "
            "'g001' (swapped?); swap the two file names back") in said, said
    r = run_cli("run", str(cfg), "--out", str(run))
    assert r.returncode != 0 and "holds game 'g002'" in r.stderr
    assert (t / "g001.jsonl").read_bytes() == two and (t / "g002.jsonl").read_bytes() == one


def test_a_run_whose_every_score_is_another_setups_says_why_not_none_yet(runs, tmp_path):
    """Found by the attack: every score file and result line copied from a run with other
    dimensions: rank said "no scored games yet" and dropped the warnings."""
    cfg, run = _copy(runs, tmp_path)
    for f in (runs["other"] / "scores").iterdir():
        shutil.copy(f, run / "scores" / f.name)
    shutil.copy(runs["other"] / "results.jsonl", run / "results.jsonl")
    r = run_cli("rank", str(run))
    assert r.returncode != 0 and "no scored games yet" not in r.stderr
    assert "no scored game can be used:" in r.stderr and "another scoring setup" in r.stderr
    assert "(and 5 more warning(s) like it)" in r.stderr
    r = run_cli("run", str(cfg), "--out", str(run))
    assert r.returncode == 0 and "0 game(s) played and 6 scored now" in r.stderr, r.stderr

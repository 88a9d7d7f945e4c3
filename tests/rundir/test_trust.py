"""Family 1 of issue 23: a run directory is cross-checked on load. A result line is used
only when its game has a transcript and a score record that agree with it (and, on a
resume, when the game is scheduled); other lines are ignored with a warning naming the
line, the game is scored again from its transcript, and a resume writes the results back
without them. A ranking never rests on an untrusted line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from chatmatch.config.tournament import load_config
from chatmatch.run.tournament import run_tournament
from chatmatch.rundir.store import RunDir, dumps
from chatmatch.run.storedrun import Run
from tests.reliability.helpers import run_cli, tournament_yaml


def _run(tmp_path: Path, name: str, seed: int) -> Path:
    cfg = tmp_path / f"{name}.yaml"
    cfg.write_text(tournament_yaml(bots=3, exchanges=3, seed=seed, record_timings=False))
    run_tournament(load_config(cfg), tmp_path / name)
    return tmp_path / name


def _line(record: dict) -> str:
    return json.dumps({"record": record, "sha256": hashlib.sha256(dumps(record).encode()).hexdigest()},
                      ensure_ascii=False, sort_keys=True) + "\n"


def _snapshot(run: Path) -> dict[str, str]:
    return {f.name: f.read_text() for f in (run / "rankings").iterdir()}


def test_result_lines_of_another_seed_are_ignored_and_a_resume_repairs(tmp_path):
    mine, other = _run(tmp_path, "mine", 0), _run(tmp_path, "other", 5)
    before, ranking = _snapshot(mine), Run.load(mine).rank().to_json()
    foreign = (other / "results.jsonl").read_text()
    assert foreign != (mine / "results.jsonl").read_text()  # the seed changed the games
    with open(mine / "results.jsonl", "a") as fh:
        fh.write(foreign)
    run = Run.load(mine)
    assert run.rank().to_json() == ranking  # the appended lines did not replace ours
    assert any("results.jsonl:7: ignored the result line of game g001" in w
               and "scores/g001.json" in w for w in run.store.warnings), run.store.warnings
    s = run_tournament(load_config(tmp_path / "mine.yaml"), mine)  # resume
    assert (s.games_played, s.games_scored) == (0, 0)
    assert _snapshot(mine) == before
    assert len((mine / "results.jsonl").read_text().splitlines()) == 6  # repaired
    assert any("ignored the result line" in w for w in s.warnings)
    r = run_cli("rank", str(mine))
    assert r.returncode == 0 and "warning" not in r.stderr


def test_results_file_replaced_by_another_runs_is_rescored_from_the_transcripts(tmp_path):
    mine, other = _run(tmp_path, "mine", 0), _run(tmp_path, "other", 5)
    before = _snapshot(mine)
    (mine / "results.jsonl").write_text((other / "results.jsonl").read_text())
    s = run_tournament(load_config(tmp_path / "mine.yaml"), mine)
    assert (s.games_played, s.games_scored) == (0, 6)
    assert _snapshot(mine) == before


def test_unscheduled_game_id_is_not_counted(tmp_path):
    mine = _run(tmp_path, "mine", 0)
    rec = json.loads((mine / "results.jsonl").read_text().splitlines()[0])["record"]
    with open(mine / "results.jsonl", "a") as fh:
        fh.write(_line({**rec, "game_id": "g099"}))
    r = run_cli("rank", str(mine), "--method", "points")
    assert r.returncode == 0, r.stderr
    assert "based on 6 game(s)" in r.stdout
    assert ("results.jsonl:7: ignored the result line of game g099: game g099 is not in this "
            "tournament's schedule and has no transcript; it is not used, and `chatmatch run` "
            "removes the line") in r.stderr
    s = run_tournament(load_config(tmp_path / "mine.yaml"), mine)
    assert s.ranking.games == 6


def test_result_line_naming_other_players_than_its_transcript_is_ignored(tmp_path):
    mine = _run(tmp_path, "mine", 0)
    lines = (mine / "results.jsonl").read_text().splitlines()
    rec = json.loads(lines[0])["record"]
    swapped = {**rec, "players": rec["players"][::-1]}
    (mine / "results.jsonl").write_text("\n".join(lines[1:]) + "\n" + _line(swapped))
    store = RunDir(mine)
    assert "g001" not in store.results()
    assert any("g001" in w and "players" in w for w in store.warnings), store.warnings

"""Round four, family 2 (the attack's 2.7, 2.8, 2.15): a stored game's shape is checked
against the run's config and schedule by the one stored-games check
(:func:`chatmatch.rundir.integrity.game_problem`, :mod:`chatmatch.rundir.shape`). A game
copied from a run with other ``exchanges`` or another ``seed``, a transcript cut short, one
bot speaking twice in a row or an edited seed turn is left out by every reader, which names
the file and the reason, and ``chatmatch run`` refuses the directory with the same words,
changing no file. A forfeited game (the one legitimate shorter game) is still trusted."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from chatmatch.config.tournament import load_config
from chatmatch.errors import RunDirError
from chatmatch.records import Forfeit
from chatmatch.run.storedrun import Run
from chatmatch.run.tournament import run_tournament
from chatmatch.rundir.shape import Shape, shape_problem
from tests.reliability.helpers import run_cli, tournament_yaml

REFUSED = "`chatmatch run` refuses this run directory for it: move transcripts/{g}.jsonl"


def _run(tmp_path: Path, name: str, **kw: object) -> tuple[Path, Path]:
    cfg = tmp_path / f"{name}.yaml"
    cfg.write_text(tournament_yaml(bots=3, record_timings=False,
                                   **{"exchanges": 3, "seed": 0, **kw}))  # type: ignore[arg-type]
    run_tournament(load_config(cfg), tmp_path / name)
    return cfg, tmp_path / name


def _files(run: Path) -> dict[str, bytes]:
    return {str(f.relative_to(run)): f.read_bytes() for f in sorted(run.rglob("*"))
            if f.is_file() and f.name != ".lock"}


def _turns(run: Path, gid: str) -> list[dict]:
    return [json.loads(x) for x in (run / "transcripts" / f"{gid}.jsonl").read_text().splitlines()]


def _write_turns(run: Path, gid: str, recs: list[dict]) -> None:
    (run / "transcripts" / f"{gid}.jsonl").write_text(
        "".join(json.dumps(r, sort_keys=True) + "\n" for r in recs))


def _refused_everywhere(cfg: Path, run: Path, gid: str, reason: str) -> None:
    """Readers leave ``gid`` out naming the file and ``reason``; run refuses with the same
    words and changes nothing."""
    loaded = Run.load(run)
    assert gid not in {r.game_id for r in loaded.results}
    said = [w for w in loaded.store.warnings if f"transcripts/{gid}.jsonl" in w]
    assert said and all(reason in w and REFUSED.format(g=gid) in w for w in said), said
    for cmd in (["rank", str(run)], ["show", str(run)]):
        r = run_cli(*cmd)
        assert r.returncode == 0 and reason in r.stderr, (cmd, r.stderr)
        assert "Traceback" not in r.stderr
    before = _files(run)
    with pytest.raises(RunDirError) as err:
        run_tournament(load_config(cfg), run)
    assert reason in str(err.value) and REFUSED.format(g=gid) in str(err.value)
    assert _files(run) == before


def test_a_game_copied_from_a_run_with_other_exchanges_and_seed_is_not_counted(tmp_path):
    """2.7: transcript, score record and result line of g001 from a run with exchanges 1
    and seed 7: consistent with each other, so only the shape gives them away."""
    cfg, mine = _run(tmp_path, "mine")
    _, other = _run(tmp_path, "other", exchanges=1, seed=7)
    for sub in ("transcripts/g001.jsonl", "scores/g001.json"):
        shutil.copy(other / sub, mine / sub)
    lines = (mine / "results.jsonl").read_text().splitlines()
    lines[0] = (other / "results.jsonl").read_text().splitlines()[0]
    (mine / "results.jsonl").write_text("\n".join(lines) + "\n")
    _refused_everywhere(cfg, mine, "g001", "copied from a run with another seed?")


def test_a_game_of_other_exchanges_but_the_same_seed_is_named_by_its_length(tmp_path):
    cfg, mine = _run(tmp_path, "mine")
    _, other = _run(tmp_path, "other", exchanges=2)
    shutil.copy(other / "transcripts/g003.jsonl", mine / "transcripts/g003.jsonl")
    (mine / "scores/g003.json").unlink()
    _refused_everywhere(cfg, mine, "g003", "transcripts/g003.jsonl has 4 turns, but a game of "
                        "this tournament has 6 (3 exchanges, the seed utterance included)")


def test_a_transcript_cut_short_is_not_scored_as_complete(tmp_path):
    """2.8: g002 cut to 2 of its 6 turns; a resume used to score the 2-turn game."""
    cfg, run = _run(tmp_path, "run")
    _write_turns(run, "g002", _turns(run, "g002")[:3])
    _refused_everywhere(cfg, run, "g002", "has 2 turns, but a game of this tournament has 6")


def test_one_bot_speaking_twice_in_a_row_is_not_scored(tmp_path):
    """2.15: turn 1 given to the starter (it speaks turns 0-2), its score record deleted."""
    cfg, run = _run(tmp_path, "run")
    recs = _turns(run, "g004")
    recs[2]["speaker"] = recs[0]["players"][0]
    _write_turns(run, "g004", recs)
    (run / "scores/g004.json").unlink()
    starter, other = recs[0]["players"]
    _refused_everywhere(cfg, run, "g004", f"turn 1 of transcripts/g004.jsonl is spoken by "
                        f"{starter}, but the bots alternate from the seed turn ({starter}), so "
                        f"turn 1 is {other}'s")


def test_an_edited_seed_turn_is_not_the_scheduled_game(tmp_path):
    cfg, run = _run(tmp_path, "run")
    recs = _turns(run, "g005")
    recs[1]["text"] = "Something else entirely?"
    _write_turns(run, "g005", recs)
    _refused_everywhere(cfg, run, "g005", "turn 0 of transcripts/g005.jsonl is not the seed "
                        "utterance this tournament schedules for game g005")


def test_a_game_without_result_line_is_checked_too(tmp_path):
    """A cut transcript whose line and score record are gone: the stray-transcript check."""
    cfg, run = _run(tmp_path, "run")
    _write_turns(run, "g006", _turns(run, "g006")[:4])
    (run / "scores/g006.json").unlink()
    lines = [x for x in (run / "results.jsonl").read_text().splitlines() if '"g006"' not in x]
    (run / "results.jsonl").write_text("\n".join(lines) + "\n")
    _refused_everywhere(cfg, run, "g006", "transcripts/g006.jsonl has 3 turns")


def test_forfeited_games_are_still_trusted_and_resume_cleanly(tmp_path):
    """The legitimate shorter game: a bot that fails mid-game forfeits it; the transcript
    ends where it failed and records the forfeit."""
    cfg = tmp_path / "f.yaml"
    cfg.write_text("name: forfeits\nexchanges: 3\nseed_utterance: Hello there!\n"
                   "failures: {retries: 0}\nscoring: {dimensions: [proactivity, specificity]}\n"
                   "bots:\n  - {name: ok, adapter: tests.scripted:SamplingBot}\n"
                   "  - {name: flaky, adapter: tests.scripted:FlakyBot, "
                   "params: {mode: raise_after, after: 3}}\n"
                   "  - {name: other, adapter: tests.scripted:SamplingBot, params: {words: 7}}\n")
    run = tmp_path / "run"
    s = run_tournament(load_config(cfg), run)
    assert s.forfeits, "the flaky bot forfeited nothing"
    short = [g for g in (run / "transcripts").glob("*.jsonl") if len(g.read_text().splitlines()) < 7]
    assert short
    loaded = Run.load(run)
    assert len(loaded.results) == 6 and not loaded.store.warnings, loaded.store.warnings
    again = run_tournament(load_config(cfg), run)
    assert (again.games_played, again.games_scored) == (0, 0) and not again.warnings


@pytest.mark.parametrize("shape, expected", [
    (Shape(("a", "b", "a"), (0,), "Hi", Forfeit("b", "x", "3")), None),
    (Shape(("a", "b"), (0,), "Hi", Forfeit("a", "x", "2")), None),
    (Shape(("a", "b"), (0,), "Hi", Forfeit("a", "x")), None),  # an older forfeit: no turn
    (Shape(("a", "b", "a", "b"), (0,), "Hi", None), None),
    (Shape(("a", "b"), (0,), "Hi", Forfeit("b", "x", "2")), "records a forfeit by b at turn 2, "
     "but it ends after 2 turns, where turn 2 was a's"),
    (Shape(("a", "b"), (0,), "Hi", Forfeit("a", "x", "5")), "records a forfeit by a at turn 5"),
    (Shape(("a", "b", "a", "b"), (0,), "Hi", Forfeit("a", "x", "4")), "records a forfeit by a "
     "but has 4 turns"),
    (Shape(("a", "b", "a", "b", "a", "b"), (0,), "Hi", None), "has 6 turns, but a game of this "
     "tournament has 4 (2 exchanges, the seed utterance included) and this one records no "
     "forfeit (longer"),
    (Shape(("a", "b", "a", "b"), (0, 2), "Hi", None), "turn 2 of transcripts/g.jsonl is marked "
     "as a seed utterance"),
    (Shape(("a", "b", "a", "b"), (), "Hi", None), "turn 0 of transcripts/g.jsonl is not the seed"),
    (Shape(("b", "a", "b", "a"), (0,), "Hi", None), "turn 0 of transcripts/g.jsonl is spoken by b"),
    (Shape((), (), None, None), "turn 0 of transcripts/g.jsonl is not the seed"),
    (Shape(("a", "b", "a", "b"), (0,), "Hi", None, 8), "played with random seed 8, but game g"),
    (Shape(("a", "b", "a", "b"), (0,), "Hi", None, 7), None),
])
def test_the_shape_rule(shape, expected):
    got = shape_problem("g", shape, ("a", "b"), "Hi", 7, 4)
    assert (got is None) if expected is None else (got is not None and expected in got), got

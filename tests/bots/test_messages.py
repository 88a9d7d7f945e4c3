"""The CLI's messages about HTTP bots and forfeits say what happens: the turn count of the
estimate is the progress bar's, a replay counts the forfeited games it will play, the
estimate uses each bot's own turn time, `run --help` cites files that exist, and
`show RUN | head` ends quietly."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from chatmatch.cli import cli
from chatmatch.run.estimate import estimate_line, forfeited_games, games_to_play
from chatmatch.play.schedule import double_round_robin
from tests.reliability.helpers import REPO, cli_env

OLD_RUN = REPO / "tests" / "data" / "old_run"


def _run(tmp_path: Path, timings: dict[str, float], forfeit: frozenset[str] = frozenset()) -> Path:
    """A run directory with one stored game per (a, b) pair, each turn taking the bot's time."""
    run = tmp_path / "run"
    (run / "transcripts").mkdir(parents=True)
    for i, (a, b) in enumerate([("fast", "slow"), ("slow", "fast")], 1):
        gid = f"g{i:03d}"
        meta = {"forfeit": {"bot": "slow", "reason": "x"}} if gid in forfeit else {}
        lines = [json.dumps({"type": "game", "game_id": gid, "players": [a, b], "meta": meta})]
        for t, who in enumerate([a, b, a, b]):
            lines.append(json.dumps({"type": "turn", "index": t, "speaker": who, "text": "hi",
                                     "seconds": 0.0 if t == 0 else timings[who],
                                     **({"seed": True} if t == 0 else {})}))
        (run / "transcripts" / f"{gid}.jsonl").write_text("\n".join(lines) + "\n")
    return run


def test_the_estimate_counts_bot_turns_like_the_bar(tmp_path: Path) -> None:
    schedule = double_round_robin(["a", "b"], ["hi"], 0)
    line = estimate_line(schedule, 6, tmp_path)
    assert line.startswith("2 game(s) to play (22 bot turns)")  # the bar's 2 * (2*6 - 1)


def test_the_estimate_uses_each_bots_own_turn_time(tmp_path: Path) -> None:
    run = _run(tmp_path, {"fast": 0.001, "slow": 30.0})
    schedule = double_round_robin(["fast", "slow"], ["hi"], 0)
    line = estimate_line(schedule, 3, run)
    # slow answers 2 or 3 times a game at 30 s: 5 turns, 150 s; the mean over all turns
    # (dominated by the offline bot's in a real run) would have said under a minute
    assert "about 3 min at each bot's turn time" in line, line


def test_a_replay_counts_the_forfeited_games_it_plays(tmp_path: Path) -> None:
    run = _run(tmp_path, {"fast": 0.001, "slow": 0.001}, forfeit=frozenset({"g002"}))
    assert forfeited_games(run) == {"g002"}
    schedule = double_round_robin(["fast", "slow"], ["hi"], 0)
    assert [g.game_id for g in schedule] == ["g001", "g002"]
    assert games_to_play(schedule, run, replay_forfeits=False) == []
    replay = games_to_play(schedule, run, replay_forfeits=True)
    assert [g.game_id for g in replay] == ["g002"]
    assert estimate_line(replay, 2, run).startswith("1 game(s) to play (3 bot turns)")


def test_run_help_cites_files_that_exist() -> None:
    text = CliRunner().invoke(cli, ["run", "--help"]).output
    cited = re.findall(r"tournaments/[\w.-]+\.yaml", text)
    assert cited and all((REPO / c).is_file() for c in cited), cited


def test_show_into_a_closed_pipe_ends_quietly() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "chatmatch", "show", str(OLD_RUN)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=cli_env(),
                            cwd=REPO)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # `| head` that has read enough: every write now fails (EPIPE)
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0, err
    assert "Broken pipe" not in err and "error" not in err, err

"""Progress of `chatmatch run` and the other commands: loading lines per bot, a games bar
counting turns whose ETA starts after loading, plain lines off a terminal, --quiet. Times
shown are read from a fake clock that the bots move (tests/test_progress.py's ``Clock``):
no test here asserts how long something took in real time."""

import io
import os
import re
import sys
from pathlib import Path
from typing import ClassVar

import pytest
from click.testing import CliRunner

from chatmatch.bot import Bot, History
from chatmatch.cli import cli
from chatmatch.config.tournament import load_config
from chatmatch.progress import Reporter
from chatmatch.run.tournament import run_tournament
from tests.test_progress import Clock, clock, wait_for  # noqa: F401 (clock: a fixture)

YAML = """\
name: progress
exchanges: 4
concurrent_games: 2
output_dir: {out}
scoring: {{dimensions: [proactivity, diversity]}}
bots:
  - name: slowload
    adapter: {adapter}
    params: {{load_s: {load_s}, reply_s: {reply_s}}}
  - name: quick
    adapter: {adapter}
    params: {{reply_s: {reply_s}{quick}}}
"""


def write_cfg(tmp_path: Path, load_s: float = 0.0, reply_s: float = 0.0) -> Path:
    p = tmp_path / "t.yaml"
    p.write_text(YAML.format(out=tmp_path / "run", adapter="tests.scripted:SlowBot", load_s=load_s,
                             reply_s=reply_s, quick=""))
    return p


def seconds(text: str) -> float:
    m = re.fullmatch(r"(?:(\d+)m)?(\d+(?:\.\d+)?)s", text)
    assert m, text
    return int(m.group(1) or 0) * 60 + float(m.group(2))


class ClockBot(Bot):
    """Moves the test's fake clock (what the reporter reads as ``time.monotonic()``) by
    ``load_s`` in :meth:`load` and ``reply_s`` in every reply instead of sleeping. A load
    that takes time, and the reply of turn ``hold_at``, wait (in real time, at most 30 s)
    until the reporter's background thread has printed the line they are waiting for, so
    the output holds a loading line and a games line taken mid-game, whatever the machine's
    speed."""

    description = "test bot: moves a fake clock"
    clock: ClassVar[Clock]
    stream: ClassVar[io.StringIO]

    def __init__(self, name: str = "", *, load_s: float = 0.0, reply_s: float = 0.0,
                 hold_at: int = -1) -> None:
        super().__init__(name)
        self.load_s, self.reply_s, self.hold_at = load_s, reply_s, hold_at

    def load(self) -> None:
        ClockBot.clock.now += self.load_s
        if self.load_s:
            wait_for(lambda: f"loading bot {self.name} ..." in ClockBot.stream.getvalue(),
                     "the loading line")

    def reply(self, history: History) -> str:
        ClockBot.clock.now += self.reply_s
        if history.turn_index == self.hold_at:
            wait_for(lambda: "playing:" in ClockBot.stream.getvalue(), "a games line")
        return f"{self.name} talks about topic {history.turn_index}. Do you agree?"


def test_loading_is_shown_per_bot_and_not_counted_in_the_games_eta(tmp_path, clock):
    ClockBot.clock, ClockBot.stream = clock, io.StringIO()
    cfg_file = tmp_path / "t.yaml"
    cfg_file.write_text(YAML.format(out=tmp_path / "run", adapter="tests.cli.test_progress:ClockBot",
                                 load_s=1.5, reply_s=0.03, quick=", hold_at: 3"))
    run_tournament(load_config(cfg_file),
                   progress=Reporter(ClockBot.stream, min_step_s=0.2, interval_s=0.2))
    lines = ClockBot.stream.getvalue().splitlines()
    assert "loading bot slowload ..." in lines
    assert "loading bot slowload: 1.5s" in lines  # the fake clock's 1.5 s, exactly
    assert not any(line.startswith("loading bot quick") for line in lines)  # instant: no line
    playing = [line for line in lines if line.startswith("playing:")]
    # 2 games of 7 bot turns each; the bar moves by turns, before the first game ends
    assert playing[-1].startswith("playing: 14/14 turns (2/2 games)") and "(done)" in playing[-1]
    assert any(re.match(r"playing: \d+/14 turns \(0/2 games\)", line) for line in playing)
    # the games clock starts after the 1.5 s load (the first line comes at turn 3): a clock
    # that counted the load would read 1.5 s or more, and so would the estimate
    # (elapsed / turns done x turns left)
    first = re.search(r"playing: (\d+)/14 .*elapsed (\S+), ETA (\S+)", playing[0])
    assert first and seconds(first.group(2)) < 1.5, playing[0]
    done = int(first.group(1))
    assert first.group(3) == "--" or seconds(first.group(3)) < 1.5 / done * (14 - done), playing[0]


def test_run_cli_prints_plain_lines_on_a_non_terminal_stderr_and_quiet_silences(tmp_path):
    cfg = write_cfg(tmp_path, load_s=0.7, reply_s=0.08)
    res = CliRunner().invoke(cli, ["run", str(cfg)])
    assert res.exit_code == 0, res.output
    err = res.stderr
    assert "\r" not in err and "\x1b" not in err
    assert "loading bot slowload ..." in err and "playing: 14/14 turns (2/2 games)" in err
    assert len(err.splitlines()) < 15  # sparse, not a line per turn
    assert "slowload" in res.stdout and "playing" not in res.stdout  # progress: stderr only

    quiet = CliRunner().invoke(cli, ["run", str(cfg), "--quiet", "--out", str(tmp_path / "r2")])
    assert quiet.exit_code == 0, quiet.output
    assert "loading" not in quiet.stderr and "playing" not in quiet.stderr
    assert quiet.stdout == res.stdout


@pytest.mark.parametrize("command", ["run", "score", "robustness", "analyze", "meta-eval fed"])
def test_every_command_with_progress_takes_quiet(command):
    res = CliRunner().invoke(cli, [*command.split(), "--help"])
    assert res.exit_code == 0 and "--quiet" in res.stdout


def test_score_shows_scoring_and_quiet_hides_it(tmp_path, monkeypatch):
    import chatmatch.progress as progress

    log = tmp_path / "a.txt"
    log.write_text("A: Hello, how are you?\nB: Fine. And you?\n" * 3)
    conf = tmp_path / "s.yaml"
    conf.write_text("scoring: {dimensions: [proactivity, specificity]}\n")
    # a scoring bar shows once it lasts min_step_s: make that 0 for this small file
    monkeypatch.setattr(progress, "DEFAULT_MIN_STEP_S", 0.0)
    loud = CliRunner().invoke(cli, ["score", str(log), "--config", str(conf)])
    quiet = CliRunner().invoke(cli, ["score", str(log), "--config", str(conf), "--quiet"])
    assert loud.exit_code == 0 and quiet.exit_code == 0, loud.output
    assert "scoring 1 game" in loud.stderr
    assert "scoring" not in quiet.stderr and quiet.stdout == loud.stdout


def test_main_sets_the_process_env_defaults_and_keeps_the_users(monkeypatch):
    """OpenMP's threads must sleep, not spin, or torch collapses beside another job; the
    variables are read when torch loads, so only ``main`` (before any import of it) sets
    them, and a value the user set wins."""
    import chatmatch.cli as cli_module

    seen: dict[str, str | None] = {}
    for key in cli_module.PROCESS_ENV_DEFAULTS:  # set, then removed: both undone afterwards
        monkeypatch.setenv(key, "placeholder")
        monkeypatch.delenv(key)
    monkeypatch.setattr(cli_module.signal, "signal", lambda *args: None)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setenv("TOKENIZERS_PARALLELISM", "true")
    monkeypatch.setattr(cli_module, "cli", lambda prog_name: seen.update(
        {k: os.environ.get(k) for k in ("OMP_WAIT_POLICY", "TOKENIZERS_PARALLELISM", "TQDM_DISABLE")}))
    cli_module.main()
    assert seen == {"OMP_WAIT_POLICY": "PASSIVE", "TOKENIZERS_PARALLELISM": "true", "TQDM_DISABLE": "1"}

"""A bot that raises: its exception is kept with the traceback in RUN/bot_errors.jsonl and
printed with the file and line it was raised at (the traceback with --debug); a
deterministic bot is not called again on the same history, a failure that can pass (a
timeout, a connection error) or a sampling bot's is retried."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import tests.scripted as scripted
from chatmatch.bot import Bot, History
from chatmatch.cli import cli
from chatmatch.config.settings import FailurePolicy
from chatmatch.play.game import play_games
from chatmatch.play.botcall import may_pass
from chatmatch.play.schedule import ScheduledGame
from tests.scripted import BUGGY_LINE, BuggyBot, CountingBot

YAML = """\
name: buggy
exchanges: 2
output_dir: {out}
scoring: {{dimensions: [proactivity]}}
failures: {{max_forfeit_share: 1.0}}
bots:
  - {{name: ok, adapter: "tests.scripted:CountingBot"}}
  - {{name: buggy, adapter: "tests.scripted:BuggyBot"}}
"""


def _run(tmp_path: Path, *extra: str) -> tuple[object, Path]:
    cfg = tmp_path / "t.yaml"
    out = tmp_path / "run"
    cfg.write_text(YAML.format(out=out))
    BuggyBot.calls = 0
    res = CliRunner().invoke(cli, ["run", str(cfg), "--quiet", *extra])
    assert res.exit_code == 0, res.output
    return res, out


def test_the_exception_is_kept_with_its_traceback_and_not_retried(tmp_path: Path) -> None:
    res, out = _run(tmp_path)
    where = f"{scripted.__file__}:{BUGGY_LINE}"
    records = [json.loads(ln) for ln in (out / "bot_errors.jsonl").read_text().splitlines()]
    assert len(records) == 2 == BuggyBot.calls  # one call per game, no retry (default 2)
    rec = records[0]
    assert rec["bot"] == "buggy" and rec["error"] == "IndexError: tuple index out of range"
    assert rec["at"] == where and rec["function"] == "reply" and rec["retried"] is False
    assert rec["traceback"].startswith("Traceback (most recent call last):")
    assert f'File "{scripted.__file__}", line {BUGGY_LINE}, in reply' in rec["traceback"]
    assert {r["game"] for r in records} == {"g001", "g002"}
    err = res.stderr  # type: ignore[attr-defined]
    assert f"IndexError: tuple index out of range (not retried) [at {where}; traceback in " \
           f"{out / 'bot_errors.jsonl'}, or run with --debug]" in err
    assert "Traceback" not in err
    shown = CliRunner().invoke(cli, ["show", str(out)])
    assert shown.exit_code == 0 and "forfeit" in shown.stdout


def test_debug_prints_the_traceback(tmp_path: Path) -> None:
    res, _ = _run(tmp_path, "--debug")
    err = res.stderr  # type: ignore[attr-defined]
    assert err.count("Traceback (most recent call last):") == 2
    assert f'File "{scripted.__file__}", line {BUGGY_LINE}, in reply' in err


def _games() -> list[ScheduledGame]:
    return [ScheduledGame("g001", 1, "ok", "b", "Hi", 1)]


class _Sampling(Bot):
    deterministic = False
    calls = 0

    def reply(self, history: History) -> str:
        type(self).calls += 1
        raise RuntimeError("bad sample")


def test_a_sampling_bot_is_retried_a_deterministic_one_is_not() -> None:
    policy = FailurePolicy(retries=2)
    BuggyBot.calls = 0
    tr = play_games(_games(), {"ok": CountingBot("ok"), "b": BuggyBot("b")}, 2, policy)[0]
    assert BuggyBot.calls == 1 and tr.forfeit is not None
    assert "not retried: the bot is deterministic" in tr.forfeit.reason
    tr = play_games(_games(), {"ok": CountingBot("ok"), "b": _Sampling("b")}, 2, policy)[0]
    assert _Sampling.calls == 3 and tr.forfeit is not None
    assert tr.forfeit.reason.endswith("(after 3 attempt(s))")


class ReadTimeout(Exception):
    """Named like requests' and httpx's."""


class APIConnectionError(Exception):
    """Named like openai's."""


class _Final(ConnectionError):
    transient = False


class _Passing(ValueError):
    transient = True


@pytest.mark.parametrize("exc, passes", [
    (TimeoutError("t"), True), (ConnectionResetError("reset"), True), (ReadTimeout(), True),
    (APIConnectionError(), True), (_Passing(), True), (_Final(), False),
    (IndexError("tuple index out of range"), False), (RuntimeError("model exploded"), False),
    (FileNotFoundError("weights.bin"), False),
])
def test_which_failures_may_pass(exc: BaseException, passes: bool) -> None:
    assert may_pass(exc) is passes


def test_a_credential_in_the_exception_is_not_stored_or_shown() -> None:
    from chatmatch.play.botcall import exception_text, failure_record

    key = "sk-" + "A1b2C3d4E5f6G7h8"
    try:
        raise RuntimeError(f"POST https://api.example/v1 failed: api_key={key} user:pw")
    except RuntimeError as exc:
        rec = failure_record("b", "g001", 1, 1, exc, retried=False)
        text = exception_text(exc)
    assert key not in text and key not in str(rec["error"]) and key not in str(rec["traceback"])
    assert "***" in text and text.startswith("RuntimeError: POST https://api.example/v1 failed")

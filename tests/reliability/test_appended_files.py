"""Round five: the files of a run directory that grow by appending (``bot_errors.jsonl``,
``results.jsonl``, the ``.lock`` file) are opened one way
(:func:`chatmatch.rundir.atomic.open_append`): never through a symbolic link (the bots'
tracebacks were appended to the file a link named, outside the run) and never on a named
pipe (the open blocked for ever, and SIGTERM could not end the run). And text from outside
printed on stderr (a bot's exception, a log's file name) is shown escaped."""

from __future__ import annotations

import os
from pathlib import Path

from tests.reliability.helpers import run_cli

RAISES = """name: boom
exchanges: 2
bots:
  - eliza
  - name: boom
    adapter: tests.reliability.evilbots:Evil
    params: {where: reply, how: raise}
scoring: {dimensions: [diversity]}
"""


def _first_run(tmp_path: Path) -> tuple[Path, Path]:
    cfg = tmp_path / "t.yaml"
    cfg.write_text(RAISES, encoding="utf-8")
    run = tmp_path / "run"
    r = run_cli("run", str(cfg), "--out", str(run), "-q", "--allow-forfeits")
    assert r.returncode == 0, r.stderr
    assert (run / "bot_errors.jsonl").is_file()
    return cfg, run


def test_bot_errors_jsonl_that_is_a_link_is_not_written_through(tmp_path):
    cfg, run = _first_run(tmp_path)
    victim = tmp_path / "notes.txt"
    victim.write_text("mine\n", encoding="utf-8")
    (run / "bot_errors.jsonl").unlink()
    (run / "bot_errors.jsonl").symlink_to(victim)
    r = run_cli("run", str(cfg), "--out", str(run), "-q", "--allow-forfeits", "--replay-forfeits")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert victim.read_text(encoding="utf-8") == "mine\n"
    assert f"{run / 'bot_errors.jsonl'}: is a symbolic link" in r.stderr, r.stderr
    assert "the bots' tracebacks are not kept" in r.stderr


def test_bot_errors_jsonl_that_is_a_pipe_does_not_hang_the_run(tmp_path):
    cfg, run = _first_run(tmp_path)
    (run / "bot_errors.jsonl").unlink()
    os.mkfifo(run / "bot_errors.jsonl")
    r = run_cli("run", str(cfg), "--out", str(run), "-q", "--allow-forfeits", "--replay-forfeits",
                timeout=60)  # it blocked for ever, SIGTERM too
    assert r.returncode == 0 and "a named pipe, not a regular file" in r.stderr, r.stderr


def test_a_lock_file_that_is_a_pipe_or_a_link_to_one_is_refused_at_once(tmp_path):
    cfg, run = _first_run(tmp_path)
    (run / ".lock").unlink()
    os.mkfifo(run / ".lock")
    r = run_cli("run", str(cfg), "--out", str(run), "-q", "--allow-forfeits", timeout=60)
    assert r.returncode == 2 and f"{run / '.lock'}: is a named pipe" in r.stderr, r.stderr
    (run / ".lock").unlink()
    os.mkfifo(tmp_path / "pipe")
    (run / ".lock").symlink_to(tmp_path / "pipe")
    r = run_cli("run", str(cfg), "--out", str(run), "-q", "--allow-forfeits", timeout=60)
    assert r.returncode == 2 and f"{run / '.lock'}: is a symbolic link" in r.stderr, r.stderr


def test_a_bots_exception_is_shown_escaped(tmp_path):
    cfg = tmp_path / "t.yaml"
    cfg.write_text(RAISES.replace("how: raise", "how: escape_error"), encoding="utf-8")
    r = run_cli("run", str(cfg), "--out", str(tmp_path / "run"), "-q", "--allow-forfeits")
    assert r.returncode == 0, r.stderr
    assert "\x1b" not in r.stderr and "\\x1b[2J" in r.stderr, r.stderr
    r = run_cli("run", str(cfg), "--out", str(tmp_path / "run2"), "-q", "--allow-forfeits",
                "--debug")
    assert "\x1b" not in r.stderr and "\\x1b[2J" in r.stderr, r.stderr


def test_a_log_file_name_in_a_warning_is_shown_escaped(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "ok.txt").write_text("a: hi there\nb: hello\n", encoding="utf-8")
    (logs / "\x1b]0;pwned\x07.txt").write_text("a: alone\n", encoding="utf-8")
    r = run_cli("score", str(logs), "-q", "--config", str(_cheap(tmp_path)))
    assert r.returncode == 0, r.stderr
    assert "\x1b" not in r.stderr and "\x07" not in r.stderr
    assert "\\x1b]0;pwned\\x07.txt: only one speaker" in r.stderr, r.stderr


def _cheap(tmp_path: Path) -> Path:
    p = tmp_path / "cheap.yaml"
    p.write_text("scoring: {dimensions: [diversity]}\n", encoding="utf-8")
    return p

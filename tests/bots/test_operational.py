"""Operational params (timeouts, retries, concurrency) are not the bot's identity: a run
whose HTTP bot forfeited on a timeout is fixed in place by raising ``timeout_s`` and
``--replay-forfeits``, with the replies already paid for read from the reply cache; run
directories and caches written before this rule are still read."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest

from chatmatch.adapters import identity_params, operational_params
from chatmatch.bot import Bot, History, Message
from chatmatch.common.yamlloc import parse_located_yaml
from chatmatch.config.tournament import config_from_data
from chatmatch.errors import RunDirError
from chatmatch.play.fingerprint import play_fingerprint
from chatmatch.play.reply_cache import CACHE_FILE, ReplyCache, bot_identity, cache_bots, turn_key
from chatmatch.run.migrations import format1_play_fingerprint, older_reply_identities
from chatmatch.run.tournament import run_tournament
from tests.fake_openai import FakeOpenAI, chat_completion, reply_for


@pytest.fixture
def slow_late() -> Iterator[FakeOpenAI]:
    """Answers at once, except requests with 4 or more messages (late turns), which wait
    until the test sets ``fake.release`` (after the client has given up on them)."""
    fake = FakeOpenAI()
    release = threading.Event()

    def answer(path: str, body: dict[str, Any]) -> dict[str, Any]:
        if len(body["messages"]) >= 4:
            release.wait(60)
        return chat_completion(reply_for(body))
    fake.answer = answer
    fake.release = release  # type: ignore[attr-defined]
    with fake:
        try:
            yield fake
        finally:
            release.set()


def cfg(url: str, out: Path, timeout_s: float, retries: int = 0) -> Any:
    text = (f"name: op\nexchanges: 3\nseed: 2\noutput_dir: {out}\nrecord_timings: false\n"
            "scoring: {dimensions: [proactivity]}\nbots:\n"
            f"  - {{name: remote, adapter: openai-chat, params: {{base_url: '{url}', model: m1, "
            f"timeout_s: {timeout_s}, retries: {retries}, backoff_s: 0, max_concurrency: 2}}}}\n"
            "  - eliza\n  - canned\n")
    return config_from_data(parse_located_yaml(text, "op.yaml"))


def test_operational_params_are_declared_and_left_out_of_the_identity() -> None:
    assert {"timeout_s", "retries", "max_concurrency"} <= operational_params("openai-chat")
    assert operational_params("eliza") == frozenset()
    assert identity_params("openai-chat", {"model": "m", "timeout_s": 5, "retries": 9}) == \
        {"model": "m"}
    one, two = (play_fingerprint(cfg("http://h/v1", Path("x"), t)) for t in (1, 60))
    assert one == two
    other = config_from_data(parse_located_yaml(
        "bots: [{name: r, adapter: openai-chat, params: {base_url: 'http://h/v1', model: m2}},"
        " eliza]", "o.yaml"))
    assert play_fingerprint(other) != play_fingerprint(cfg("http://h/v1", Path("x"), 1))


def test_a_timeout_forfeit_is_fixed_in_place_with_the_cache(tmp_path: Path,
                                                             slow_late: FakeOpenAI) -> None:
    run = tmp_path / "run"
    first = run_tournament(cfg(slow_late.base_url, run, timeout_s=0.5))
    lost = [f for f in first.forfeits if f.bot == "remote"]
    assert lost and lost[0].games  # a late turn timed out
    asked = len(slow_late.requests)
    cached = len(ReplyCache(run / CACHE_FILE))
    assert cached > 0  # the early turns were answered and kept

    slow_late.release.set()  # type: ignore[attr-defined]  # late turns answer at once now
    fixed = run_tournament(cfg(slow_late.base_url, run, timeout_s=10), replay_forfeits=True)
    assert fixed.forfeits == [] and sorted(fixed.replayed) == sorted(lost[0].games)
    # the replies answered in the first run were not asked again
    new = [r for r in slow_late.requests[asked:] if r["body"]["max_tokens"] != 1]  # no pre-flight
    assert len(new) == len(ReplyCache(run / CACHE_FILE)) - cached
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["play_fingerprint"] == play_fingerprint(cfg(slow_late.base_url, run, 10))


def test_an_old_run_directory_is_still_read(tmp_path: Path) -> None:
    """A run written when operational params were part of the play fingerprint resumes with
    a new timeout; a run of another setup is still refused."""
    with FakeOpenAI() as fake:
        run = tmp_path / "run"
        run_tournament(cfg(fake.base_url, run, timeout_s=5))
        manifest = json.loads((run / "manifest.json").read_text())
        manifest["play_fingerprint"] = format1_play_fingerprint(cfg(fake.base_url, run, 5))
        del manifest["format"]  # format 1: no key
        (run / "manifest.json").write_text(json.dumps(manifest))
        again = run_tournament(cfg(fake.base_url, run, timeout_s=30))
        assert again.games_played == 0 and again.games_total == 6
        events = [e["event"] for e in json.loads((run / "manifest.json").read_text())["history"]]
        assert "fingerprint_upgraded" in events
        manifest["play_fingerprint"] = "0123456789abcdef"  # neither rule gives this
        (run / "manifest.json").write_text(json.dumps(manifest))
        with pytest.raises(RunDirError, match="another tournament setup"):
            run_tournament(cfg(fake.base_url, run, timeout_s=30))


def test_an_old_cache_is_still_read(tmp_path: Path) -> None:
    """Replies cached under the old key (operational params included) are found."""
    bot = CannedHTTP("remote")
    params = {"base_url": "http://h/v1", "model": "m1", "timeout_s": 5}
    cache = ReplyCache(tmp_path / CACHE_FILE)
    hist = History((Message("partner", "hi"),), "hi", "g1", 1, 7)
    old_id = bot_identity(bot, "openai-chat", params)
    cache.put_many([(turn_key(old_id, hist), "remote", "cached long ago")])
    specs = {"remote": ("openai-chat", params)}
    older = older_reply_identities({"remote": bot}, specs)
    assert older == {"remote": old_id}
    wrapped, _ = cache_bots({"remote": bot}, specs, "on", tmp_path, older=older)
    wrapped["remote"].cache = cache  # type: ignore[attr-defined]
    assert wrapped["remote"].reply(hist) == "cached long ago" and bot.calls == 0
    assert wrapped["remote"].reply(History((Message("partner", "yo"),), "yo", "g1", 1, 7)) \
        == "fresh" and bot.calls == 1


class CannedHTTP(Bot):
    remote = True

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self.calls = 0

    def reply(self, history: History) -> str:
        self.calls += 1
        return "fresh"

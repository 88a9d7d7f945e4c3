"""``openai-chat`` against a real HTTP server on 127.0.0.1 (deterministic replies)."""

from __future__ import annotations

import json
import logging
import socket
import threading
import types
from typing import Any, Iterator

import pytest

from chatmatch.adapters import create_bot
from chatmatch.bot import History, Message
from chatmatch.endpoints import client as http_client
from chatmatch.errors import BotError
from chatmatch_bots.openai_http import OpenAIChatBot
from tests.fake_openai import FakeOpenAI

KEY = "sk-test-0123456789-secret"


@pytest.fixture
def server() -> Iterator[tuple[str, FakeOpenAI]]:
    with FakeOpenAI() as fake:
        yield fake.base_url, fake


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_CHAT_KEY", KEY)


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The waits between retries, recorded instead of slept."""
    slept: list[float] = []
    monkeypatch.setattr(http_client, "sleep", slept.append)
    return slept


def bot(url: str, **kw: Any) -> OpenAIChatBot:
    params = {"base_url": url, "model": "m1", "api_key_env": "TEST_CHAT_KEY",
              "retries": 2, "backoff_s": 0.01, "timeout_s": 5.0, **kw}
    b = create_bot("remote", "openai-chat", params)
    assert isinstance(b, OpenAIChatBot)
    b.load()
    return b


HIST = History((Message("self", "What did you do last week?"), Message("partner", "I swam."),
                Message("self", "Where?"), Message("partner", "In the lake.")),
               "What did you do last week?", "g001", 4, 12345)


def test_reply_request_shape_and_key_only_in_header(server: tuple[str, FakeOpenAI]) -> None:
    url, b = server
    remote = bot(url, persona="You are Ann.", temperature=0.0, max_tokens=20,
                 max_history_turns=3, extra_headers={"X-Team": "t1"})
    assert remote.reply(HIST) == "[m1] 4 msgs; you said: In the lake."
    req = b.requests[0]
    assert req["path"] == "/v1/chat/completions"
    assert req["headers"]["Authorization"] == f"Bearer {KEY}"
    assert req["headers"]["X-Team"] == "t1"
    assert req["body"]["messages"] == [
        {"role": "system", "content": "You are Ann."},
        {"role": "user", "content": "I swam."}, {"role": "assistant", "content": "Where?"},
        {"role": "user", "content": "In the lake."}]
    assert req["body"]["temperature"] == 0.0 and req["body"]["max_tokens"] == 20
    assert req["body"]["seed"] == 12345
    described = json.dumps(remote.describe())
    assert KEY not in described and "TEST_CHAT_KEY" in described
    assert KEY not in json.dumps(vars(remote), default=str)


def test_missing_key_env_fails_at_load(server: tuple[str, FakeOpenAI],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TEST_CHAT_KEY")
    with pytest.raises(BotError, match="TEST_CHAT_KEY.*not set"):
        bot(server[0])


def test_no_key_env_sends_no_authorization(server: tuple[str, FakeOpenAI]) -> None:
    url, b = server
    bot(url, api_key_env=None).reply(HIST)
    assert "Authorization" not in b.requests[0]["headers"]


def test_server_fails_mid_game_then_recovers(server: tuple[str, FakeOpenAI]) -> None:
    url, b = server
    b.fail_from, b.fail_count = 3, 2  # requests 3 and 4 fail, 5 succeeds
    remote = bot(url, retries=2)
    replies = [remote.reply(HIST) for _ in range(4)]
    assert len(set(replies)) == 1 and replies[0].startswith("[m1]")
    assert len(b.requests) == 6  # 4 replies + 2 retried failures


def test_server_that_never_recovers_raises_clear_error(server: tuple[str, FakeOpenAI],
                                                       waits: list[float]) -> None:
    url, b = server
    b.fail_from = 2
    remote = bot(url, retries=2)
    remote.reply(HIST)
    with pytest.raises(BotError) as err:
        remote.reply(HIST)
    msg = str(err.value)
    assert "failed after 3 HTTP attempts" in msg and "HTTP 500" in msg and "overloaded" in msg
    assert KEY not in msg and "***" in msg  # the echoed key is redacted
    assert len(b.requests) == 4
    assert waits == [0.01, 0.02]  # backoff_s, doubled


def test_client_error_is_not_retried(server: tuple[str, FakeOpenAI]) -> None:
    url, b = server
    b.fail_from, b.status = 1, 401
    with pytest.raises(BotError, match="answered HTTP 401"):
        bot(url, retries=3).reply(HIST)
    assert len(b.requests) == 1


def test_timeout_is_retried_then_reported(server: tuple[str, FakeOpenAI]) -> None:
    url, b = server
    b.delay_s = 1.0  # the answer would come, after the timeout
    with pytest.raises(BotError, match="timeout_s=0.2"):
        bot(url, timeout_s=0.2, retries=1).reply(HIST)
    assert len(b.requests) == 2


def test_bad_json_is_reported(server: tuple[str, FakeOpenAI]) -> None:
    url, b = server
    b.raw_body = b"<html>not json</html>"
    with pytest.raises(BotError, match="did not answer with JSON.*not json"):
        bot(url).reply(HIST)


def _dead_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed when the block ends: nobody listens there
    return f"http://127.0.0.1:{port}/v1"


def test_dead_url_fails_at_load_with_one_line() -> None:
    with pytest.raises(BotError, match=r"cannot reach http://127\.0\.0\.1:\d+/v1/models "
                                       r"\(.*Connection refused\); is the server running\?"):
        bot(_dead_url(), retries=1)


@pytest.mark.parametrize("status, message", [(503, "not ready"), (401, "refused the API key")])
def test_load_checks_the_server(server: tuple[str, FakeOpenAI], status: int, message: str) -> None:
    url, fake = server
    fake.models_status = status
    with pytest.raises(BotError, match=message):
        bot(url)
    fake.models_status = 404  # a server without /models is still reachable
    bot(url).reply(HIST)


def test_connection_lost_after_load_is_retried_then_reported(server: tuple[str, FakeOpenAI]) -> None:
    url, fake = server
    remote = bot(url, retries=1)
    fake.close()
    with pytest.raises(BotError, match="failed after 2 HTTP attempts.*cannot connect"):
        remote.reply(HIST)


def test_concurrency_limit_per_base_url(server: tuple[str, FakeOpenAI]) -> None:
    url, b = server
    b.delay_s = 0.1
    remote = bot(url, max_concurrency=2)
    assert remote.thread_safe
    threads = [threading.Thread(target=remote.reply, args=(HIST,)) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(b.requests) == 6 and b.max_in_flight == 2


@pytest.mark.parametrize("params, message", [
    ({"base_url": "localhost:8000", "model": "m"}, "must start with http"),
    ({"base_url": "http://x", "model": "m", "retries": -1}, "retries >= 0"),
    ({"base_url": "http://x"}, "missing required parameter"),
])
def test_bad_parameters(params: dict[str, Any], message: str) -> None:
    with pytest.raises(BotError, match=message):
        create_bot("remote", "openai-chat", params)


def test_game_with_a_server_that_dies_mid_game_is_forfeited(server: tuple[str, FakeOpenAI]) -> None:
    from chatmatch.config.settings import FailurePolicy
    from chatmatch.play.game import play_games
    from chatmatch.play.schedule import ScheduledGame

    url, b = server
    b.fail_from = 4  # the endpoint dies at its 4th request and never comes back
    bots = {"remote": bot(url, retries=1), "parrot": create_bot("parrot", "echo", {})}
    game = ScheduledGame("g001", 0, "parrot", "remote", "What did you do last week?", 7)
    policy = FailurePolicy(retries=0, on_failure="forfeit")
    [tr] = play_games([game], bots, exchanges=6, policy=policy)
    assert tr.forfeit.bot == "remote"
    assert "HTTP 500" in tr.forfeit.reason
    assert KEY not in json.dumps(tr.meta)
    said = [t.text for t in tr.turns_of("remote")]
    assert len(said) == 3 and all(s.startswith("[m1]") for s in said)


def test_tournament_run_directory_never_holds_the_key(server: tuple[str, FakeOpenAI],
                                                      tmp_path: Any) -> None:
    from chatmatch.config.tournament import load_config
    from chatmatch.run.tournament import run_tournament

    url, b = server
    path = tmp_path / "remote.yaml"
    path.write_text(json.dumps({  # JSON is YAML
        "name": "remote", "exchanges": 3, "seed": 3,
        "bots": [{"name": "remote", "adapter": "openai-chat",
                  "params": {"base_url": url, "model": "m1", "api_key_env": "TEST_CHAT_KEY"}},
                 {"name": "canned", "adapter": "canned"}],
        "scoring": {"dimensions": ["proactivity", "diversity"]}}))
    run_tournament(load_config(path), tmp_path / "run", config_file=str(path))
    files = [f for f in (tmp_path / "run").rglob("*") if f.is_file()]
    text = "\n".join(f.read_text(errors="replace") for f in files)
    assert "[m1] " in text and "TEST_CHAT_KEY" in text  # replies and the variable's name
    assert KEY not in text
    # the pre-flight test request, then 2 games of 6 turns (seed included): 2 replies as
    # starter + 3 as second speaker
    assert len(b.requests) == 6 and all(r["headers"]["Authorization"] == f"Bearer {KEY}"
                                        for r in b.requests)


def test_retry_after_is_honoured_and_logged(server: tuple[str, FakeOpenAI], waits: list[float],
                                            caplog: pytest.LogCaptureFixture) -> None:
    url, fake = server
    fake.fail_from, fake.fail_count, fake.status, fake.retry_after = 1, 1, 429, "0.6"
    caplog.set_level(logging.WARNING, "chatmatch_bots.openai_http")
    assert bot(url, backoff_s=0.01).reply(HIST).startswith("[m1]")
    assert waits == [0.6]  # not the 0.01 s backoff
    assert len(fake.requests) == 2
    [rec] = [r for r in caplog.records if "retry 1/2" in r.getMessage()]
    assert "HTTP 429" in rec.getMessage() and "in 0.6 s" in rec.getMessage()
    assert KEY not in rec.getMessage()


def test_retry_after_beyond_the_cap_fails_at_once(server: tuple[str, FakeOpenAI]) -> None:
    url, fake = server
    fake.fail_from, fake.status, fake.retry_after = 1, 503, "3600"
    with pytest.raises(BotError, match="asked to wait 3600 s, over max_retry_wait_s"):
        bot(url, max_retry_wait_s=5).reply(HIST)
    assert len(fake.requests) == 1


def test_deadline_is_per_request_not_per_read(server: tuple[str, FakeOpenAI]) -> None:
    url, fake = server
    fake.drip_s = 0.2  # each read gets a byte in time; the whole answer takes ~20 s
    with pytest.raises(BotError, match="no complete answer within timeout_s=0.8"):
        bot(url, timeout_s=0.8, retries=0).reply(HIST)


def test_cut_reply_is_trimmed_like_the_local_adapters(server: tuple[str, FakeOpenAI]) -> None:
    from chatmatch_bots.hf_support import clean_reply

    url, fake = server
    cut = "I went to the lake. Then we took the boat and the wea"
    fake.answer = lambda path, body: {"choices": [{"finish_reason": "length",
                                                   "message": {"content": cut}}]}
    remote = bot(url)
    assert remote.reply(HIST) == clean_reply(cut, cut=True) == "I went to the lake."
    assert remote.counts["cut_replies"] == 1


@pytest.mark.parametrize("finish", ["stop", None])
def test_a_reply_that_was_not_cut_is_kept_whole(server: tuple[str, FakeOpenAI],
                                                finish: str | None) -> None:
    url, fake = server
    whole = "Sure. I don't know what you mean and"
    fake.answer = lambda path, body: {"choices": [{"finish_reason": finish,
                                                   "message": {"content": whole}}]}
    assert bot(url).reply(HIST) == whole


def test_a_cut_reply_is_never_cut_at_an_apostrophe(server: tuple[str, FakeOpenAI]) -> None:
    url, fake = server
    fake.answer = lambda path, body: {"choices": [{"finish_reason": "length", "message": {
        "content": "Sure. I don't know what you mean and"}}]}
    assert bot(url).reply(HIST) == "Sure."


def test_messages_start_with_a_user_turn_and_alternate(server: tuple[str, FakeOpenAI]) -> None:
    url, fake = server
    opener = History((Message("self", "What did you do last week?"), Message("partner", "I swam.")),
                     "What did you do last week?", "g001", 2, 1)
    remote = bot(url, persona="You are Ann.", max_history_turns=3)
    remote.reply(opener)
    late = History(HIST.messages + (Message("self", "Nice."), Message("partner", "Yes.")),
                   HIST.seed_utterance, "g001", 6, 1)
    bot(url, max_history_turns=2).reply(late)  # the window would start with its own turn
    first, second = (r["body"]["messages"] for r in fake.requests)
    assert first == [{"role": "system", "content": "You are Ann."},
                     {"role": "user", "content": "You opened the conversation by saying: "
                      "\"What did you do last week?\"\n\nI swam."}]
    assert second == [{"role": "user", "content": "Yes."}]
    for r in fake.requests:
        roles = [m["role"] for m in r["body"]["messages"] if m["role"] != "system"]
        assert roles[0] == "user" and roles[-1] == "user"
        assert all(a != b for a, b in zip(roles, roles[1:]))


OPENER = History((Message("self", "What did you do last week?"), Message("partner", "I swam.")),
                 "What did you do last week?", "g001", 2, 1)


@pytest.mark.parametrize("params, expected", [
    ({"opening": "system"}, [
        {"role": "system", "content": "You are Ann.\nYou opened the conversation by saying: "
         "\"What did you do last week?\""}, {"role": "user", "content": "I swam."}]),
    ({"opening": "none"}, [{"role": "system", "content": "You are Ann."},
                           {"role": "user", "content": "I swam."}]),
    ({"persona_role": "user"}, [  # no system message at all
        {"role": "user", "content": "You are Ann.\nYou opened the conversation by saying: "
         "\"What did you do last week?\"\n\nI swam."}]),
])
def test_opening_choices(server: tuple[str, FakeOpenAI], params: dict[str, str],
                         expected: list[dict[str, str]]) -> None:
    url, fake = server
    bot(url, persona="You are Ann.", **params).reply(OPENER)
    assert fake.requests[-1]["body"]["messages"] == expected


def test_key_straddling_the_cut_is_redacted_before_truncation(
        server: tuple[str, FakeOpenAI]) -> None:
    url, fake = server
    fake.fail_from, fake.status = 1, 400  # the error text is cut at 300 characters
    for pad in range(270, 300, 4):  # the key crosses the cut somewhere here
        fake.error_body = ("x" * pad + f" auth=Bearer {KEY} " + "y" * 50).encode()
        with pytest.raises(BotError) as err:
            bot(url).reply(HIST)
        assert KEY[:10] not in str(err.value) and "HTTP 400" in str(err.value)
    fake.fail_from = None  # a 200 answer that is not a chat completion: cut at 200
    for pad in range(170, 200, 4):
        fake.raw_body = ("x" * pad + f" {KEY} " + "y" * 50).encode()
        with pytest.raises(BotError) as err:
            bot(url).reply(HIST)
        assert KEY[:10] not in str(err.value) and "did not answer" in str(err.value)


@pytest.mark.parametrize("params, message", [
    ({"base_url": "http://user:sk-abcdef123456@h/v1"}, "base_url' holds a user name or password"),
    ({"base_url": "http://h/v1?api_key=sk-abcdef123456"}, "secret in its query"),
    ({"extra_headers": {"Authorization": "Bearer sk-abcdef123456"}}, "'Authorization' carries"),
    ({"extra_headers": {"Cookie": "session=abc"}}, "'Cookie' carries"),
    ({"extra_headers": {"x-api-key": "abc"}}, "'x-api-key' carries"),
])
def test_secrets_in_parameters_are_refused(params: dict[str, Any], message: str) -> None:
    with pytest.raises(BotError, match=message) as err:
        create_bot("remote", "openai-chat", {"base_url": "http://h/v1", "model": "m", **params})
    assert "api_key_env" in str(err.value) and "sk-abcdef123456" not in str(err.value)


def test_key_in_a_custom_header(server: tuple[str, FakeOpenAI]) -> None:
    url, fake = server
    bot(url, api_key_header="api-key").reply(HIST)
    assert fake.requests[0]["headers"]["api-key"] == KEY
    assert "Authorization" not in fake.requests[0]["headers"]


@pytest.mark.parametrize("line, message", [
    ("temperature: hot", "parameter 'temperature' must be a number, got 'hot'"),
    ("temperature: '0.7'", "not a quoted string"),
    ("max_tokens: true", "got True (expected a number, got true (a boolean))"),
    ("stop: [1, 2]", "parameter 'stop'"),
    ("opening: assistant", "parameter 'opening' must be"),
    ("top_p: 1.5", "top_p in (0, 1]"),
])
def test_bad_param_types_are_refused_before_the_run_at_their_line(tmp_path, line: str,
                                                                   message: str) -> None:
    from chatmatch.errors import ConfigError
    from chatmatch.play.build import load_tournament

    cfg = tmp_path / "t.yaml"
    cfg.write_text("bots:\n  - name: r\n    adapter: openai-chat\n    params:\n"
                   "      base_url: http://127.0.0.1:9/v1\n      model: m1\n"
                   f"      {line}\n  - eliza\n")
    with pytest.raises(ConfigError) as err:  # what `chatmatch run` reads: the bots built once
        load_tournament(cfg)
    text = str(err.value)
    assert message in text, text
    if "must be" in message or "not a" in message:
        assert f"{cfg}:7" in text  # the parameter's own line


def test_stop_and_top_p_are_sent(server: tuple[str, FakeOpenAI]) -> None:
    url, fake = server
    bot(url, top_p=0.9, stop="\n").reply(HIST)
    bot(url).reply(HIST)
    sent, plain = (r["body"] for r in fake.requests)
    assert sent["top_p"] == 0.9 and sent["stop"] == ["\n"]
    assert "top_p" not in plain and "stop" not in plain


def test_a_query_in_base_url_stays_after_the_path(server: tuple[str, FakeOpenAI]) -> None:
    """The stop-40 attack's 5.7: with base_url '.../v1?x=1' the client asked for
    '.../v1?x=1/models' and '.../v1?x=1/chat/completions'. Azure-style queries
    (?api-version=...) are kept after the path, on the real server."""
    url, b = server
    remote = bot(url + "?api-version=2024-06-01")
    assert remote.reply(HIST) == "[m1] 3 msgs; you said: In the lake."
    assert b.requests[-1]["path"] == "/v1/chat/completions?api-version=2024-06-01"

"""``openai-chat`` against a real HTTP server on 127.0.0.1 (deterministic replies)."""

from __future__ import annotations

import json
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator

import pytest

from bots.base import History, Message
from bots.openai_http import OpenAIChatBot
from bots.registry import create_bot
from chatmatch.errors import BotError

KEY = "sk-test-0123456789-secret"


@dataclass
class Behaviour:
    """What the fake endpoint does with request number n (1-based)."""

    fail_from: int | None = None  # first request answered with `status`
    fail_count: int | None = None  # how many; None = never recovers
    status: int = 500
    delay_s: float = 0.0
    raw_body: bytes | None = None  # answer this instead of a chat completion
    requests: list[dict[str, Any]] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def failing(self, n: int) -> bool:
        if self.fail_from is None or n < self.fail_from:
            return False
        return self.fail_count is None or n < self.fail_from + self.fail_count


def reply_for(body: dict[str, Any]) -> str:
    """Deterministic: the model name, the number of messages and the last user message."""
    last = [m["content"] for m in body["messages"] if m["role"] == "user"][-1:]
    return f"[{body['model']}] {len(body['messages'])} msgs; you said: {last[0] if last else ''}"


def make_handler(b: Behaviour) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with b.lock:
                b.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                n = len(b.requests)
                b.in_flight += 1
                b.max_in_flight = max(b.max_in_flight, b.in_flight)
            try:
                time.sleep(b.delay_s)
                if b.failing(n):  # echo the Authorization header to check it is redacted
                    self._send(b.status, f"overloaded; auth={self.headers.get('Authorization')}"
                               .encode())
                elif b.raw_body is not None:
                    self._send(200, b.raw_body)
                else:
                    out = {"choices": [{"index": 0, "message": {
                        "role": "assistant", "content": reply_for(body)}}]}
                    self._send(200, json.dumps(out).encode())
            finally:
                with b.lock:
                    b.in_flight -= 1

        def _send(self, status: int, data: bytes) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout test)

    return Handler


@pytest.fixture
def server() -> Iterator[tuple[str, Behaviour]]:
    b = Behaviour()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(b))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", b
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_CHAT_KEY", KEY)


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


def test_reply_request_shape_and_key_only_in_header(server: tuple[str, Behaviour]) -> None:
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


def test_missing_key_env_fails_at_load(server: tuple[str, Behaviour],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TEST_CHAT_KEY")
    with pytest.raises(BotError, match="TEST_CHAT_KEY.*not set"):
        bot(server[0])


def test_no_key_env_sends_no_authorization(server: tuple[str, Behaviour]) -> None:
    url, b = server
    bot(url, api_key_env=None).reply(HIST)
    assert "Authorization" not in b.requests[0]["headers"]


def test_server_fails_mid_game_then_recovers(server: tuple[str, Behaviour]) -> None:
    url, b = server
    b.fail_from, b.fail_count = 3, 2  # requests 3 and 4 fail, 5 succeeds
    remote = bot(url, retries=2)
    replies = [remote.reply(HIST) for _ in range(4)]
    assert len(set(replies)) == 1 and replies[0].startswith("[m1]")
    assert len(b.requests) == 6  # 4 replies + 2 retried failures


def test_server_that_never_recovers_raises_clear_error(server: tuple[str, Behaviour]) -> None:
    url, b = server
    b.fail_from = 2
    remote = bot(url, retries=2)
    remote.reply(HIST)
    start = time.perf_counter()
    with pytest.raises(BotError) as err:
        remote.reply(HIST)
    msg = str(err.value)
    assert "failed after 3 attempt(s)" in msg and "HTTP 500" in msg and "overloaded" in msg
    assert KEY not in msg and "***" in msg  # the echoed key is redacted
    assert len(b.requests) == 4
    assert time.perf_counter() - start >= 0.01 + 0.02  # backoff 0.01 then 0.02


def test_client_error_is_not_retried(server: tuple[str, Behaviour]) -> None:
    url, b = server
    b.fail_from, b.status = 1, 401
    with pytest.raises(BotError, match="answered HTTP 401"):
        bot(url, retries=3).reply(HIST)
    assert len(b.requests) == 1


def test_timeout_is_retried_then_reported(server: tuple[str, Behaviour]) -> None:
    url, b = server
    b.delay_s = 1.0
    start = time.perf_counter()
    with pytest.raises(BotError, match="timeout_s=0.2"):
        bot(url, timeout_s=0.2, retries=1).reply(HIST)
    assert time.perf_counter() - start < 0.9
    assert len(b.requests) == 2


def test_bad_json_is_reported(server: tuple[str, Behaviour]) -> None:
    url, b = server
    b.raw_body = b"<html>not json</html>"
    with pytest.raises(BotError, match="did not answer with a chat completion.*not json"):
        bot(url).reply(HIST)


def test_connection_refused() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed when the block ends: nobody listens there
    with pytest.raises(BotError, match="cannot connect"):
        bot(f"http://127.0.0.1:{port}/v1", retries=1).reply(HIST)


def test_concurrency_limit_per_base_url(server: tuple[str, Behaviour]) -> None:
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


def test_game_with_a_server_that_dies_mid_game_is_forfeited(server: tuple[str, Behaviour]) -> None:
    from chatmatch.config import FailurePolicy
    from chatmatch.game import play_games
    from chatmatch.schedule import ScheduledGame

    url, b = server
    b.fail_from = 4  # the endpoint dies at its 4th request and never comes back
    bots = {"remote": bot(url, retries=1), "parrot": create_bot("parrot", "echo", {})}
    game = ScheduledGame("g001", 0, "parrot", "remote", "What did you do last week?", 7)
    policy = FailurePolicy(retries=0, on_failure="forfeit")
    [tr] = play_games([game], bots, exchanges=6, policy=policy)
    assert tr.meta["forfeit"]["bot"] == "remote"
    assert "HTTP 500" in tr.meta["forfeit"]["reason"]
    assert KEY not in json.dumps(tr.meta)
    said = [t.text for t in tr.turns_of("remote")]
    assert len(said) == 3 and all(s.startswith("[m1]") for s in said)


def test_tournament_run_directory_never_holds_the_key(server: tuple[str, Behaviour],
                                                      tmp_path: Any) -> None:
    from chatmatch.config import load_config
    from chatmatch.runner import run_tournament

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
    # 2 games of 6 turns (seed included): 2 replies as starter + 3 as second speaker
    assert len(b.requests) == 5 and all(r["headers"]["Authorization"] == f"Bearer {KEY}"
                                        for r in b.requests)

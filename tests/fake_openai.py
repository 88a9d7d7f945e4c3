"""One fake OpenAI-compatible server on 127.0.0.1 for the tests, healthy or misbehaving.

``FakeOpenAI()`` starts serving at once (``.base_url`` ends in ``/v1``); ``close()`` stops
it. Its attributes say what it does with request number n (1-based, POSTs only):

- ``answer(path, body) -> dict``: the JSON of a healthy answer (default: a chat completion
  from :func:`reply_for`, deterministic);
- ``fail_from``/``fail_count``/``status``/``retry_after``: requests ``fail_from`` to
  ``fail_from + fail_count - 1`` (for ever when ``fail_count`` is None) get ``status``,
  with a body that echoes the Authorization header (to test redaction) and a
  ``Retry-After`` header when ``retry_after`` is set (``error_body``: this body instead);
- ``delay_s``: wait before answering (a hanging server: a large value);
- ``drip_s``: send the answer to a POST one byte every ``drip_s`` seconds (a drip-feeding
  server; ``GET /models`` is answered at once);
- ``raw_body``: answer these bytes instead; ``finish_reason``: put in each choice;
- ``key``: when set, a request without ``Authorization: Bearer KEY`` gets 401;
- ``models_status``: the status of ``GET /v1/models`` (the reachability check);
- ``models``: when set, the models served (listed by ``/models``); a POST naming another
  gets 404, as OpenAI answers an unknown model;
- ``gzip``: send every POST answer gzip-compressed (``Content-Encoding: gzip``);
- ``cut_after``: send the POST answer's headers and only this many bytes of its body, then
  close the connection (a body cut mid-stream);
- ``redirect_to``: answer every POST with HTTP 307 to this address.

Every request is recorded in ``requests`` (path, headers, body); ``max_in_flight`` is the
most requests served at once.
"""

from __future__ import annotations

import gzip
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


def reply_for(body: dict[str, Any]) -> str:
    """Deterministic: the model name, the number of messages and the last user message."""
    last = [m["content"] for m in body["messages"] if m["role"] == "user"][-1:]
    return f"[{body['model']}] {len(body['messages'])} msgs; you said: {last[0] if last else ''}"


def chat_completion(text: str, finish_reason: str = "stop") -> dict[str, Any]:
    return {"object": "chat.completion", "choices": [{"index": 0, "finish_reason": finish_reason,
            "message": {"role": "assistant", "content": text}}]}


class FakeOpenAI:
    def __init__(self, **behaviour: Any) -> None:
        self.answer: Callable[[str, dict[str, Any]], dict[str, Any]] = (
            lambda path, body: chat_completion(reply_for(body), self.finish_reason))
        self.fail_from: int | None = None
        self.fail_count: int | None = None
        self.status = 500
        self.retry_after: str | None = None
        self.error_body: bytes | None = None
        self.delay_s = 0.0
        self.drip_s: float | None = None
        self.raw_body: bytes | None = None
        self.finish_reason = "stop"
        self.key: str | None = None
        self.models_status = 200
        self.models: list[str] | None = None
        self.gzip = False
        self.cut_after: int | None = None
        self.redirect_to: str | None = None
        for k, v in behaviour.items():
            if not hasattr(self, k):
                raise TypeError(f"FakeOpenAI has no setting {k!r}")
            setattr(self, k, v)
        self.requests: list[dict[str, Any]] = []
        self.closed = False
        self.unauthorized = 0
        self.in_flight = self.max_in_flight = 0
        self.lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    @property
    def authorized(self) -> int:
        return len(self.requests) - self.unauthorized

    def close(self) -> None:
        self.closed = True  # connections kept alive are dropped at their next request
        self.httpd.shutdown()
        self.httpd.server_close()

    def failing(self, n: int) -> bool:
        if self.fail_from is None or n < self.fail_from:
            return False
        return self.fail_count is None or n < self.fail_from + self.fail_count

    def __enter__(self) -> "FakeOpenAI":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _handler(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            if self.path.split("?")[0].rstrip("/").endswith("/models"):
                self._send(fake.models_status, json.dumps(
                    {"object": "list", "data": [{"id": m, "object": "model"}
                                                for m in (fake.models or ["m1"])]}).encode(),
                    drip=False)
            else:
                self._send(404, b'{"error": "not found"}')

        def do_POST(self) -> None:
            if fake.closed:
                self.close_connection = True
                return
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            auth = self.headers.get("Authorization")
            with fake.lock:
                fake.requests.append({"path": self.path, "headers": dict(self.headers),
                                      "body": body})
                n = len(fake.requests)
                fake.in_flight += 1
                fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
            try:
                time.sleep(fake.delay_s)
                if fake.key is not None and auth != f"Bearer {fake.key}":
                    with fake.lock:
                        fake.unauthorized += 1
                    self._send(401, b'{"error": "bad key"}')
                elif fake.failing(n):  # a careless server that echoes the credentials
                    extra = {"Retry-After": fake.retry_after} if fake.retry_after else {}
                    echo = f'{{"error": "overloaded; auth={auth}"}}'.encode()
                    self._send(fake.status, fake.error_body or echo, extra)
                elif fake.redirect_to is not None:
                    self._send(307, b"", {"Location": fake.redirect_to})
                elif fake.models is not None and body.get("model") not in fake.models:
                    self._send(404, json.dumps({"error": {
                        "message": f"The model `{body.get('model')}` does not exist",
                        "code": "model_not_found"}}).encode())
                elif fake.raw_body is not None:
                    self._send(200, fake.raw_body)
                else:
                    self._send(200, json.dumps(fake.answer(self.path, body)).encode())
            finally:
                with fake.lock:
                    fake.in_flight -= 1

        def _send(self, status: int, data: bytes, headers: dict[str, str] | None = None,
                  drip: bool = True) -> None:
            headers = dict(headers or {})
            if fake.gzip and drip:
                data = gzip.compress(data)
                headers["Content-Encoding"] = "gzip"
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                if fake.cut_after is not None and drip:
                    self.wfile.write(data[:fake.cut_after])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                if fake.drip_s is None or not drip:
                    self.wfile.write(data)
                    return
                for i in range(len(data)):
                    self.wfile.write(data[i:i + 1])
                    self.wfile.flush()
                    time.sleep(fake.drip_s)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout tests)

    return Handler

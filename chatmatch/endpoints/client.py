"""One HTTP client for everything chatmatch asks of an OpenAI-compatible endpoint: the
``openai-chat`` bot and the endpoint judges.

:class:`Endpoint` holds what they share: the API key (read at each request from the
environment variable *named* in the YAML, never stored), one ``httpx`` client, one retry
loop (``Retry-After``, exponential backoff, a warning per retry), a deadline per whole
request, a cap on the *decompressed* answer (``max_response_bytes``, counted while it
streams in, so a small gzip body that inflates to gigabytes is stopped at the cap), a cap
on requests in flight per ``base_url``, redaction of the key from every text that leaves
it (errors, answers), and the pre-flight check (:meth:`Endpoint.preflight`).

Why ``httpx`` and not the ``openai`` SDK: the SDK retries by itself (a second retry layer
under the engine's), and its timeouts, like every client's, bound each socket read, not the
request; chatmatch needs one retry loop it controls, and ``httpx`` gives exactly the
transport, connection pooling and streaming for it, with no opinion on retries.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable
from urllib.parse import urlsplit, urlunsplit

from chatmatch.common.registry import close_matches
from chatmatch.common.validation import StrictModel
from chatmatch.errors import ChatmatchError
from chatmatch.endpoints.safety import (RETRY_STATUSES, Retryable, TooLarge, check_base_url,
                                   check_headers, clip, header_safe, redact, retry_after_s,
                                   send)

log = logging.getLogger(__name__)
_SEMAPHORES: dict[str, threading.BoundedSemaphore] = {}
_SEMAPHORES_LOCK = threading.Lock()
DEFAULT_MAX_RESPONSE_BYTES = 1_000_000
#: how the retry loop waits (tests record the waits instead)
sleep: Callable[[float], None] = time.sleep



def endpoint_url(base_url: str, path: str) -> str:
    """``base_url`` with ``path`` added to its path, before any query (Azure's
    ``?api-version=...``) and without its ``#fragment`` (never sent to a server):
    ``http://h/v1?x=1`` + ``models`` is ``http://h/v1/models?x=1``, not ``.../v1?x=1/models``."""
    parts = urlsplit(base_url)
    return urlunsplit(parts._replace(path=f"{parts.path.rstrip('/')}/{path.lstrip('/')}", fragment=""))

def _semaphore(base_url: str, size: int) -> threading.BoundedSemaphore:
    with _SEMAPHORES_LOCK:
        return _SEMAPHORES.setdefault(base_url, threading.BoundedSemaphore(size))


class RequestLimits(StrictModel):
    """How requests to an endpoint are made, declared once for the ``openai-chat`` bot's
    params and every :class:`Endpoint`: the deadline of one whole request, how often a
    transient failure is retried and how long a retry may wait, the requests in flight
    to one base URL, the largest answer read (decompressed)."""

    timeout_s: float = 60.0
    retries: int = 2
    backoff_s: float = 1.0
    max_retry_wait_s: float = 60.0
    max_concurrency: int = 4
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES


@dataclass
class Endpoint:
    """An OpenAI-compatible endpoint as one bot or judge uses it.

    ``who`` starts every message (``bot 'qwen'``, ``judge paireval``); ``error`` is the
    :class:`ChatmatchError` subclass raised (``BotError``, ``JudgeError``)."""

    who: str
    base_url: str
    error: type[ChatmatchError]
    api_key_env: str | None = None
    api_key_header: str = "Authorization"
    extra_headers: dict[str, str] = field(default_factory=dict)
    limits: RequestLimits = field(default_factory=RequestLimits)
    counts: dict[str, int] = field(default_factory=lambda: {"retries": 0, "timeouts": 0})

    def __post_init__(self) -> None:
        lim = self.limits
        if lim.timeout_s <= 0 or lim.retries < 0 or lim.backoff_s < 0 \
                or lim.max_concurrency < 1 or lim.max_retry_wait_s < 0 \
                or lim.max_response_bytes < 1000:
            raise ValueError("need timeout_s > 0, retries >= 0, backoff_s >= 0, "
                             "max_retry_wait_s >= 0, max_concurrency >= 1, "
                             "max_response_bytes >= 1000")
        if self.api_key_env is not None and not self.api_key_env.strip():
            raise ValueError("parameter 'api_key_env' must name an environment variable")
        self.base_url = check_base_url(self.base_url)
        self.extra_headers = check_headers(self.extra_headers)
        if not header_safe(self.api_key_header) or not self.api_key_header.strip():
            raise ValueError(f"parameter 'api_key_header' {ascii(self.api_key_header)} is not an "
                             "HTTP header name; give one in plain ASCII, e.g. x-api-key")
        self._client: Any = None

    # --- lifecycle ----------------------------------------------------------------------
    def open(self) -> None:
        import httpx

        self.api_key()  # fail before the first request when the key is missing
        if self._client is None:
            self._client = httpx.Client(
                limits=httpx.Limits(max_connections=self.limits.max_concurrency * 2),
                follow_redirects=False)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    # --- secrets ------------------------------------------------------------------------
    def api_key(self) -> str | None:
        if self.api_key_env is None:
            return None
        key = os.environ.get(self.api_key_env)
        where = f"environment variable {self.api_key_env} (named by params.api_key_env)"
        if key is None:
            raise self.fail(f"{where} is not set; export it before the run")
        if not key.strip():
            raise self.fail(f"{where} is set but empty; export the key itself")
        if key != key.strip() or any(c in key for c in "\r\n\t"):
            raise self.fail(f"{where} holds the key with spaces or a line break around or in "
                            "it (e.g. a trailing newline from a file); export it without them",
                            [key, key.strip()])
        if not header_safe(key):
            raise self.fail(f"{where} holds a non-ASCII or control character, which cannot be "
                            "sent in an HTTP header; check that the variable holds the key "
                            "itself (copied without typographic quotes or dashes)", [key])
        return key

    def secrets(self) -> list[str | None]:
        """What must never appear in a stored or shown text: the key (as set, and stripped)."""
        key = os.environ.get(self.api_key_env) if self.api_key_env else None
        return [key, key.strip()] if key and key.strip() else []

    def redact(self, text: str) -> str:
        return redact(text, self.secrets())

    def fail(self, message: str, secrets: list[str | None] | None = None) -> ChatmatchError:
        """An error of this endpoint's kind whose message is free of secrets."""
        hidden = self.secrets() if secrets is None else secrets
        return self.error(clip(f"{self.who}: {message}", 1000, hidden))

    def headers(self, key: str | None) -> dict[str, str]:
        headers = dict(self.extra_headers)
        if key:
            if self.api_key_header.lower() == "authorization":
                headers["Authorization"] = f"Bearer {key}"
            else:
                headers[self.api_key_header] = key
        return headers

    # --- requests -----------------------------------------------------------------------
    def get(self, path: str, deadline_s: float) -> tuple[int, dict[str, str], bytes]:
        """One GET, no retry (the pre-flight check)."""
        key = self.api_key()
        try:
            return send(self._client, "GET", endpoint_url(self.base_url, path), None,
                        self.headers(key), deadline_s, lambda text: clip(text, 300, [key]),
                        self.limits.max_response_bytes)
        except TooLarge as exc:
            raise self.fail(f"{endpoint_url(self.base_url, path)}: {exc}", [key]) from None

    def post_json(self, path: str, body: dict[str, Any],
                  deadline_s: float | None = None) -> dict[str, Any]:
        """POST ``body`` to ``base_url/path`` with the retry loop; the answer's JSON
        (``deadline_s``: per request, default ``timeout_s``)."""
        if self._client is None:
            raise self.fail("a request before open() (the bot or judge was not loaded)")
        key = self.api_key()
        url, last, attempt = endpoint_url(self.base_url, path), "", 0
        for attempt in range(self.limits.retries + 1):
            try:
                return self._decode(url, self._post(url, body, key,
                                                    deadline_s or self.limits.timeout_s))
            except Retryable as exc:
                last = str(exc)
                if attempt == self.limits.retries:
                    break
                wait = self.limits.backoff_s * 2 ** attempt if exc.wait_s is None else exc.wait_s
                if wait > self.limits.max_retry_wait_s:
                    last += f" (the server asked to wait {wait:g} s, over max_retry_wait_s)"
                    break
                self.counts["retries"] += 1
                log.warning("%s", clip(f"{self.who}: {last}; retry {attempt + 1}/{self.limits.retries} "
                                       f"in {wait:.1f} s", 1000, [key]))
                sleep(wait)
        tries = f"{attempt + 1} HTTP attempt{'s' if attempt else ''}"
        hint = ("; is the server running? check params.base_url"
                if last.startswith("cannot connect") else "")
        raise self.fail(f"{url} failed after {tries}; last error: {last}{hint}", [key])

    def _post(self, url: str, body: dict[str, Any], key: str | None, deadline_s: float) -> bytes:
        sem = _semaphore(self.base_url, self.limits.max_concurrency)
        if not sem.acquire(timeout=deadline_s):
            raise Retryable(f"all {self.limits.max_concurrency} request slots to {self.base_url} stayed "
                            f"busy for timeout_s={deadline_s:g}")
        try:
            status, resp_headers, data = send(
                self._client, "POST", url, body, self.headers(key), deadline_s,
                lambda text: clip(text, 300, [key]), self.limits.max_response_bytes)
        except Retryable as exc:
            if "timeout_s" in str(exc):
                self.counts["timeouts"] += 1
            raise
        except TooLarge as exc:
            raise self.fail(f"{url}: {exc}", [key]) from None
        finally:
            sem.release()
        if 300 <= status < 400:
            where = resp_headers.get("location", "?")
            raise self.fail(f"{url} answered HTTP {status}, a redirect to {where}; chatmatch "
                            "does not follow redirects (a key must not travel to another "
                            "address): set params.base_url to the final address", [key])
        if status < 300:
            return data
        msg = f"HTTP {status}: {clip(data.decode('utf-8', 'replace'), 300, [key])}"
        if status in RETRY_STATUSES:
            raise Retryable(msg, retry_after_s(resp_headers.get("retry-after")))
        raise self.fail(f"{url} answered {msg}", [key])

    def _decode(self, url: str, data: bytes) -> dict[str, Any]:
        try:
            out = json.loads(data)
        except ValueError:
            out = None
        if not isinstance(out, dict):
            snippet = data.decode("utf-8", "replace")
            what = "an empty body" if not snippet.strip() else repr(clip(snippet, 200,
                                                                         self.secrets()))
            raise self.fail(f"{url} did not answer with JSON; got {what}")
        return out

    # --- pre-flight -----------------------------------------------------------------------
    def preflight(self, model: str, test_body: dict[str, Any], path: str,
                  deadline_s: float = 60.0) -> None:
        """Stop the run now, with one line, unless the server answers and serves ``model``:
        ``GET /models`` (unreachable, 401/403, 502-504 refuse), then one test request
        (``test_body``: one token) through the retry loop within ``deadline_s`` per attempt
        (a server may load the model on its first request), whose failure refuses the
        model, with the names ``/models`` lists as a hint."""
        self.open()
        listed = self.check_models(min(deadline_s, 15.0))
        try:
            self.post_json(path, test_body, deadline_s)
        except ChatmatchError as exc:
            hint = ""
            if listed and model not in listed:
                close = close_matches(model, listed, n=1)
                hint = (f"; the server lists {len(listed)} model(s)"
                        + (f" (did you mean '{close[0]}'?)" if close else
                           f": {', '.join(listed[:5])}"))
            raise self.fail(f"model '{model}' cannot be used: a one-token test request failed "
                            f"({str(exc).removeprefix(self.who + ': ')}){hint}; check "
                            "params.model") from None

    def check_models(self, deadline_s: float = 15.0) -> list[str]:
        """``GET /models`` answers (else one line, at once); the model names it lists."""
        where = endpoint_url(self.base_url, "models")
        try:
            status, _, data = self.get("models", deadline_s)
        except Retryable as exc:
            raise self.fail(f"cannot reach {where} ({exc}); is the server running? check "
                            "params.base_url") from None
        if status in (401, 403):
            raise self.fail(f"{where} refused the API key (HTTP {status}); check the key in "
                            f"${self.api_key_env}")
        if status in (502, 503, 504):
            raise self.fail(f"{where} answered HTTP {status}: the server is not ready; start "
                            "it or wait, then run again")
        try:
            return [str(m["id"]) for m in json.loads(data)["data"]] if status == 200 else []
        except (ValueError, KeyError, TypeError):
            return []

    def describe(self) -> dict[str, Any]:
        return {"base_url": self.redact(self.base_url), "api_key_env": self.api_key_env,
                "api_key_header": self.api_key_header, **self.limits.model_dump(),
                "extra_headers": sorted(self.extra_headers)}


__all__ = ["DEFAULT_MAX_RESPONSE_BYTES", "Endpoint", "Retryable", "check_base_url",
           "check_headers", "clip", "redact"]

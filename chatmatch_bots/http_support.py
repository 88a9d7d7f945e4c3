"""What the HTTP adapters share: secret checks and redaction, ``Retry-After``, and one
POST with an overall deadline on the ``httpx`` client.

Why ``httpx`` and not the ``openai`` SDK: the SDK retries by itself (a second retry layer
under the engine's), and its timeouts, like every client's, bound each socket read, not the
request; chatmatch needs one retry loop it controls (``Retry-After``, logging, a request
deadline), and ``httpx`` gives exactly the transport, connection pooling and streaming for
it, with no opinion on retries.
"""

from __future__ import annotations

import email.utils
import re
import threading
import time
from typing import Any, Callable, Iterable
from urllib.parse import parse_qsl, urlsplit

from chatmatch.errors import BotError

#: statuses worth another try (the server is busy, restarting or timed out)
RETRY_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504})

_SECRET_NAME = re.compile(r"auth|key|token|secret|passw|cookie|session|signature|^sig$|^x-amz",
                          re.IGNORECASE)
#: text that looks like a credential, replaced by *** in anything that leaves an adapter
_SECRET_TEXT = [
    (re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{6,}"), r"\1 ***"),
    (re.compile(r"\bsk-[A-Za-z0-9_-]{8,}"), "***"),
    (re.compile(r"(?i)(\b(?:api[_-]?key|access[_-]?token|token|secret|password)[\"']?\s*[=:]\s*"
                r"[\"']?)[^\s\"'&,;}]{4,}"), r"\1***"),
    (re.compile(r"(://[^/\s:@]*:)[^/\s@]+@"), r"\1***@"),
]


def redact(text: str, secrets: Iterable[str | None] = ()) -> str:
    """``text`` with the given secrets and anything that looks like a credential replaced
    by ``***``. Redact *before* cutting a text short: a key cut in two is not found."""
    for s in secrets:
        if s:
            text = text.replace(s, "***")
    for pattern, repl in _SECRET_TEXT:
        text = pattern.sub(repl, text)
    return text


def clip(text: str, limit: int, secrets: Iterable[str | None] = ()) -> str:
    """Redacted, then cut to ``limit`` characters."""
    text = redact(text, secrets)
    return text if len(text) <= limit else text[:limit] + "..."


def check_base_url(url: str) -> str:
    """``url`` without a trailing slash; refuses credentials in it."""
    if not url.startswith(("http://", "https://")):
        raise ValueError(f"parameter 'base_url' must start with http:// or https://, got {url!r}")
    parts = urlsplit(url)
    hint = ("it would be written to config.yaml and the run directory; put the key in an "
            "environment variable and name it with params.api_key_env")
    if parts.username is not None or parts.password is not None:
        raise ValueError(f"parameter 'base_url' holds a user name or password ({parts.hostname}); "
                         + hint)
    for name, _ in parse_qsl(parts.query, keep_blank_values=True):
        if _SECRET_NAME.search(name):
            raise ValueError(f"parameter 'base_url' holds a secret in its query ({name}=...); "
                             + hint)
    return url.rstrip("/")


def check_headers(headers: dict[str, str] | None) -> dict[str, str]:
    """``extra_headers`` as a dict; refuses headers that carry credentials."""
    headers = dict(headers or {})
    for name in headers:
        if _SECRET_NAME.search(name):
            raise ValueError(
                f"parameter 'extra_headers': header {name!r} carries a credential, which would be "
                "written to config.yaml and the run directory; put the key in an environment "
                "variable, name it with params.api_key_env (and params.api_key_header for a "
                "header other than Authorization)")
    return headers


def retry_after_s(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class Retryable(Exception):
    """A failure worth another try; ``wait_s``: what the server asked for (Retry-After)."""

    def __init__(self, message: str, wait_s: float | None = None) -> None:
        super().__init__(message)
        self.wait_s = wait_s


def send(client: Any, method: str, url: str, body: dict[str, Any] | None,
         headers: dict[str, str], deadline_s: float,
         describe: Callable[[str], str]) -> tuple[int, dict[str, str], bytes]:
    """One request (JSON ``body``, if any): (status, headers, raw body) within ``deadline_s``
    for the whole request.

    The request runs on a daemon thread that streams the body and stops at the deadline,
    so a server that drips one byte a second cannot hold the caller past the deadline
    (a per-read timeout would never fire). Connection failures and timeouts raise
    :class:`Retryable` with a message passed through ``describe`` (redaction).
    """
    import httpx

    answers: list[tuple[int, dict[str, str], bytes]] = []
    errors: list[BaseException] = []
    done, given_up = threading.Event(), threading.Event()

    def run() -> None:
        try:
            with client.stream(method, url, json=body, headers=headers,
                               timeout=httpx.Timeout(deadline_s)) as resp:
                chunks = []
                for chunk in resp.iter_bytes():
                    chunks.append(chunk)
                    if given_up.is_set():
                        return
                answers.append((resp.status_code, dict(resp.headers), b"".join(chunks)))
        except httpx.TimeoutException:
            errors.append(Retryable(f"no complete answer within timeout_s={deadline_s:g}"))
        except httpx.HTTPError as exc:
            errors.append(Retryable(describe(f"cannot connect: {type(exc).__name__}: {exc}")))
        except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
            errors.append(exc)
        finally:
            done.set()

    threading.Thread(target=run, name="chatmatch-http", daemon=True).start()
    if not done.wait(deadline_s):
        given_up.set()
        raise Retryable(f"no complete answer within timeout_s={deadline_s:g}")
    if errors:
        raise errors[0]
    return answers[0]


def fail(message: str, secrets: Iterable[str | None] = ()) -> BotError:
    """A :class:`BotError` whose message is free of secrets (redacted, then clipped)."""
    return BotError(clip(message, 1000, secrets))

"""The careful parts of talking HTTP to an endpoint a user names: secrets kept out of every
text (:func:`redact`, :func:`check_base_url`, :func:`check_headers`), ``Retry-After``, and
one request (:func:`send`) with a deadline for the whole request and a cap on the
decompressed answer. :mod:`chatmatch.endpoints.client` builds the bots' and judges' client on it.
"""

from __future__ import annotations

import email.utils
import re
import threading
import time
import zlib
from typing import Any, Callable, Iterable
from urllib.parse import unquote, urlsplit


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


def names_a_secret(text: str) -> bool:
    """``text`` holds a named credential with its value ("password: hunter2", "api_key =
    ..."): the one redaction rule that spans words. The others ("Bearer ...", "sk-...")
    are read word by word, so free text such as "basic knowledge" is not taken for one."""
    return _SECRET_TEXT[2][0].search(text) is not None


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
    """``url`` without a trailing slash; refuses credentials anywhere in it: a user name or
    password, or a named secret or key-like value in a path segment, a ``;param``, the
    query or the ``#fragment`` (:func:`url_secrets`)."""
    if not url.isascii() or any(not c.isprintable() or c.isspace() for c in url):
        raise ValueError("parameter 'base_url' holds a space, a control or a non-ASCII "
                         "character; percent-encode it or fix the URL")
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.lower() not in ("http", "https"):
        # the URL itself is not shown: it may hold a key
        got = f"scheme {scheme[:10]!r}" if sep else "no scheme"
        raise ValueError(f"parameter 'base_url' must start with http:// or https:// (got {got}); "
                         "write it as http://HOST:PORT/v1")
    found = url_secrets(url)
    if found:
        raise ValueError(f"parameter 'base_url' holds {found}; credentials in a URL are "
                         "refused, since the URL is written to config.yaml and the run "
                         "directory: remove them from it (http://HOST:PORT/v1), put the key in "
                         "an environment variable and name it with params.api_key_env")
    return f"{scheme.lower()}://{rest}".rstrip("/")  # schemes are case-insensitive (RFC 3986)


def check_not_secret(value: str, where: str) -> None:
    """``ValueError`` when ``value`` (a parameter written to config.yaml, e.g. a model name)
    looks like a credential (``sk-...``, ``Bearer ...``, ``api_key=...``); the value is not
    shown."""
    if redact(value) != value:
        raise ValueError(f"{where} looks like an API key ({value[:3]}...); it would be written "
                         "to config.yaml and the run directory; give the model's name there, "
                         "put the key in an environment variable and name it with "
                         "params.api_key_env")


def url_secrets(url: str) -> str | None:
    """Where ``url`` holds what looks like a credential (None when nowhere): every part a
    server or a proxy could read a key from is checked the same way."""
    parts = urlsplit(url)
    if parts.username is not None or parts.password is not None:
        return "a user name or password (the 'user:password@' part before its host)"
    pieces = [("its path", seg) for seg in unquote(parts.path).split("/")]
    pieces += [("its query", parts.query), ("its #fragment", parts.fragment)]
    for where, piece in pieces:
        for item in re.split(r"[;&]", piece):
            name, eq, value = item.partition("=")
            if eq and _SECRET_NAME.search(name):
                return f"a secret in {where} ({name}=...)"
            if _looks_like_key(unquote(value if eq else name)):
                return f"what looks like a key in {where} ({(value if eq else name)[:4]}...)"
    return None


def _looks_like_key(segment: str) -> bool:
    """``sk-...``, or a long token mixing letters and digits (not a word or a version)."""
    if redact(segment) != segment:
        return True
    return (len(segment) >= 24 and re.fullmatch(r"[A-Za-z0-9_\-.~]+", segment) is not None
            and sum(c.isdigit() for c in segment) >= 4
            and sum(c.isalpha() for c in segment) >= 4)


def credential_header(name: object) -> bool:
    """Whether a header's name says it carries a credential (``Authorization``, ``Cookie``,
    ``X-Api-Key``, ...): :func:`check_headers` refuses it with its own message."""
    return _SECRET_NAME.search(str(name)) is not None


def check_headers(headers: dict[str, str] | None) -> dict[str, str]:
    """``extra_headers`` as a dict; refuses headers that carry credentials."""
    headers = dict(headers or {})
    for name, value in headers.items():
        if not header_safe(str(name)) or not header_safe(str(value)):
            raise ValueError(f"parameter 'extra_headers': header {ascii(name)} holds a non-ASCII or "
                             "control character in its name or value, which HTTP cannot send; "
                             "write it in plain ASCII (percent-encode it if the server expects that)")
        if _SECRET_NAME.search(name):
            raise ValueError(
                f"parameter 'extra_headers': header {name!r} carries a credential, which would be "
                "written to config.yaml and the run directory; put the key in an environment "
                "variable, name it with params.api_key_env (and params.api_key_header for a "
                "header other than Authorization)")
    return headers


def header_safe(text: str) -> bool:
    """Can ``text`` be sent as an HTTP header name or value (printable ASCII, tab allowed)?"""
    return text.isascii() and all(c.isprintable() or c == "\t" for c in text)


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


class TooLarge(Exception):
    """The answer went over ``max_response_bytes`` (decompressed): not worth a retry."""


def _decoder(encoding: str) -> Any:
    """A zlib decompressor for the Content-Encoding (None: identity)."""
    enc = encoding.strip().lower()
    if enc in ("", "identity"):
        return None
    if enc in ("gzip", "x-gzip", "deflate"):
        return zlib.decompressobj(32 + zlib.MAX_WBITS)  # gzip or zlib header, detected
    raise TooLarge(f"unsupported Content-Encoding {encoding!r} (chatmatch asks for gzip or "
                   "deflate)")


def read_capped(chunks: Iterable[bytes], encoding: str, max_bytes: int,
                stop: Callable[[], bool] = lambda: False) -> bytes | None:
    """The decompressed body from raw ``chunks``, never holding more than ``max_bytes`` + one
    chunk: a small gzip body that inflates to gigabytes is stopped at the cap
    (:class:`TooLarge`). None when ``stop()`` turns true (the caller gave up)."""
    dec, out = _decoder(encoding), bytearray()
    for raw in chunks:
        if stop():
            return None
        pending = raw
        while pending:
            if dec is None:
                piece, pending = pending, b""
            else:
                piece = dec.decompress(pending, max_bytes + 1 - len(out))
                pending = dec.unconsumed_tail
            out += piece
            if len(out) > max_bytes:
                raise TooLarge(f"the answer is larger than max_response_bytes={max_bytes} "
                               "(decompressed); raise params.max_response_bytes if it is "
                               "expected")
            if dec is not None and not piece:
                break
    return bytes(out)


def send(client: Any, method: str, url: str, body: dict[str, Any] | None,
         headers: dict[str, str], deadline_s: float,
         describe: Callable[[str], str],
         max_bytes: int = 1_000_000) -> tuple[int, dict[str, str], bytes]:
    """One request (JSON ``body``, if any): (status, headers, raw body) within ``deadline_s``
    for the whole request, the body decompressed and capped at ``max_bytes``.

    The request runs on a daemon thread that streams the body and stops at the deadline,
    so a server that drips one byte a second cannot hold the caller past the deadline
    (a per-read timeout would never fire). Connection failures, a body cut off mid-stream
    and timeouts raise :class:`Retryable` with a message passed through ``describe``
    (redaction); an answer over the cap raises :class:`TooLarge`.
    """
    import httpx

    answers: list[tuple[int, dict[str, str], bytes]] = []
    errors: list[BaseException] = []
    done, given_up = threading.Event(), threading.Event()
    headers = {"Accept-Encoding": "gzip, deflate", **headers}

    def run() -> None:
        started = False
        try:
            with client.stream(method, url, json=body, headers=headers,
                               timeout=httpx.Timeout(deadline_s)) as resp:
                started = True
                data = read_capped(resp.iter_raw(), resp.headers.get("content-encoding", ""),
                                   max_bytes, given_up.is_set)
                if data is not None:
                    answers.append((resp.status_code, dict(resp.headers), data))
        except httpx.TimeoutException:
            errors.append(Retryable(f"no complete answer within timeout_s={deadline_s:g}"))
        except (httpx.HTTPError, zlib.error) as exc:
            what = ("the answer was cut off mid-body" if started else "cannot connect")
            errors.append(Retryable(describe(f"{what}: {type(exc).__name__}: {exc}")))
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

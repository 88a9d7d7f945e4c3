"""``openai-chat``: a bot behind an OpenAI-compatible ``/chat/completions`` endpoint.

Works with OpenAI, vLLM, llama.cpp server, Ollama, LM Studio, text-generation-inference...
The bot's own turns are sent as ``assistant`` messages, the partner's as ``user``, the
persona as the ``system`` message, the game turn's ``random_seed`` as ``seed``.

The API key is read from the environment variable *named* by ``api_key_env`` each time a
request is sent; it is never kept on the bot, never put in :meth:`describe` (which is
written to the run directory) and never put in an error message.

Failures: a timeout, a refused connection, HTTP 429 or a 5xx status is retried ``retries``
times, waiting ``backoff_s * 2**attempt`` seconds in between; other 4xx statuses, a body
that is not the expected JSON, and the last failed retry raise :class:`BotError`.
``max_concurrency`` caps the requests in flight to one ``base_url`` across every bot of
the process (the first bot that names a base URL sets its cap).
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from typing import Any, ClassVar

from bots.base import Bot, History
from bots.registry import ADAPTERS
from chatmatch.errors import BotError

RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504})
_SEMAPHORES: dict[str, threading.BoundedSemaphore] = {}
_SEMAPHORES_LOCK = threading.Lock()


class _Retryable(Exception):
    """A failure worth another try (message already free of secrets)."""


def _semaphore(base_url: str, size: int) -> threading.BoundedSemaphore:
    with _SEMAPHORES_LOCK:
        return _SEMAPHORES.setdefault(base_url, threading.BoundedSemaphore(size))


@ADAPTERS.register("openai-chat")
class OpenAIChatBot(Bot):
    description = "A model behind an OpenAI-compatible chat completions endpoint."
    thread_safe: ClassVar[bool] = True
    deterministic: ClassVar[bool] = False  # a remote model may sample even with a seed
    remote: ClassVar[bool] = True  # replies are cached in the run directory by default

    def __init__(self, name: str = "", *, base_url: str, model: str,
                 api_key_env: str | None = None, persona: str | None = None,
                 temperature: float = 0.7, max_tokens: int = 60, max_history_turns: int = 20,
                 timeout_s: float = 30.0, retries: int = 3, backoff_s: float = 1.0,
                 max_concurrency: int = 4, extra_headers: dict[str, str] | None = None) -> None:
        super().__init__(name)
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(f"parameter 'base_url' must start with http:// or https://, got {base_url!r}")
        if timeout_s <= 0 or retries < 0 or backoff_s < 0 or max_concurrency < 1:
            raise ValueError("need timeout_s > 0, retries >= 0, backoff_s >= 0, max_concurrency >= 1")
        if max_tokens < 1 or max_history_turns < 1:
            raise ValueError("need max_tokens >= 1 and max_history_turns >= 1")
        if api_key_env is not None and not api_key_env.strip():
            raise ValueError("parameter 'api_key_env' must name an environment variable")
        self.base_url = base_url.rstrip("/")
        self.model, self.api_key_env, self.persona = model, api_key_env, persona
        self.temperature, self.max_tokens = temperature, max_tokens
        self.max_history_turns = max_history_turns
        self.timeout_s, self.retries, self.backoff_s = timeout_s, retries, backoff_s
        self.max_concurrency = max_concurrency
        self.extra_headers = dict(extra_headers or {})

    @property
    def url(self) -> str:
        return f"{self.base_url}/chat/completions"

    def load(self) -> None:
        self._api_key()  # fail before the first game when the key is missing

    def _api_key(self) -> str | None:
        if self.api_key_env is None:
            return None
        key = os.environ.get(self.api_key_env)
        if not key:
            raise BotError(f"bot '{self.name}': environment variable {self.api_key_env} (named by "
                           f"params.api_key_env) is not set; export it before the run")
        return key

    def payload(self, history: History) -> dict[str, Any]:
        """The JSON request body for ``history``."""
        msgs = [{"role": "assistant" if m.role == "self" else "user", "content": m.text}
                for m in history.messages[-self.max_history_turns:]]
        if self.persona:
            msgs.insert(0, {"role": "system", "content": self.persona})
        return {"model": self.model, "messages": msgs, "temperature": self.temperature,
                "max_tokens": self.max_tokens, "seed": history.random_seed % (2 ** 31)}

    def reply(self, history: History) -> str:
        body = json.dumps(self.payload(history)).encode()
        key = self._api_key()
        headers = {"Content-Type": "application/json", **self.extra_headers}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        last = ""
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff_s * 2 ** (attempt - 1))
            try:
                with _semaphore(self.base_url, self.max_concurrency):
                    data = self._post(body, headers, key)
                return self._content(data, key)
            except _Retryable as exc:
                last = str(exc)
        raise BotError(f"bot '{self.name}': {self.url} failed after {self.retries + 1} "
                       f"attempt(s); last error: {last}")

    def _post(self, body: bytes, headers: dict[str, str], key: str | None) -> bytes:
        req = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout_s) as resp:
                return bytes(resp.read())
        except urllib.error.HTTPError as exc:
            text = _redact(exc.read().decode("utf-8", "replace")[:300], key)
            msg = f"HTTP {exc.code} {exc.reason}: {text}"
            if exc.code in RETRY_STATUSES:
                raise _Retryable(msg) from None
            raise BotError(f"bot '{self.name}': {self.url} answered {msg}") from None
        except (TimeoutError, socket.timeout):
            raise _Retryable(f"no answer within timeout_s={self.timeout_s}") from None
        except urllib.error.URLError as exc:
            reason = exc.reason
            if isinstance(reason, (TimeoutError, socket.timeout)):
                raise _Retryable(f"no answer within timeout_s={self.timeout_s}") from None
            raise _Retryable(f"cannot connect: {_redact(str(reason), key)}") from None
        except (OSError, http.client.HTTPException) as exc:
            raise _Retryable(f"connection failed: {_redact(str(exc), key)}") from None

    def _content(self, data: bytes, key: str | None) -> str:
        try:
            content = json.loads(data)["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            snippet = _redact(data[:200].decode("utf-8", "replace"), key)
            raise BotError(f"bot '{self.name}': {self.url} did not answer with a chat completion "
                           f"(choices[0].message.content); got: {snippet!r}") from None
        if not isinstance(content, str):
            raise BotError(f"bot '{self.name}': {self.url} answered a non-text message content "
                           f"({type(content).__name__})")
        return content.strip()

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "adapter": "openai-chat", "base_url": self.base_url,
                "model": self.model, "api_key_env": self.api_key_env, "persona": self.persona,
                "temperature": self.temperature, "max_tokens": self.max_tokens,
                "max_history_turns": self.max_history_turns, "timeout_s": self.timeout_s,
                "retries": self.retries, "backoff_s": self.backoff_s,
                "max_concurrency": self.max_concurrency,
                "extra_headers": sorted(self.extra_headers)}  # names only: values may be secret


def _redact(text: str, key: str | None) -> str:
    return text.replace(key, "***") if key else text

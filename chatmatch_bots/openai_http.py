"""``openai-chat``: a bot behind an OpenAI-compatible ``/chat/completions`` endpoint.

Works with OpenAI, vLLM, llama.cpp server, Ollama, LM Studio, ``transformers serve``...
on the ``httpx`` client (why: see :mod:`chatmatch_bots.http_support`).

Messages: the bot's own turns are sent as ``assistant`` messages, the partner's as
``user``, the persona as the ``system`` message, the game turn's ``random_seed`` as
``seed``. Messages always start with a ``user`` turn and alternate, so strict chat
templates (Mistral, Gemma: "roles must alternate") accept them. When the bot opened the
game, ``opening`` says where its seed utterance goes ("You opened the conversation by
saying: ..."): ``user`` (default: at the head of the first user message, which every
template accepts, those without a system role included), ``system`` (in the system
message) or ``none`` (left out); ``persona_role: user`` puts the persona there too, for
templates with no system role. A window of ``max_history_turns`` that would start with the
bot's own turn starts one turn later. Replies get the same clean-up as the local adapters
(:func:`chatmatch_bots.hf_support.clean_reply`: the first line; a sentence cut off by
``max_tokens``, ``finish_reason: length``, is dropped when a complete one comes before).

Secrets: the API key is read from the environment variable *named* by ``api_key_env`` at
each request; it is never kept on the bot or put in :meth:`describe`. A key in
``base_url`` or a credential header in ``extra_headers`` is refused. Every message that
leaves the adapter (errors, hence forfeit reasons and logs) is redacted before it is cut.

Failures, one retry layer (the engine does not retry this bot again, ``retries_inside``):
``timeout_s`` is the deadline of one whole HTTP request (not of one socket read); a
timeout, a failed connection, HTTP 408/409/425/429/5xx are retried ``retries`` times,
waiting what ``Retry-After`` asks (up to ``max_retry_wait_s``) or else
``backoff_s * 2**attempt`` seconds; each retry is logged as a warning. Other 4xx
statuses and a body that is not a chat completion fail at once. :meth:`load` checks that
the server answers (``GET base_url/models``), so a dead URL stops the run before any
game. ``max_concurrency`` caps the requests in flight to one ``base_url`` across every
bot of the process (the first bot that names a base URL sets its cap).
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from typing import Any, ClassVar, Literal

from chatmatch.bot import Bot, History
from chatmatch_bots.hf_support import clean_reply
from chatmatch_bots.http_support import (RETRY_STATUSES, Retryable, check_base_url, check_headers, clip,
                               fail, retry_after_s, send)

log = logging.getLogger(__name__)
_SEMAPHORES: dict[str, threading.BoundedSemaphore] = {}
_SEMAPHORES_LOCK = threading.Lock()


def _semaphore(base_url: str, size: int) -> threading.BoundedSemaphore:
    with _SEMAPHORES_LOCK:
        return _SEMAPHORES.setdefault(base_url, threading.BoundedSemaphore(size))


class OpenAIChatBot(Bot):
    description = "A model behind an OpenAI-compatible chat completions endpoint."
    thread_safe: ClassVar[bool] = True
    deterministic: ClassVar[bool] = False  # a remote model may sample even with a seed
    retries_inside: ClassVar[bool] = True
    remote: ClassVar[bool] = True  # replies are cached in the run directory by default
    #: how replies are fetched, not what they say: not part of the bot's identity
    operational_params: ClassVar[frozenset[str]] = frozenset({
        "timeout_s", "retries", "backoff_s", "max_retry_wait_s", "max_concurrency",
        "check_server", "max_response_bytes"})

    def __init__(self, name: str = "", *, base_url: str, model: str,
                 api_key_env: str | None = None, api_key_header: str = "Authorization",
                 persona: str | None = None, temperature: float = 0.7, max_tokens: int = 60,
                 max_history_turns: int = 20, timeout_s: float = 60.0, retries: int = 2,
                 backoff_s: float = 1.0, max_retry_wait_s: float = 60.0,
                 max_concurrency: int = 4, check_server: bool = True,
                 extra_headers: dict[str, str] | None = None,
                 opening: Literal["user", "system", "none"] = "user",
                 persona_role: Literal["system", "user"] = "system",
                 top_p: float | None = None, stop: str | list[str] | None = None) -> None:
        super().__init__(name)
        if timeout_s <= 0 or retries < 0 or backoff_s < 0 or max_concurrency < 1 \
                or max_retry_wait_s < 0:
            raise ValueError("need timeout_s > 0, retries >= 0, backoff_s >= 0, "
                             "max_retry_wait_s >= 0, max_concurrency >= 1")
        if max_tokens < 1 or max_history_turns < 1:
            raise ValueError("need max_tokens >= 1 and max_history_turns >= 1")
        if not 0 <= temperature <= 2 or (top_p is not None and not 0 < top_p <= 1):
            raise ValueError("need temperature in [0, 2] and top_p in (0, 1]")
        self.top_p, self.stop = top_p, ([stop] if isinstance(stop, str) else stop)
        if self.stop is not None and (not self.stop or len(self.stop) > 4
                                      or not all(self.stop)):
            raise ValueError("parameter 'stop' must be 1 to 4 non-empty strings")
        if api_key_env is not None and not api_key_env.strip():
            raise ValueError("parameter 'api_key_env' must name an environment variable")
        self.base_url = check_base_url(base_url)
        self.extra_headers = check_headers(extra_headers)
        self.model, self.api_key_env, self.persona = model, api_key_env, persona
        self.api_key_header = api_key_header
        self.temperature, self.max_tokens = temperature, max_tokens
        self.max_history_turns = max_history_turns
        self.timeout_s, self.retries, self.backoff_s = timeout_s, retries, backoff_s
        self.max_retry_wait_s, self.max_concurrency = max_retry_wait_s, max_concurrency
        self.check_server = check_server
        if opening not in ("user", "system", "none") or persona_role not in ("system", "user"):
            raise ValueError("need opening in user | system | none, persona_role in system | user")
        self.opening, self.persona_role = opening, persona_role
        self.counts = {"retries": 0, "timeouts": 0, "cut_replies": 0}
        self._client: Any = None

    @property
    def url(self) -> str:
        return f"{self.base_url}/chat/completions"

    # --- lifecycle ----------------------------------------------------------------------
    def load(self) -> None:
        import httpx

        key = self._api_key()  # fail before the first game when the key is missing
        self._client = httpx.Client(limits=httpx.Limits(max_connections=self.max_concurrency * 2))
        if self.check_server:
            self._check_server(key)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def _check_server(self, key: str | None) -> None:
        """Stop the run now, with one line, when the endpoint cannot be reached."""
        where = f"{self.base_url}/models"
        try:
            status, _, _ = send(self._client, "GET", where, None, self._headers(key),
                                min(self.timeout_s, 15.0), lambda text: clip(text, 300, [key]))
        except Retryable as exc:
            raise fail(f"bot '{self.name}': cannot reach {where} ({exc}); is the server "
                       "running? check params.base_url", [key]) from None
        if status in (401, 403):
            raise fail(f"bot '{self.name}': {where} refused the API key (HTTP {status}); "
                       f"check the key in ${self.api_key_env}", [key])
        if status in (502, 503, 504):
            raise fail(f"bot '{self.name}': {where} answered HTTP {status}: the server is not "
                       "ready; start it or wait, then run again", [key])

    # --- requests -----------------------------------------------------------------------
    def _api_key(self) -> str | None:
        if self.api_key_env is None:
            return None
        key = os.environ.get(self.api_key_env)
        if not key:
            raise fail(f"bot '{self.name}': environment variable {self.api_key_env} (named by "
                       f"params.api_key_env) is not set; export it before the run")
        return key

    def _headers(self, key: str | None) -> dict[str, str]:
        headers = dict(self.extra_headers)
        if key:
            if self.api_key_header.lower() == "authorization":
                headers["Authorization"] = f"Bearer {key}"
            else:
                headers[self.api_key_header] = key
        return headers

    def chat_messages(self, history: History) -> list[dict[str, str]]:
        """The request's messages: starting with a user turn, alternating (see module doc)."""
        window = list(history.messages[-self.max_history_turns:])
        system = [self.persona] if self.persona else []
        lead: list[str] = []  # folded into the first user message
        if window and window[0].role == "self":
            opener = window.pop(0)
            if len(history.messages) <= self.max_history_turns and self.opening != "none":
                said = f'You opened the conversation by saying: "{opener.text}"'
                (system if self.opening == "system" else lead).append(said)
        if self.persona_role == "user" and self.persona:
            lead.insert(0, system.pop(0))
        msgs = [{"role": "assistant" if m.role == "self" else "user", "content": m.text}
                for m in window]
        if lead and msgs:
            msgs[0] = {"role": "user", "content": "\n".join(lead) + "\n\n" + msgs[0]["content"]}
        if system:
            msgs.insert(0, {"role": "system", "content": "\n".join(system)})
        return msgs

    def payload(self, history: History) -> dict[str, Any]:
        """The JSON request body for ``history``."""
        body = {"model": self.model, "messages": self.chat_messages(history),
                "temperature": self.temperature, "max_tokens": self.max_tokens,
                "seed": history.random_seed % (2 ** 31)}
        if self.top_p is not None:
            body["top_p"] = self.top_p
        if self.stop is not None:
            body["stop"] = list(self.stop)
        return body

    def reply(self, history: History) -> str:
        if self._client is None:
            raise fail(f"bot '{self.name}': reply() called before load()")
        body, key = self.payload(history), self._api_key()
        headers = self._headers(key)
        last = ""
        for attempt in range(self.retries + 1):
            try:
                return self._content(self._post(body, headers, key), key)
            except Retryable as exc:
                last = str(exc)
                if attempt == self.retries:
                    break
                wait = self.backoff_s * 2 ** attempt if exc.wait_s is None else exc.wait_s
                if wait > self.max_retry_wait_s:
                    last += f" (the server asked to wait {wait:g} s, over max_retry_wait_s)"
                    break
                self.counts["retries"] += 1
                log.warning("bot '%s': %s; retry %d/%d in %.1f s", self.name, last,
                            attempt + 1, self.retries, wait)
                time.sleep(wait)
        raise fail(f"bot '{self.name}': {self.url} failed after {attempt + 1} attempt(s); "
                   f"last error: {last}", [key])

    def _post(self, body: dict[str, Any], headers: dict[str, str], key: str | None) -> bytes:
        sem = _semaphore(self.base_url, self.max_concurrency)
        if not sem.acquire(timeout=self.timeout_s):
            raise Retryable(f"all {self.max_concurrency} request slots to {self.base_url} stayed "
                            f"busy for timeout_s={self.timeout_s:g}")
        try:
            status, resp_headers, data = send(
                self._client, "POST", self.url, body, headers, self.timeout_s,
                lambda text: clip(text, 300, [key]))
        except Retryable as exc:
            if "timeout_s" in str(exc):
                self.counts["timeouts"] += 1
            raise
        finally:
            sem.release()
        if status < 400:
            return data
        text = clip(data.decode("utf-8", "replace"), 300, [key])
        msg = f"HTTP {status}: {text}"
        if status in RETRY_STATUSES:
            raise Retryable(msg, retry_after_s(resp_headers.get("retry-after")))
        raise fail(f"bot '{self.name}': {self.url} answered {msg}", [key])

    def _content(self, data: bytes, key: str | None) -> str:
        try:
            choice = json.loads(data)["choices"][0]
            content = choice["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            snippet = clip(data.decode("utf-8", "replace"), 200, [key])
            raise fail(f"bot '{self.name}': {self.url} did not answer with a chat completion "
                       f"(choices[0].message.content); got: {snippet!r}", [key]) from None
        if not isinstance(content, str):
            raise fail(f"bot '{self.name}': {self.url} answered a non-text message content "
                       f"({type(content).__name__})")
        cut = choice.get("finish_reason") == "length"
        if cut:
            self.counts["cut_replies"] += 1
        return clean_reply(content, cut=cut)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "adapter": "openai-chat", "base_url": self.base_url,
                "model": self.model, "api_key_env": self.api_key_env,
                "api_key_header": self.api_key_header, "persona": self.persona,
                "temperature": self.temperature, "max_tokens": self.max_tokens,
                "max_history_turns": self.max_history_turns, "opening": self.opening,
                "persona_role": self.persona_role, "top_p": self.top_p, "stop": self.stop,
                "timeout_s": self.timeout_s,
                "retries": self.retries, "backoff_s": self.backoff_s,
                "max_retry_wait_s": self.max_retry_wait_s,
                "max_concurrency": self.max_concurrency, "check_server": self.check_server,
                "extra_headers": sorted(self.extra_headers)}

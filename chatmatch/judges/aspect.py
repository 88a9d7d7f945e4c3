"""Aspect judge (Zhang et al., "unassessable quality" adversarial evaluation): a 0-1 score
per aspect (coherence, relevance, consistency, fluency), with the paper's ten level
definitions in the prompt and optional facts; the judge answers in text and the score is
extracted by rule, then mapped to its level L1 (0-0.1) ... L10 (0.9-1).

Extraction rule (:func:`extract_score`): the number after "score" (``score is 0.8``,
``Score: .7``), else the first number in [0, 1] in the answer; "8/10" and "80%" are read as
0.8. Ranges ("from 0 to 1", "0.0-0.1": usually the instruction echoed back) are not
scores. No such number -> missing (never 0).
"""

from __future__ import annotations

import math
import re
from typing import Any

from pydantic import Field, field_validator

from chatmatch.judges.base import JudgeParams, JudgeScorer
from chatmatch.judges.prompts import ASPECT_TURN
from chatmatch.records import DimensionScore
from chatmatch.transcript import Transcript, Turn

DEFINITIONS = {
    "fluency": "the fluency and grammatical correctness of responses.",
    "coherence": "the logical and semantic coherence between responses and previous context.",
    "relevance": "the degree to response is connected or relevant to a particular topic, "
                 "question, or situation of previous context.",
    "consistency": "the logical and factual consistency between responses and previous "
                   "context, facts also include external commonsense knowledge.",
}

LEVELS = {  # Appendix A.1 of the paper
    "fluency": [
        "almost incomprehensible, heavily grammatical errors, poor coherence.",
        "There are many grammatical errors, and it is difficult to understand.",
        "Many grammatical errors, unclear expressions, require effort to understand.",
        "There are some grammatical errors, and the expression is acceptable.",
        "There are some grammatical errors, and the expression is generally clear.",
        "The grammar is basically correct, and the expression is coherent, but there are some minor errors.",
        "The grammar is correct, the expression is fluent and coherent, and there are only a few minor errors.",
        "The grammar is almost completely correct, and the expression is fluent and natural, with some minor errors.",
        "The grammar is almost perfect, the expression is very fluent, and there are few errors.",
        "Whether it is grammar, vocabulary, or expression, it is perfect, with almost no errors."],
    "consistency": [
        "lack logical structure and coherence, contain internal inconsistencies and fake information, making it difficult to follow or understand.",
        "contain internal inconsistencies, where statements within contradict each other.",
        "contradict the established context, either within the conversation history.",
        "contain factual inaccuracies or incorrect information that can be easily identified based on available knowledge.",
        "align with the conversation history but may deviate from established facts or external knowledge.",
        "demonstrate basic logical consistency within the conversation history, but there may be minor inconsistencies.",
        "align well with the conversation history, with some errors or inconsistencies.",
        "demonstrate logical coherence, and statements align with each other and the conversation history.",
        "not only logically consistent but also reflect factual information, aligning well with the conversation history.",
        "not only internally consistent and factually accurate but also align with external common-sense knowledge."],
    "relevance": [
        "no connection to the topic of conversation.",
        "touch upon the topic but lack a substantial connection.",
        "contain some relevant elements but miss key points.",
        "contain most relevant elements but lack a comprehensive or coherent connection to the entire context.",
        "show a moderate degree of relevance, involving some aspects of conversation topic.",
        "generally relevant to the topic or question, providing a basic understanding for conversation.",
        "demonstrate a good level of relevance, involving most aspects of conversation topic.",
        "highly relevant, involving the topic and providing a detailed content connection to the context.",
        "exhibit great level of relevance, thoroughly involving the conversation topic.",
        "not only completely relevant but also involving the topic with clarity and insight."],
    "coherence": [
        "lack both logical and semantic coherence, making it challenging to understand.",
        "have semantic gaps or disjointed elements, making it difficult to establish a connection to previous context.",
        "lack logical structure, leading to difficulties in understanding the conversation.",
        "exhibit partial coherence but still contain logical or semantic gaps.",
        "have a basic logical relation, but there are gaps or inconsistencies in semantic coherence.",
        "demonstrate a basic level of both logical and semantic coherence, providing a generally understandable ideas.",
        "exhibit a good level of logical and semantic coherence, making it easy to understand and follow.",
        "display a better level of both logical and semantic coherence, ensuring a smooth and connection to previous context.",
        "show an high level of both logical and semantic coherence, with a seamless and clear connection to previous context.",
        "achieve flawless logical and semantic coherence, presenting information in a way that is not only easy to follow but also understanding."],
}

_NUM = r"(\d+(?:\.\d+)?|\.\d+)"
_AFTER_SCORE = re.compile(rf"score\s*(?:is|of|:|=)?\s*(?:about|around)?\s*{_NUM}(\s*/\s*10\b|\s*%)?", re.I)
_ANY = re.compile(rf"(?<![\w.]){_NUM}(\s*/\s*10\b|\s*%)?")
#: "from 0 to 1", "0.0-0.1": a range (often the instruction echoed back), not a score
_RANGE = re.compile(rf"(?:from\s+)?{_NUM}\s*(?:to|-|–)\s*{_NUM}", re.I)


def _value(num: str, suffix: str | None) -> float | None:
    v = float(num)
    if suffix and "/" in suffix:
        v /= 10
    elif suffix and "%" in suffix:
        v /= 100
    return v if 0.0 <= v <= 1.0 else None


def extract_score(text: str) -> float | None:
    """The 0-1 score in a judge's answer (see the module doc), or None."""
    text = _RANGE.sub(" ", text)
    for m in _AFTER_SCORE.finditer(text):
        v = _value(m.group(1), m.group(2))
        if v is not None:
            return v
    for m in _ANY.finditer(text):
        v = _value(m.group(1), m.group(2))
        if v is not None:
            return v
    return None


def level_of(score: float) -> int:
    """L1 (0-0.1) ... L10 (0.9-1)."""
    return min(10, int(math.floor(score * 10)) + 1)


class AspectJudge(JudgeScorer):
    name = "aspect_judge"
    description = "0-1 aspect scores with level definitions, extracted by rule"
    templates = (ASPECT_TURN,)

    class Params(JudgeParams):
        aspects: list[str] = Field(default_factory=lambda: list(DEFINITIONS))
        facts: str = ""
        max_tokens: int = Field(default=24, ge=1, le=512)

        @field_validator("aspects")
        @classmethod
        def _known(cls, v: list[str]) -> list[str]:
            bad = [a for a in v if a not in DEFINITIONS]
            if bad or not v:
                raise ValueError(f"aspects must be some of {sorted(DEFINITIONS)}, got {v}")
            return v

    params: Params

    def prompt(self, aspect: str, context: str, response: str) -> tuple[str, str]:
        levels = "\n".join(f"L{i + 1} ({i / 10:.1f}-{(i + 1) / 10:.1f}): {d}"
                           for i, d in enumerate(LEVELS[aspect]))
        return ASPECT_TURN.render(aspect=aspect, definition=DEFINITIONS[aspect], levels=levels,
                                  context=context, response=response, fact=self.params.facts)

    def _score(self, game: Transcript) -> DimensionScore:
        raw, rows = self.rate_replies(game, self._rate_reply)
        summary = {"judge": "aspect_judge", "prompt_version": ASPECT_TURN.version,
                   "missing": sum(r["missing"] for r in rows), "rated": len(rows)}
        return DimensionScore(self.name, raw, True, [summary, *rows])

    def _rate_reply(self, game: Transcript, bot: str, turn: Turn) -> list[dict[str, Any]]:
        ctx = self.context_of(game, turn)
        rows = []
        for aspect in self.params.aspects:
            prompt, prefix = self.prompt(aspect, ctx, turn.text)
            answer = self.backend.generate(prompt, self.params.max_tokens, prefix)
            s = extract_score(answer)
            rows.append({"speaker": bot, "turn": turn.index, "aspect": aspect, "answer": answer,
                         "score": s, "missing": s is None, "level": None if s is None else level_of(s)})
        return rows

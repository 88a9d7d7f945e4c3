"""The questions an annotator answers about a game, in plain language: one overall and one
per chatmatch dimension (only the dimensions the run scored are asked). Each question asks
which of the two speakers did better on what the dimension's scorer counts
(docs/scoring.md), so the human answers and chatmatch's per-dimension wins can be compared.
"""

from __future__ import annotations

from dataclasses import dataclass

from chatmatch.common.registry import close_matches
from chatmatch.errors import ChatmatchError

#: the question that makes the human overall ranking
OVERALL = "overall"

#: question key -> the text shown (the speakers are named after it: "Speaker A or B?")
QUESTIONS: dict[str, str] = {
    OVERALL: "Overall, who was the better conversation partner?",
    "fluency": "Whose replies read more naturally (fluent, grammatical English)?",
    "knowledge": "Who brought more facts, names, places or things into the conversation?",
    "proactivity": "Who asked more engaging questions?",
    "specificity": "Whose replies were more specific and less generic?",
    "diversity": "Who repeated themselves less?",
    "consistency": "Who contradicted themselves less?",
    "relevance": "Who came back to what was said earlier, staying on topic?",
}


@dataclass(frozen=True)
class Question:
    key: str
    text: str


def questions_for(dimensions: list[str], only: tuple[str, ...] | None = None) -> tuple[Question, ...]:
    """The overall question, then one per dimension the run scored (in the run's order);
    ``only``: ask just these dimensions (``()``: the overall question alone). A dimension
    without a question of its own (a custom scorer) is asked by its name."""
    asked = list(dimensions)
    if only is not None:
        for d in only:
            if d not in dimensions:
                close = close_matches(d, dimensions, n=1)
                hint = f" Did you mean '{close[0]}'?" if close else ""
                raise ChatmatchError(f"--dimensions: '{d}' is not a dimension of this run.{hint} "
                                     f"The run scored: {', '.join(dimensions) or 'none'}")
        asked = [d for d in dimensions if d in only]
    out = [Question(OVERALL, QUESTIONS[OVERALL])]
    for d in asked:
        out.append(Question(d, QUESTIONS.get(d, f"Who did better on {d}?")))
    return tuple(out)

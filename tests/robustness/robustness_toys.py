"""Toy evaluators for the robustness tests (also plugged in through the CLI by import path)."""

from __future__ import annotations

from typing import ClassVar, Literal, Sequence

from chatmatch.robustness.perturb import Context


class LengthScorer:
    """Longer replies are better: a scorer with a known, checkable verdict."""

    name = "length"
    kind: ClassVar[Literal["score"]] = "score"
    higher_is_better = True

    def score(self, contexts: Sequence[Context], replies: Sequence[str]) -> list[float]:
        return [float(len(r.split())) for r in replies]


class ShorterJudge:
    """Prefers the shorter reply (1.0), or no preference (0.5) on equal length."""

    name = "shorter"
    kind: ClassVar[Literal["compare"]] = "compare"

    def prefer(self, contexts: Sequence[Context], first: Sequence[str],
               second: Sequence[str]) -> list[float]:
        return [0.5 if len(a) == len(b) else float(len(a) < len(b)) for a, b in zip(first, second)]


class NotAnEvaluator:
    name = "nothing"

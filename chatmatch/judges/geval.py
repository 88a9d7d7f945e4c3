"""G-EVAL (Liu et al. 2023), as analysed on FED/TopicalChat: an evaluation form per
criterion, optional auto-generated evaluation steps (chain of thought), and a
probability-weighted score.

* One prompt per criterion (default: naturalness, coherence, engagingness, groundedness;
  scores 1-5). ``level: turn`` rates each judged reply in its context; ``level: dialogue``
  rates one speaker's turns over the whole dialogue (speakers named A and B).
* Score = sum over the allowed scores s of p(s) * s, with p **renormalised over the allowed
  scores** (p(s) / sum p). p comes from next-token probabilities (local model), top
  logprobs, or the share of n sampled answers (a server without logprobs).
* An answer that gives no allowed score (no probability mass on any, or no sample that
  parses) is recorded as missing (``null``), never as 0; a bot's raw score is the mean of
  its defined scores (NaN when none, which loses the dimension).
* ``auto_steps: true`` asks the judge model once per criterion to write the evaluation
  steps (G-EVAL's auto-CoT); they are cached in ``RUN/judges/geval.json`` and reused on
  resume. Otherwise the analysis paper's hand-written steps are used.
"""

from __future__ import annotations

from typing import Any, Literal, Self, Sequence

from pydantic import Field, model_validator

from chatmatch.judges.base import JudgeParams, JudgeScorer, mean_or_nan
from chatmatch.judges.prompts import (GEVAL_CRITERIA, GEVAL_DEFAULT_STEPS, GEVAL_DIALOGUE,
                                      GEVAL_STEPS, GEVAL_TURN)
from chatmatch.records import DimensionScore
from chatmatch.transcript import Transcript


def weighted_score(probs: dict[str, float] | None, allowed: Sequence[int]) -> float | None:
    """sum_s p(s) * s / sum_s p(s) over the allowed scores; None when no mass is on them."""
    if probs is None:
        return None
    mass = sum(probs.get(str(s), 0.0) for s in allowed)
    if mass <= 0:
        return None
    return sum(probs.get(str(s), 0.0) * s for s in allowed) / mass


class GEval(JudgeScorer):
    name = "geval"
    description = "G-EVAL form-filling judge (probability-weighted score)"
    templates = (GEVAL_TURN, GEVAL_DIALOGUE, GEVAL_STEPS)

    class Params(JudgeParams):
        level: Literal["turn", "dialogue"] = "turn"
        criteria: list[str] = Field(default_factory=lambda: list(GEVAL_CRITERIA))
        #: definitions of criteria not in the built-in list (or replacements)
        definitions: dict[str, str] = Field(default_factory=dict)
        low: int = Field(default=1, ge=0, le=9)
        high: int = Field(default=5, ge=1, le=9)
        auto_steps: bool = False
        fact: str = ""
        dialogue_turns: int = Field(default=20, ge=2)

        @model_validator(mode="after")
        def _ok(self) -> Self:
            if self.low >= self.high:
                raise ValueError(f"need low < high, got {self.low}-{self.high}")
            unknown = [c for c in self.criteria if c not in GEVAL_CRITERIA and c not in self.definitions]
            if unknown:
                raise ValueError(f"criteria {unknown} have no definition: use one of "
                                 f"{sorted(GEVAL_CRITERIA)} or add them to 'definitions'")
            if not self.criteria:
                raise ValueError("list at least one criterion")
            return self

    params: Params

    def __init__(self, params: Params | None = None) -> None:
        super().__init__(params)
        self._steps: dict[str, str] = {}

    def bind_run_dir(self, path: Any) -> None:
        super().bind_run_dir(path)
        self._steps = {**self.read_record().get("generated_steps", {}), **self._steps}
        self.write_record()

    def run_facts(self) -> dict[str, Any]:
        return {"generated_steps": self._steps} if self.params.auto_steps else {}

    def definition(self, criterion: str) -> str:
        return self.params.definitions.get(criterion) or GEVAL_CRITERIA[criterion]

    def steps(self, criterion: str) -> str:
        if not self.params.auto_steps:
            return GEVAL_DEFAULT_STEPS
        if criterion not in self._steps:
            p = self.params
            unit = ("a dialogue context and a response" if p.level == "turn"
                    else "a dialogue and one of its speakers")
            prompt, prefix = GEVAL_STEPS.render(unit=unit, criterion=criterion, low=p.low,
                                                high=p.high, definition=self.definition(criterion))
            text = self.backend.generate(prompt, max_tokens=120, answer_prefix=prefix)
            self._steps[criterion] = text.removeprefix("Evaluation Steps:\n").strip()
            self.write_record()
        return self._steps[criterion]

    def _rate(self, criterion: str, **fields: Any) -> dict[str, Any]:
        p = self.params
        template = GEVAL_TURN if p.level == "turn" else GEVAL_DIALOGUE
        prompt, prefix = template.render(criterion=criterion, low=p.low, high=p.high,
                                         definition=self.definition(criterion),
                                         steps=self.steps(criterion), fact=p.fact or "(none)",
                                         **fields)
        allowed = list(range(p.low, p.high + 1))
        lp = self.backend.label_probs(prompt, [str(s) for s in allowed], prefix)
        score = weighted_score(None if lp is None else lp.probs, allowed)
        return {"criterion": criterion, "score": score, "missing": score is None,
                "probs": None if lp is None else lp.probs,
                "method": None if lp is None else lp.method}

    def _score(self, game: Transcript) -> DimensionScore:
        rows: list[dict[str, Any]] = []
        raw = {}
        for bot in game.players:
            got = self._turn_rows(game, bot) if self.params.level == "turn" else self._dialogue_rows(game, bot)
            rows += got
            raw[bot] = mean_or_nan([r["score"] for r in got])
        summary = {"judge": "geval", "level": self.params.level,
                   "prompt_version": (GEVAL_TURN if self.params.level == "turn" else GEVAL_DIALOGUE).version,
                   "allowed_scores": [self.params.low, self.params.high],
                   "missing": sum(r["missing"] for r in rows), "rated": len(rows),
                   "steps": "generated" if self.params.auto_steps else "hand-written"}
        return DimensionScore(self.name, raw, True, [summary, *rows])

    def _turn_rows(self, game: Transcript, bot: str) -> list[dict[str, Any]]:
        rows = []
        for turn in self.judged_replies(game, bot):
            ctx = self.context_of(game, turn)
            for c in self.params.criteria:
                rows.append({"speaker": bot, "turn": turn.index,
                             **self._rate(c, context=ctx, response=turn.text)})
        return rows

    def _dialogue_rows(self, game: Transcript, bot: str) -> list[dict[str, Any]]:
        turns = game.turns[: self.params.dialogue_turns]
        text = "\n".join(f"{'A' if t.speaker == bot else 'B'}: {t.text}" for t in turns)
        return [{"speaker": bot, **self._rate(c, dialogue=text, speakers="A and B", speaker="A")}
                for c in self.params.criteria]

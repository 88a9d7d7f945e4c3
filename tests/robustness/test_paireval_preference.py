"""PairEval in the robustness suite compares the good and the broken reply directly, in
both orders, and the suite counts its swap-averaged preference."""

import math

from chatmatch.judges.backends import LabelProbs
from chatmatch.judges.paireval import PairEval
from chatmatch.robustness.evaluators import PairEvalPreference, builtin_judge
from chatmatch.robustness.perturb import Context


class ReadsTheReplies:
    """A judge backend that prefers the side whose reply says GOOD (so both orders agree),
    or answers nothing at all."""

    def __init__(self, silent: bool = False) -> None:
        self.silent = silent
        self.prompts: list[str] = []

    def label_probs(self, prompt, labels, prefix):
        self.prompts.append(prompt)
        if self.silent:
            return None
        a_first = prompt.index("GOOD") < prompt.index("BAD")
        return LabelProbs({"A": 0.8, "B": 0.2} if a_first else {"A": 0.2, "B": 0.8}, "test")

    def describe(self):
        return {"backend": "test"}


CTX = Context(history=("What did you do last week?",), speakers=("u",), speaker="v")


def judge(backend):
    j = PairEval()
    j._backend = backend
    return PairEvalPreference(j)


def test_prefers_the_good_reply_in_both_orders():
    backend = ReadsTheReplies()
    ev = judge(backend)
    p = ev.prefer([CTX, CTX], ["GOOD: I went hiking.", "BAD: ok"], ["BAD: ok", "GOOD: I went hiking."])
    # x first: P(A)=0.8 -> 0.8 for x; x second: P(B)=0.8 -> 0.8 for x; average 0.8
    assert p[0] == 0.8 and p[1] == 0.2
    assert len(backend.prompts) == 4  # two orders per pair
    assert all("What did you do last week?" in q for q in backend.prompts)


def test_no_verdict_is_nan():
    ev = judge(ReadsTheReplies(silent=True))
    assert math.isnan(ev.prefer([CTX], ["GOOD"], ["BAD"])[0])


def test_builtin_paireval_is_the_pairwise_form():
    ev = builtin_judge("paireval")
    assert isinstance(ev, PairEvalPreference) and ev.kind == "compare"
    assert builtin_judge("geval").kind == "score"

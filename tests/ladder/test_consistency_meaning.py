"""Consistency judged on meaning: a known-order family of bots (issue 20).

Three bots answer the same repeated questions; only how they answer again differs:

- ``rephraser`` says the same fact in other words every other time ("i love classical
  music" / "classical is my favourite"): consistent, and must never be charged;
- ``contradictor`` says the opposite every other time ("i love classical music" / "i hate
  classical music", "i have two dogs" / "i have no pets"): must be charged every time;
- ``canned`` answers every question with one canned sentence: says nothing, contradicts
  nothing, and must not win consistency from the rephraser.

Each bot asks the three questions in turn (so each is asked again and again), answers its
partner's question, and acknowledges its partner's answer; both bots of a game are tested.
The default scorer (meaning: all-MiniLM-L6-v2 embeddings and the answers' polarity) gets
every order right; the paper's TF-IDF rule (``preset: paper``) charges the rephraser and
lets the canned bot win, which these tests show too. Slow: the real embedding model.
"""

from __future__ import annotations

from typing import Any

import pytest

from chatmatch.bot import Bot, History
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.engine import score_games
from chatmatch.scoring.points import result_from_scores
from chatmatch.transcript import Transcript
from tests.ladder.test_families import PAPER, games
from chatmatch.scoring.build import build_scorers

pytestmark = pytest.mark.slow

#: question -> (answer, the same in other words, the opposite)
ANSWERS = {
    "What music do you like?": ("I love classical music.", "Classical is my favourite.",
                                 "I hate classical music."),
    "Do you have any pets?": ("I have two dogs.", "Two dogs live with me, both terriers.",
                              "I have no pets."),
    "What do you like to eat?": ("I really like sushi.", "Sushi is my favourite food.",
                                 "I do not like sushi at all."),
}
QUESTIONS = list(ANSWERS)
CANNED = "That is a very good question, my friend."


class Answerer(Bot):
    """Asks, answers and acknowledges in turn; ``style`` decides how it answers a question
    it was asked before: ``rephrase``, ``contradict`` (every other time) or ``canned``."""

    description = "test bot: answers repeated questions in one style"

    def __init__(self, name: str = "", *, style: str = "rephrase", offset: int = 0) -> None:
        super().__init__(name)
        self.style, self.offset = style, offset

    def reply(self, history: History) -> str:
        last = history.messages[-1].text
        if last in ANSWERS:
            if self.style == "canned":
                return CANNED
            answer, other_words, opposite = ANSWERS[last]
            asked = sum(1 for m in history.messages if m.role == "partner" and m.text == last)
            if asked % 2:
                return answer
            return other_words if self.style == "rephrase" else opposite
        if len(history.messages) > 1 and history.messages[-2].text in ANSWERS:
            return f"I see, thanks ({history.turn_index})."  # the partner answered my question
        own = sum(1 for m in history.messages if m.role == "self" and m.text in ANSWERS)
        return QUESTIONS[(own + self.offset) % len(QUESTIONS)]


def family_games(a: Bot, b: Bot) -> list[Transcript]:
    return games(a, b, 24, range(2))


def consistency(gs: list[Transcript], params: dict[str, Any]) -> list[Any]:
    scorers = build_scorers(ScoringConfig(dimensions=["consistency"], params={"consistency": params}))
    return [s["consistency"] for s in score_games(gs, scorers)]


def points(gs: list[Transcript], params: dict[str, Any]) -> dict[str, float]:
    total: dict[str, float] = {}
    for g, s in zip(gs, consistency(gs, params)):
        res = result_from_scores(g.game_id, g.players, {"consistency": s}, {})
        for p in g.players:
            total[p] = total.get(p, 0.0) + res.points[p]["consistency"]
    return total


REPHRASER = Answerer("rephraser", style="rephrase")
CONTRADICTOR = Answerer("contradictor", style="contradict", offset=1)
CANNED_BOT = Answerer("canned", style="canned", offset=2)


def test_both_bots_are_asked_again_and_the_answers_differ() -> None:
    gs = family_games(REPHRASER, CONTRADICTOR)
    for s in consistency(gs, {}):
        tested = {d["speaker"] for d in s.details}
        assert tested == {"rephraser", "contradictor"} and s.not_applicable == ()
    texts = {t.text for g in gs for t in g.turns}
    assert {"Classical is my favourite.", "I hate classical music.", "I have no pets."} <= texts


def test_a_rephrasing_bot_is_never_charged_a_contradicting_one_always() -> None:
    gs = family_games(REPHRASER, CONTRADICTOR)
    for g, s in zip(gs, consistency(gs, {})):
        assert s.raw["rephraser"] == 0.0, g.game_id
        # the contradictor's every answer given again contradicts an earlier one (the
        # opposite of its first answer, or the first answer after the opposite)
        for d in s.details:
            assert d["inconsistent"] is (d["speaker"] == "contradictor"), (g.game_id, d)
    assert points(gs, {}) == {"rephraser": len(gs), "contradictor": 0.0}


def test_the_papers_tfidf_rule_charges_the_rephraser() -> None:
    gs = family_games(REPHRASER, CONTRADICTOR)
    raw = [s.raw["rephraser"] for s in consistency(gs, {"similarity": "tfidf"})]
    assert all(r < 0 for r in raw)  # "classical is my favourite" shares too few words
    assert PAPER["consistency"]["similarity"] == "tfidf"


def test_a_canned_bot_does_not_win_over_a_consistent_rephraser() -> None:
    gs = family_games(REPHRASER, CANNED_BOT)
    pts = points(gs, {})
    assert pts["canned"] <= pts["rephraser"]
    assert pts["canned"] == 0.0  # both consistent: nobody wins the point
    # the paper's rule (TF-IDF): the rephraser is charged, the canned bot wins every game
    tfidf = points(gs, {"similarity": "tfidf"})
    assert tfidf["canned"] == len(gs) and tfidf["rephraser"] == 0.0


def test_the_contradictor_loses_to_the_canned_bot_too() -> None:
    gs = family_games(CANNED_BOT, CONTRADICTOR)
    assert points(gs, {}) == {"canned": len(gs), "contradictor": 0.0}

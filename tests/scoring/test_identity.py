"""Identity facts (chatmatch.scoring.identity) and consistency's ``identity`` check."""

from __future__ import annotations

import math

import pytest
from scoring_dialogues import game

from chatmatch.scoring.consistency import Consistency
from chatmatch.scoring.identity import facts_of, identity_changes


@pytest.mark.parametrize("sentence, want", [
    ("I am 25 years old", [("age", "25")]),
    ("i'm twenty five", [("age", "25")]),
    ("i am 5 minutes away", []),
    ("I'm a teacher", [("job", "teacher")]),
    ("i am a big fan of jazz", []),
    ("i work as a welder", [("job", "welder")]),
    ("My name is Sam", [("name", "sam")]),
    ("i live in new york.", [("home", "new york")]),
    ("i'm from texas and i love it", [("home", "texas")]),
    ("I am a robot", [("nature", "bot")]),
    ("i'm not a bot", [("nature", "human")]),
    ("i am going home", []),
])
def test_facts_of(sentence, want) -> None:
    assert list(facts_of(sentence)) == want


def test_changes_are_restatements_with_another_value() -> None:
    turns = [(1, "i am 25. my name is sam"), (3, "how old are you?"), (5, "i'm 40 years old"),
             (7, "my name is sam."), (9, "are you 25?")]
    tested, changes = identity_changes(turns)
    assert tested == {5, 7}  # questions are not statements
    assert [(a.turn, b.turn, b.slot) for a, b in changes] == [(1, 5, "age")]


def test_consistency_tests_identity_restatements() -> None:
    g = game(["hi", "hello, i am a teacher.", "nice. i'm 30.", "i love my job as a nurse. i am a nurse.",
              "cool, i'm 30 years old as i said", "what?"], seed_first=True)
    on = Consistency(Consistency.Params(similarity="tfidf")).score_games([g])[0]
    # B said teacher (turn 1) then nurse (turn 3): tested once, inconsistent; A said 30 twice
    assert on.raw == {"A": 0.0, "B": -1.0}
    (detail,) = [d for d in on.details if d.get("identity")]
    assert detail["turn"] == 3 and detail["earlier_turn"] == 1 and detail["identity"] == "job"
    off = Consistency(Consistency.Params(similarity="tfidf", identity=False)).score_games([g])[0]
    assert all(math.isnan(v) for v in off.raw.values()) and off.not_applicable == ("A", "B")

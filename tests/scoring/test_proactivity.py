from __future__ import annotations

from chatmatch.scoring.proactivity import Proactivity
from chatmatch.transcript import Transcript

from scoring_dialogues import FIGURE2, game


def test_figure2(figure2: Transcript) -> None:
    # A asks at turns 0, 2, 4, 6; B asks nothing
    s = Proactivity().score_games([figure2])[0]
    assert s.raw == {"A": 4, "B": 0}
    assert s.higher_is_better
    assert [d["turn"] for d in s.details] == [0, 2, 4, 6]
    assert all(d["speaker"] == "A" and d["questions"] == 1 for d in s.details)


def test_seed_question_is_not_credited_to_the_starter() -> None:
    # turn 0 is the seed: A is credited with 2, 4, 6 only
    s = Proactivity().score_game(game(FIGURE2, seed_first=True))
    assert s.raw == {"A": 3, "B": 0}


def test_unit_turns_vs_questions() -> None:
    g = game(["Where? Why? How?", "ok", "Really?", "yes"])
    # turns: A asks in 2 turns; questions: 3 + 1
    assert Proactivity().score_game(g).raw == {"A": 2, "B": 0}
    q = Proactivity(Proactivity.Params(unit="questions")).score_game(g)
    assert q.raw == {"A": 4, "B": 0}
    assert q.details[0]["questions"] == 3


def test_ties_empty_one_word_non_english_emoji() -> None:
    g = game(["", "?", "Why?", "¿Por qué?", "ok", "你好吗？", "😀?", ""])
    # A: "" no, "Why?" yes, "ok" no, "😀?" yes -> 2; B: "?" no, "¿Por qué?" yes,
    # "你好吗？" yes, "" no -> 2: a tie
    s = Proactivity().score_game(g)
    assert s.raw == {"A": 2, "B": 2}
    assert [d["turn"] for d in s.details] == [2, 3, 5, 6]

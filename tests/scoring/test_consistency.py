from __future__ import annotations

from scoring_dialogues import FIGURE2, game

from chatmatch.scoring.consistency import Consistency
from chatmatch.scoring.config import ScoringConfig
from chatmatch.transcript import Transcript


def test_figure2(figure2: Transcript) -> None:
    s = Consistency().score_games([figure2])[0]
    # turn 3 answers repeated question 2 like turn 1 answered 0 (cosine 1 > 0.8): fine.
    # turn 7 answers repeated question 6; the answer to 4 was turn 5; the two share only
    # "in", "a", "the" -> cosine 0.23 <= 0.8: an inconsistency for B.
    assert s.raw == {"A": 0, "B": -1}
    assert [(d["turn"], d["original_question"], d["original_answer"], d["inconsistent"])
            for d in s.details] == [(3, 0, 1, False), (7, 4, 5, True)]
    assert s.details[1]["similarity"] < 0.8


def test_disjoint_answers_are_inconsistent_identical_ones_are_not() -> None:
    g = game(["Are you married?", "Yes, happily.", "Are you married?", "No, never."])
    # "yes happily" vs "no never": no shared token -> cosine 0 -> inconsistent
    assert Consistency().score_game(g).raw == {"A": 0, "B": -1}
    g2 = game(["Are you married?", "Yes, happily.", "Are you married?", "yes HAPPILY"])
    assert Consistency().score_game(g2).raw == {"A": 0, "B": 0}


def test_sigma_c_threshold() -> None:
    g = game(FIGURE2)
    # with sigma_c = 0 only a cosine of exactly 0 is inconsistent; turn 7 vs 5 is 0.23
    assert Consistency(Consistency.Params(sigma_c=0.0)).score_game(g).raw["B"] == 0


def test_no_repeated_question_no_check() -> None:
    g = game(["Are you married?", "Yes.", "Do you have kids?", "No."])
    s = Consistency().score_game(g)
    assert s.raw == {"A": 0, "B": 0} and s.details == []


def test_empty_answer_contradicts_nothing() -> None:
    g = game(["Are you married?", "Yes, happily.", "Are you married?", "   "])
    s = Consistency().score_game(g)
    assert s.raw == {"A": 0, "B": 0} and s.details == []


def test_seed_question_repeated() -> None:
    g = game(["What did you do last week?", "I went hiking.", "What did you do last week?",
              "I stayed home 😀"], seed_first=True)
    # A repeats the seed question; B's two answers share no token -> inconsistent
    assert Consistency().score_game(g).raw == {"A": 0, "B": -1}


def test_sigma_r_follows_diversity_in_a_config() -> None:
    # "where do you live" vs "where do you live now": similar but below 0.95
    g = game(["Where do you live?", "Paris.", "Where do you live now?", "Rome."])
    assert Consistency().score_game(g).raw["B"] == 0
    cfg = ScoringConfig(dimensions=["diversity", "consistency"],
                        params={"diversity": {"sigma_r": 0.5}})
    _, consistency = cfg.build_scorers()
    assert consistency.params.sigma_r == 0.5
    assert consistency.score_games([g])[0].raw["B"] == -1

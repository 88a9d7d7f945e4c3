from __future__ import annotations

from chatmatch.scoring.proactivity import Proactivity
from chatmatch.transcript import Transcript

from scoring_dialogues import FIGURE2, game
from chatmatch.scoring.build import build_scorers


#: the paper counted every question, repeated ones included
PAPER = Proactivity(Proactivity.Params(unit="turns", questions="all", skip_repetitions=False, excuse_answers=False))


def test_figure2(figure2: Transcript) -> None:
    # A asks at turns 0, 2, 4, 6; B asks nothing. 2 and 6 repeat 0 and 4: by default they
    # earn nothing (diversity penalises them); the paper counted them.
    s = Proactivity(Proactivity.Params(unit="turns", questions="all")).score_games([figure2])[0]
    assert s.raw == {"A": 2, "B": 0}
    assert s.higher_is_better
    # the details say which questions counted, and why the others did not
    assert [(d["turn"], d["questions"], d.get("not_counted")) for d in s.details] == [
        (0, 1, None), (2, 0, "repetition"), (4, 1, None), (6, 0, "repetition")]
    assert s.details[1]["asked"] == 1
    p = PAPER.score_games([figure2])[0]
    assert p.raw == {"A": 4, "B": 0}
    assert [d["turn"] for d in p.details] == [0, 2, 4, 6]
    assert all(d["speaker"] == "A" and d["questions"] == 1 for d in p.details)


def test_seed_question_is_not_credited_to_the_starter() -> None:
    # turn 0 is the seed: A is credited with 2, 4, 6 only (paper) or 4 (2 and 6 repeat)
    assert PAPER.score_game(game(FIGURE2, seed_first=True)).raw == {"A": 3, "B": 0}
    assert Proactivity(Proactivity.Params(unit="turns", questions="all")).score_game(game(FIGURE2, seed_first=True)).raw == {"A": 1, "B": 0}


def test_asking_the_same_question_ten_times_earns_one_credit() -> None:
    g = game(["What city are you from?", "Chicago.", "What city are you from?", "Chicago.",
              "What city are you from?", "Chicago.", "Do you like it there?", "Yes.",
              "What city are you from?", "Chicago."])
    assert Proactivity(Proactivity.Params(unit="turns", questions="all")).score_game(g).raw == {"A": 2, "B": 0}
    assert PAPER.score_game(g).raw == {"A": 5, "B": 0}


def test_sigma_r_follows_diversity_in_a_config() -> None:
    from chatmatch.scoring.config import ScoringConfig

    # "where do you live?" / "where do you live now?": a repeat only for sigma_r <= ~0.7
    g = game(["Where do you live?", "Paris.", "Where do you live now?", "Rome."])
    assert Proactivity(Proactivity.Params(unit="turns", questions="all")).score_game(g).raw["A"] == 2
    cfg = ScoringConfig(dimensions=["diversity", "proactivity"],
                        params={"diversity": {"sigma_r": 0.5},
                                "proactivity": {"unit": "turns", "questions": "all"}})
    _, proactivity = build_scorers(cfg)
    assert proactivity.params.sigma_r == 0.5
    assert proactivity.score_games([g])[0].raw["A"] == 1


def test_unit_turns_vs_questions() -> None:
    g = game(["Where? Why? How?", "ok", "Really?", "yes"])
    # turns: A asks in 2 turns; questions: 3 + 1
    assert Proactivity(Proactivity.Params(unit="turns", questions="all")).score_game(g).raw == {"A": 2, "B": 0}
    q = Proactivity(Proactivity.Params(unit="questions", questions="all")).score_game(g)
    assert q.raw == {"A": 4, "B": 0}
    assert q.details[0]["questions"] == 3


def test_ties_empty_one_word_non_english_emoji() -> None:
    g = game(["", "?", "Why?", "¿Por qué?", "ok", "你好吗？", "😀?", ""])
    # A: "" no, "Why?" yes, "ok" no, "😀?" yes -> 2; B: "?" no, "¿Por qué?" yes,
    # "你好吗？" yes, "" no -> 2: a tie
    s = Proactivity(Proactivity.Params(unit="turns", questions="all")).score_game(g)
    assert s.raw == {"A": 2, "B": 2}
    assert [d["turn"] for d in s.details] == [2, 3, 5, 6]


def test_turns_spent_answering_a_repeated_question_are_excused() -> None:
    # A repeats its question at 2 and 6, so B answers the same again at 3 and 7 (excused
    # repetitions): of B's 4 credited turns, 2 were taken by A's repeats
    g = game(["Where are you from?", "Paris.", "Where are you from?", "Paris.",
              "Rome is nice.", "Do you travel?", "Where are you from?", "Paris."])
    # A: asks at 0 (2 and 6 are penalised) -> 1. B: asks at 5 -> 1 x 4 / (4 - 2) = 2
    assert Proactivity(Proactivity.Params(unit="turns", questions="all")).score_game(g).raw == {"A": 1, "B": 2}
    plain = Proactivity(Proactivity.Params(unit="turns", questions="all", excuse_answers=False)).score_game(g)
    assert plain.raw == {"A": 1, "B": 1}
    assert PAPER.score_game(g).raw == {"A": 3, "B": 1}


# --- questions: specific -------------------------------------------------------------------
SPECIFIC = Proactivity(Proactivity.Params(unit="turns", questions="specific"))


def test_generic_questions_earn_nothing() -> None:
    g = game(["What about you?", "Do you play chess?", "And you? How are you?",
              "Really? Why?", "ok", "Which chess opening do you like?"])
    assert Proactivity(Proactivity.Params(unit="turns", questions="all")).score_game(g).raw == {"A": 2, "B": 3}
    # A asks only generic questions; B asks about chess twice (different content words)
    assert SPECIFIC.score_game(g).raw == {"A": 0, "B": 2}


def test_a_question_repeated_in_content_earns_once() -> None:
    # the same content words ("play chess") asked again, reworded: counted once
    g = game(["Do you play chess?", "no", "So, do you play chess at all?", "no"])
    assert SPECIFIC.score_game(g).raw["A"] == 1
    assert Proactivity(Proactivity.Params(unit="turns", questions="all")).score_game(g).raw["A"] == 2


def test_share_unit_is_a_rate() -> None:
    g = game(["Do you play chess?", "no", "Do you like tea?", "no", "fine", "ok"])
    s = Proactivity(Proactivity.Params(unit="share", questions="all")).score_game(g)
    assert s.raw == {"A": 2 / 3, "B": 0.0}

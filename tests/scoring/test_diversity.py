from __future__ import annotations

import math

import pytest
from scoring_dialogues import FIGURE2, game

from chatmatch.scoring.diversity import Diversity
from chatmatch.scoring.features import similarity_matrix
from chatmatch.transcript import Transcript


def test_figure2(figure2: Transcript) -> None:
    s = Diversity().score_games([figure2])[0]
    # turns 2 and 6 (paper 3 and 7) are repeated questions: A -2. Turn 3 (paper 4)
    # repeats turn 1 but follows a repeated question: not penalised. B 0.
    assert s.raw == {"A": -2, "B": 0}
    assert s.details == [
        {"turn": 2, "speaker": "A", "repeats": [0], "repeated_question_of": 0, "penalised": True},
        {"turn": 3, "speaker": "B", "repeats": [1], "repeated_question_of": None, "penalised": False},
        {"turn": 6, "speaker": "A", "repeats": [4], "repeated_question_of": 4, "penalised": True},
    ]


def test_plain_repetition_is_penalised() -> None:
    g = game(["I like tea.", "Me too.", "I like tea.", "Nice.", "i LIKE tea!!"])
    # turns 2 and 4 repeat turn 0 (same tokens -> cosine 1); the turn before each is not
    # a repeated question -> both penalised
    s = Diversity().score_game(g)
    assert s.raw == {"A": -2, "B": 0}
    assert [d["repeats"] for d in s.details] == [[0], [0, 2]]


def test_echoing_the_other_bot_is_not_a_repetition() -> None:
    g = game(["I like tea.", "I like tea.", "Good.", "Good."])
    assert Diversity().score_game(g).raw == {"A": 0, "B": 0}


def test_seed_counts_as_the_starters_history_but_is_never_penalised() -> None:
    g = game(["What did you do last week?", "I read a lot.", "What did you do last week?",
              "I read a lot."], seed_first=True)
    # turn 2 repeats the seed question (A's history) -> penalised; turn 3 answers it -> not
    s = Diversity().score_game(g)
    assert s.raw == {"A": -1, "B": 0}


def test_threshold_hand_computed() -> None:
    g = game(["red tea", "hello", "red coffee"])
    # smoothed IDF over 3 turns: red (df 2) ln(4/3)+1 = 1.28768; tea, coffee (df 1)
    # ln(4/2)+1 = 1.69315. cos(0, 2) = 1.28768^2 / (1.28768^2 + 1.69315^2) = 0.36645
    sim = similarity_matrix([t.text for t in g.turns])
    red, rare = math.log(4 / 3) + 1, math.log(2) + 1
    assert sim[0, 2] == pytest.approx(red**2 / (red**2 + rare**2))
    assert sim[0, 2] == pytest.approx(0.36645, abs=1e-5)
    assert Diversity(Diversity.Params(sigma_r=0.36)).score_game(g).raw["A"] == -1
    assert Diversity(Diversity.Params(sigma_r=0.37)).score_game(g).raw["A"] == 0
    assert Diversity().score_game(g).raw["A"] == 0  # default 0.95


def test_identical_turns_have_similarity_exactly_one() -> None:
    g = game(["I like tea, do you?", "yes", "i LIKE tea do you"])
    assert similarity_matrix([t.text for t in g.turns])[0, 2] == 1.0
    assert Diversity(Diversity.Params(sigma_r=1.0)).score_game(g).raw["A"] == -1


def test_empty_turns_are_never_repetitions_but_emoji_are() -> None:
    g = game(["", "😀", "", "😀", "...", "😀"])
    # empty turns have no token (similarity 0); B's emoji-only turns 3 and 5 repeat 1
    s = Diversity().score_game(g)
    assert s.raw == {"A": 0, "B": -2}


def test_one_word_non_english_and_ties() -> None:
    g = game(["¿Dónde vives?", "Madrid", "¿Dónde vives?", "Madrid", "ok", "ok"])
    # A: repeated question (-1); B: "Madrid" after a repeated question: not penalised;
    # A "ok" and B "ok" are each first of their speaker -> no penalty
    s = Diversity().score_game(g)
    assert s.raw == {"A": -1, "B": 0}
    tie = Diversity().score_game(game(["hi", "hi", "hi", "hi"]))
    assert tie.raw == {"A": -1, "B": -1}


def test_a_single_turn_has_no_history() -> None:
    s = Diversity().score_game(game(FIGURE2[:1]))
    assert s.raw == {"A": 0, "B": 0} and s.details == []


def test_embedding_similarity_finds_reworded_repetitions() -> None:
    from fake_embedder import FakeEmbedder
    from scoring_dialogues import game as make

    g = make(["Hi.", "I love classical music.", "Oh.", "Mozart is my favourite.", "Ok.",
              "I live in Rome."])
    tfidf = Diversity().score_game(g)
    meaning = Diversity(Diversity.Params(similarity="embedding", sigma_r=0.8),
                        embedder=FakeEmbedder()).score_game(g)
    assert tfidf.raw["B"] == 0  # no shared word
    assert meaning.raw["B"] == -1  # the same meaning said twice
    assert [d["turn"] for d in meaning.details] == [3]
    assert Diversity.Params().similarity == "tfidf"

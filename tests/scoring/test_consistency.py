from __future__ import annotations

import math
from typing import Any, ClassVar

import pytest

from scoring_dialogues import FIGURE2, game

from chatmatch.scoring.consistency import Consistency
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.points import result_from_scores
from chatmatch.transcript import Transcript
from chatmatch.scoring.build import build_scorers

#: the paper's rule: a count of inconsistencies, each answer compared with the original's
PAPER = Consistency(Consistency.Params(similarity="tfidf", score="count", compare="original"))


def tfidf(**params: Any) -> Consistency:
    """Algorithm 2 with the paper's TF-IDF similarity (the default compares by meaning)."""
    return Consistency(Consistency.Params(similarity="tfidf", **params))


def untested(raw: dict[str, float], *bots: str) -> bool:
    return all(math.isnan(raw[b]) for b in bots)


def test_figure2(figure2: Transcript) -> None:
    s = tfidf().score_games([figure2])[0]
    # turn 3 answers repeated question 2 like turn 1 answered 0 (cosine 1 > 0.8): fine.
    # turn 7 answers repeated question 6; the answer to 4 was turn 5; the two share only
    # "in", "a", "the" -> cosine 0.23 <= 0.8: an inconsistency for B. B was tested twice
    # and slipped once (rate 1/2); A was never asked a repeated question: not applicable.
    assert s.raw["B"] == -0.5 and untested(s.raw, "A") and s.not_applicable == ("A",)
    assert [(d["turn"], d["original_question"], d["original_answer"], d["inconsistent"])
            for d in s.details] == [(3, 0, 1, False), (7, 4, 5, True)]
    assert s.details[1]["similarity"] < 0.8
    assert [c["answer"] for d in s.details for c in d["compared"]] == [1, 5]
    assert PAPER.score_game(figure2).raw == {"A": 0, "B": -1}
    assert PAPER.score_game(figure2).not_applicable == ()


def test_disjoint_answers_are_inconsistent_identical_ones_are_not() -> None:
    g = game(["Are you married?", "Yes, happily.", "Are you married?", "No, never."])
    # "yes happily" vs "no never": no shared token -> cosine 0 -> inconsistent
    assert tfidf().score_game(g).raw["B"] == -1
    assert PAPER.score_game(g).raw == {"A": 0, "B": -1}
    g2 = game(["Are you married?", "Yes, happily.", "Are you married?", "yes HAPPILY"])
    assert tfidf().score_game(g2).raw["B"] == 0
    assert PAPER.score_game(g2).raw == {"A": 0, "B": 0}


def test_no_repeated_question_no_check() -> None:
    g = game(["Are you married?", "Yes.", "Do you have kids?", "No."])
    s = tfidf().score_game(g)
    assert untested(s.raw, "A", "B") and s.details == [] and s.not_applicable == ("A", "B")
    assert PAPER.score_game(g).raw == {"A": 0, "B": 0}


def test_empty_answer_contradicts_nothing() -> None:
    g = game(["Are you married?", "Yes, happily.", "Are you married?", "   "])
    s = tfidf().score_game(g)
    assert untested(s.raw, "A", "B") and s.details == []
    assert PAPER.score_game(g).raw == {"A": 0, "B": 0}


def test_seed_question_repeated() -> None:
    g = game(["What did you do last week?", "I went hiking.", "What did you do last week?",
              "I stayed home 😀"], seed_first=True)
    # A repeats the seed question; B's two answers share no token -> inconsistent
    assert tfidf().score_game(g).raw["B"] == -1
    assert PAPER.score_game(g).raw == {"A": 0, "B": -1}


def test_sigma_r_follows_diversity_in_a_config() -> None:
    # "where do you live" vs "where do you live now": similar but below 0.95
    g = game(["Where do you live?", "Paris.", "Where do you live now?", "Rome."])
    assert untested(tfidf().score_game(g).raw, "B")
    cfg = ScoringConfig(dimensions=["diversity", "consistency"],
                        params={"diversity": {"sigma_r": 0.5}, "consistency": {"similarity": "tfidf"}})
    _, consistency = build_scorers(cfg)
    assert consistency.params.sigma_r == 0.5
    assert consistency.score_games([g])[0].raw["B"] == -1


# --- each bot judged on its own behaviour --------------------------------------------------
#: A asks the same question four times; B is consistent except once (3 tests, 1 slip).
#: B asks once and repeats once; A answers inconsistently (1 test, 1 slip).
ASKED_MORE = [
    "Where are you from?", "I am from Chicago.",                 # 0 A, 1 B
    "Where are you from?", "I am from Chicago.",                 # 2 A repeats, 3 B same
    "Where are you from?", "Born in Boston, actually.",          # 4 A repeats, 5 B slips
    "Where are you from?", "I am from Chicago.",                 # 6 A repeats, 7 B
    "Do you have a dog?", "Do you like dogs?",                   # 8 A, 9 B asks
    "Yes I love dogs.", "Do you like dogs?",                     # 10 A answers, 11 B repeats
    "No, I hate them.",                                           # 12 A contradicts 10
]


def test_the_rate_does_not_charge_a_bot_for_being_asked_more() -> None:
    g = game(ASKED_MORE)
    s = tfidf().score_game(g)
    # B: tests at 3, 5, 7. With compare=all, 7 ("chicago") is compared with 1, 3 and the
    # slip at 5 -> inconsistent with 5; so B is inconsistent at 5 and 7: 2/3. A: 1/1.
    assert s.raw == {"A": -1.0, "B": -2 / 3}
    assert [(d["turn"], d["inconsistent"]) for d in s.details] == [
        (3, False), (5, True), (7, True), (12, True)]
    assert result_from_scores("g", ("A", "B"), {"consistency": s}, {}).points == {
        "A": {"consistency": 0.0}, "B": {"consistency": 1.0}}
    # the paper's count: 5 is compared with 3 and 7 with 5 (the answer to the latest
    # original): B -2, A -1, so A, who contradicted every answer it was tested on, wins
    paper = PAPER.score_game(g)
    assert paper.raw == {"A": -1, "B": -2}
    assert result_from_scores("g", ("A", "B"), {"consistency": paper}, {}).points["A"] == {
        "consistency": 1.0}


def test_compare_all_vs_original() -> None:
    g = game(ASKED_MORE)
    only_original = tfidf(compare="original").score_game(g)
    # original = the latest most similar question: 7 is compared with 5 only
    assert [c["answer"] for c in only_original.details[2]["compared"]] == [5]
    every = tfidf().score_game(g)
    assert [c["answer"] for c in every.details[2]["compared"]] == [1, 3, 5]
    assert [c["answer"] for c in every.details[1]["compared"]] == [1, 3]


def test_an_untested_bot_wins_nothing_and_loses_nothing() -> None:
    # B repeats its question; A contradicts itself. A never repeats a question: B untested.
    g = game(["Hello there.", "Do you like dogs?", "Yes I love dogs.", "Do you like dogs?",
              "No, I hate them."])
    s = tfidf().score_game(g)
    assert s.raw["A"] == -1 and untested(s.raw, "B") and s.not_applicable == ("B",)
    res = result_from_scores("g", ("A", "B"), {"consistency": s}, {})
    assert res.points == {"A": {"consistency": 0.0}, "B": {"consistency": 0.0}}
    assert res.not_applicable == {"consistency": ["B"]}
    # the paper's count gives B (who repeated the question) the point
    paper = result_from_scores("g", ("A", "B"), {"consistency": PAPER.score_game(g)}, {})
    assert paper.points["B"]["consistency"] == 1.0


def test_the_asker_is_never_charged() -> None:
    # A repeats its own question and then "answers" it itself (a log with two A turns in a
    # row): that is not an answer by the partner, so nobody is tested
    from chatmatch.transcript import Transcript as T, Turn

    turns = tuple(Turn(i, sp, tx) for i, (sp, tx) in enumerate([
        ("A", "Do you like dogs?"), ("B", "Yes."), ("A", "Do you like dogs?"), ("A", "No way.")]))
    g = T("g", ("A", "B"), turns)
    s = tfidf().score_game(g)
    assert s.details == [] and s.not_applicable == ("A", "B")


# --- similarity: embedding (meaning), with a tiny injected embedder ------------------------
def meaning(**params: Any) -> Consistency:
    from fake_embedder import FakeEmbedder

    return Consistency(Consistency.Params(similarity="embedding", **params), embedder=FakeEmbedder())


def test_embedding_a_reworded_answer_is_consistent() -> None:
    g = game(["What music do you like?", "I love classical music.", "What music do you like?",
              "Mozart is my favourite."])
    # TF-IDF: no shared token -> charged; meaning: classical~mozart, love~favourite -> fine
    assert tfidf().score_game(g).raw["B"] == -1
    s = meaning().score_game(g)
    assert s.raw["B"] == 0 and s.details[0]["similarity"] > 0.5


def test_embedding_an_answer_about_something_else_is_inconsistent() -> None:
    g = game(["What music do you like?", "I love classical music.", "What music do you like?",
              "Heavy metal, mostly."])
    s = meaning().score_game(g)
    assert s.raw["B"] == -1 and s.details[0]["inconsistent"] is True
    partly = game(["What music do you like?", "I love classical music.", "What music do you like?",
                   "Classical and heavy metal."])  # cosine 1/sqrt(15) = 0.26
    assert meaning().score_game(partly).raw["B"] == -1


def test_embedding_sigma_c_defaults() -> None:
    assert Consistency.Params(similarity="tfidf").threshold() == 0.8
    assert Consistency.Params().threshold() == 0.5  # the default compares by meaning
    assert Consistency.Params(similarity="embedding").threshold() == 0.5
    for removed in ("sigma_c", "sigma_s", "questions", "model", "sigma_r"):
        with pytest.raises(ValueError, match=f"parameter '{removed}' was removed"):
            ScoringConfig(params={"consistency": {removed: 0.7}})


def test_self_contradiction_outside_repeated_questions() -> None:
    g = game(["Tell me about you.", "I have two kids.", "Nice.", "I like Paris a lot.",
              "Cool.", "I don't have kids."])
    s = meaning(self_contradictions=True).score_game(g)
    # turn 5 restates turn 1's topic (kids, two, have) with the opposite polarity
    (d,) = [d for d in s.details if d.get("self_contradiction")]
    assert (d["turn"], d["earlier_turn"], d["speaker"]) == (5, 1, "B")
    assert s.raw["B"] == -1.0  # tested once (turn 5), inconsistent once
    assert math.isnan(s.raw["A"])  # A made no statement about itself


def test_self_paraphrase_is_not_a_contradiction() -> None:
    g = game(["Tell me about you.", "I love classical music.", "Nice.",
              "My favourite is Mozart, I love him."])
    s = meaning(self_contradictions=True).score_game(g)
    assert s.raw["B"] == 0.0 and not any(d.get("self_contradiction") for d in s.details)


def test_the_default_checks_statements_with_the_same_predicate() -> None:
    params = Consistency.Params()
    assert params.checks_self() and params.contradiction == "same_predicate"
    # the paper's TF-IDF similarity leaves it off (it compares statements by meaning)
    assert not Consistency.Params(similarity="tfidf").checks_self()
    assert not Consistency.Params(self_contradictions=False).checks_self()


def test_same_predicate_a_flip_counts_only_between_statements_of_the_same_verb() -> None:
    # love/have classical music: the same topic (cosine 0.67 under the fake embedder),
    # opposite polarity, different main verbs: two different claims, not a contradiction
    other_verb = game(["Tell me about you.", "I love classical music.", "Nice.",
                       "I have no classical music at home."])
    assert meaning().score_game(other_verb).raw["B"] == 0.0
    s = meaning(contradiction="polarity").score_game(other_verb)
    assert s.raw["B"] == -1.0 and [d["earlier_turn"] for d in s.details] == [1]
    # the same verb (love / hate read as one attitude): a contradiction under both rules
    same_verb = game(["Tell me about you.", "I love classical music.", "Nice.",
                      "I hate classical music."])
    for rule in ("same_predicate", "polarity"):
        assert meaning(contradiction=rule).score_game(same_verb).raw["B"] == -1.0


def test_same_predicate_reads_the_root_lemma() -> None:
    from chatmatch.scoring.contradiction import predicate

    assert predicate("i have two kids") == predicate("i don't have any children") == "have"
    assert predicate("i love jazz") == predicate("i really hate jazz") == "like"
    assert predicate("i play the guitar") != predicate("i don't like the guitar")


def test_self_contradictions_need_embedding() -> None:
    import pytest
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="self_contradictions: true needs similarity: embedding"):
        Consistency.Params(similarity="tfidf", self_contradictions=True)
    with pytest.raises(ValidationError, match="polarity: true needs similarity: embedding"):
        Consistency.Params(similarity="tfidf", polarity=True)


def test_embedding_embeds_only_the_tested_answers_in_one_batch() -> None:
    from fake_embedder import FakeEmbedder

    emb = FakeEmbedder()
    scorer = Consistency(Consistency.Params(similarity="embedding"), embedder=emb)
    g = game(["What music do you like?", "I love classical music.", "What music do you like?",
              "Heavy metal.", "Nice."])
    scorer.score_games([g, g])
    assert emb.calls[0] == 4  # turns 3 and 1 of both games, before any game is scored


# --- the default: meaning, and the answers' polarity ---------------------------------------
def test_the_default_compares_by_meaning_and_polarity() -> None:
    params = Consistency.Params()
    assert params.similarity == "embedding" and params.checks_polarity()
    assert not Consistency.Params(similarity="tfidf").checks_polarity()
    assert not Consistency.Params(polarity=False).checks_polarity()


def test_polarity_the_same_thing_said_the_other_way_is_inconsistent() -> None:
    said = game(["What music do you like?", "I love classical music.", "What music do you like?",
                 "I don't love classical music."])
    # the same concepts (cosine 1 under the fake embedder): only the polarity differs
    s = meaning().score_game(said)
    assert s.raw["B"] == -1 and s.details[0]["compared"][0]["opposite_polarity"] is True
    assert meaning(polarity=False).score_game(said).raw["B"] == 0
    # a reworded answer with the same polarity is fine; so is "no" said twice
    same = game(["Do you have kids?", "No, I don't have kids.", "Do you have kids?",
                 "No kids."])
    assert meaning().score_game(same).raw["B"] == 0


def test_polarity_needs_the_same_topic() -> None:
    # opposite polarity but about something else (cosine 0 < sigma_s): the cosine decides
    g = game(["Where do you live?", "I live in Paris.", "Where do you live?",
              "I do not live in Rome, I live in Paris."])
    from fake_embedder import FakeEmbedder

    class Strict(Consistency.Params):
        sigma_s: ClassVar[float] = 0.99

    s = Consistency(Strict(similarity="embedding"), embedder=FakeEmbedder()).score_game(g)
    assert "opposite_polarity" not in s.details[0]["compared"][0]


def test_answer_negative() -> None:
    from chatmatch.scoring.contradiction import answer_negative

    assert not answer_negative("I love classical music.")
    assert answer_negative("I hate classical music.")
    assert answer_negative("I have no pets.")
    assert answer_negative("No, I don't.")  # the particle echoes the negation: one, not two
    assert answer_negative("No.") and answer_negative("Nope, never.")
    assert not answer_negative("Yes, I do not dislike it.")  # two negations


def test_every_repeated_question_is_tested() -> None:
    # the paper's rule: "why?" asked twice is a repeated question too
    g = game(["I like jazz.", "Really? Why?", "It relaxes me.", "Why?", "Because of the sax.",
              "Why?", "No idea."])
    assert tfidf().score_game(g).raw["A"] == -1  # A charged for "No idea."


def test_no_repeated_question_loads_no_model(monkeypatch: Any) -> None:
    import chatmatch.scoring.consistency as module

    def fail(model: str) -> object:
        raise AssertionError("the embedding model was loaded")

    monkeypatch.setattr(module, "get_embedder", fail)
    scorer = Consistency()  # the default: by meaning
    g = game(["Are you married?", "Yes.", "Do you have kids?", "No."])
    scorer.load()  # checks the model can be had, loads nothing
    assert scorer.score_games([g])[0].not_applicable == ("A", "B")


def test_show_names_the_earlier_statement_a_turn_contradicts() -> None:
    from chatmatch.scoring.details import detail_notes

    g = game(["Tell me about you.", "I have two kids.", "Nice.", "I'm 25 years old.",
              "Cool.", "I don't have kids.", "And?", "I'm 40 years old."])
    s = meaning().score_game(g)
    notes = {d["turn"]: [n.text for n in detail_notes("consistency", d)] for d in s.details}
    assert notes[5] == ["contradicts its statement at turn 1"]
    assert notes[7] == ["changes its age stated at turn 3"]

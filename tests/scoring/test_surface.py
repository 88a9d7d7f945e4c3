"""The surface recipes (chatmatch.scoring.surface) and what the default scorers do with
them: a repeated frame and an edited echo are degenerate for fluency and earn no relevance,
a word salad adds no specificity, a parroted or off-topic question is not proactive, an
entity stuffed into an off-topic turn is not knowledge. ``preset: paper`` keeps the
paper's counts (tests/scoring/golden holds it exactly)."""

from __future__ import annotations

from typing import Any

import fake_embedder
import pytest

from chatmatch.scoring.fluency_tokens import degenerate
from chatmatch.scoring.knowledge import Knowledge
from chatmatch.scoring.proactivity import Proactivity
from chatmatch.scoring.relevance import Relevance
from chatmatch.scoring.specificity import Specificity
from chatmatch.scoring.surface import (edited_echo, frame_repeat, own_words, parroted, reshaped,
                                       salad)
from chatmatch.transcript import Transcript, Turn

PIRATE = "Arr! Ye speak of {}? Aboard the Black Pearl we'd call that treasure. What say ye?"


def game(lines: list[tuple[str, str]]) -> Transcript:
    turns = tuple(Turn(i, who, text) for i, (who, text) in enumerate(lines))
    return Transcript("g1", ("a", "b"), turns)


def test_frame_repeat_needs_the_bot_s_own_earlier_frame() -> None:
    assert frame_repeat(PIRATE.format("hiking"), [PIRATE.format("music")])
    assert not frame_repeat(PIRATE.format("hiking"), [])
    assert not frame_repeat("I went to the lake with my sister on Sunday.",
                            ["I went to the cinema last night and it was great fun."])


COUNTER = "Hmm, what does '{}' mean to you? And why bring up '{}' at all?"


def test_a_template_with_the_partner_s_words_in_several_places_is_a_frame() -> None:
    """Two slots split every 4-gram but four: the plain 4-gram share (4 of 11) misses the
    template, the partner's words as slots (11 of 11) find it."""
    first = COUNTER.format("used", "means")
    partner = "It seems like there might be some confusion here."
    again = COUNTER.format("confusion", "might")
    assert not frame_repeat(again, [first])
    assert frame_repeat(again, [first], partner_last=partner)
    assert degenerate(again, [first], partner) == "frame"
    # a slot is a word the partner said: the same template around words of the bot's own
    # is not a frame, nor are the bot's own sentences that reuse a partner's word
    assert not frame_repeat(COUNTER.format("lake", "sister"), [first], partner_last=partner)
    assert not frame_repeat("There might be confusion, but I went to the lake on Sunday.",
                            ["I went to the cinema last night and it was great fun."],
                            partner_last=partner)
    # function words the partner said are not slots
    assert not frame_repeat("What do you like to do on weekends with friends?",
                            ["What do you think about the new film at the cinema?"],
                            partner_last="I think you like it.")


def test_a_question_template_around_the_partner_s_words_is_not_proactive() -> None:
    g = game([("a", "I went hiking with my brother last week."),
              ("b", COUNTER.format("hiking", "brother")),
              ("a", "We climbed a mountain near the lake."),
              ("b", COUNTER.format("mountain", "lake")),
              ("a", "The weather was sunny and warm all day."),
              ("b", COUNTER.format("weather", "sunny"))])
    s = Proactivity(Proactivity.Params(), embedder=fake_embedder.FakeEmbedder()).score_games([g])[0]
    why = {d["turn"]: d.get("not_counted") for d in s.details if d["speaker"] == "b"}
    assert why[3] == why[5] == "frame repeated"


def test_reshaped_is_the_partner_s_turn_with_its_words_swapped() -> None:
    partner = "The kind of thing that makes your eyes light up with excitement when it comes."
    shape = ("The violin of canoe that marmalade my telescope meadow up with chandelier "
             "when it telescope.")
    assert reshaped(shape, partner)
    assert degenerate(shape, [], partner) == "reshape"
    # a reply of its own, a short parallel reply, a list of nouns: not the partner's frame
    assert not reshaped("I love that feeling too, it happens to me when I paint in the "
                        "garden on Sundays.", partner)
    assert not reshaped("I like cats.", "I like dogs.")
    assert not reshaped("Violin canoe marmalade telescope meadow chandelier lantern harbour.",
                        "Kind thing eyes light excitement writing something new front.")
    assert not reshaped(shape, None)


def test_edited_echo_is_the_partner_s_turn_lightly_changed() -> None:
    partner = "I went hiking in the mountains with my brother."
    assert edited_echo("Indeed, you went hiking in the mountains with your brother.", partner)
    assert not edited_echo("Hiking is great, which mountains did you climb last time?", partner)
    assert not edited_echo("Indeed, you went hiking.", None)


@pytest.mark.parametrize("text, is_salad", [
    ("Quixotic obsidian palimpsest zephyr lugubrious cartography ephemeral marzipan.", True),
    ("I thought the obsidian cliffs were beautiful in the morning light.", False),
    ("Yes, sure.", False),  # too short to tell
])
def test_salad(text: str, is_salad: bool) -> None:
    assert salad(text) is is_salad


def test_parroted_questions() -> None:
    assert parroted("Do you like hiking?", ["Do you like hiking?"], None)
    assert parroted("what did you do last week?", [], "So, what did you do last week?")
    assert not parroted("Which trail did you take?", ["Do you like hiking?"],
                        "I went hiking. Do you like hiking?")


def test_degenerate_names_frame_and_edit() -> None:
    assert degenerate(PIRATE.format("hiking"), [PIRATE.format("music")], "x") == "frame"
    assert degenerate("Indeed, you like your dog a lot.", [], "I like my dog a lot.") == "edit"


def test_specificity_discounts_salad_and_paper_keeps_it() -> None:
    g = game([("a", "Quixotic obsidian palimpsest zephyr lugubrious cartography ephemeral."),
              ("b", "I went to the lake with my sister and we swam for hours."),
              ("a", "Gossamer verdigris halcyon labyrinthine isotope mandolin nebula."),
              ("b", "Then we had a picnic by the water, which was really nice.")])
    default = Specificity().score_game(g)
    assert default.raw["a"] == 0.0 and default.raw["b"] > 0.5
    kept = Specificity(Specificity.Params(salad="keep")).score_game(g)
    assert kept.raw["a"] > kept.raw["b"]


def test_relevance_gives_nothing_to_a_repeated_frame() -> None:
    g = game([("b", "I love classical music, Mozart mostly."),
              ("a", PIRATE.format("Mozart")),
              ("b", "I like heavy metal too."),
              ("a", PIRATE.format("metal"))])
    emb = fake_embedder.FakeEmbedder()
    on = Relevance(Relevance.Params(), embedder=emb).score_games([g])[0]
    off = Relevance(Relevance.Params(degenerate="keep"), embedder=emb).score_games([g])[0]
    # the details list every turn; a left-out one says so under "excluded"
    def credited(s: Any) -> list[int]:
        return [d["turn"] for d in s.details if d["speaker"] == "a" and "excluded" not in d]
    assert credited(on) == [1] and credited(off) == [1, 3]
    assert [d["turn"] for d in on.details if "excluded" in d] == [3]
    assert on.raw["a"] < off.raw["a"]


def test_relevance_gives_nothing_to_the_partner_s_turn_with_its_words_swapped() -> None:
    g = game([("b", "I love classical music and I listen to Mozart every day in the car."),
              ("a", "I love heavy metal and I listen to Paris every week in the kids."),
              ("b", "I love classical music, and my wife likes Mozart too."),
              ("a", "Classical music is my favourite, I have two kids who love it.")])
    emb = fake_embedder.FakeEmbedder()
    on = Relevance(Relevance.Params(), embedder=emb).score_games([g])[0]
    off = Relevance(Relevance.Params(degenerate="keep"), embedder=emb).score_games([g])[0]
    assert [d["turn"] for d in on.details if d.get("excluded")] == [1]
    assert not any(d.get("excluded") for d in off.details)
    assert on.raw["a"] < off.raw["a"]


def test_relevance_credits_the_same_answer_to_a_repeated_question() -> None:
    """Answering a re-asked question the same way is no fault of the bot's: Algorithm 1
    excuses it, and ``degenerate: zero`` does not zero it as a repeat of its own turn."""
    g = game([("b", "Hello there."),
              ("a", "Which music do you like?"), ("b", "I love classical music, Mozart mostly."),
              ("a", "Which music do you like?"), ("b", "I love classical music, Mozart mostly.")])
    s = Relevance(Relevance.Params(), embedder=fake_embedder.FakeEmbedder()).score_games([g])[0]
    why = {d["turn"]: d.get("excluded", "credited") for d in s.details}
    assert why[2] == why[4] == "credited" and why[3] == "repetition"


def test_proactivity_counts_own_on_topic_questions_only() -> None:
    g = game([("b", "Music is my favourite."),
              ("a", "I love classical music. Do you like music?"),
              ("b", "Do you like music? That is a good question. Do you like music?"),
              ("a", "Yes, Mozart. Which classical music do you love?"),
              ("b", "Have you been to Rome?"),
              ("a", "I love Mozart and classical music."),
              ("b", "Where do you live?")])
    p = Proactivity(Proactivity.Params(), embedder=fake_embedder.FakeEmbedder())
    score = p.score_games([g])[0]
    # a: both questions own and on topic; b: a parroted question, then two off topic
    assert score.raw == pytest.approx({"a": 2 / 3, "b": 0.0})
    every = Proactivity(Proactivity.Params(questions="all")).score_game(g)
    assert every.raw == pytest.approx({"a": 2 / 3, "b": 3 / 4})


def test_a_question_counts_for_what_it_answers_not_for_the_partner_s_reply() -> None:
    """A polite partner takes up any question: "Have you been to Rome?" after a turn about
    music is off topic even when the partner answers it about Rome."""
    g = game([("a", "I love classical music."),
              ("b", "Have you been to Rome?"),
              ("a", "Yes, I live in Rome, I love Rome."),
              ("b", "Do you like music from Rome?")])
    s = Proactivity(Proactivity.Params(), embedder=fake_embedder.FakeEmbedder()).score_games([g])[0]
    assert s.raw["b"] == pytest.approx(1 / 2)  # only the second: it answers "... Rome ..."
    assert {d["turn"] for d in s.details if d.get("questions")} == {3}


def test_a_question_in_the_bot_s_own_frame_again_is_not_counted() -> None:
    """The pirate template ends every turn on "What say ye?" and asks "Ye speak of X?" about
    a word of the partner's: each question holds the partner's word (on topic) and a new
    content word (not asked before), so it won proactivity in 5 of 6 gaming-suite games.
    From its second saying the frame is the bot's own again: its questions count nothing."""
    g = game([("a", "I love classical music and Mozart."),
              ("b", PIRATE.format("music")),
              ("a", "Mozart wrote operas in Vienna."),
              ("b", PIRATE.format("operas")),
              ("a", "Vienna is lovely in spring."),
              ("b", PIRATE.format("spring"))])
    s = Proactivity(Proactivity.Params(), embedder=fake_embedder.FakeEmbedder()).score_games([g])[0]
    why = {d["turn"]: d.get("not_counted") for d in s.details if d["speaker"] == "b"}
    assert why[3] == why[5] == "frame repeated"
    assert s.raw["b"] <= 1 / 3
    paper = Proactivity(Proactivity.Params(questions="all")).score_game(g)
    assert paper.raw["b"] == pytest.approx(1.0)  # every turn asks: the paper counts them all


def test_knowledge_leaves_out_entities_stuffed_into_off_topic_turns() -> None:
    """Stuffed names earn nothing even when the partner politely takes them up (a's
    "Paris? ..."): what counts is whether the turn answers what was said."""
    g = game([("a", "I love classical music."),
              ("b", "I thought of Paris and Barack Obama, and then of Microsoft."),
              ("a", "Paris? I love Paris and classical music."),
              ("b", "Classical music is my favourite."),
              ("a", "I love Mozart, he lived in Vienna and loved music.")])
    score = Knowledge(embedder=fake_embedder.FakeEmbedder()).score_games([g])[0]
    assert score.raw["b"] == 0.0 and score.raw["a"] > 0
    stuffed = [e[0] for d in score.details for e in d.get("off_topic", ())]
    assert "Paris" in stuffed
    paper = Knowledge(Knowledge.Params(in_context=False)).score_games([g])[0]
    assert paper.raw["b"] > 0


def test_own_words_leave_out_the_partner_s_content_words_only() -> None:
    partner = "I have four. Two brothers and two sisters."
    fact = "Sister is one of the oldest examples of a relative, going back to Ancient Egypt."
    assert own_words(fact, partner) == ("is one of the oldest examples of a relative, going "
                                        "back to Ancient Egypt.")
    assert own_words("Do you see your brothers in Leeds?", partner) == "Do you see your in Leeds?"
    assert own_words("Do you get on with your brothers?", partner) == ""  # all theirs
    assert own_words("And you?", partner) == "And you?"  # no content word: nothing taken
    assert own_words(fact, None) == fact


def test_names_in_a_template_around_the_partner_s_noun_are_not_in_context() -> None:
    """The fifth blind family's ``wordnet`` recipe: a fact template about the partner's noun
    with a name stuffed in ("Kids are a kind of people; Paris has a museum on kids.") is
    close to the partner's turn only through the noun. Its own words are about Paris, so
    Paris earns nothing; a turn that answers with words of its own ("My children love
    Rome.") is on topic. Questions are still tested on their whole text."""
    g = game([("a", "I love classical music and my two kids."),
              ("b", "Kids are a kind of people; Paris has a museum on kids. "
                    "What do you think of kids and cities?"),
              ("a", "I love classical music and my two kids."),
              ("b", "My children love Rome. Do your children like Mozart?")])
    emb = fake_embedder.FakeEmbedder()
    knowledge = Knowledge(embedder=emb).score_games([g])[0]
    assert [e[0] for d in knowledge.details for e in d.get("off_topic", ())] == ["Paris"]
    assert [e[0] for d in knowledge.details for e in d["new"]] == ["Rome", "Mozart"]
    assert knowledge.raw["b"] == pytest.approx(2 / 2)  # two names over b's two turns
    pro = Proactivity(Proactivity.Params(), embedder=emb).score_games([g])[0]
    asked = {d["turn"]: d.get("questions", 0) for d in pro.details if d["speaker"] == "b"}
    assert asked == {1: 1, 3: 1}


def test_consistency_does_not_test_a_repeated_line() -> None:
    from chatmatch.scoring.consistency import Consistency

    line = "I love classical music, I have two kids and I live in Paris."
    g = game([("a", line), ("b", "I love classical music."), ("a", line),
              ("b", "I do not love classical music."), ("a", line),
              ("b", "I have two kids.")])
    emb = fake_embedder.FakeEmbedder()
    on = Consistency(embedder=emb).score_games([g])[0]
    assert "a" in on.not_applicable  # its repeats test nothing
    off = Consistency(Consistency.Params(degenerate="tested"), embedder=emb).score_games([g])[0]
    assert off.raw["a"] == 0.0 and "a" not in off.not_applicable


def test_fluency_share_keeps_two_looping_bots_apart_where_the_median_ties() -> None:
    from test_fluency import ScriptedLM

    from chatmatch.scoring.fluency import Fluency

    b_says = ["alpha beta gamma delta", "alpha beta gamma delta", "something else entirely here now",
              "alpha beta gamma delta", "something else entirely here now"]
    lines = [x for said in b_says for x in (("a", "one two three"), ("b", said))]
    g = game(lines)

    def raw(how: str) -> dict[str, float]:
        f = Fluency(Fluency.Params(aggregation="median", degenerate=how), lm=ScriptedLM())
        return f.score_games([g])[0].raw

    worst, share = raw("worst"), raw("share")
    assert worst["a"] == worst["b"] == 1000.0  # half or more of each bot's turns: the median saturates
    # a: 4 of 5 turns degenerate, b: 3 of 5 -> b is the more fluent under share
    assert share["b"] < share["a"] < 1000.0
    assert share["a"] == pytest.approx(0.2 * 30 + 0.8 * 1000)
    assert share["b"] == pytest.approx(0.4 * 45 + 0.6 * 1000)

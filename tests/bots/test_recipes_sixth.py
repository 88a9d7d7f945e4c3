"""The sixth recipe bots (chatmatch_bots/recipes_sixth.py): each does its recipe,
deterministically, and each is declared under its adapter name in setup.cfg."""

from __future__ import annotations

import re

import pytest

from chatmatch.bot import History, Message
from chatmatch.common.text import question_count
from chatmatch_bots import recipes_sixth as sixth
from tests.bots.recipe_family import (LONG_GAME, OTHER, PARTNER, assert_declared,
                                      assert_deterministic_over_a_game,
                                      assert_non_empty_and_deterministic,
                                      assert_tournament_plays, history, play)


CLASSES = {"quiz": sixth.QuizBot, "contrast": sixth.ContrastBot,
           "profile": sixth.ProfileBot, "stats": sixth.StatsBot,
           "planner": sixth.PlannerBot, "recommend": sixth.RecommendBot,
           "gazetteer": sixth.GazetteerBot, "hedge": sixth.HedgeBot,
           "weave": sixth.WeaveBot}



def game(partner_turns: list[str], game_id: str = "g", seed: int = 11) -> History:
    """The history after ``partner_turns``, the bot having answered "ok" to each but the
    last."""
    msgs: list[Message] = []
    for text in partner_turns[:-1]:
        msgs += [Message("partner", text), Message("self", "ok")]
    msgs.append(Message("partner", partner_turns[-1]))
    return History(tuple(msgs), partner_turns[0], game_id, len(msgs), seed)




def test_every_recipe_is_declared_in_setup_cfg() -> None:
    assert_declared("sixth", CLASSES)


def test_the_sixth_tournament_plays_every_recipe() -> None:
    text, fifth = assert_tournament_plays(
        "sixth", CLASSES, "fifth",
        ("seed: 7", "exchanges: 10", "  method: trueskill", "  shuffles: 10",
         "seed_utterance: What did you do last week?",
         "  - name: smollm2", "    adapter: smollm2", "      max_new_tokens: 40",
         "      max_history_turns: 6", "  - name: retrieval", "  - name: chatterbot"))
    real = [line for line in fifth.splitlines() if line.startswith("      persona:")]
    assert real and real[0] in text.splitlines()


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_non_empty_and_deterministic(short: str) -> None:
    assert_non_empty_and_deterministic("sixth", short, CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_deterministic_over_a_whole_game(short: str) -> None:
    assert_deterministic_over_a_game(CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_a_long_game_has_no_empty_or_repeated_reply(short: str) -> None:
    said = play(CLASSES[short](), LONG_GAME)
    assert all(s.strip() for s in said)
    assert len(set(said[:10])) == 10, said[:10]
    assert all(question_count(s) >= 1 for s in said), short


def test_words_topics_and_names_are_read_from_the_partner() -> None:
    assert sixth.nouns(PARTNER) == ["hiking", "mountains", "brother"]
    assert sixth.key_word(PARTNER) == "mountains" and sixth.key_word(OTHER) == "greenhouse"
    assert sixth.key_word("Yes, I really think so.") is None
    assert sixth.topic_of(PARTNER) == "the outdoors" and sixth.topic_of(OTHER) == "gardening"
    assert sixth.topic_of("Zzz qqq.") is None
    assert sixth.topic_of("I love cooking pasta and watching Netflix.") == "food"
    assert sixth.entities("I visited Lisbon with my friend Tom, we saw the Tower of Belem.") == \
        ["Lisbon", "Tom", "Tower of Belem"]
    assert sixth.entities("The Beatles played in New York. Hiking is fun. Lisbon is lovely.") \
        == ["Beatles", "New York", "Lisbon"]
    assert sixth.entities("I think so. Do you?") == []
    # no topic anywhere: one fixed for the game, whatever the turn
    picked = {sixth.topic(game(["Zzz.", "Qqq?"], game_id=f"g{i}", seed=i)) for i in range(30)}
    assert len(picked) > 3
    assert sixth.topic(game(["Zzz."], "x", 1)) == sixth.topic(game(["Qqq.", "Yes."], "x", 2))


def test_quiz_asks_on_the_partner_topic_and_reveals_the_answer_next_turn() -> None:
    first = sixth.QuizBot().reply(history())
    outdoors = dict(sixth.QUIZ["the outdoors"])
    asked = [q for q in outdoors if first.endswith(q)]
    assert asked and "mountains" in first
    right = sixth.QuizBot().reply(history("Kilimanjaro, surely!", (first,)))
    if asked[0].startswith("Which is the highest"):
        assert right.startswith(tuple(r.format(a=outdoors[asked[0]])
                                      for r in sixth.QUIZ_RIGHT))
    wrong = sixth.QuizBot().reply(history("No idea.", (first,)))
    assert outdoors[asked[0]] in wrong and not wrong.startswith(tuple(
        r.split("{")[0] for r in sixth.QUIZ_RIGHT))
    said = play(sixth.QuizBot(), [PARTNER] * 5)
    questions = [q for s in said for q, _ in outdoors.items() if s.endswith(q)]
    assert sorted(questions) == sorted(outdoors)  # the topic's three, then another topic's
    assert all(outdoors[q] in said[i + 1] for i, q in enumerate(questions))
    all_questions = [q for pairs in sixth.QUIZ.values() for q, _ in pairs]
    asked_in_game = [q for s in play(sixth.QuizBot(), LONG_GAME) for q in all_questions
                     if s.endswith(q)]
    assert len(asked_in_game) == len(LONG_GAME) == len(set(asked_in_game))
    assert set(sixth.QUIZ) == set(sixth._TOPIC_NAMES)


def test_quiz_knows_a_right_answer() -> None:
    h = History((Message("partner", "Hi"),
                 Message("self", "Quiz time! Which is the highest mountain in Africa?"),
                 Message("partner", "Is it Kilimanjaro?")), "Hi", "g", 3, 1)
    out = sixth.QuizBot().reply(h)
    assert out.startswith(tuple(r.format(a=sixth.QUIZ["the outdoors"][0][1])
                                for r in sixth.QUIZ_RIGHT))


def test_contrast_sets_the_noun_against_a_counterpart_with_a_fixed_side() -> None:
    out = sixth.ContrastBot().reply(history("I love my dog."))
    assert out.startswith("A dog or a cat?") and "walks in every kind of weather" in out
    assert out.endswith("Which would you pick?")
    said = play(sixth.ContrastBot(), ["I built a greenhouse."] * 20)
    assert all("greenhouse" in s for s in said) and len(set(said)) == 20
    sides = [(x, y) for x, y, _, _ in sixth._sides("greenhouse")]
    assert len(sides) == len(sixth.AXES) and all(x in s and y in s
                                                 for s, (x, y) in zip(said, sides))
    # the side it takes for a pair never changes
    lean = sixth.ContrastBot().reply(history("I love my dog.", ("a",), seed=1))
    again = sixth.ContrastBot().reply(history("My dog is old.", ("b",), seed=77, game="h"))
    assert lean == again and "I lean towards " in lean


def test_profile_answers_from_one_profile_per_game_and_asks_back() -> None:
    turns = ["Where do you live?", "Do you have any pets?", "Cool.", "Where do you live?"]
    said = play(sixth.ProfileBot(), turns, game_id="game-a")
    home = [c for c, _ in sixth.CITIES if c in said[0]]
    assert len(home) == 1 and home[0] in said[3] and said[0] != said[3]
    assert said[3].startswith(sixth.PROFILE_AGAIN)
    assert any(p in said[1] for p in sixth.PETS) and said[1].endswith("?")
    assert said[2].startswith("I'm ") and said[2].endswith("What's your name, by the way?")
    assert play(sixth.ProfileBot(), turns, seed=99, game_id="game-a") == said
    cities = {c for i in range(12)
              for c, _ in sixth.CITIES
              if c in play(sixth.ProfileBot(), turns[:1], game_id=f"g{i}")[0]}
    assert len(cities) > 2
    job = sixth.ProfileBot().reply(history("What do you do for a living?"))
    assert any(j in job for j in sixth.JOBS) and job.endswith("What kind of work do you do?")
    chat = sixth.ProfileBot().reply(history(OTHER))
    assert chat.startswith(tuple(f.format(w="greenhouse", W="Greenhouse").split("{")[0]
                                 for f in sixth.PROFILE_LINKS))
    yes = sixth.ProfileBot().reply(history("Do you like hiking?"))
    again = sixth.ProfileBot().reply(history("Do you like hiking?", ("a", "b"), seed=4))
    assert yes.split(". ")[0] == again.split(". ")[0] and yes.startswith(("Yes", "Not really"))


def test_stats_gives_a_fixed_number_for_a_noun_with_a_source() -> None:
    out = sixth.StatsBot().reply(history())
    assert "mountains" in out and "percent" in out and question_count(out) == 1
    assert any(src in out for src in sixth.SOURCES)
    number = re.search(r"\b(\d+) percent", out)
    assert number and 11 <= int(number.group(1)) < 89
    assert sixth.StatsBot().reply(history(seed=1234)) == out
    said = play(sixth.StatsBot(), ["I built a greenhouse."] * 8)
    claims = [c for s in said for c in sixth.STAT_CLAIMS if c.format(w="greenhouse") in s]
    assert len(set(claims)) == 8 and len({re.search(r"(\d+) percent", s).group(1)
                                          for s in said}) > 1


def test_planner_keeps_one_plan_for_the_game() -> None:
    said = play(sixth.PlannerBot(), LONG_GAME[:10], game_id="game-p")
    assert len(set(said)) == 10 and all(s.endswith("?") for s in said)
    days = {d for s in said for d in sixth.DAYS if d in s}
    places = {m for s in said for _, m in sixth.MEETING if m in s}
    assert len(days) == 1 and len(places) == 1
    assert "mountains" in said[0]
    assert play(sixth.PlannerBot(), LONG_GAME[:10], seed=3, game_id="game-p") == said
    firsts = {play(sixth.PlannerBot(), [PARTNER], game_id=f"g{i}")[0] for i in range(10)}
    assert len(firsts) > 2


def test_recommend_names_the_topic_s_recommendations_without_repeating() -> None:
    recs = [r for r, _ in sixth.RECOMMENDATIONS["the outdoors"]]
    out = sixth.RecommendBot().reply(history())
    assert any(r in out for r in recs) and "mountains" in out and question_count(out) == 1
    said = play(sixth.RecommendBot(), [PARTNER] * 3)
    assert sorted(r for s in said for r in recs if r in s) == sorted(recs)
    every = [r for recs_ in sixth.RECOMMENDATIONS.values() for r, _ in recs_]
    named = [r for s in play(sixth.RecommendBot(), [PARTNER] * 12) for r in every
             if r.lower() in s.lower()]
    assert len(named) == 12 == len(set(named))
    assert set(sixth.RECOMMENDATIONS) == set(sixth._TOPIC_NAMES) == set(sixth.ACTIVITIES)
    varied = {sixth.RecommendBot().reply(history(seed=s)) for s in range(12)}
    assert len(varied) > 1


def test_gazetteer_talks_about_the_partner_s_names() -> None:
    out = sixth.GazetteerBot().reply(history("I visited Lisbon with my friend Tom."))
    assert "Lisbon" in out and question_count(out) == 1
    said = play(sixth.GazetteerBot(), ["I visited Lisbon with my friend Tom.", "Nice.", "Yes."])
    assert "Lisbon" in said[0] and "Tom" in said[1] and question_count(said[2]) == 1
    plain = sixth.GazetteerBot().reply(history())
    known = next(ents for name, _, ents in sixth.TOPICS if name == "the outdoors")
    assert "mountains" in plain and sum(e in plain for e in known) >= 2
    assert all(len(ents) == 6 for _, _, ents in sixth.TOPICS)


def test_hedge_never_commits_and_never_repeats_a_body() -> None:
    said = play(sixth.HedgeBot(), [OTHER] * len(sixth.HEDGE_BODIES))
    bodies = [b for s in said for b in sixth.HEDGE_BODIES
              if b.format(w="greenhouse", v="orchids") in s]
    assert len(bodies) == len(sixth.HEDGE_BODIES) == len(set(bodies))
    assert all(s.startswith(sixth.HEDGE_OPENERS) and s.endswith("?") for s in said)
    assert all("greenhouse" in s for s in said)
    assert not any(s.lower().startswith(("yes", "no")) for s in said)


def test_weave_tells_its_stories_in_order_with_the_partner_s_word() -> None:
    beats = [b for story in sixth.STORIES for b in story]
    said = play(sixth.WeaveBot(), [OTHER] * (len(beats) + 1))
    assert all(s.startswith(b.format(w="greenhouse")) for s, b in zip(said, beats))
    assert said[-1].startswith(beats[0].format(w="greenhouse"))
    assert all(question_count(s) == 1 and s.count("greenhouse") >= 2 for s in said)
    assert all(b.count("{w}") == 1 for b in beats)

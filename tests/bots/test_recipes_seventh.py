"""The seventh recipe bots (chatmatch_bots/recipes_seventh.py): each does its recipe,
deterministically, and each is declared under its adapter name in setup.cfg."""

from __future__ import annotations


import pytest

from chatmatch.bot import History, Message
from chatmatch.common.text import question_count
from chatmatch_bots import recipes_seventh as seventh
from tests.bots.recipe_family import (assert_deterministic_over_a_game, assert_long_game_varied,
                                      assert_seeds_vary, LONG_GAME, OTHER, PARTNER, assert_declared,
                                      assert_non_empty_and_deterministic, assert_tournament_follows,
                                      history, play)


CLASSES = {"guide": seventh.GuideBot, "acts": seventh.ActsBot,
           "debate": seventh.DebateBot, "therapist": seventh.TherapistBot,
           "stitch": seventh.StitchBot, "followup": seventh.FollowUpBot,
           "chef": seventh.ChefBot, "culture": seventh.CultureBot}

LISBON = "I visited Lisbon with my friend Tom, we saw the Tower of Belem."




def test_every_recipe_is_declared_in_setup_cfg() -> None:
    assert_declared("seventh", CLASSES)


def test_the_seventh_tournament_plays_every_recipe() -> None:
    assert_tournament_follows("seventh", "sixth", CLASSES)


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_non_empty_and_deterministic(short: str) -> None:
    assert_non_empty_and_deterministic("seventh", short, CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_deterministic_over_a_whole_game(short: str) -> None:
    assert_deterministic_over_a_game(CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_a_long_game_has_no_empty_or_repeated_reply(short: str) -> None:
    assert_long_game_varied(short, CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_different_seeds_vary_the_reply(short: str) -> None:
    assert_seeds_vary(short, CLASSES[short])


def test_topics_and_words_are_read_from_the_partner() -> None:
    assert seventh.topic_of(PARTNER) == "outdoors" and seventh.topic_of(OTHER) == "garden"
    assert seventh.topic_of("I really love cooking pasta.") == "food"
    assert seventh.topic_of("Zzz qqq.") is None
    assert seventh.key_word(PARTNER) == "mountains" and seventh.key_word(OTHER) == "greenhouse"
    assert seventh.key_word("Bye!") is None and seventh.key_word("Yes, I think so.") is None
    assert set(seventh.NAMES) == set(seventh.TOPIC_NAMES) == set(seventh.DEBATE)
    assert set(seventh.CHEF_LINKS) == set(seventh.TOPIC_NAMES) == set(seventh.CUSTOMS)
    assert all(set(spots) == set(seventh.TOPIC_NAMES) for _, spots in seventh.CITIES.values())
    # no topic anywhere: one fixed for the game, whatever the turn
    h = History((Message("partner", "Zzz."),), "Qqq.", "x", 1, 1)
    later = History((Message("partner", "Zzz."), Message("self", "a"),
                     Message("partner", "Qqq?")), "Qqq.", "x", 3, 2)
    assert seventh.topic(h) == seventh.topic(later)


def test_guide_keeps_its_city_and_sends_the_partner_to_the_topic_s_landmark() -> None:
    said = play(seventh.GuideBot(), [PARTNER, OTHER, "Where do you live?", "Hm.",
                                 "Where do you live?"], game_id="game-a")
    city = seventh.guide_city(History((), "", "game-a"))
    country, spots = seventh.CITIES[city]
    assert spots["outdoors"][0] in said[0] and "mountains" in said[0]
    assert spots["garden"][0] in said[1] and "greenhouse" in said[1]
    home = seventh.GUIDE_HOME.format(c=city)
    assert said[2].startswith(home) and said[4].startswith(home) and home not in said[3]
    assert all(city in s for s in said) and all(s.endswith("?") for s in said)
    landmarks = [spot for s in said for spot, _ in spots.values() if spot in s]
    assert len(landmarks) == len(set(landmarks)) == 5
    cities = {seventh.guide_city(History((), "", game_id=f"g{i}")) for i in range(20)}
    assert cities == set(seventh.CITIES)
    whole = play(seventh.GuideBot(), [PARTNER] * 12, game_id="game-b")
    city = seventh.guide_city(History((), "", game_id="game-b"))
    seen = [spot for s in whole for spot, _ in seventh.CITIES[city][1].values() if spot in s]
    assert sorted(seen) == sorted(spot for spot, _ in seventh.CITIES[city][1].values())


def _slot(text: str, options: tuple[str, ...], **values: str) -> list[str]:
    return [o for o in options if o.format(**values) in text]


def test_acts_fills_four_dialogue_acts_without_repeating_one() -> None:
    said = play(seventh.ActsBot(), [PARTNER] * 10)
    values = {"w": "mountains", "W": "Mountains", "v": "hiking", "be": "are"}
    acks = [_slot(s, seventh.ACT_ACKS, **values) for s in said]
    opinions = [_slot(s, seventh.ACT_OPINIONS, **values) for s in said]
    assert all(len(a) == 1 and len(o) == 1 for a, o in zip(acks, opinions))
    assert len({a[0] for a in acks}) == 10 and len({o[0] for o in opinions}) == 10
    for s in said:
        assert s.startswith(tuple(a.format(**values) for a in seventh.ACT_ACKS))
        assert any(name in s for name in seventh.NAMES["outdoors"]) and s.endswith("?")
        assert sum(s.count(c) for c in ".!?") >= 4
    assert seventh._be("mountains") == "are" and seventh._be("greenhouse") == "is"
    assert seventh._be("Lisbon") == "is" and seventh._be("glass") == "is"


def test_debate_argues_against_the_topic_with_its_authorities() -> None:
    said = play(seventh.DebateBot(), [PARTNER] * 4)
    cited = [who for s in said for who, _ in seventh.DEBATE["outdoors"] if who in s]
    assert sorted(cited[:2]) == sorted(who for who, _ in seventh.DEBATE["outdoors"])
    assert all(any(who in s for who, _ in seventh.DEBATE_SPARE) for s in said[2:])
    assert all("mountains" in s and question_count(s) >= 1 for s in said), said
    assert [s.split(".")[0] + "." for s in said[:2]] == \
        [o.format(w="mountains") for o in seventh.DEBATE_OPENERS[:2]]
    pets = seventh.DebateBot().reply(history("Do you have any pets?"))
    assert any(who in pets for who, _ in seventh.DEBATE["pets"]) and "pets" in pets
    claims = [c for s in play(seventh.DebateBot(), LONG_GAME) for _, c in
              seventh.DEBATE_SPARE + tuple(p for ps in seventh.DEBATE.values() for p in ps)
              if c in s]
    assert len(claims) == len(set(claims)) >= 10


def test_therapist_reflects_the_feeling_and_names_a_technique() -> None:
    assert seventh.feeling("I am tired of my job.") == "a lot of strain"
    assert seventh.feeling("I'm so nervous about my exam") == "some anxiety"
    assert seventh.feeling(PARTNER) == "a real sense of joy"
    assert seventh.feeling("My aunt grows orchids.") == seventh.FEELING_DEFAULT
    out = seventh.TherapistBot().reply(history("I am tired of my job."))
    assert out.startswith(seventh.REFLECTIONS[0].format(f="a lot of strain", w="job"))
    said = play(seventh.TherapistBot(), [OTHER] * len(seventh.TECHNIQUES))
    used = [t for s in said for t in seventh.TECHNIQUES if t in s]
    assert sorted(used) == sorted(seventh.TECHNIQUES)
    assert all("greenhouse" in s and s.endswith("?") for s in said)


def test_stitch_picks_the_lines_that_share_the_partner_s_words() -> None:
    out = seventh.StitchBot().reply(history())
    said, asked = out.split(". ", 1)[0] + ".", out.split(". ", 1)[1]
    assert said in seventh.STITCH_SAYS and asked in seventh.STITCH_ASKS
    assert said.startswith(("My brother and I used to climb", "I went walking in the hills"))
    assert asked in ("Have you ever climbed a proper mountain?",
                     "Do you get out into the countryside much?")
    pets = seventh.StitchBot().reply(history("My dog and my cat fight all day."))
    assert "dog" in pets or "cat" in pets
    # the turn before counts too
    h = History((Message("partner", "My old dog is grumpy."), Message("self", "Oh?"),
                 Message("partner", "Yes, I love it.")), "Hi", "g", 3, 1)
    both = seventh.StitchBot().reply(h)
    assert both.startswith("Our dog goes mad") and "dog person" in both
    game = play(seventh.StitchBot(), [PARTNER] * len(seventh.STITCH_ASKS))
    asks = [a for s in game for a in seventh.STITCH_ASKS if s.endswith(a)]
    assert len(set(asks)) == len(asks) == len(seventh.STITCH_ASKS)


def test_followup_asks_about_the_last_named_thing() -> None:
    assert seventh.named_things(LISBON) == [("the Tower of Belem", "place"), ("Tom", "person"),
                                            ("Lisbon", "place")]
    out = seventh.FollowUpBot().reply(history(LISBON))
    assert out.startswith("The Tower of Belem, really? ")
    assert "I've heard it was built to guard the harbour." in out
    place = seventh.FOLLOW_ASKS["place"]
    assert sum(q.format(e="the Tower of Belem") in out for q in place) == 2
    said = play(seventh.FollowUpBot(), [LISBON, "Nice.", "Yes."])
    assert all("Tower of Belem" in s for s in said)
    assert sum("guard the harbour" in s for s in said) == 1
    asks = [q for s in said for q in seventh.FOLLOW_ASKS["place"]
            if q.format(e="the Tower of Belem") in s]
    assert len(asks) == 6 == len(set(asks))
    tom = seventh.FollowUpBot().reply(history("I went to the cinema with my friend Tom."))
    assert sum(q.format(e="Tom") in tom for q in seventh.FOLLOW_ASKS["person"]) == 2
    thing = seventh.FollowUpBot().reply(history())
    assert sum(q.format(e="mountains") in thing for q in seventh.FOLLOW_ASKS["thing"]) == 2
    # nothing said yet: a name of the topic
    bare = seventh.FollowUpBot().reply(History((), "What did you do last week?", "g", 0, 1))
    assert question_count(bare) >= 2 and any(n in bare for ns in seventh.NAMES.values()
                                             for n in ns)


def test_chef_brings_the_topic_back_to_food() -> None:
    said = play(seventh.ChefBot(), [PARTNER] * 3)
    links = [s for s in seventh.CHEF_LINKS["outdoors"] if any(s in x for x in said)]
    assert sorted(links) == sorted(seventh.CHEF_LINKS["outdoors"])
    assert [sum(link in s for link in seventh.CHEF_LINKS["outdoors"]) for s in said] == [1, 1, 0]
    assert all("mountains" in s and s.endswith("?") for s in said)
    every = [link for ls in seventh.CHEF_LINKS.values() for link in ls]
    used = [link for s in play(seventh.ChefBot(), LONG_GAME) for link in every if link in s]
    assert len(used) == len(set(used)) == len(LONG_GAME)
    food = seventh.ChefBot().reply(history("I really love cooking pasta."))
    assert any(link in food for link in seventh.CHEF_LINKS["food"])


def test_culture_sets_two_countries_customs_side_by_side() -> None:
    out = seventh.CultureBot().reply(history())
    customs = seventh.CUSTOMS["outdoors"]
    assert out.count(" in ") >= 2 and sum(c in out for c in customs) == 2
    assert out.startswith(seventh.CULTURE_LEADS[0].format(w="mountains")) and out.endswith("?")
    every = [c for cs in seventh.CUSTOMS.values() for c in cs]
    game = play(seventh.CultureBot(), [OTHER] * (len(every) // 2))
    used = [c for s in game for c in every if c in s]
    assert len(used) == len(set(used)) == len(every) - len(every) % 2
    assert all(sum(c in s for c in seventh.CUSTOMS["garden"]) >= 1 for s in game[:1])
    assert sum(c in game[0] for c in seventh.CUSTOMS["garden"]) == 2

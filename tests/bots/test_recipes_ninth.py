"""The ninth recipe bots (chatmatch_bots/recipes_ninth.py): each does its recipe,
deterministically, and each is declared under its adapter name in setup.cfg."""

from __future__ import annotations

import re

import pytest

from chatmatch.bot import History, Message
from chatmatch_bots import recipes_ninth as ninth
from tests.bots.recipe_family import (assert_deterministic_over_a_game, assert_long_game_varied,
                                      assert_seeds_vary, LONG_GAME, OTHER, PARTNER,
                                      assert_declared, assert_non_empty_and_deterministic,
                                      assert_odd_partner_turns_get_a_short_real_reply,
                                      assert_tournament_follows, history, play)


CLASSES: dict[str, type] = {"coin": ninth.CoinBot, "atlas": ninth.AtlasBot,
                            "jester": ninth.JesterBot, "commentator": ninth.CommentatorBot,
                            "analogy": ninth.AnalogyBot, "bucket": ninth.BucketBot,
                            "whatif": ninth.WhatIfBot, "chain": ninth.ChainBot}


def test_every_recipe_is_declared_in_setup_cfg() -> None:
    assert_declared("ninth", CLASSES)


def test_the_ninth_tournament_plays_every_recipe() -> None:
    assert_tournament_follows("ninth", "eighth", CLASSES)


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_non_empty_and_deterministic(short: str) -> None:
    assert_non_empty_and_deterministic("ninth", short, CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_odd_partner_turns_get_a_short_real_reply(short: str) -> None:
    assert_odd_partner_turns_get_a_short_real_reply(short, CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_deterministic_over_a_whole_game(short: str) -> None:
    assert_deterministic_over_a_game(CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_a_long_game_has_no_empty_or_repeated_reply(short: str) -> None:
    assert_long_game_varied(short, CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_different_seeds_vary_the_reply(short: str) -> None:
    assert_seeds_vary(short, CLASSES[short])


def test_the_partners_word_is_read_from_the_latest_turn_that_has_one() -> None:
    assert ninth.word_of(PARTNER) == "mountains" and ninth.word_of(OTHER) == "greenhouse"
    assert ninth.word_of("haha") is None and ninth.word_of("x" * 5000) is None
    game = History((Message("partner", PARTNER), Message("self", "ok"), Message("partner", "?!")),
                   PARTNER, "g", 3, 1)
    assert ninth._word(game) == "mountains"  # "?!" has none
    assert ninth._word(History((), "", "g")) in [w for ws in ninth.TOPIC_NOUNS.values()
                                                 for w in ws]


def test_coin_makes_names_of_the_partners_words_with_a_fixed_year() -> None:
    assert ninth.coin_town("brother") == ninth.coin_town("Brother")
    assert "Brother" in ninth.coin_town("brother") and "Mountain" in ninth.coin_town("mountains")
    assert "Babyby" not in ninth.coin_town("baby")
    names = [ninth.coin(i, "greenhouse", "orchids") for i in range(len(ninth.COINS))]
    assert len({name for name, _ in names}) == len(ninth.COINS)
    assert all("Greenhouse" in name for name, _ in names)
    assert all(re.search(r"\b(1[789]\d\d)\b", what) for _, what in names)
    said = play(ninth.CoinBot(), [OTHER] * len(ninth.COINS), game_id="game-a")
    used = [name for s in said for name, _ in names if f"{name}," in s]
    assert sorted(used) == sorted(name for name, _ in names)  # each name once
    for s in said:
        name, what = next((n, w) for n, w in names if f"{n}," in s)
        assert f"{name}, {what}." in s and s.endswith("?")
    # the same name has the same year in another game
    other = play(ninth.CoinBot(), [OTHER] * 3, game_id="game-b", seed=40)
    assert [re.findall(r"\b1[789]\d\d\b", s) for s in other] == \
        [re.findall(r"\b1[789]\d\d\b", s) for s in said[:3]]
    first = ninth.CoinBot().reply(history())
    assert "Mountain" in first and "Brother" in first


def test_atlas_works_out_distance_and_direction_from_a_home_fixed_for_the_game() -> None:
    assert 340 < ninth.distance_km("London", "Paris") < 347
    assert 16_900 < ninth.distance_km("London", "Sydney") < 17_100
    assert ninth.bearing("London", "Paris") == "south-east"
    assert ninth.bearing("Lisbon", "Porto") == "north"
    assert ninth.bearing("Tokyo", "Sydney") == "south"
    assert ninth.bearing("Madrid", "Lisbon") == "west"
    assert ninth.places_named("The Beatles played in New York in 1964.") == ["New York"]
    assert ninth.places_named("We loved Japan, then Kyoto and York.") == ["Tokyo", "Kyoto",
                                                                         "York"]
    assert ninth.places_named("a nice turkey dinner") == []
    home = ninth.home_city(History((), "", "game-c"))
    assert len({ninth.home_city(History((), "", f"g{i}")) for i in range(30)}) > 3
    lisbon = "I visited Lisbon with my friend Tom, we saw the Tower of Belem."
    said = play(ninth.AtlasBot(), [lisbon, "Where do you live?", "We went to Japan.",
                                   "Do you like hiking?"], game_id="game-c")
    for s, city in ((said[0], "Lisbon"), (said[2], "Tokyo")):
        if city != home:
            km = ninth._km(home, city)
            assert f"{km} km {ninth.bearing(home, city)}" in s and home in s, s
        assert ninth.PLACES[city][3] in s
    assert said[1].startswith(f"I live in {home}, {ninth.PLACES[home][2]}, at about ")
    hiking = [c for c in ninth.TOPIC_CITIES["outdoors"] if c in said[3]]
    assert len(hiking) == 1 and home in said[3]
    # the home never changes in a game
    homes = {h for s in play(ninth.AtlasBot(), LONG_GAME, game_id="game-c")
             for h in ninth.HOMES if re.search(rf"(here in|home in|of|live in) {h}\b", s)}
    assert homes == {home}


def test_jester_tells_each_pun_of_the_topic_once_and_credits_a_comedian() -> None:
    out = ninth.JesterBot().reply(history())
    assert sum(p in out for p in ninth.PUNS["outdoors"]) == 1
    assert sum(c in out for c in ninth.COMEDIANS) == 1 and "mountains" in out.lower()
    every = [p for ps in ninth.PUNS.values() for p in ps]
    said = play(ninth.JesterBot(), [OTHER] * len(every))
    used = [p for s in said for p in every if p in s]
    assert sorted(used) == sorted(every)
    assert all(p in " ".join(said[:3]) for p in ninth.PUNS["garden"])  # its topic's first
    food = ninth.JesterBot().reply(history("I baked bread for dinner."))
    assert any(p in food for p in ninth.PUNS["food"])


def test_commentator_retells_the_turn_in_the_third_person_with_a_legend() -> None:
    assert ninth.third_person("you went hiking in the mountains with your brother") == \
        "they went hiking in the mountains with their brother"
    assert ninth.third_person("your aunt told you that you're right") == \
        "their aunt told them that they're right"
    out = ninth.CommentatorBot().reply(history())
    assert "They went hiking in the mountains with their brother!" in out
    assert sum(f in out for f in ninth.LEGENDS["outdoors"]) == 1 and out.endswith("?")
    said = play(ninth.CommentatorBot(), [PARTNER] * 3)
    assert sorted(f for s in said for f in ninth.LEGENDS["outdoors"] if f in s) == \
        sorted(ninth.LEGENDS["outdoors"])
    pets = ninth.CommentatorBot().reply(history("Do you have any pets?"))
    assert "Do I have any pets?" in pets and any(f in pets for f in ninth.LEGENDS["pets"])
    aunt = ninth.CommentatorBot().reply(history(OTHER))
    assert "Their aunt grows orchids in a greenhouse!" in aunt
    assert any(f in aunt for f in ninth.LEGENDS["garden"])


def test_analogy_compares_the_word_to_a_named_thing_never_twice() -> None:
    out = ninth.AnalogyBot().reply(history())
    x, trait = ninth.analogy_for("mountains", "")
    assert "mountains" in out.lower() and x.lower() in out.lower() and trait in out
    assert sum(t in out for _, t in ninth.ANALOGIES) == 1
    # the same word starts from the same analogy in any game
    assert all(x.lower() in ninth.AnalogyBot().reply(history(seed=s, game=f"g{s}")).lower()
               for s in range(5))
    said = play(ninth.AnalogyBot(), [PARTNER] * len(ninth.ANALOGIES))
    used = [t for s in said for _, t in ninth.ANALOGIES if t in s]
    assert sorted(used) == sorted(t for _, t in ninth.ANALOGIES)
    words = ("hiking", "knitting", "cooking", "jazz", "football", "orchids", "exams", "dogs")
    assert len({ninth.analogy_for(w, "") for w in words}) > 3


def test_bucket_numbers_the_partners_words_and_points_back_to_them() -> None:
    turns = [PARTNER, OTHER, "haha", "I visited Lisbon with my friend Tom.",
             "Do you like hiking in the mountains?", "Hmm."]
    said = play(ninth.BucketBot(), turns)
    h = History(tuple(Message("partner", t) for t in turns), turns[0], "g")
    items = ninth.bucket_list(h)
    assert [w for w, _, _ in items] == ["mountains", "greenhouse", "Lisbon"]
    assert items[0][1].endswith("for the mountains") and items[2][1] == "seeing Lisbon for myself"
    places = [i for _, i, _ in items]
    assert len(set(places)) == 3
    items = [(w, i.lower(), k) for w, i, k in items]
    said = [s.lower() for s in said]
    assert items[0][1] in said[0] and ("first thing" in said[0] or "number one" in said[0])
    assert items[1][1] in said[1] and "number two" in said[1] and items[0][1] in said[1]
    assert "two" in said[2].lower() and "number three" not in said[2]
    assert items[2][1] in said[3] and "number three" in said[3]
    assert "number one" in said[4] and items[0][1] in said[4]
    assert "three" in said[5].lower()
    assert ninth.BucketBot().reply(History((), "", "e", 0, 1)).startswith(ninth.BUCKET_EMPTY)
    # the list only grows, one number a new word
    spelt = [re.search(r"number (\w+) on my bucket list", s) for s in
             play(ninth.BucketBot(), LONG_GAME)]
    counts = [ninth._NUMBERS.index(m.group(1)) for m in spelt if m]
    assert counts == sorted(counts) and len(counts) == len(set(counts)) >= 4


def test_whatif_brings_a_new_figure_from_history_into_the_partners_statement() -> None:
    out = ninth.WhatIfBot().reply(history())
    figure, reaction = ninth.figure_for("mountains", "")
    assert "you went hiking in the mountains with your brother" in out and figure in out
    said_reaction = reaction.format(w="mountains")
    assert said_reaction[:1].upper() + said_reaction[1:] + "." in out and out.endswith("?")
    said = play(ninth.WhatIfBot(), [PARTNER] * len(ninth.FIGURES))
    used = [f for s in said for f, r in ninth.FIGURES if r.format(w="mountains")[1:] in s]
    assert sorted(used) == sorted(f for f, _ in ninth.FIGURES)
    # the same word brings the same figure first in any game
    assert all(figure in ninth.WhatIfBot().reply(history(seed=s, game=f"g{s}"))
               for s in range(5))
    word = ninth.WhatIfBot().reply(history("Do you like jazz?"))
    assert "jazz" in word and any(f in word for f, _ in ninth.FIGURES)


def test_chain_names_a_city_from_the_last_letter_and_checks_the_partners() -> None:
    starts = {p[0] for p in ninth.PLACES}
    assert all(ninth._letter(p) in starts for p in ninth.PLACES)  # the chain never breaks
    for place, (_, _, _, fact) in ninth.PLACES.items():  # a fact names no other place
        assert ninth.places_named(fact) == [], place
    assert ninth._letter("hiking") == "G" and ninth._letter("Xi'an") == "N"
    assert ninth.last_place("New York ends in K, so I'll say Kyoto, with temples.") == "Kyoto"
    assert ninth.last_place("Hmm, York or New York?") == "New York"
    first = ninth.ChainBot().reply(history())
    said_place = ninth.last_place(first)
    assert said_place and said_place.startswith("S") and "Mountains" in first
    assert re.search(rf"\b{ninth._letter(said_place)}\b[^.!]*\?$", first)
    # a partner who plays along
    own = play(ninth.ChainBot(), [PARTNER])[0]
    letter = ninth._letter(ninth.last_place(own) or "")
    assert letter
    answer = sorted(p for p in ninth.PLACES if p[0] == letter)[0]
    said = play(ninth.ChainBot(), [PARTNER, f"{answer}!", "Hmm."])
    assert said[1].startswith(tuple(g.format(C=answer, E=letter)[:8] for g in ninth.CHAIN_GOOD))
    second = ninth.last_place(said[1])
    assert second and second[0] == ninth._letter(answer) and second != answer
    assert said[2].startswith(tuple(o.split("{")[0] for o in ninth.CHAIN_OWN))
    third = ninth.last_place(said[2])
    assert third and third[0] == ninth._letter(second)
    # a partner who does not
    off = play(ninth.ChainBot(), [PARTNER, OTHER])[1]
    assert "greenhouse" in off.lower() and ("doesn't" in off or "never mind" in off)
    # no city twice in a long game
    named = [ninth.last_place(s) for s in play(ninth.ChainBot(), LONG_GAME * 2)]
    assert all(named) and len(named) == len(set(named))

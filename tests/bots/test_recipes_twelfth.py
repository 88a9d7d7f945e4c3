"""The twelfth recipe bots (chatmatch_bots/recipes_twelfth.py): each does its recipe,
deterministically, and each is declared under its adapter name in setup.cfg."""

from __future__ import annotations

import re

import pytest

from chatmatch.bot import History, Message
from chatmatch_bots import recipes_twelfth as twelfth
from tests.bots.recipe_family import (assert_deterministic_over_a_game, assert_long_game_varied,
                                      assert_odd_partner_turns_get_a_short_real_reply,
                                      assert_seeds_vary, ODD, OTHER, assert_declared,
                                      assert_non_empty_and_deterministic, assert_tournament_follows,
                                      history, play)


CLASSES: dict[str, type] = {"museum": twelfth.MuseumBot, "clerk": twelfth.ClerkBot,
                            "dewey": twelfth.DeweyBot, "adventure": twelfth.AdventureBot,
                            "naturalist": twelfth.NaturalistBot, "dating": twelfth.DatingBot,
                            "risk": twelfth.RiskBot, "card": twelfth.CardBot}

#: the odd partner turns of every family, and two of mixed scripts
ODD_MIXED = [*ODD, "Do you like 日本 and Zürich?", "I love 🍕 and 寿司 with my 兄."]
#: a hiking statement without a question
HIKE = "I went hiking in the mountains with my brother last weekend."
#: a baking statement (topic: food)
BAKE = "I baked bread in the kitchen with my sister."


def test_every_recipe_is_declared_in_setup_cfg() -> None:
    assert_declared("twelfth", CLASSES)


def test_the_twelfth_tournament_plays_every_recipe() -> None:
    assert_tournament_follows("twelfth", "eleventh", CLASSES)


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_non_empty_and_deterministic(short: str) -> None:
    assert_non_empty_and_deterministic("twelfth", short, CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_odd_partner_turns_get_a_short_real_reply(short: str) -> None:
    assert_odd_partner_turns_get_a_short_real_reply(short, CLASSES[short], turns=ODD_MIXED)


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_deterministic_over_a_whole_game(short: str) -> None:
    assert_deterministic_over_a_game(CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_a_long_game_has_no_empty_or_repeated_reply(short: str) -> None:
    assert_long_game_varied(short, CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_different_seeds_vary_the_reply(short: str) -> None:
    assert_seeds_vary(short, CLASSES[short])


def test_fit_keeps_the_question_under_the_limit() -> None:
    out = twelfth._fit("word " * 200, ["middle part."] * 40, "What now?")
    assert len(out) <= twelfth.LIMIT and out.endswith("What now?") and "..." in out
    assert twelfth._fit("Head.", ["A.", "B."], "Q?") == "Head. A. B. Q?"


def test_mentioned_gathers_the_partners_words_in_order() -> None:
    h = History((Message("partner", "What did you do last week?"), Message("self", "x"),
                 Message("partner", HIKE), Message("self", "y"), Message("partner", OTHER)),
                "What did you do last week?", "m", 5, 1)
    said = twelfth.mentioned(h)
    assert said[:2] == ["mountains", "brother"] and "greenhouse" in said and "week" not in said
    assert "greenhouse" not in twelfth.mentioned(h, before_last=True)

# --- museum --------------------------------------------------------------------------------


def test_museum_shows_the_partners_word_at_a_museum_of_its_topic() -> None:
    out = twelfth.MuseumBot().reply(history(HIKE))
    assert "mountains" in out and sum(m in out for m in twelfth.MUSEUMS["outdoors"]) == 1
    assert re.search(r"[Ss]top (\d+)\b.*Press (\d+) to continue", out)


def test_museum_stops_count_up_and_museums_never_repeat() -> None:
    said = play(twelfth.MuseumBot(), [HIKE, BAKE, OTHER, HIKE, BAKE, OTHER], game_id="m1")
    stops = [int(re.search(r"[Ss]top (\d+)", s).group(1)) for s in said]  # type: ignore[union-attr]
    assert stops == list(range(stops[0], stops[0] + 6))
    every = [m for row in twelfth.MUSEUMS.values() for m in row]
    seen = [next(m for m in every if m in s) for s in said]
    assert len(set(seen)) == 6
    assert all(m in twelfth.MUSEUMS["food"] for m in (seen[1], seen[4]))

# --- clerk ---------------------------------------------------------------------------------


def test_clerk_records_the_statement_of_the_witness_and_cites_a_case() -> None:
    out = twelfth.ClerkBot().reply(history(HIKE))
    assert "the witness went hiking in the mountains with their brother" in out
    cases = [c for c, _, _ in twelfth.CASES["outdoors"]]
    assert sum(c in out for c in cases) == 1
    assert twelfth.witness("you are tired of your job") == "the witness is tired of their job"
    assert twelfth.witness("you love pasta") == "the witness says they love pasta"


def test_clerk_exhibits_keep_their_letter_and_answers_stay_the_same() -> None:
    turns = [HIKE, OTHER, "Where do you live?", HIKE, "Where do you live?"]
    said = play(twelfth.ClerkBot(), turns, game_id="c1")
    assert "Exhibit A: greenhouse" in said[1] or "as Exhibit A" in said[1]
    assert re.search(r"Exhibit B\b", said[1]) and "orchids" in said[1]
    answers = [re.search(r"my answer: ([^.]+\.)", s) for s in (said[2], said[4])]
    assert answers[0] and answers[1] and answers[0].group(1) == answers[1].group(1)
    marks = twelfth.exhibits(History(tuple(Message("partner", t) for t in ["x", *turns]), "x"))
    assert marks["mountains"] == "A" and marks["greenhouse"] == "C"

# --- dewey ---------------------------------------------------------------------------------


def test_dewey_shelves_the_word_and_fetches_a_book_of_its_class() -> None:
    out = twelfth.DeweyBot().reply(history(HIKE))
    number, _, books = twelfth.DEWEY["outdoors"]
    assert "mountains" in out.lower() and number in out
    title, author = next((t, a) for t, a in books if t in out)
    assert f"{number} {twelfth.call_mark(author)}" in out and author in out


def test_dewey_keeps_the_card_and_due_date_but_never_the_book() -> None:
    said = play(twelfth.DeweyBot(), [HIKE, BAKE, HIKE, BAKE, HIKE, "ok"], game_id="d1")
    due = twelfth.due_date("d1")
    assert all(due in s for s in said)
    cards = {re.search(r"card (\d{5})", s).group(1) for s in said}  # type: ignore[union-attr]
    assert len(cards) == 1
    titles = [t for t in twelfth._BOOKS for s in said if t in s]
    assert len(titles) == len(set(titles)) == 6

# --- adventure -----------------------------------------------------------------------------


def test_adventure_puts_the_partner_in_a_room_of_their_topic() -> None:
    out = twelfth.AdventureBot().reply(history(HIKE))
    assert any(p.lower() in out.lower() for p in twelfth.ROOMS["outdoors"])
    assert "mountains" in out.lower() and re.search(r"Exits lead (\w+) and (\w+)\.", out)


def test_adventure_carries_earlier_words_and_counts_moves() -> None:
    said = play(twelfth.AdventureBot(), ["What did you do?", HIKE, BAKE, "Do you like tea?"],
                game_id="a1")
    assert "You are carrying" not in said[0] and "carrying: brother" in said[1]
    assert "carrying: mountains, brother" in said[2]
    assert [re.search(r"in (\d+) moves?\.", s).group(1) for s in said] == [  # type: ignore
        "1", "2", "3", "4"]
    assert "A voice answers your question:" in said[3]
    every = [p for row in twelfth.ROOMS.values() for p in row]
    places = [next(p for p in every if p.lower() in s.lower()) for s in said]
    assert len(set(places)) == 4 and places[1] in twelfth.ROOMS["outdoors"]

# --- naturalist ----------------------------------------------------------------------------


def test_naturalist_names_a_species_of_the_topic_with_its_latin_name() -> None:
    out = twelfth.NaturalistBot().reply(history(HIKE))
    common, latin, note = next(r for r in twelfth.WILDLIFE["outdoors"] if r[0] in out)
    assert latin in out and note in out and "mountains" in out.lower()


def test_naturalist_never_logs_the_same_species_twice() -> None:
    said = play(twelfth.NaturalistBot(), [HIKE, BAKE] * 5, game_id="n1")
    latins = [lat for rows in twelfth.WILDLIFE.values() for _, lat, _ in rows]
    logged = [lat for s in said for lat in latins if lat in s]
    assert len(logged) == len(set(logged)) == 10
    entries = [int(re.search(r"(?i)(?:entry|page) (\d+)", s).group(1)) for s in said]  # type: ignore
    assert entries == list(range(entries[0], entries[0] + 10))

# --- dating --------------------------------------------------------------------------------


def test_dating_profile_collects_the_partners_interests() -> None:
    said = play(twelfth.DatingBot(), ["Hello there!", HIKE, BAKE, "ok"], game_id="p1")
    assert "mountains" in said[1] and ("bread" in said[2] or "kitchen" in said[2])
    assert re.search(r"mountains.*brother", said[2]) and re.search(r"mountains.*(bread|kitchen)",
                                                                     said[3])
    dates = [d for row in twelfth.FIRST_DATES.values() for d in row]
    assert sum(d in said[1] for d in twelfth.FIRST_DATES["outdoors"]) == 1
    assert len({next(d for d in dates if d in s) for s in said}) == 4


def test_dating_match_is_fixed_for_a_word_in_a_game() -> None:
    said = play(twelfth.DatingBot(), [HIKE, "I love mountains.", HIKE], game_id="p2")
    matches = {re.search(r"(\d+) percent", s).group(1) for s in said}  # type: ignore[union-attr]
    assert len(matches) == 1

# --- risk ----------------------------------------------------------------------------------


def test_risk_assesses_a_hazard_of_the_topic_with_its_control() -> None:
    out = twelfth.RiskBot().reply(history(BAKE))
    hazard = next(h for h, _ in twelfth.HAZARDS["food"] if h in out)
    assert twelfth._CONTROLS[hazard] in out and "Food Standards Agency" in out
    likely, severe = twelfth.rating("g1", hazard)
    assert likely in out and severe in out


def test_risk_ratings_stay_fixed_and_hazards_do_not_repeat() -> None:
    said = play(twelfth.RiskBot(), [HIKE] * 6, game_id="r1")
    every = [h for rows in twelfth.HAZARDS.values() for h, _ in rows]
    found = [next(h for h in every if h in s) for s in said]
    assert len(set(found)) == 6 and all(h in twelfth._HAZARD_NAMES["outdoors"]
                                        for h in found[:3])
    assert all(twelfth.rating("r1", h)[0] in s for h, s in zip(found, said))
    assert len({twelfth.rating(f"g{i}", found[0]) for i in range(20)}) > 1

# --- card ----------------------------------------------------------------------------------


def test_card_makes_the_partners_words_the_ingredients() -> None:
    out = twelfth.CardBot().reply(history(OTHER))
    assert "Greenhouse" in out and "orchids" in out and "markets" in out
    assert sum(p in out for p in twelfth.PANTRY["garden"]) == 1
    assert sum(c in out for c in twelfth.COOKS) == 1


def test_card_numbers_count_up_and_servings_stay() -> None:
    said = play(twelfth.CardBot(), [HIKE, BAKE, OTHER, "ok"], game_id="k1")
    cards = [int(re.search(r"[Cc]ard (\d+)", s).group(1)) for s in said]  # type: ignore[union-attr]
    assert cards == list(range(cards[0], cards[0] + 4))
    serves = {re.search(r"(?:serves|for) (\d)\b", s).group(1) for s in said}  # type: ignore
    assert len(serves) == 1

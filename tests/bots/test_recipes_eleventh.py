"""The eleventh recipe bots (chatmatch_bots/recipes_eleventh.py): each does its recipe,
deterministically, and each is declared under its adapter name in setup.cfg."""

from __future__ import annotations

import re

import pytest

from chatmatch.common.text import question_count
from chatmatch_bots import recipes_eleventh as eleventh
from tests.bots.recipe_family import (assert_deterministic_over_a_game, assert_long_game_varied,
                                      assert_seeds_vary, OTHER, assert_declared,
                                      assert_non_empty_and_deterministic,
                                      assert_odd_partner_turns_get_a_short_real_reply,
                                      assert_tournament_follows, history, play)


CLASSES: dict[str, type] = {"acrostic": eleventh.AcrosticBot, "shipping": eleventh.ShippingBot,
                            "faq": eleventh.FaqBot, "reviewer": eleventh.ReviewerBot,
                            "horoscope": eleventh.HoroscopeBot,
                            "numerology": eleventh.NumerologyBot,
                            "auction": eleventh.AuctionBot, "sommelier": eleventh.SommelierBot}

#: a hiking statement without a question
HIKE = "I went hiking in the mountains with my brother last weekend."


def test_every_recipe_is_declared_in_setup_cfg() -> None:
    assert_declared("eleventh", CLASSES)


def test_the_eleventh_tournament_plays_every_recipe() -> None:
    assert_tournament_follows("eleventh", "tenth", CLASSES)


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_non_empty_and_deterministic(short: str) -> None:
    assert_non_empty_and_deterministic("eleventh", short, CLASSES[short])


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

# --- acrostic ------------------------------------------------------------------------------


def test_acrostic_spells_the_partners_word_with_a_name_per_letter() -> None:
    out = eleventh.AcrosticBot().reply(history("I love my garden."))
    pairs = re.findall(r"\b([A-Z]) for ([A-Z][\w' ]*?)(?=,| and |\.)", out)
    assert "".join(p[0] for p in pairs) == "GARDEN"
    for letter, name in pairs:
        assert name in eleventh.SPELLING[letter.lower()] and name.startswith(letter)


def test_acrostic_never_reuses_a_name_in_a_game() -> None:
    said = play(eleventh.AcrosticBot(), ["I love my garden."] * 4)
    names = [n for s in said for n in re.findall(r"\b[A-Z] for ([A-Z][\w' ]*?)(?=,| and |\.)", s)]
    assert len(names) == 24 and len(set(names)) == 24
    long = eleventh.AcrosticBot().reply(history(HIKE))
    assert "and so on" in long and len(re.findall(r"\b[A-Z] for ", long)) == eleventh.ACROSTIC_MAX

# --- shipping ------------------------------------------------------------------------------


def test_shipping_reads_three_sea_areas_with_wind_weather_and_visibility() -> None:
    out = eleventh.ShippingBot().reply(history(HIKE))
    areas = [a for a in eleventh.SEA_AREAS if re.search(rf"\b{a}\b[,:]", out)]
    assert len(areas) == 3 and "mountains" in out.lower()
    assert sum(w in out for w in eleventh.WINDS) == 2


def test_shipping_never_repeats_an_area_until_all_are_read() -> None:
    said = play(eleventh.ShippingBot(), [HIKE, OTHER] * 5)
    read = [a for s in said for a in re.findall(r"([A-Z][A-Za-z ]+?)(?=[,:] )", s)
            if a in eleventh.SEA_AREAS]
    assert len(read) == 30 and len(set(read)) == 30

# --- faq -----------------------------------------------------------------------------------


def test_faq_asks_itself_two_questions_and_answers_them() -> None:
    out = eleventh.FaqBot().reply(history(HIKE))
    qa = re.findall(r"Q: ([^?]+\?) A: ", out)
    assert len(qa) == 2 and all("mountains" in q for q in qa)
    assert question_count(out) == 3


def test_faq_answers_its_own_question_the_same_way_all_game() -> None:
    said = play(eleventh.FaqBot(), [HIKE] * 10)
    answers: dict[str, set[str]] = {}
    for s in said:
        for q, a in re.findall(r"Q: ([^?]+\?) A: ([^?]+?\.)(?= Q:| [A-Z][^.]*\?$)", s):
            answers.setdefault(q, set()).add(a)
    assert len(answers) == len(eleventh.FAQ)  # every question came up
    assert all(len(a) == 1 for a in answers.values())
    theirs = eleventh.FaqBot().reply(history("Where do you live?"))
    assert "Q: Where do you live? A:" in theirs

# --- reviewer ------------------------------------------------------------------------------


def test_reviewer_quotes_the_claim_and_cites_a_scholar() -> None:
    out = eleventh.ReviewerBot().reply(history(HIKE))
    assert "you went hiking in the mountains with your brother" in out
    assert sum(s in out for s in eleventh.SCHOLARS) == 1
    assert re.search(r"Score: \d+/10", out)


def test_reviewer_keeps_its_score_but_changes_its_citation() -> None:
    said = play(eleventh.ReviewerBot(), [HIKE, OTHER, "I like tea.", "Why?"], game_id="r1")
    scores = {re.search(r"Score: (\d+)/10", s).group(1) for s in said}  # type: ignore[union-attr]
    cited = [next(c for c in eleventh.SCHOLARS if c in s) for s in said]
    assert len(scores) == 1 and len(set(cited)) == 4
    assert [f"round {i}." in s for i, s in enumerate(said, 1)] == [True] * 4

# --- horoscope -----------------------------------------------------------------------------


def test_horoscope_keeps_the_sign_for_the_game_and_reads_about_the_word() -> None:
    said = play(eleventh.HoroscopeBot(), [HIKE, OTHER, "I like tea."], game_id="h1")
    signs = {next(n for n, _ in eleventh.SIGNS if s.startswith(n)) for s in said}
    assert len(signs) == 1 and "mountains" in said[0] and "greenhouse" in said[1]
    assert all(re.search(r"Lucky number \d+", s) for s in said)


def test_horoscope_takes_up_the_sign_the_partner_names() -> None:
    said = play(eleventh.HoroscopeBot(), [HIKE, "I'm a Scorpio actually.", "I like tea."])
    assert said[1].startswith("Ah, a Scorpio") and said[2].startswith("Scorpio,")
    assert eleventh.partner_sign(history("no sign here")) is None

# --- numerology ----------------------------------------------------------------------------


def test_numerology_adds_up_the_letters() -> None:
    assert eleventh.letter_sum("abc") == 6 and eleventh.letter_sum("Hiking") == 58
    out = eleventh.NumerologyBot().reply(history("I love my garden."))
    assert re.search(r"Garden \w+ (?:to )?%d\b" % eleventh.letter_sum("garden"), out)


def test_numerology_picks_the_nearest_famous_number_not_used_yet() -> None:
    assert eleventh.nearest_number(64, "") == 64
    assert eleventh.nearest_number(65, "") == 64
    assert eleventh.nearest_number(64, eleventh.NUMBERS[64]) == 66
    said = play(eleventh.NumerologyBot(), ["I love my garden."] * 5)
    facts = [f for s in said for f in eleventh.NUMBERS.values() if f in s]
    assert len(facts) == len(set(facts)) >= 5

# --- auction -------------------------------------------------------------------------------


def test_auction_lots_count_up_and_offer_the_partners_word() -> None:
    said = play(eleventh.AuctionBot(), [HIKE, OTHER, "I like tea."], game_id="a1")
    lots = [int(re.search(r"Lot (\d+):", s).group(1)) for s in said]  # type: ignore[union-attr]
    assert lots == [lots[0], lots[0] + 1, lots[0] + 2]
    assert "mountains" in said[0] and "greenhouse" in said[1]
    assert all(any(b in s for b in eleventh.BIDDERS) for s in said)


def test_auction_sells_to_a_partner_who_names_a_price() -> None:
    said = play(eleventh.AuctionBot(), [HIKE, "I'll give you 250 for it."])
    assert said[1].startswith("Sold, to you, for 250 pounds!")
    assert not said[0].startswith("Sold")

# --- sommelier -----------------------------------------------------------------------------


def test_sommelier_tastes_the_partners_words_and_pairs_a_wine() -> None:
    out = eleventh.SommelierBot().reply(history(HIKE))
    assert "mountains" in out and "hiking" in out
    assert sum(w in out for w in eleventh.WINES) == 1
    assert sum(n in out for n in eleventh.NOTES) >= 3


def test_sommelier_never_pairs_the_same_wine_or_note_twice() -> None:
    said = play(eleventh.SommelierBot(), [HIKE, OTHER] * 4)
    wines = [next(w for w in eleventh.WINES if w in s) for s in said]
    assert len(set(wines)) == 8
    first = [n for n in eleventh.NOTES if n in said[0]]
    assert not any(n in said[1] for n in first)

"""The fourth recipe bots (chatmatch_bots/recipes_fourth.py): each does its recipe,
deterministically, and each is declared under its adapter name in setup.cfg."""

from __future__ import annotations

import re

import pytest

from chatmatch.bot import History, Message
from chatmatch.common.text import question_count
from chatmatch_bots import recipes_fourth as fourth
from chatmatch_bots.recipes_unseen import content_words
from tests.bots.recipe_family import (KEPT_SETTINGS, OTHER, PARTNER, QUIET_HISTORIES, SHORT_GAME,
                                      assert_declared, assert_deterministic_over_a_game,
                                      assert_non_empty_and_deterministic,
                                      assert_tournament_plays, history, play)


CLASSES = {"opinion": fourth.OpinionBot, "shape": fourth.ShapeBot,
           "teacher": fourth.TeacherBot, "story": fourth.StoryBot,
           "claim": fourth.ClaimBot, "mix": fourth.MixBot,
           "headline": fourth.HeadlineBot, "polite": fourth.PoliteBot,
           "borrow": fourth.BorrowBot}


def test_every_recipe_is_declared_in_setup_cfg() -> None:
    assert_declared("fourth", CLASSES)


def test_the_fourth_tournament_plays_every_recipe() -> None:
    assert_tournament_plays("fourth", CLASSES, "blind", KEPT_SETTINGS)


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_non_empty_and_deterministic(short: str) -> None:
    # the quiet histories with a partner turn
    assert_non_empty_and_deterministic("fourth", short, CLASSES[short], QUIET_HISTORIES[:5])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_deterministic_over_a_whole_game(short: str) -> None:
    assert_deterministic_over_a_game(CLASSES[short], SHORT_GAME)


def test_opinion_names_the_main_noun_then_asks_about_an_entity() -> None:
    out = fourth.OpinionBot().reply(history(OTHER))
    assert "greenhouse" in out and out.endswith(fourth.ENTITY_QUESTIONS)
    assert any(out.startswith(o.split("{w}")[0]) for o in fourth.OPINIONS)
    assert question_count(out) == 1


def test_shape_keeps_the_shape_and_swaps_content_words_for_nouns() -> None:
    out = fourth.ShapeBot().reply(history("My aunt grows orchids in the greenhouse."))
    words = out.rstrip(".").split()
    assert words[0] == "Your" and words[4:6] == ["in", "the"] and len(words) == 7
    assert all(w in fourth.NOUNS for w in (words[1], words[2], words[3], words[6]))
    assert not {w.lower() for w in content_words(OTHER)} & {w.lower() for w in words}


def test_teacher_defines_a_partner_word() -> None:
    out = fourth.TeacherBot().reply(history(OTHER))
    assert any(d in out for d in fourth.DICTIONARIES)
    assert any(f"{c} century" in out for c in fourth.CENTURIES)
    assert {w for w in re.findall(r"[a-z]+", out.lower())} & \
        {w.lower() for w in content_words(OTHER)}


def test_story_tells_the_script_in_order_whatever_is_said() -> None:
    said = play(fourth.StoryBot(), [PARTNER, OTHER, "Do you have a dog?"] * 4)
    assert all(s.endswith(" " + st) for s, st in zip(said, fourth.STORY, strict=True))
    assert all(s[:-len(st) - 1] in fourth.AGREE
               for s, st in zip(said, fourth.STORY, strict=True))


def test_claim_answers_questions_specifically_and_otherwise_asks_on() -> None:
    bot = fourth.ClaimBot()
    out = bot.reply(history("How often do you go swimming?"))
    assert re.search(r"\b(19|20)\d\d\b", out) and any(p in out for p in fourth.CLAIM_PLACES)
    assert question_count(out) == 0
    said = play(bot, [OTHER] * len(fourth.CONTINUERS))
    assert sorted(said) == sorted(fourth.CONTINUERS)


def test_mix_splices_the_partner_last_two_turns() -> None:
    msgs = (Message("partner", "I went hiking in the mountains with my brother."),
            Message("self", "ok"), Message("partner", OTHER))
    out = fourth.MixBot().reply(History(msgs, "x", "g", 3, 1))
    assert out == "So your aunt grows orchids in a the mountains with your brother."


def test_headline_reads_fresh_headlines_and_asks() -> None:
    said = play(fourth.HeadlineBot(), [PARTNER] * len(fourth.HEADLINES))
    heads = [next(h for h in fourth.HEADLINES if s.startswith(h)) for s in said]
    assert sorted(heads) == sorted(fourth.HEADLINES)
    assert all(s.endswith(fourth.HEADLINE_ASKS) for s in said)


def test_polite_cycles_acknowledgements_and_asks_about_the_longest_word() -> None:
    said = play(fourth.PoliteBot(), [OTHER] * len(fourth.ACKS))
    assert len(set(said)) == len(said) == 30
    assert all(s.startswith(a + " ") for s, a in zip(said, fourth.ACKS, strict=True))
    assert all("greenhouse" in s and question_count(s) == 1 for s in said)


def test_borrow_passes_off_an_earlier_partner_sentence_as_its_own() -> None:
    msgs = (Message("partner", "What did you do last week?"), Message("self", "ok"),
            Message("partner", "I lost my keys at the station."), Message("self", "ok"),
            Message("partner", "My cat is called Tom."))
    out = fourth.BorrowBot().reply(History(msgs, "x", "g", 5, 1))
    assert "I lost my keys at the station" in out and "Tom" not in out
    assert fourth.BorrowBot().reply(history("Hi")) == \
        "Oh, I can relate to that more than you'd think."

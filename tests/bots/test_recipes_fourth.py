"""The fourth recipe bots (chatmatch_bots/recipes_fourth.py): each does its recipe,
deterministically, and each is declared under its adapter name in setup.cfg."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chatmatch.adapters import create_bot
from chatmatch.bot import History, Message
from chatmatch.common.text import question_count
from chatmatch_bots import recipes_fourth as fourth
from chatmatch_bots.recipes import RecipeBot
from chatmatch_bots.recipes_unseen import content_words
from tests.bots.recipe_family import OTHER, PARTNER, declared_bots, history, play


CLASSES = {"opinion": fourth.OpinionBot, "shape": fourth.ShapeBot,
           "teacher": fourth.TeacherBot, "story": fourth.StoryBot,
           "claim": fourth.ClaimBot, "mix": fourth.MixBot,
           "headline": fourth.HeadlineBot, "polite": fourth.PoliteBot,
           "borrow": fourth.BorrowBot}


def test_every_recipe_is_declared_in_setup_cfg() -> None:
    declared = {k: v for k, v in declared_bots().items() if k.startswith("recipe-fourth-")}
    assert declared == {f"recipe-fourth-{short}":
                        f"chatmatch_bots.recipes_fourth:{cls.__name__}"
                        for short, cls in CLASSES.items()}


def test_the_fourth_tournament_plays_every_recipe() -> None:
    root = Path(__file__).resolve().parents[2] / "tournaments"
    text = (root / "gaming-fourth.yaml").read_text()
    adapters = re.findall(r"adapter: (recipe-[\w-]+)", text)
    assert sorted(adapters) == sorted(f"recipe-fourth-{short}" for short in CLASSES)
    assert "name: gaming-fourth" in text and "output_dir: runs/gaming-fourth" in text
    blind = (root / "gaming-blind.yaml").read_text()
    for line in ("seed: 7", "exchanges: 10", "  method: trueskill", "  shuffles: 10",
                 "  - name: smollm2", "  - name: retrieval", "  - name: chatterbot"):
        assert line in blind.splitlines() and line in text.splitlines(), line


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_non_empty_and_deterministic(short: str) -> None:
    bot = create_bot(short, f"chatmatch_bots.recipes_fourth:{CLASSES[short].__name__}", {})
    assert isinstance(bot, RecipeBot) and bot.description.startswith("Recipe (fourth): ")
    for h in (history(), history(OTHER, ("ok",)), history("", seed=9), history("?!"),
              history("I am.", ("ok", "fine"))):
        one, two = bot.reply(h), bot.reply(h)
        assert one == two and one.strip(), (short, h.last_partner_text)


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_deterministic_over_a_whole_game(short: str) -> None:
    turns = [PARTNER, OTHER, "Do you like hiking?", "I am tired of my job.", "Do you have a dog?"]
    assert play(CLASSES[short](), turns, seed=5) == play(CLASSES[short](), turns, seed=5)


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

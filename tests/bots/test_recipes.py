"""The recipe bots of the gaming suite (chatmatch_bots/recipes.py): each does its recipe,
deterministically, and each is registered under its adapter name."""

from __future__ import annotations

import pytest

from chatmatch.bot import History, Message
from chatmatch.adapters import create_bot
from chatmatch.common.text import question_count
from chatmatch_bots import recipes

PARTNER = "I went hiking in the mountains with my brother. Do you like hiking?"


def history(partner: str = PARTNER, said: int = 0, seed: int = 3) -> History:
    msgs = [Message("partner", "What did you do last week?")]
    for _ in range(said):
        msgs += [Message("self", "ok"), Message("partner", "fine")]
    msgs.append(Message("partner", partner))
    return History(tuple(msgs), "What did you do last week?", "g1", len(msgs), seed)


ADAPTERS = ["recipe-pirate", "recipe-mirror", "recipe-entities", "recipe-questions",
            "recipe-salad", "recipe-constant", "recipe-catchphrase", "recipe-edit",
            "recipe-filler"]


@pytest.mark.parametrize("adapter", ADAPTERS)
def test_registered_and_deterministic(adapter: str) -> None:
    bot = create_bot(adapter, adapter, {})
    assert isinstance(bot, recipes.RecipeBot)
    one, two = bot.reply(history()), bot.reply(history())
    assert one == two and one.strip()


def test_pirate_template_uses_a_partner_word() -> None:
    out = recipes.PirateBot().reply(history())
    assert out.startswith("Arr! Ye speak of ") and out.endswith("What say ye?")
    word = out.removeprefix("Arr! Ye speak of ").split("?")[0]
    assert word.lower() in PARTNER.lower() and word.lower() not in recipes._COMMON


def test_mirror_parrots_the_question_and_mirrors_a_statement() -> None:
    assert recipes.MirrorBot().reply(history()).startswith("Do you like hiking?")
    mirrored = recipes.MirrorBot().reply(history("I like my dog."))
    assert mirrored.startswith("you like your dog?") and question_count(mirrored) == 2


def test_questions_ignore_the_partner_and_move_on() -> None:
    a = recipes.QuestionSpamBot().reply(history("Tell me about Paris."))
    b = recipes.QuestionSpamBot().reply(history("Something else entirely.", said=1))
    assert question_count(a) == 2 and a != b and "paris" not in a.lower()


def test_constant_salad_entities_filler_edit_catchphrase() -> None:
    assert recipes.ConstantBot().reply(history()) == recipes.ConstantBot().reply(history("x", 4))
    words = recipes.SaladBot().reply(history()).rstrip(".").lower().split()
    assert len(words) == 8 and set(words) <= set(recipes.RARE_WORDS)
    assert sum(e in recipes.EntityBot().reply(history()) for e in recipes.ENTITIES) == 3
    assert len(recipes.FillerBot().reply(history()).split()) > 60
    assert recipes.EditBot().reply(history("I like my dog.")) == "Indeed, you like your dog."
    assert recipes.CatchphraseBot().reply(history()).endswith("life is better with cats!")

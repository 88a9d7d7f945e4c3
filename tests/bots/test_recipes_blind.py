"""The blind recipe bots (chatmatch_bots/recipes_blind.py): each does its recipe,
deterministically, and each is declared under its adapter name in setup.cfg."""

from __future__ import annotations

import re
from itertools import pairwise

import pytest

from chatmatch.bot import History, Message
from chatmatch.common.text import question_count, tokens
from chatmatch_bots import recipes_blind as blind
from chatmatch_bots.recipes_unseen import content_words
from tests.bots.recipe_family import (OTHER, PARTNER, QUIET_HISTORIES, SHORT_GAME, assert_declared,
                                      assert_deterministic_over_a_game,
                                      assert_non_empty_and_deterministic,
                                      assert_tournament_plays, history, play)


CLASSES = {"assoc": blind.AssociationBot, "splice": blind.SpliceBot,
           "yesand": blind.YesAndBot, "alternate": blind.AlternateBot,
           "markov": blind.MarkovBot, "recall": blind.RecallBot,
           "empathy": blind.EmpathyBot, "anecdote": blind.AnecdoteBot,
           "oracle": blind.OracleBot, "paraphrase": blind.ParaphraseBot}


def test_every_recipe_is_declared_in_setup_cfg() -> None:
    assert_declared("blind", CLASSES)


def test_the_blind_tournament_plays_every_recipe() -> None:
    assert_tournament_plays("blind", CLASSES)


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_non_empty_and_deterministic(short: str) -> None:
    # the quiet histories with a partner turn
    assert_non_empty_and_deterministic("blind", short, CLASSES[short], QUIET_HISTORIES[:5])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_deterministic_over_a_whole_game(short: str) -> None:
    assert_deterministic_over_a_game(CLASSES[short], SHORT_GAME)


def test_assoc_names_things_the_partner_word_calls_to_mind() -> None:
    bot = blind.AssociationBot()
    out = bot.reply(history("Do you have a dog?"))
    assert all(a in out for a in blind.ASSOC["dog"]) and "dog" not in tokens(out)
    assert all(a in bot.reply(history("I love my dogs.")) for a in blind.ASSOC["dog"])
    assert all(a in bot.reply(history("Nothing here.")) for a in blind.ASSOC_DEFAULT)
    said = play(bot, ["Do you have a dog?"] * len(blind.ASSOC_FRAMES))
    assert len(set(said)) == len(said)


def test_splice_puts_a_partner_word_into_a_human_sentence() -> None:
    said = play(blind.SpliceBot(), [OTHER] * 10)
    assert len(set(said)) == len(said)
    partner_words = {w.lower() for w in content_words(OTHER)}
    for out in said:
        frame = next(c for c in blind.CHAT if "[" in c and out.startswith(c.split("[")[0])
                     and out.endswith(c.split("]")[1]))
        word = out[len(frame.split("[")[0]):len(out) - len(frame.split("]")[1])]
        assert word in partner_words
    assert "[" not in blind.SpliceBot().reply(history(""))


def test_yesand_agrees_names_a_partner_word_adds_a_fact_and_asks() -> None:
    said = play(blind.YesAndBot(), [PARTNER] * len(blind.AND_FACTS))
    facts = [next(f for f in blind.AND_FACTS if f in s) for s in said]
    assert sorted(facts) == sorted(blind.AND_FACTS)
    for out in said:
        assert out.split(",")[0] in {y.split(",")[0] for y in blind.YES_AND}
        assert re.search(r"speaking of (hiking|went|mountains|brother|like),", out)
        assert question_count(out) == 1 and out.endswith(blind.AND_ASKS)


def test_alternate_answers_then_asks_and_never_repeats() -> None:
    n = 2 * len(blind.STOCK_ANSWERS)
    said = play(blind.AlternateBot(), [PARTNER, OTHER] * (n // 2))
    assert said[0::2] == list(blind.STOCK_ANSWERS) and said[1::2] == list(blind.STOCK_QUESTIONS)
    assert len(set(said)) == n
    assert all(question_count(s) == 0 for s in said[0::2])
    assert all(question_count(s) == 1 for s in said[1::2])


def test_markov_starts_from_a_partner_word_and_walks_the_chat_text() -> None:
    bot = blind.MarkovBot()
    pairs = {(a.lower(), b.lower()) for a, after in blind.BIGRAMS.items() for b in after}
    for seed in range(20):
        out = bot.reply(history("My brother is great.", seed=seed))
        assert out.startswith(("Brother", "Great"))
        words = re.findall(r"[a-z][a-z'-]*|[.!?,]", out.lower())
        assert words[-1] in ".!?" and len(words) <= 31
        assert all(p in pairs for p in list(pairwise(words))[:-1])
    first_words = {line.split()[0] for line in blind.CHAT}
    assert bot.reply(history("Zzyzx qwerty.")).split()[0].strip(".,") in first_words


def test_recall_quotes_an_earlier_partner_turn_not_the_last() -> None:
    bot = blind.RecallBot()
    msgs = (Message("partner", "What did you do last week?"), Message("self", "ok"),
            Message("partner", "I lost my keys at the station."), Message("self", "ok"),
            Message("partner", "My cat is called Tom."))
    out = bot.reply(History(msgs, "What did you do last week?", "g", 5, 1))
    assert "you lost your keys at the station" in out and "Tom" not in out
    assert question_count(out) >= 1
    assert bot.reply(history("Hi")) == \
        "You haven't told me much about yourself yet. What's on your mind?"


def test_empathy_is_generic_asks_and_never_repeats() -> None:
    bot = blind.EmpathyBot()
    assert bot.reply(history(PARTNER)) == bot.reply(history(OTHER))
    said = play(bot, [PARTNER] * len(blind.EMPATHY))
    assert sorted(said) == sorted(blind.EMPATHY)
    assert all(question_count(s) == 1 for s in said)


def test_anecdote_turns_the_partner_statement_into_a_relative_story() -> None:
    out = blind.AnecdoteBot().reply(history())
    assert re.fullmatch(r"Funny, (my [\w -]+) went hiking in the mountains with their brother "
                        r"too, (.+) in ([\w ]+)\.", out)
    assert any(out.startswith(f"Funny, {r} ") for r in blind.RELATIVES)
    assert any(f" {w} in " in out for w in blind.WHENS)
    assert any(out.endswith(f" in {p}.") for p in blind.PLACES)
    other = blind.AnecdoteBot().reply(history(OTHER))
    assert "was telling me about" in other
    assert other.split(" about ")[1].split()[0] in {w.lower() for w in content_words(OTHER)}


def test_oracle_gives_the_same_question_the_same_answer() -> None:
    bot = blind.OracleBot()
    one = bot.reply(history("Do you like hiking?", seed=1))
    assert one in blind.ORACLE
    assert one == bot.reply(history("So... do you LIKE hiking?", ("x", "y"), seed=99))
    assert one == bot.reply(history("I love the sea. Do you like hiking?", seed=7))
    answers = {bot.reply(history(f"Do you like {w}?")) for w in
               ("tea", "cats", "football", "opera", "skiing", "chess", "jazz", "sushi")}
    assert len(answers) > 1


def test_paraphrase_restates_the_partner_in_other_words() -> None:
    bot = blind.ParaphraseBot()
    out = bot.reply(history("I went hiking in the mountains with my brother."))
    assert out == "So you headed trekking in the hills with your sibling."
    said = play(bot, [OTHER] * len(blind.PARAPHRASE_FRAMES))
    assert len(set(said)) == len(said)
    assert all("auntie cultivates orchids" in s and "trades them at fairs" in s for s in said)
    assert bot.reply(history("Do you like tea?")) == "So you're asking me: do I like tea?"

"""The unseen recipe bots (chatmatch_bots/recipes_unseen.py): each does its recipe,
deterministically, and each is declared under its adapter name in setup.cfg."""

from __future__ import annotations


import pytest

from chatmatch.common.text import question_count, tokens
from chatmatch_bots import recipes_unseen as unseen
from tests.bots.recipe_family import (OTHER, PARTNER, QUIET_HISTORIES, assert_declared,
                                      assert_non_empty_and_deterministic, history, play)


CLASSES = {"randomline": unseen.RandomLineBot, "sycophant": unseen.SycophantBot,
           "eliza": unseen.ElizaFramesBot, "hijack": unseen.HijackBot,
           "facts": unseen.FactDropBot, "proverbs": unseen.ProverbBot,
           "counter": unseen.CounterQuestionBot, "reverse": unseen.ReverseBot,
           "summary": unseen.SummaryBot, "rotator": unseen.RotatorBot,
           "persona": unseen.PersonaBot}


def test_every_recipe_is_declared_in_setup_cfg() -> None:
    assert_declared("unseen", CLASSES)


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_non_empty_and_deterministic(short: str) -> None:
    # the first four quiet histories (a partner turn after no more than one "ok")
    assert_non_empty_and_deterministic("unseen", short, CLASSES[short], QUIET_HISTORIES[:4])


def test_random_line_ignores_the_partner_and_does_not_repeat() -> None:
    bot = unseen.RandomLineBot()
    assert bot.reply(history(PARTNER)) == bot.reply(history(OTHER))
    assert bot.reply(history()) in unseen.LINES
    said = play(bot, [f"turn {i}" for i in range(len(unseen.LINES))])
    assert sorted(said) == sorted(unseen.LINES)


def test_sycophant_agrees_naming_a_partner_word_in_varied_frames() -> None:
    said = play(unseen.SycophantBot(), [PARTNER] * 6)
    assert len(set(said)) == 6
    for out in said:
        assert set(tokens(out)) & {"hiking", "mountains", "brother", "went", "like"}


def test_eliza_reflects_the_partner_in_rotating_question_frames() -> None:
    said = play(unseen.ElizaFramesBot(), ["I lost my keys."] * 4)
    assert said[0] == "Why do you say you lost your keys?"
    assert len(set(said)) == 4
    assert all("you lost your keys" in s and question_count(s) == 1 for s in said)


def test_hijack_always_talks_about_its_own_subject_and_asks() -> None:
    said = play(unseen.HijackBot(), [PARTNER, OTHER, "Tell me about Paris."] * 3)
    assert len(set(said)) == len(said)
    for out in said:
        assert question_count(out) == 1 and "paris" not in out.lower()
        assert any(w in out.lower() for w in ("bread", "loaf", "dough", "starter", "flour",
                                              "bake", "crumb", "crust", "boule", "proof",
                                              "oven"))


def test_facts_acknowledge_then_drop_an_encyclopedic_sentence() -> None:
    out = unseen.FactDropBot().reply(history())
    ack = out.split(" ")[0]
    assert ack in {a.split(" ")[0] for a in unseen.ACKS}
    assert any(out.endswith(f) for f in unseen.FACTS)
    said = play(unseen.FactDropBot(), [PARTNER] * len(unseen.FACTS))
    assert len({next(f for f in unseen.FACTS if s.endswith(f)) for s in said}) == len(said)


def test_proverbs_quote_an_author_and_never_repeat() -> None:
    said = play(unseen.ProverbBot(), [PARTNER] * len(unseen.QUOTES))
    assert sorted(said) == sorted(unseen.QUOTES)
    assert unseen.ProverbBot().reply(history(PARTNER)) == unseen.ProverbBot().reply(history(OTHER))


def test_counter_meets_every_turn_with_questions_about_partner_words() -> None:
    out = unseen.CounterQuestionBot().reply(history())
    assert out.startswith("Before I answer, ") and question_count(out) == 2
    quoted = out.split("'")[1::2]
    assert len(quoted) == 2 and all(q in PARTNER.lower() for q in quoted)
    assert unseen.CounterQuestionBot().reply(history(OTHER)).startswith("Hmm, ")


def test_reverse_reverses_sentences_or_clauses() -> None:
    bot = unseen.ReverseBot()
    assert bot.reply(history()) == ("Do you like hiking? "
                                    "I went hiking in the mountains with my brother.")
    assert bot.reply(history("I like tea, but my wife likes coffee.")) == \
        "But my wife likes coffee, I like tea."
    assert bot.reply(history("Hello")) == "Hello"


def test_summary_restates_what_the_partner_said() -> None:
    bot = unseen.SummaryBot()
    out = bot.reply(history(OTHER, ("ok",)))
    assert out.startswith("So far we have covered ") and "greenhouse" in out
    assert "orchids" in out and "markets" in out
    assert bot.reply(history(PARTNER)) != out


def test_rotator_never_repeats_a_frame_in_a_game() -> None:
    said = play(unseen.RotatorBot(), [PARTNER] * len(unseen.ROTATOR))
    frames = [next(i for i, f in enumerate(unseen.ROTATOR)
                   if s.startswith(f.split("{")[0]) and s.endswith(f.split("}")[-1]))
              for s in said]
    assert sorted(frames) == list(range(len(unseen.ROTATOR)))
    assert all(set(tokens(s)) & set(tokens(PARTNER)) for s in said)


def test_persona_answers_the_same_topic_the_same_way() -> None:
    bot = unseen.PersonaBot()
    job = bot.reply(history("So what is your job?"))
    assert job == bot.reply(history("Tell me about your work.", ("ok", "fine"), seed=40))
    assert "Leeds" in job
    assert "Biscuit" in bot.reply(history("Do you have a dog?"))
    assert bot.reply(history("Nice weather today.")) in unseen.PERSONA_DEFAULT

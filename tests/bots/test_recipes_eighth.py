"""The eighth recipe bots (chatmatch_bots/recipes_eighth.py): each does its recipe,
deterministically, and each is declared under its adapter name in setup.cfg."""

from __future__ import annotations

import re

import pytest

from chatmatch.bot import History
from chatmatch_bots import recipes_eighth as eighth
from chatmatch_bots.recipes_seventh import NAMES, _stable
from tests.bots.recipe_family import (assert_deterministic_over_a_game, assert_long_game_varied,
                                      assert_seeds_vary, LONG_GAME, ODD, OTHER, PARTNER,
                                      assert_declared, assert_non_empty_and_deterministic,
                                      assert_odd_partner_turns_get_a_short_real_reply,
                                      assert_tournament_follows, history, play)


CLASSES = {"answer": eighth.AnswerBot, "aiml": eighth.AimlBot,
           "sequel": eighth.SequelBot, "oneup": eighth.OneUpBot,
           "clarify": eighth.ClarifyBot, "psychic": eighth.PsychicBot,
           "polyglot": eighth.PolyglotBot, "critic": eighth.CriticBot}


def test_every_recipe_is_declared_in_setup_cfg() -> None:
    assert_declared("eighth", CLASSES)


def test_the_eighth_tournament_plays_every_recipe() -> None:
    assert_tournament_follows("eighth", "seventh", CLASSES)


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_non_empty_and_deterministic(short: str) -> None:
    assert_non_empty_and_deterministic("eighth", short, CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_odd_partner_turns_get_a_short_real_reply(short: str) -> None:
    # the eighth family's odd turns stop before "🙂🙂🙂" and "Bye!", and it has no
    # Latin-letters check
    assert_odd_partner_turns_get_a_short_real_reply(short, CLASSES[short], turns=ODD[:-2],
                                                    latin_only=False)


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_deterministic_over_a_whole_game(short: str) -> None:
    assert_deterministic_over_a_game(CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_a_long_game_has_no_empty_or_repeated_reply(short: str) -> None:
    assert_long_game_varied(short, CLASSES[short])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_different_seeds_vary_the_reply(short: str) -> None:
    assert_seeds_vary(short, CLASSES[short])


def test_turns_are_read_and_retold_from_the_other_side() -> None:
    assert eighth.person("I told you about my dog") == "you told me about your dog"
    assert eighth.person("Are you a robot?") == "Am I a robot?"
    assert eighth.person("Were you there?") == "Was I there?"
    assert eighth.first_person(PARTNER) == "you went hiking in the mountains with your brother"
    assert eighth.first_person(OTHER) == "your aunt grows orchids in a greenhouse"
    assert eighth.first_person("Haha, I went to Lisbon, it was hot.") == "you went to Lisbon"
    assert eighth.first_person("I think so.") is None
    assert eighth.first_person("Do you like it?") is None and eighth.first_person("") is None
    kinds = {"Where do you live?": "home", "Where are you from?": "home",
             "Tea or coffee?": "or", "Do you like hiking?": "like", "Why?": "why",
             "How often do you swim?": "amount", "What about you?": "about_you",
             "What did you do last week?": "week", "What's your favourite film?": "favourite",
             "What do you do for a living?": "job", "How are you?": "how_are_you",
             "Have you been to Rome?": "yesno", "Where do you go hiking?": "where",
             "Who taught you?": "who"}
    assert {q: eighth.question_kind(q) for q in kinds} == kinds
    assert eighth.topic_of("Do you like hiking?") == "outdoors"


def test_answer_answers_the_question_the_same_way_and_asks_it_back() -> None:
    said = play(eighth.AnswerBot(), ["Where do you live?", "Nice.", "Where are you from?",
                                     "Do you like hiking?", "Where do you live?"],
                game_id="game-a")
    h = History((), "", "game-a")
    home = eighth.quick_answer(h, "Where do you live?")
    assert home in eighth.ANSWERS["home"] and home == eighth.quick_answer(h, "Where are you from?")
    assert re.search(r"[Ww]here do I live\?( [A-Z][\w ,]+\.)? " + re.escape(home), said[0])
    assert said[0].endswith("where do you live?") or said[0].endswith("Where do you live?")
    assert home in said[2] and home in said[4] and said[0] != said[4]
    assert said[3].startswith("Do I like hiking?") and "I" in said[3]
    assert any(a.format(x="hiking") in said[3] for a in eighth.ANSWERS["like"])
    assert said[3].lower().endswith("do you like hiking?")
    assert all("where do i live?" in said[i].lower() for i in (0, 4))
    assert "where am i from?" in said[2].lower()
    tea = eighth.AnswerBot().reply(history("Tea or coffee?"))
    assert re.match(r"Tea or coffee\? ([A-Z][^.]*\. )?(Tea|Coffee), definitely; ", tea)
    # a statement: its own answer to the question it asked, and a new question
    first, second = play(eighth.AnswerBot(), ["I like it.", "I went to Spain."])
    asked = eighth.asked(first)
    assert asked in [q.format(w=x, a=x) for q in eighth.OWN_ASKS
                     for x in eighth.TOPIC_WORDS.values()]
    mine = eighth.quick_answer(History((), "", "g"), asked)
    assert "As for me, " + mine[:1].lower() + mine[1:] in second or \
        "As for me, " + mine in second
    assert second.startswith(("Ah, Spain", "Oh, Spain", "Spain", "Mm, Spain", "Ha, Spain",
                              "Right, Spain")) and second.endswith("?")
    # "what about you?" gets its own answer to the question it asked
    third = play(eighth.AnswerBot(), ["I like it.", "What about you?"])[1]
    assert mine in third


def test_aiml_matches_a_category_and_fills_in_the_wildcard() -> None:
    assert eighth.aiml_match(PARTNER)[:2] == ("do_you_like", ("hiking",))
    assert eighth.aiml_match("I went hiking in the mountains with my brother.")[:2] == \
        ("went_doing", ("hiking in the mountains with your brother",))
    assert eighth.aiml_match("I visited Lisbon with my friend Tom, we saw it.")[:2] == \
        ("went_to", ("Lisbon with your friend Tom",))
    assert eighth.aiml_match("Zzz qqq")[0] == "default"
    went = eighth.AimlBot().reply(history("I went hiking in the mountains with my brother."))
    assert "hiking in the mountains with your brother" in went and went.endswith("?")
    colour = eighth.AimlBot().reply(history("What's your favourite colour?"))
    assert eighth.FAVOURITES["colour"] in colour
    # 'that': a yes or a no is answered about what the bot asked
    yes = play(eighth.AimlBot(), ["Do you like hiking?", "Yes."])[1]
    no = play(eighth.AimlBot(), ["Do you like hiking?", "No."])[1]
    assert yes.startswith(("Brilliant!", "I knew it!", "Great!")) and "hiking" in yes
    assert no.startswith(("No?", "Fair enough", "Really?")) and "hiking" in no
    # a fact of the game, owned up to when asked again
    job = play(eighth.AimlBot(), ["What do you do for a living?", "Nice.",
                                  "What do you do for a living?"], game_id="game-b")
    fact = eighth.AIML_JOBS[_stable("job", "game-b") % len(eighth.AIML_JOBS)]
    assert job[0].startswith(fact) and job[2].startswith("Like I said, ") and fact[1:] in job[2]


def test_sequel_retells_the_statement_and_guesses_a_twist_of_its_topic() -> None:
    out = eighth.SequelBot().reply(history())
    twist = eighth.TWISTS["outdoors"][0].format(o="you")
    assert out.startswith(f"So you went hiking in the mountains with your brother, and then "
                          f"{twist}!") and out.endswith("?")
    said = play(eighth.SequelBot(), [PARTNER] * 3)
    assert [sum(t.format(o="you") in s for t in eighth.TWISTS["outdoors"]) for s in said] == \
        [1, 1, 1]
    assert len({s.split(", and ")[1] for s in said}) == 3
    every = [t.format(o="you") for ts in eighth.TWISTS.values() for t in ts]
    used = [t for s in play(eighth.SequelBot(), [OTHER] * len(every)) for t in every if t in s]
    assert sorted(used) == sorted(every)
    asked = eighth.SequelBot().reply(history("Do you like hiking?"))
    assert asked.startswith(tuple(a.format(x="hiking") for a in eighth.ANSWERS["like"]))


def test_oneup_tops_the_statement_with_a_companion_fixed_for_the_game() -> None:
    said = play(eighth.OneUpBot(), [PARTNER, OTHER, "Zzz.", PARTNER, "Hm.", PARTNER],
                game_id="game-c")
    mate = eighth.companion(History((), "", "game-c"))
    assert said[0].startswith("You went hiking in the mountains with your brother? ")
    assert said[1].startswith("Your aunt grows orchids in a greenhouse? ")
    feats = [f.format(c=mate) for f in eighth.ONEUPS["outdoors"]]
    assert sum(f[:1].upper() + f[1:] in said[0] for f in feats) == 1
    others = [c for c in eighth.COMPANIONS if c != mate]
    whole = play(eighth.OneUpBot(), LONG_GAME, game_id="game-c")
    assert any(mate in s for s in whole) and not any(c in s for s in whole for c in others)
    assert len({eighth.companion(History((), "", f"g{i}")) for i in range(20)}) > 2
    every = [f.format(c=mate).lower() for fs in eighth.ONEUPS.values() for f in fs]
    used = [f for s in play(eighth.OneUpBot(), [PARTNER] * len(every), game_id="game-c")
            for f in every if f in s.lower()]
    assert sorted(used) == sorted(every)


def test_clarify_recaps_the_slots_guesses_one_and_checks() -> None:
    assert eighth.slots(PARTNER) == {"what": "hiking", "where": "in the mountains",
                                     "who": "with your brother"}
    assert eighth.slots("I visited Lisbon with my friend Tom last summer.") == \
        {"when": "last summer", "where": "in Lisbon", "who": "with your friend Tom"}
    assert eighth.slots(OTHER) == {"where": "in a greenhouse", "who": "your aunt",
                                   "what": "orchids"}
    out = eighth.ClarifyBot().reply(history())
    assert "'do you like hiking'?" in out
    assert "hiking, in the mountains, with your brother." in out
    assert sum(g in out for g in eighth.GUESS_WHEN) == 1 and out.endswith("?")
    said = play(eighth.ClarifyBot(), [PARTNER, "Yes.", "haha", "", "Zzz qqq ok"])
    confirm = eighth.asked(said[0]) or ""
    assert confirm in eighth.CONFIRMS
    assert f"yes to '{confirm[:1].lower() + confirm[1:-1]}'" in said[1]
    assert "'haha'" in said[2]
    assert said[3] in [c.format(w="mountains") for c in eighth.CHECK_EMPTY]
    again = play(eighth.ClarifyBot(), [PARTNER, OTHER, PARTNER])
    guess = [g for g in eighth.GUESS_WHEN if g in again[0]]
    assert guess and guess[0] in again[2]  # the same guess for the same statement


def test_psychic_reads_the_topic_and_keeps_its_hit_for_the_game() -> None:
    said = play(eighth.PsychicBot(), [PARTNER, "Yes.", OTHER, "No.", "Zzz.", "Hm."],
                game_id="game-d")
    letter, a, b, vision = eighth.psychic_hit(History((), "", "game-d"))
    assert eighth.READINGS["outdoors"][0].format(w="mountains") in said[0]
    assert said[1].startswith(tuple(y.format(A=a) for y in eighth.PSYCHIC_YES))
    assert said[3].startswith(tuple(x.format(A=a) for x in eighth.PSYCHIC_NO))
    hits = " ".join(said)
    assert f"letter {letter}" in hits and vision in hits
    others = [n for _, x, y in eighth.LETTERS for n in (x, y) if n not in (a, b)]
    assert not any(f" {n}" in hits for n in others)
    asked = eighth.PsychicBot().reply(history("Where do you live?"))
    home = eighth.quick_answer(History((), "", "g1"), "Where do you live?")
    assert home in asked and asked.startswith(eighth.PSYCHIC_SENSED)


def test_polyglot_translates_each_word_once_then_an_untranslatable_one() -> None:
    assert [w for w, _ in eighth.translatable(PARTNER)] == ["hiking", "mountains", "brother"]
    said = play(eighth.PolyglotBot(), [PARTNER] * 4)
    for s, (word, table) in zip(said, eighth.translatable(PARTNER)):
        assert sum(f"'{t}'" in s for t in table.values()) == 2, s
    assert eighth.UNTRANSLATABLE["outdoors"][1] in said[3]
    words = [w for s in play(eighth.PolyglotBot(), LONG_GAME) for w, t in
             [(w, t) for w, t in ((w, t) for _, w, t in eighth.LEXICON)]
             if sum(f"'{x}'" in s for x in t.values()) >= 2]
    assert len(words) == len(set(words)) >= 5
    assert all(language in eighth.LANGUAGE_CITIES for _, t in eighth.translatable(
        " ".join(LONG_GAME)) for language in t)


def test_critic_keeps_its_score_per_word_and_reacts_to_one() -> None:
    said = play(eighth.CriticBot(), [OTHER, "6", OTHER], game_id="game-e")
    s = eighth.critic_score(History((), "", "game-e"), "greenhouse")
    assert said[0].startswith(eighth.RATES[0].format(w="greenhouse", a=eighth._a(s)))
    assert said[2].startswith(eighth.RATE_AGAIN.format(W="Greenhouse", a=eighth._a(s)))
    assert said[1].startswith(f"A 6? {'Harsh' if 6 < s else 'Generous' if 6 > s else 'Great'}")
    assert eighth._a(8) == "an 8" and eighth._a(7) == "a 7"
    assert {eighth.critic_score(History((), "", "game-e"), w) for w in
            ("dog", "cat", "tea", "rain", "sun", "jazz", "golf", "chess")} <= set(range(3, 10))
    game = play(eighth.CriticBot(), [OTHER, "Hm.", "?!", "Ok."])
    rated = [re.search(r"(?:give|scale,|verdict on|For) (.+?)(?: gets|\?| a| an|,) ", g)
             for g in game[1:]]
    named = [m.group(1) for m in rated if m]
    assert named and named[0] in NAMES["garden"]
    assert all(any(n in names for names in NAMES.values()) for n in named)
    assert len(set(named)) == len(named)
    assert all(any(p in g for p in eighth.PROS_CONS["garden"][0]) for g in game)

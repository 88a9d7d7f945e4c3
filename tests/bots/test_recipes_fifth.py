"""The fifth recipe bots (chatmatch_bots/recipes_fifth.py): each does its recipe,
deterministically, and each is declared under its adapter name in setup.cfg."""

from __future__ import annotations

import re

import pytest

from chatmatch.common.text import question_count
from chatmatch_bots import recipes_fifth as fifth
from tests.bots.recipe_family import (KEPT_SETTINGS, OTHER, PARTNER, QUIET_HISTORIES, SHORT_GAME,
                                      assert_declared, assert_deterministic_over_a_game,
                                      assert_non_empty_and_deterministic,
                                      assert_tournament_plays, history, play)


CLASSES = {"topics": fifth.TopicsBot, "affirm": fifth.AffirmBot,
           "wordnet": fifth.WordNetBot, "chatter": fifth.ChitChatBot,
           "overlap": fifth.OverlapBot, "elaborate": fifth.ElaborateBot,
           "expert": fifth.ExpertBot}


def test_every_recipe_is_declared_in_setup_cfg() -> None:
    assert_declared("fifth", CLASSES)


def test_the_fifth_tournament_plays_every_recipe() -> None:
    assert_tournament_plays("fifth", CLASSES, "fourth", KEPT_SETTINGS)


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_non_empty_and_deterministic(short: str) -> None:
    # the quiet histories with a partner turn
    assert_non_empty_and_deterministic("fifth", short, CLASSES[short], QUIET_HISTORIES[:5])


@pytest.mark.parametrize("short", sorted(CLASSES))
def test_deterministic_over_a_whole_game(short: str) -> None:
    assert_deterministic_over_a_game(CLASSES[short], SHORT_GAME)


def test_topics_has_thirty_topics_and_answers_on_topic_without_repeating() -> None:
    assert len(fifth.TOPICS) == 30
    assert all(len(lines) == 3 and all(question_count(s) == 1 for s in lines)
               for _, lines in fifth.TOPICS)
    hiking = next(lines for keys, lines in fifth.TOPICS if "hik" in keys)
    said = play(fifth.TopicsBot(), ["I love hiking."] * 3)
    assert sorted(said) == sorted(hiking)
    assert any(fifth.TopicsBot().reply(history("Zzz qqq.")) in lines
               for _, lines in fifth.TOPICS)


def test_affirm_turns_a_question_into_a_fixed_confident_yes() -> None:
    out = fifth.AffirmBot().reply(history())
    assert out.startswith("Yes, I do like hiking, especially ")
    assert any(out.endswith(d + ".") for d in fifth.AFFIRM_DETAILS)
    assert fifth.AffirmBot().reply(history("Do you like hiking?", ("a", "b"), seed=99)) == out
    wh = fifth.AffirmBot().reply(history("What kind of music do you listen to?"))
    assert wh.startswith("What kind of music do I listen to? Mostly ")
    assert question_count(fifth.AffirmBot().reply(history(OTHER))) == 0


def test_wordnet_states_a_class_fact_and_asks_about_a_related_noun() -> None:
    out = fifth.WordNetBot().reply(history("Do you have a dog?"))
    assert "domestic animal" in out and re.search(r"\b(cats|horses)\?$", out)
    unknown = fifth.WordNetBot().reply(history("Zebras."))
    assert "zebras" in unknown.lower() and question_count(unknown) == 1


def test_chatter_tells_its_persona_in_order_whatever_is_said() -> None:
    said = play(fifth.ChitChatBot(), [PARTNER, OTHER, "Do you have a dog?"] * 4)
    assert all(fifth.CHATTER_PERSONA[i] in s for i, s in enumerate(said))
    assert all(s.endswith(fifth.CHATTER_ASKS) and s.startswith(fifth.CHATTER_AGREE)
               for s in said)


def test_overlap_retrieves_by_shared_words_and_never_repeats() -> None:
    assert len(fifth.OVERLAP_POOL) == 80 == len(set(fifth.OVERLAP_POOL))
    assert fifth.OverlapBot().reply(history("We got flowers at the orchid market.")) == \
        "I bought some orchids at the flower market."
    said = play(fifth.OverlapBot(), [OTHER] * 10)
    assert len(set(said)) == 10 and all(s in fifth.OVERLAP_POOL for s in said)


def test_elaborate_asks_about_a_partner_noun_and_an_entity() -> None:
    said = play(fifth.ElaborateBot(), [OTHER] * len(fifth.ELABORATE_FRAMES))
    assert len(set(said)) == len(said)
    assert all("greenhouse" in s and any(e in s for e in fifth.ELABORATE_ENTITIES)
               and question_count(s) >= 1 for s in said)


def test_expert_keeps_one_credential_per_game() -> None:
    said = play(fifth.ExpertBot(), [PARTNER, OTHER, "Do you have a dog?", "I am tired."])
    places = {p for s in said for p in fifth.EXPERT_PLACES if p in s}
    assert len(places) == 1 and all(question_count(s) == 1 for s in said)
    assert "greenhouse" in said[1]

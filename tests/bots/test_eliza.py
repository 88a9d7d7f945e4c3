from __future__ import annotations

import random

import pytest

from chatmatch_bots import eliza_script as script
from chatmatch_bots.eliza import ElizaBot, match, reflect, words_of
from chatmatch.adapters import resolve_adapter
from tests.bots.conftest import history

SEEDS = range(40)


def replies_to(text: str, earlier: tuple[str, ...] = (), **params: bool) -> set[str]:
    bot = ElizaBot("eliza", **params)
    return {bot.reply(history([*earlier, text], ["ok"] * len(earlier), seed=s)) for s in SEEDS}


def test_registered_as_eliza() -> None:
    assert resolve_adapter("eliza") is ElizaBot


def test_reflection_swaps_pronouns() -> None:
    assert reflect(["i", "am", "your", "friend"]) == "you are my friend"
    assert reflect(["my", "mother", "hates", "me"]) == "your mother hates you"


def test_pre_substitutions_and_decomposition() -> None:
    assert words_of("I'm sad, I dont know") == ["i", "am", "sad", "i", "don't", "know"]
    assert match("* i am * @sad *".split(), words_of("Well I am very unhappy today")) == [
        ["well"], ["very"], ["unhappy"], ["today"]]
    assert match("* i am *".split(), ["you", "are"]) is None


def test_weizenbaum_transcript_my_rule_reflects() -> None:
    got = replies_to("Well, my boyfriend made me come here.")
    frag = "your boyfriend made you come here"
    assert got <= {f"Your {frag[5:]}?", f"Why do you say {frag}?",
                   "Does that suggest anything else which belongs to you?",
                   f"Is it important to you that {frag}?"}
    assert len(got) > 1


def test_synonym_group_and_highest_ranked_keyword() -> None:
    got = replies_to("It is true. I am unhappy.")
    assert got <= {"I am sorry to hear that you are unhappy.",
                   "Do you think that coming here will help you not to be unhappy?",
                   "I'm sure it's not pleasant to be unhappy.",
                   "Can you explain what made you unhappy?"}
    computer = replies_to("I think my computer hates me")  # "computer" outranks "my", "i"
    assert computer <= set(script.KEYWORDS["computer"][1][0][1])


def test_goto_hands_over_to_another_keyword() -> None:
    alike = set(script.KEYWORDS["alike"][1][0][1])
    assert replies_to("You are like my father in some ways.") <= alike
    assert replies_to("Men are all alike.") <= alike


def test_memory_brings_back_an_earlier_my_remark() -> None:
    got = replies_to("blorp zzz", earlier=("My dog hates me",))
    assert got and all("your dog hates you" in r for r in got)
    assert replies_to("blorp zzz", earlier=("My dog hates me",), memory=False) <= set(
        script.NONE)


@pytest.mark.parametrize("text", ["", "   ", "!!!", "\U0001F600", "don ' t"])
def test_messy_input_gets_a_reply(text: str) -> None:
    reply = ElizaBot().reply(history([text]))
    assert isinstance(reply, str) and reply.strip()


def test_starts_with_the_classic_greeting_when_partner_silent() -> None:
    assert ElizaBot().reply(history([], ["seed"], starter=True)) == script.INITIAL


def test_deterministic_for_a_seed_and_independent_of_global_random() -> None:
    h = history(["What did you do last week?"], seed=1234)
    random.seed(1)
    first = ElizaBot("a").reply(h)
    random.seed(2)
    assert ElizaBot("b").reply(h) == first
    assert len(replies_to("What did you do last week?")) > 2

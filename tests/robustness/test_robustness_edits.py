"""Every word-level edit does what it claims on fixed inputs (exact outputs)."""

from __future__ import annotations

import random

import pytest

from chatmatch.robustness import edits


@pytest.mark.parametrize("text, expected", [
    ("I like pizza a lot.", "I don't like pizza a lot."),
    ("I really like it", "I don't really like it"),
    ("She is a doctor.", "She isn't a doctor."),
    ("I do not eat meat", "I do eat meat"),
    ("I dont know", "I do know"),
    ("We never go out", "We always go out"),
    ("Are you a student?", "Aren't you a student?"),
    ("I have two dogs", "I don't have two dogs"),
    ("Have you been there?", "Haven't you been there?"),
    ("Im good how are you", "Im not good how are you"),
    ("I went to Paris", None),          # past tense without auxiliary: left alone
    ("hello there", None),
])
def test_negate(text: str, expected: str | None) -> None:
    assert edits.negate(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("I am tired, are you?", "You are tired, am I?"),
    ("Do you like my dog? I love you.", "Do I like your dog? You love me."),
    ("I think you should call me", "You think I should call you"),
    ("I'm fine, you're late", "You're fine, I'm late"),
    ("It rains.", None),
])
def test_swap_pronouns(text: str, expected: str | None) -> None:
    assert edits.swap_pronouns(text) == expected


def test_change_number_is_seeded_and_changes_one_item() -> None:
    text = "I have 3 kids and two dogs, born in 1975 on Monday"
    rng = random.Random(3)
    assert edits.change_number(text, rng) == "I have 3 kids and six dogs, born in 1975 on Monday"
    assert edits.change_number(text, rng) == "I have 3 kids and two dogs, born in 1986 on Monday"
    assert edits.change_number("born in 1975", random.Random(3)) != "born in 1975"
    assert edits.change_number("no numbers here", random.Random(0)) is None


@pytest.mark.parametrize("word, pool", [("Monday", "days"), ("March", "months"), ("third", "ordinals")])
def test_change_number_keeps_the_kind(word: str, pool: str) -> None:
    kinds = {"days": edits._DAYS, "months": edits._MONTHS, "ordinals": edits._ORDINALS}
    for seed in range(10):
        out = edits.change_number(f"It was {word}.", random.Random(seed))
        assert out is not None
        new = out.removeprefix("It was ").removesuffix(".")
        assert new.lower() in kinds[pool] and new.lower() != word.lower()
        assert new[0].isupper() == word[0].isupper()


def test_shuffle_words_same_multiset_new_order() -> None:
    assert edits.shuffle_words("the quick brown fox jumps", random.Random(1)) == "brown fox jumps the quick"
    out = edits.shuffle_words("one two three four five six", random.Random(5))
    assert out is not None and sorted(out.split()) == sorted("one two three four five six".split())
    assert edits.shuffle_words("too short", random.Random(0)) is None
    assert edits.shuffle_words("no no no no", random.Random(0)) is None


def test_collapse_vocabulary() -> None:
    assert edits.collapse_vocabulary("I love hiking in the mountains every weekend") == \
        "I love I love I love I love"
    assert edits.collapse_vocabulary("only four words here") is None


@pytest.mark.parametrize("text, expected", [
    ("I'm gonna watch a movie with my kids, yeah it's awesome",
     "I am going to watch a film with my children, yes it is great"),
    ("Hey, I don't know", "Hello, I do not know"),
    ("The weather changed.", None),
])
def test_paraphrase(text: str, expected: str | None) -> None:
    assert edits.paraphrase(text) == expected


def test_content_words_drop_stop_and_short_words() -> None:
    assert edits.content_words("I really like going hiking in the mountains with my friends") == \
        {"hiking", "mountains", "friends"}

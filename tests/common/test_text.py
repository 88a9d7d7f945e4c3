"""Tokenisation, normalisation and the definition of a question."""

from __future__ import annotations

import pytest

from chatmatch.common.text import is_empty, is_question, normalise, question_count, tokens


@pytest.mark.parametrize("raw, expected", [
    ("don ' t do that , ok ?", "don't do that, ok?"),
    ("I do n't know .", "I don't know."),
    ("i ' m fine", "i'm fine"),
    ("it 's  here", "it's here"),
    ("I\u2019ll go", "I'll go"),
    ("  many \t spaces \n here ", "many spaces here"),
    ("Ｈｅｌｌｏ", "Hello"),                 # full-width letters (NFKC)
    ("ok 😀", "ok 😀"),                    # emoji kept
    ("", ""),
])
def test_normalise(raw: str, expected: str) -> None:
    assert normalise(raw) == expected
    assert normalise(expected) == expected  # idempotent


def test_pretokenised_text_has_the_same_tokens_as_plain_text() -> None:
    assert tokens("I do n't know , do you ?") == tokens("I don't know, do you?") == \
        ["i", "don't", "know", "do", "you"]


def test_tokens_are_lowercase_words_without_punctuation() -> None:
    assert tokens("Hello, WORLD!!! It's 2024.") == ["hello", "world", "it's", "2024"]


def test_each_emoji_is_one_token() -> None:
    # skin tone modifier, a zero-width-joiner family and a flag each stay one token
    assert tokens("hi 👋🏽 👨\u200d👩\u200d👧 🇫🇷😀😀") == ["hi", "👋🏽", "👨\u200d👩\u200d👧", "🇫🇷", "😀", "😀"]


def test_non_english_text() -> None:
    assert tokens("¿Qué tal, señor?") == ["qué", "tal", "señor"]
    assert tokens("Ich wohne in Köln") == ["ich", "wohne", "in", "köln"]
    assert tokens("你好吗？") == ["你", "好", "吗"]  # no-space scripts: a character a token
    assert tokens("Привет, как дела?") == ["привет", "как", "дела"]


@pytest.mark.parametrize("text", ["", "   ", "...", "?!", "—"])
def test_empty_turns(text: str) -> None:
    assert tokens(text) == []
    assert is_empty(text)
    assert question_count(text) == 0


@pytest.mark.parametrize("text, n", [
    ("What did you do last week?", 1),
    ("where?? why?", 2),                     # a run of marks is one question
    ("you like it? cool.", 1),               # a question mid-turn
    ("Nice. Do you? I do.", 1),
    ("is it ok?😀", 1),                      # an emoji right after the mark
    ('He asked "why?" and left', 1),         # closing quote after the mark
    ("¿Qué tal?", 1),
    ("你好吗？", 1),                          # full-width mark
    ("كيف حالك؟", 1),                         # Arabic mark
    ("😀?", 1),                              # an emoji is a token
    ("do n't you ?", 1),                     # pre-tokenised: space before the mark
    ("?", 0),                                # a bare mark asks nothing
    ("???", 0),
    ("ok. ?", 0),
    ("site.com/?q=1", 0),                    # not sentence-final
    ("what do you do", 0),                   # no mark, no question
    ("I know.", 0),
])
def test_question_definition(text: str, n: int) -> None:
    assert question_count(text) == n
    assert is_question(text) == (n > 0)


def test_a_table_cell_with_a_line_break_stays_on_its_row():
    from chatmatch.common.tables import render_table

    out = render_table(["game", "source"], [["g1", "L/we\nird.txt"], ["g2", "L/tab\there"]])
    lines = out.splitlines()
    assert len(lines) == 4, out  # header, dashes, one line a row
    assert lines[2].split() == ["g1", "L/we\\nird.txt"] and "\\t" in lines[3]
    assert render_table(["bot"], [["café 🙂"]]).splitlines()[2].strip() == "café 🙂"

"""Shared text handling for every scorer: normalisation, tokens, questions.

Real chat logs are messy, so every scorer sees text through these three functions and the
choices are made once, here:

* :func:`normalise` -- Unicode NFKC (full-width letters become ASCII, but emoji stay),
  curly apostrophes become ``'``, runs of whitespace become one space, and text that was
  *pre-tokenised* by an older toolkit is rejoined: ``"don ' t"`` and ``"do n't"`` become
  ``"don't"``, ``"i ' m"`` becomes ``"i'm"``, and a space before ``, . ! ? ; :`` is dropped
  (``"hello , world ."`` -> ``"hello, world."``). A turn that is empty after this is an
  *empty turn*.
* :func:`tokens` -- lower-cased word tokens: a run of letters/digits, with inner
  apostrophes kept (``"don't"`` is one token); every emoji (with its skin-tone modifiers,
  variation selectors and zero-width-joiner sequences, or a flag made of two regional
  indicators) is one token of its own; characters of scripts written without spaces (Han,
  Hiragana, Katakana) are one token each; every other punctuation mark is dropped.
  ``tokens("")`` is ``[]``.
* :func:`question_count` / :func:`is_question` -- see :func:`question_count` for the exact
  definition of a question.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_APOS = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\uff07": "'"})
# "don ' t", "don 't", "don' t" -> "don't"; "i ' m" -> "i'm"; "it ' s" -> "it's"
_SPLIT_CLITIC = re.compile(r"(?<=\w) ?' ?(t|s|m|d|re|ve|ll)\b", re.IGNORECASE)
# "do n't" -> "don't"
_SPLIT_NT = re.compile(r"(?<=\w) (n't)\b", re.IGNORECASE)
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.!?;:](?!\w))")
_WS = re.compile(r"\s+")
#: joins the two parts of a request to the fluency LM to read a text after another
#: (:func:`chatmatch.runtime.lm.after`): the ASCII record separator, whitespace to
#: :func:`normalise`, so no normalised text holds it
AFTER = "\x1e"


def split_after(text: str) -> tuple[str, str]:
    """``(before, text)`` of a request made by :func:`chatmatch.runtime.lm.after`
    (``before`` empty for a plain text)."""
    before, sep, rest = text.partition(AFTER)
    return (before, rest) if sep else ("", text)


_EMOJI_BASE = ("\U0001F000-\U0001F1E5\U0001F200-\U0001FAFF\u2600-\u27BF\u2300-\u23FF"
               "\u2B00-\u2BFF\u2190-\u21FF\u3030\u303D\u3297\u3299")
_EMOJI_MOD = "\uFE0F\uFE0E\U0001F3FB-\U0001F3FF\u20E3"
_EMOJI = (rf"[\U0001F1E6-\U0001F1FF]{{2}}"  # a flag: two regional indicators
          rf"|[{_EMOJI_BASE}][{_EMOJI_MOD}]*(?:\u200D[{_EMOJI_BASE}][{_EMOJI_MOD}]*)*")
_NO_SPACE_SCRIPT = r"[\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF]"
_WORD = rf"(?:(?!{_NO_SPACE_SCRIPT})[^\W_])+(?:'(?:(?!{_NO_SPACE_SCRIPT})[^\W_])+)*"
_TOKEN = re.compile(rf"{_EMOJI}|{_NO_SPACE_SCRIPT}|{_WORD}")

_QMARKS = "?\uff1f\u061f\u2e2e"  # ? full-width ? Arabic ? reversed ?
_TERMINAL = ".!?\u3002\uff01\u2026" + _QMARKS[1:]
_QUESTION = re.compile(
    rf"[{_QMARKS}]+"               # one run of question marks ...
    rf"(?=$|\s|[{_TERMINAL}\"'\)\]\u201d\u300d]|{_EMOJI})"  # ... that ends a sentence
)
_SENTENCE_START = re.compile(rf"[{_TERMINAL}]+(?=\s|$)")


@lru_cache(maxsize=200_000)
def normalise(text: str) -> str:
    """The text every scorer sees (see the module docstring). Idempotent."""
    text = unicodedata.normalize("NFKC", text).translate(_APOS)
    text = _WS.sub(" ", text).strip()
    text = _SPLIT_NT.sub(r"\1", text)
    text = _SPLIT_CLITIC.sub(lambda m: "'" + m.group(1), text)
    return _SPACE_BEFORE_PUNCT.sub(r"\1", text)


def tokens(text: str) -> list[str]:
    """Lower-cased word and emoji tokens of ``normalise(text)``."""
    return list(_tokens(text))


@lru_cache(maxsize=200_000)
def _tokens(text: str) -> tuple[str, ...]:
    return tuple(m.group(0).lower() for m in _TOKEN.finditer(normalise(text)))


def is_empty(text: str) -> bool:
    """True when the turn has no token at all (empty, blank or punctuation only)."""
    return not tokens(text)


@lru_cache(maxsize=200_000)
def question_count(text: str) -> int:
    """How many questions a turn asks.

    A question is a run of question marks (``?``, full-width ``？``, Arabic ``؟``) that
    (1) ends a sentence -- it is followed by the end of the turn, a space, another
    sentence-final mark, a closing quote or bracket, or an emoji -- and (2) has at least
    one word token (letters, digits or emoji) between it and the end of the previous
    sentence. So ``"where?? why?"`` asks 2, ``"you like it? cool."`` asks 1, while a bare
    ``"?"``, ``"???"``, ``"site.com/?q=1"`` and ``"what do you do"`` (no mark) ask 0.
    Spanish ``"¿Qué tal?"`` and Chinese ``"你好吗？"`` ask 1.
    """
    text = normalise(text)
    count, start = 0, 0
    for m in _QUESTION.finditer(text):
        prev_end = _last_sentence_end(text, start, m.start())
        if _TOKEN.search(text, prev_end, m.start()):
            count += 1
        start = m.end()
    return count


def _last_sentence_end(text: str, lo: int, hi: int) -> int:
    end = lo
    for m in _SENTENCE_START.finditer(text, lo, hi):
        end = m.end()
    return end


def is_question(text: str) -> bool:
    """True when the turn asks at least one question (see :func:`question_count`)."""
    return question_count(text) > 0

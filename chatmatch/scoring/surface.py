"""Surface recipes: turns that look like conversation to a per-turn measure but are not.

A judge that scores each turn on its surface can be gamed by a cheap recipe (the lab's
gaming suite, :mod:`chatmatch.validity.lab.gaming`). The checks here find the recipes in a
game; the default scorers use them (docs/scoring.md, "What each dimension is open to"):

* :func:`frame_repeat` -- the bot says the same frame turn after turn, only a word or two
  changed ("Arr! Ye speak of <word>? Aboard the Black Pearl ..."): at least half of the
  turn's word 4-grams are in the bot's earlier turns. A content word the turn takes from
  the partner's last turn is a slot that matches any word, so a template with the
  partner's words in several places ("what does '<word>' mean to you? And why bring up
  '<word>' at all?") is the same frame too. Fluency counts it as degenerate, relevance
  gives it nothing, proactivity does not count its questions;
* :func:`edited_echo` -- the partner's last turn lightly edited ("Indeed, you went
  hiking ..."): at least 80 % of the turn's words (pronouns aside) are the partner's last
  turn's, and it adds at most three words of its own. Degenerate for fluency, nothing for
  relevance;
* :func:`reshaped` -- the partner's last turn with its content words swapped for others
  ("You windmill orchard in the waterfall with your canoe"): the same function words in
  the same order (85 % of the skeleton, eight words or more). Degenerate for fluency,
  nothing for relevance;
* :func:`salad` -- a string of words that is not language: five words or more and fewer
  than one in eight a function word (real English turns run at 40-60 %). Specificity
  counts no variety in it;
* :func:`parroted` -- a question the partner asked before (same content words), or a
  question the partner's last turn holds word for word: not the bot's own, so not
  proactive;
* :func:`own_words` -- the turn without the content words it takes from the partner's
  last turn: what the turn itself brings. A template around the partner's noun ("Did you
  know <noun> is classed as a building? Even Pliny the Elder described it.") is close to
  the partner's turn only through the noun; its own words are not.
  :mod:`chatmatch.scoring.topical` tests a turn naming an entity for being on topic on its
  own words, so knowledge does not count names stuffed into such a template.

None of them needs a model; they read :func:`chatmatch.common.text.tokens`.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Sequence

from chatmatch.common.text import is_question, normalise, tokens
from chatmatch.scoring.questions import FUNCTION_WORDS, content_tokens

#: share of a turn's word 4-grams found in the speaker's earlier turns that makes a frame
FRAME_SHARE = 0.5
#: share of a turn's words taken from the partner's last turn that makes an edited echo
ECHO_SHARE = 0.8
#: at most this many own words may an edited echo add
ECHO_OWN_WORDS = 3
#: share of the partner's last turn's skeleton (function words in order, content words as
#: slots) that a turn must repeat to be the partner's frame with its words swapped
RESHAPE_SHARE = 0.85
#: at least this many words in the turn and in the partner's for it to count
RESHAPE_MIN = 8
#: below this share of function words, a turn of SALAD_MIN words or more is a word salad
SALAD_SHARE = 0.125
SALAD_MIN = 5
_PRONOUNS = frozenset("i you me my your mine yours we us our he she it they them".split())
_SENTENCE = re.compile(r"(?<=[.!?\uff1f])\s+")


_WORD = re.compile(r"[A-Za-z0-9']+")


def _stem(word: str) -> str:
    """A crude plural-free form: "sisters" and "sister" are one word."""
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def own_words(text: str, partner_last: str | None) -> str:
    """``text`` without the content words (not stop words; plurals folded) that
    ``partner_last`` holds, punctuation and stop words kept; the text itself when there is
    no partner turn or the text has no content word. Empty when every content word was
    the partner's."""
    if not partner_last:
        return text
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    theirs = {_stem(w) for w in (m.lower() for m in _WORD.findall(partner_last))
              if w not in ENGLISH_STOP_WORDS}

    def keep(m: re.Match[str]) -> str:
        w = m.group(0).lower()
        return m.group(0) if w in ENGLISH_STOP_WORDS or _stem(w) not in theirs else ""

    content = [w for w in (m.lower() for m in _WORD.findall(text)) if w not in ENGLISH_STOP_WORDS]
    if not content:
        return text  # nothing to take: a turn of stop words is left as it is
    if all(_stem(w) in theirs for w in content):
        return ""
    return re.sub(r"\s+", " ", _WORD.sub(keep, text)).strip()


def words(text: str) -> list[str]:
    """The turn's word tokens, lower-cased (punctuation and emoji left out)."""
    return [w.lower() for w in tokens(text) if any(c.isalnum() for c in w)]


def _grams(ws: Sequence[str], n: int = 4) -> list[tuple[str, ...]]:
    return [tuple(ws[i:i + n]) for i in range(len(ws) - n + 1)]


@lru_cache(maxsize=4096)
def _text_grams(text: str) -> frozenset[tuple[str, ...]]:
    """The word 4-grams of a turn (kept: a game asks for each earlier turn's again on
    every later turn of its speaker)."""
    return frozenset(_grams(words(text)))


#: a word of the turn taken from the partner's last turn: it matches any word of a frame
SLOT = "\x00slot"


def frame_repeat(text: str, own_before: Sequence[str], share: float = FRAME_SHARE,
                 partner_last: str | None = None) -> bool:
    """At least ``share`` of the turn's word 4-grams (3 or more) are in ``own_before``.

    With ``partner_last``, each content word (not a :data:`FUNCTION_WORDS` one) of the
    turn that the partner's last turn holds is a slot: a 4-gram with a slot matches an
    earlier 4-gram that has any word in its place ("what does <slot> mean" matches "what
    does week mean"); a 4-gram with two slots or more is not counted."""
    ws = words(text)
    if partner_last:
        theirs = {w for w in words(partner_last) if w not in FUNCTION_WORDS}
        ws = [SLOT if w in theirs and w not in FUNCTION_WORDS else w for w in ws]
    # a 4-gram with two slots or more is mostly the partner's words: it says nothing of a
    # frame ("i <slot> <slot> do" matches too much), so it is left out of the count
    grams = [g for g in _grams(ws) if g.count(SLOT) < 2]
    if len(grams) < 3 or not own_before:
        return False
    earlier = set().union(*map(_text_grams, own_before))
    masked: dict[tuple[bool, ...], set[tuple[str, ...]]] = {}
    for g in grams:  # each earlier gram with slots where this gram has them
        mask = tuple(w == SLOT for w in g)
        if any(mask) and mask not in masked:
            masked[mask] = {tuple(SLOT if m else w for m, w in zip(mask, e)) for e in earlier}
    found = sum(g in earlier or g in masked.get(tuple(w == SLOT for w in g), ())
                for g in grams)
    return found >= share * len(grams)


def edited_echo(text: str, partner_last: str | None, share: float = ECHO_SHARE) -> bool:
    """The turn is ``partner_last`` lightly edited (see the module docstring)."""
    if not partner_last:
        return False
    mine = [w for w in words(text) if w not in _PRONOUNS]
    theirs = {w for w in words(partner_last) if w not in _PRONOUNS}
    if len(mine) < 3:
        return False
    taken = sum(w in theirs for w in mine)
    return taken >= share * len(mine) and len(mine) - taken <= ECHO_OWN_WORDS


def _skeleton(ws: Sequence[str]) -> list[str]:
    """The words with every content word a slot and every pronoun one token."""
    return ["\x00pron" if w in _PRONOUNS else w if w in FUNCTION_WORDS else SLOT for w in ws]


def reshaped(text: str, partner_last: str | None, share: float = RESHAPE_SHARE) -> bool:
    """The turn is ``partner_last`` with its content words swapped for others (the same
    function words in the same order, at least :data:`RESHAPE_MIN` words, at most
    ``1 - share`` of the skeleton changed): the partner's frame with the bot's words in its
    slots."""
    if not partner_last:
        return False
    mine, theirs = words(text), words(partner_last)
    if min(len(mine), len(theirs)) < RESHAPE_MIN:
        return False
    a, b = _skeleton(mine), _skeleton(theirs)
    if sum(w != SLOT for w in a) < RESHAPE_MIN // 2:  # a list of nouns has no frame
        return False
    return SequenceMatcher(None, a, b, autojunk=False).ratio() >= share


def salad(text: str) -> bool:
    """Five words or more, and fewer than one in eight a function word."""
    ws = words(text)
    if len(ws) < SALAD_MIN:
        return False
    return sum(w in FUNCTION_WORDS for w in ws) < SALAD_SHARE * len(ws)


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (normalised; split after ``.``, ``!`` or ``?``)."""
    return [s for s in _SENTENCE.split(normalise(text)) if s]


def question_sentences(text: str) -> list[str]:
    """The sentences of ``text`` that ask a question."""
    return [s for s in sentences(text) if is_question(s)]


def parroted(question: str, partner_questions: Sequence[str], partner_last: str | None) -> bool:
    """``question`` was asked by the partner before (the same content words), or the
    partner's last turn holds it word for word."""
    mine = content_tokens(question)
    if mine and any(content_tokens(q) == mine for q in partner_questions):
        return True
    key = " ".join(words(question))
    return bool(key) and partner_last is not None and key in " ".join(words(partner_last))

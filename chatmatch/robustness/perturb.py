"""Perturbation families: turn a real history and its true next turn into a broken turn.

A generator is a pure function ``(sample, rng) -> str | None``: the broken turn, or
``None`` when the family does not apply to this sample (no own earlier turn to repeat, no
number to change...). All randomness comes from ``rng``. Each family declares the
dimensions that *should* prefer the good turn (``targets``); ``kind="stable"`` marks the
paraphrase family, where the score should stay the same within a tolerance instead.

Families (Khalid & Lee 2022 as used in PairEval Table 7; Zhang et al.'s DSTC7-ADV edits):

=================  ==============================================================  ===========
family             broken turn                                                      targets
=================  ==============================================================  ===========
repetition         an earlier turn of the same speaker, verbatim                    diversity
speaker_swap       what the partner really said next (answering as the other)       consistency, relevance
pronoun_swap       the good turn with I/you, my/your... swapped                      consistency
contradiction      an earlier own statement, negated                                consistency
negation           the good turn with its first clause's polarity flipped           consistency
number_change      one number, weekday, month or ordinal changed                    consistency, knowledge
entity_swap        one named entity replaced by another of the same type            consistency, knowledge
off_topic          a turn of another conversation sharing the most words with it    relevance
dull               a generic reply ("I don't know.")                                specificity, knowledge
echo               the partner's last turn, verbatim (entrainment)                  specificity, relevance
word_shuffle       the good turn's words in random order                            fluency
vocab_collapse     the first two words repeated to the turn's length                specificity, fluency
paraphrase         contractions spelt out, near-synonyms (stability)                (all: unchanged)
=================  ==============================================================  ===========
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Literal

from chatmatch.common.registry import Registry
from chatmatch.robustness import edits
from chatmatch.robustness.entities import swap_entity
from chatmatch.common.text import is_question


@dataclass(frozen=True)
class Context:
    """What an evaluator sees: the history (oldest first), who said each turn, who speaks
    next, and optional facts (closed-ended examples)."""

    history: tuple[str, ...]
    speakers: tuple[str, ...]
    speaker: str
    facts: tuple[str, ...] = ()

    def own(self) -> list[str]:
        """The next speaker's earlier turns, oldest first."""
        return [t for t, s in zip(self.history, self.speakers) if s == self.speaker]

    def partner_last(self) -> str | None:
        for t, s in zip(reversed(self.history), reversed(self.speakers)):
            if s != self.speaker:
                return t
        return None


@dataclass(frozen=True)
class Sample:
    """A context, its true next turn, and material some families draw on: the real turns
    after it (``following``) and turns of other conversations (``pool``)."""

    context: Context
    good: str
    following: tuple[str, ...] = ()
    pool: tuple[str, ...] = ()


Generator = Callable[[Sample, random.Random], "str | None"]


@dataclass(frozen=True)
class Family:
    name: str
    description: str
    targets: tuple[str, ...]
    generate: Generator | None  # None: fixed triples (the closed-ended set)
    kind: Literal["break", "stable"] = "break"


def _check_family(obj: object) -> str | None:
    return None if isinstance(obj, Family) else (
        f"it is a {type(obj).__name__}, not a chatmatch.robustness.perturb.Family.")


def _describe_family(f: Family) -> dict[str, object]:
    return {"description": f.description, "targets": f.targets, "kind": f.kind}


#: every family: the built-in ones below register themselves when this module is imported;
#: another package adds its own (a :class:`Family`) through the entry point group
#: ``chatmatch.perturbations``
FAMILIES: Registry[Family] = Registry("perturbation family", group="chatmatch.perturbations",
                                      check=_check_family, describe=_describe_family)
#: built-in family names in the order they are defined (and shown)
FAMILY_ORDER: list[str] = []


def _add(f: Family) -> None:
    FAMILIES.add(f.name, f)
    FAMILY_ORDER.append(f.name)


def family(name: str, description: str, targets: tuple[str, ...],
           kind: Literal["break", "stable"] = "break") -> Callable[[Generator], Generator]:
    def deco(fn: Generator) -> Generator:
        _add(Family(name, description, targets, fn, kind))
        return fn
    return deco


def _differs(broken: str | None, good: str) -> str | None:
    """``broken`` unless it is missing, empty or the good turn itself (up to case/space)."""
    if broken is None or not broken.strip():
        return None
    return None if " ".join(broken.lower().split()) == " ".join(good.lower().split()) else broken


@family("repetition", "an earlier turn of the same speaker, verbatim", ("diversity",))
def repetition(s: Sample, rng: random.Random) -> str | None:
    own = [t for t in s.context.own() if _differs(t, s.good)]
    return rng.choice(own) if own else None


@family("speaker_swap", "what the partner really said next: answering as the other speaker",
        ("consistency", "relevance"))
def speaker_swap(s: Sample, rng: random.Random) -> str | None:
    return _differs(s.following[0], s.good) if s.following else None


@family("pronoun_swap", "first and second person swapped (I/you, my/your)", ("consistency",))
def pronoun_swap(s: Sample, rng: random.Random) -> str | None:
    return _differs(edits.swap_pronouns(s.good), s.good)


@family("contradiction", "an earlier statement (not a question) of the same speaker, negated",
        ("consistency",))
def contradiction(s: Sample, rng: random.Random) -> str | None:
    statements = [t for t in s.context.own() if not is_question(t)]
    negated = [n for n in map(edits.negate, statements) if _differs(n, s.good)]
    return rng.choice(negated) if negated else None


@family("negation", "the good turn with its first clause's polarity flipped", ("consistency",))
def negation(s: Sample, rng: random.Random) -> str | None:
    return _differs(edits.negate(s.good), s.good)


@family("number_change", "one number, weekday, month or ordinal changed",
        ("consistency", "knowledge"))
def number_change(s: Sample, rng: random.Random) -> str | None:
    return _differs(edits.change_number(s.good, rng), s.good)


@family("entity_swap", "one named entity replaced by another of the same type",
        ("consistency", "knowledge"))
def entity_swap(s: Sample, rng: random.Random) -> str | None:
    return _differs(swap_entity(s.good, rng), s.good)


@family("off_topic", "a turn of another conversation that shares the most words with the history",
        ("relevance",))
def off_topic(s: Sample, rng: random.Random) -> str | None:
    seen = edits.content_words(" ".join(s.context.history))
    best, best_overlap = None, 0
    for cand in s.pool:  # pool order is already random; the first best wins
        overlap = len(edits.content_words(cand) & seen)
        if overlap > best_overlap and _differs(cand, s.good):
            best, best_overlap = cand, overlap
    return best


#: generic replies that fit any history (the "dull" responses of the adversarial suites)
DULL = ("I don't know.", "Okay.", "Yeah, that's cool.", "I'm not sure.", "Haha, yes.",
        "That's nice.", "Me too.", "Sounds good.")


@family("dull", "a generic reply that fits any history", ("specificity", "knowledge"))
def dull(s: Sample, rng: random.Random) -> str | None:
    return _differs(rng.choice(DULL), s.good)


@family("echo", "the partner's last turn, verbatim (entrainment)", ("specificity", "relevance"))
def echo(s: Sample, rng: random.Random) -> str | None:
    return _differs(s.context.partner_last(), s.good)


@family("word_shuffle", "the good turn's words in random order (bad paraphrase)", ("fluency",))
def word_shuffle(s: Sample, rng: random.Random) -> str | None:
    return _differs(edits.shuffle_words(s.good, rng), s.good)


@family("vocab_collapse", "the first two words repeated to the turn's length",
        ("specificity", "fluency"))
def vocab_collapse(s: Sample, rng: random.Random) -> str | None:
    return _differs(edits.collapse_vocabulary(s.good), s.good)


@family("paraphrase", "meaning-preserving rewrite; the score should not move", (), kind="stable")
def paraphrase(s: Sample, rng: random.Random) -> str | None:
    return _differs(edits.paraphrase(s.good), s.good)


#: hand-written closed-ended kinds (chatmatch/robustness/data/closed_ended.jsonl)
CLOSED_KINDS = {"date": "a wrong date", "place": "a wrong place", "count": "a wrong count",
                "negation": "the fact negated", "person": "a wrong person"}
for _kind, _desc in CLOSED_KINDS.items():
    _add(Family(f"closed_{_kind}", f"closed-ended example: {_desc}", ("consistency", "knowledge"),
                None))


def turn_families() -> list[str]:
    """Every family: the built-in ones in their order, then those of other packages by name."""
    return [*FAMILY_ORDER, *(n for n in FAMILIES if n not in FAMILY_ORDER)]


def generated_families() -> list[str]:
    return [n for n in turn_families() if FAMILIES.get(n).generate is not None]

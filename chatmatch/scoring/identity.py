"""What a bot says it is: identity facts stated in its own turns, and when they change.

People notice a bot that says it is 25 and later 40, a teacher and later a nurse, called Sam
and later Alex, a human and later a bot. This module reads such first-person statements with
patterns (an approximation: it reads what the sentence says, not what it means) into
``(slot, value)`` facts:

* ``nature``: ``human`` ("i am a human", "i'm a real person", "i'm not a bot") or ``bot``
  ("i am a bot / robot / chatbot / an ai / a computer program");
* ``age``: "i am 25", "i'm 25 years old", "i am twenty five" (numbers 1-120 in digits or
  words up to ninety-nine);
* ``name``: "my name is sam", "i'm called sam", "call me sam";
* ``job``: "i work as a nurse", "my job is nurse", "i am a nurse" for the jobs of
  :data:`JOBS` (an "i am a ..." with any other noun is not read: "i am a big fan");
* ``home``: "i live in paris", "i'm from paris" (the next one to three words).

A fact *contradicts* an earlier fact of the same bot in the same slot when the values differ
(one job, one age, one name, one home, human or bot). Questions are not statements and are
never read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, Sequence

from chatmatch.common.text import is_question

JOBS = frozenset("""teacher nurse doctor student lawyer engineer programmer developer
chef cook waiter waitress writer artist musician singer farmer driver pilot accountant
nurse dentist scientist professor cashier mechanic electrician plumber carpenter firefighter
policeman cop soldier librarian designer photographer actor actress journalist manager
secretary salesman clerk veterinarian vet barista baker hairdresser banker architect
therapist pharmacist retiree housewife babysitter""".split())
_NUM = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen").split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}
_I_AM = r"(?:i am|i'm|im|i m)"
_AGE_WORDS = "|".join(list(_TENS) + _NUM[1:])
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("nature-bot", re.compile(rf"\b{_I_AM} (?:just )?(?:a |an )?(?:bot|robot|chatbot|chat bot|ai|"
                              r"artificial intelligence|computer program|program|machine)\b")),
    ("nature-human", re.compile(rf"\b{_I_AM} (?:a |an )?(?:real )?(?:human|person|human being)\b|"
                                rf"\b{_I_AM} not (?:a |an )?(?:bot|robot|chatbot|ai|machine)\b")),
    ("age", re.compile(rf"\b{_I_AM} (\d{{1,3}}|(?:{_AGE_WORDS})(?:[ -](?:{'|'.join(_NUM[1:10])}))?)"
                       r"(?: years? old| yrs? old|\b(?! ?(?:%|percent|minutes|hours|days|times|"
                       r"of|in|and|or|miles|feet|pounds|kg|lbs|dollars|people|kids|children)))")),
    ("name", re.compile(r"\b(?:my name is|my name's|i am called|i'm called|call me) ([a-z]+)\b")),
    ("job-exclusive", re.compile(r"\b(?:i work as|my job is|my profession is|i'm working as) "
                                 r"(?:a |an )?([a-z]+)\b")),
    ("job", re.compile(rf"\b{_I_AM} (?:a |an )([a-z]+)\b")),
    ("home", re.compile(r"\b(?:i live in|i'm from|i am from|im from) ([a-z]+(?: [a-z]+){0,2}?)"
                        r"(?=[.,!?;]|$| and | but | with | now| too| right)")),
)
_NOT_NAMES = frozenset("a the not just so very really from in at here there fine good ok okay "
                       "sorry happy sure glad going doing back home".split())


@dataclass(frozen=True)
class Fact:
    turn: int
    slot: str  # nature, age, name, job, home
    value: str
    sentence: str


def _age(raw: str) -> str | None:
    if raw.isdigit():
        n = int(raw)
        return str(n) if 1 <= n <= 120 else None
    parts = re.split(r"[ -]", raw)
    n = _TENS.get(parts[0], _NUM.index(parts[0]) if parts[0] in _NUM else -1)
    if len(parts) > 1 and parts[1] in _NUM:
        n += _NUM.index(parts[1])
    return str(n) if 1 <= n <= 120 else None


def facts_of(sentence: str) -> Iterator[tuple[str, str]]:
    """(slot, value) of each identity fact the sentence states."""
    s = " ".join(sentence.lower().replace("’", "'").split())
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(s):
            if kind.startswith("nature"):
                yield "nature", kind.split("-")[1]
            elif kind == "age":
                if (age := _age(m.group(1))) is not None:
                    yield "age", age
            elif kind == "name":
                if m.group(1) not in _NOT_NAMES:
                    yield "name", m.group(1)
            elif kind in ("job", "job-exclusive"):
                if m.group(1) in JOBS or kind == "job-exclusive":
                    yield "job", m.group(1)
            elif m.group(1) not in _NOT_NAMES:
                yield "home", m.group(1)


def facts(turns: Sequence[tuple[int, str]]) -> list[Fact]:
    """The identity facts of a bot's turns ``(index, text)``, in order; questions skipped."""
    out = []
    for index, text in turns:
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            if sentence.strip() and not is_question(sentence):
                out += [Fact(index, slot, value, sentence.strip())
                        for slot, value in facts_of(sentence)]
    return out


def identity_changes(turns: Sequence[tuple[int, str]]) -> tuple[set[int], list[tuple[Fact, Fact]]]:
    """(turns that restate a slot the bot stated before, (earlier, later) fact pairs that
    contradict: the same slot, another value)."""
    seen: dict[str, list[Fact]] = {}
    tested: set[int] = set()
    changes: list[tuple[Fact, Fact]] = []
    for fact in facts(turns):
        earlier = [f for f in seen.get(fact.slot, []) if f.turn != fact.turn]
        if earlier:
            tested.add(fact.turn)
            clash = next((f for f in earlier if f.value != fact.value), None)
            if clash is not None:
                changes.append((clash, fact))
        seen.setdefault(fact.slot, []).append(fact)
    return tested, changes

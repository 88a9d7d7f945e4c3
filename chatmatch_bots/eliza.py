"""A classic ELIZA: Weizenbaum's keyword decomposition and reassembly rules (DOCTOR script).

How a reply is made (Weizenbaum 1966):

1. the partner's last turn is lower-cased, split into clauses, and spelling variants are
   normalised (``PRE``: "dont" -> "don't", "maybe" -> "perhaps", ...);
2. the clause holding the highest-ranked keyword is kept; its keywords are tried from the
   highest rank down;
3. a keyword's decomposition patterns (``* i am *``) are matched in order; the first that
   matches picks one of its reassemblies, whose ``(n)`` slots are filled with the matched
   fragments after pronoun reflection (``POST``: "my" -> "your", "i" -> "you", ...);
   ``goto key`` hands over to another keyword;
4. with no keyword, an earlier "my ..." remark of the partner is brought back (ELIZA's
   memory), else a content-free prompt ("Please go on.").

Weizenbaum's ELIZA cycled through reassemblies with a counter kept in the script; here
the choice is drawn with ``random.Random(history.random_seed)`` so a bot object holds no
per-game state and a game replays identically. The memory is recomputed from the
history for the same reason.
"""

from __future__ import annotations

import random
import re
from typing import Any, ClassVar

from chatmatch_bots import eliza_script as script
from chatmatch.adapters.params import BotParams, given
from chatmatch.bot import Bot, History

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_CLAUSE = re.compile(r"[.,;:!?]+|\bbut\b")
_SLOT = re.compile(r"\((\d+)\)")
_MAX_GOTO = 5

Parts = list[list[str]]


def words_of(text: str) -> list[str]:
    """Lower-cased words of ``text`` after the script's spelling substitutions."""
    out: list[str] = []
    for word in _WORD.findall(text.lower().replace("\u2019", "'")):
        out.extend(script.PRE.get(word, word).split())
    return out


def clauses_of(text: str) -> list[list[str]]:
    return [w for w in (words_of(c) for c in _CLAUSE.split(text.lower())) if w]


def _element_matches(element: str, word: str) -> bool:
    if element.startswith("@"):
        return word in script.SYNONYMS[element[1:]]
    return element == word


def match(pattern: list[str], words: list[str]) -> Parts | None:
    """Parts of ``words`` matched by ``*`` and ``@group`` elements, or None (no match)."""
    if not pattern:
        return [] if not words else None
    head, rest = pattern[0], pattern[1:]
    if head == "*":
        for cut in range(len(words) + 1):
            tail = match(rest, words[cut:])
            if tail is not None:
                return [words[:cut], *tail]
        return None
    if not words or not _element_matches(head, words[0]):
        return None
    tail = match(rest, words[1:])
    if tail is None:
        return None
    return [[words[0]], *tail] if head.startswith("@") else tail


def reflect(fragment: list[str]) -> str:
    return " ".join(script.POST.get(w, w) for w in fragment)


def assemble(template: str, parts: Parts) -> str | None:
    """Fill the ``(n)`` slots of ``template``; None when a slot would be empty."""
    slots = [int(n) for n in _SLOT.findall(template)]
    if any(n > len(parts) or not parts[n - 1] for n in slots):
        return None
    return _SLOT.sub(lambda m: reflect(parts[int(m.group(1)) - 1]), template)


def _keywords(words: list[str]) -> list[str]:
    found = [w for w in dict.fromkeys(words) if w in script.KEYWORDS]
    return sorted(found, key=lambda w: -script.KEYWORDS[w][0])


def _best_clause(clauses: list[list[str]]) -> list[str]:
    def top_rank(clause: list[str]) -> int:
        keys = _keywords(clause)
        return script.KEYWORDS[keys[0]][0] if keys else -1

    return max(clauses, key=top_rank) if clauses else []


def apply_keyword(key: str, words: list[str], rng: random.Random, depth: int = 0) -> str | None:
    """The reply that keyword ``key`` gives to ``words``, or None when no rule applies."""
    if depth > _MAX_GOTO:
        return None
    for decomposition, reassemblies in script.KEYWORDS[key][1]:
        parts = match(decomposition.split(), words)
        if parts is None:
            continue
        options = [r for r in reassemblies
                   if r.startswith("goto ") or assemble(r, parts) is not None]
        if not options:
            continue
        chosen = rng.choice(options)
        if chosen.startswith("goto "):
            reply = apply_keyword(chosen[5:], words, rng, depth + 1)
            if reply is None:
                continue
            return reply
        return assemble(chosen, parts)
    return None


def memory_reply(earlier: list[str], rng: random.Random) -> str | None:
    """ELIZA's memory: bring back the latest earlier partner clause matching ``* my *``."""
    for text in reversed(earlier):
        for clause in clauses_of(text):
            parts = match(["*", "my", "*"], clause)
            if parts is not None and parts[1]:
                return assemble(rng.choice(script.MEMORY), parts)
    return None


def _capitalise(text: str) -> str:
    text = re.sub(r"\s+([?.!,])", r"\1", " ".join(text.split()))
    return text[:1].upper() + text[1:]


def eliza_reply(text: str, earlier: list[str], rng: random.Random, memory: bool = True) -> str:
    """ELIZA's answer to ``text``; ``earlier`` holds the partner's previous turns."""
    clause = _best_clause(clauses_of(text))
    for key in _keywords(clause):
        reply = apply_keyword(key, clause, rng)
        if reply is not None:
            return _capitalise(reply)
    remembered = memory_reply(earlier, rng) if memory else None
    return _capitalise(remembered or rng.choice(script.NONE))


class ElizaBot(Bot):
    description = "Weizenbaum's ELIZA (DOCTOR script): keyword rules with pronoun reflection."
    thread_safe: ClassVar[bool] = True

    class Params(BotParams):
        memory: bool = True  # with no keyword to answer, recall an earlier "my ..." turn

    def __init__(self, name: str = "", params: Params | None = None, **values: Any) -> None:
        super().__init__(name)
        self.memory = given(self.Params, params, values).memory

    def reply(self, history: History) -> str:
        partner = [m.text for m in history.messages if m.role == "partner"]
        if not partner or not partner[-1].strip():
            return script.INITIAL
        rng = random.Random(history.random_seed)
        return eliza_reply(partner[-1], partner[:-1], rng, self.memory)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "adapter": "eliza", "memory": self.memory,
                "script": "DOCTOR (Weizenbaum 1966)", "keywords": len(script.KEYWORDS)}

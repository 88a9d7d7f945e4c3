"""Recipe signals of one side of a game: how much of what it says is a cheap recipe.

The combined judge (:mod:`chatmatch.scoring.learned.judge`, ``combined``) reads them beside
the rule judge's per-dimension outcomes. Each is a share of the side's own turns (or
words) in [0, 1], computed from the transcript alone with the checks the rule scorers use
(:mod:`chatmatch.scoring.surface`), so the same game gives the same numbers in training and
in a tournament:

* ``frame``: turns that repeat the side's own frame ("Arr! Ye speak of <word>? ...":
  :func:`~chatmatch.scoring.surface.frame_repeat`);
* ``echo``: turns that are the partner's last turn lightly edited
  (:func:`~chatmatch.scoring.surface.edited_echo`);
* ``copy``: the share of the turn's words (pronouns aside) found in the partner's last
  turn, averaged over turns (mirroring, editing, templating around the partner's words);
* ``parroted``: the side's questions that are the partner's
  (:func:`~chatmatch.scoring.surface.parroted`), over all its questions (0 when it asks none);
* ``salad``: word-salad turns (:func:`~chatmatch.scoring.surface.salad`);
* ``function``: the share of function words among the side's words (real English runs at
  40-60 %; salad and entity stuffing far lower);
* ``capitals``: capitalised words not opening a sentence, per word (entity stuffing);
* ``unshared``: the side's content words that the partner never says in the game, per
  content word (off-context stuffing, a constant or filler that ignores the partner);
* ``uptake``: turns sharing no content word with the partner's last turn (ignoring the
  partner: question spam, a constant reply).

A side that said nothing has NaN everywhere (the model counts NaN as the training mean).
"""

from __future__ import annotations

import math
import re
import statistics

from chatmatch.common.text import normalise
from chatmatch.scoring.questions import FUNCTION_WORDS, content_tokens
from chatmatch.scoring.surface import (edited_echo, frame_repeat, parroted, question_sentences,
                                       salad, words)
from chatmatch.transcript import Transcript

SIGNALS = ("frame", "echo", "copy", "parroted", "salad", "function", "capitals", "unshared",
           "uptake")
_PRONOUNS = frozenset("i you me my your mine yours we us our he she it they them".split())
_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)(\S+)")
_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*")


def _capitals(text: str) -> tuple[int, int]:
    """(capitalised words that do not open a sentence and are not "I", all words)."""
    found = _WORD.findall(text)
    starts = {m.start(1) for m in _SENTENCE_START.finditer(text)}
    caps = sum(1 for m in _WORD.finditer(text)
               if m.group(0)[0].isupper() and m.start() not in starts
               and m.group(0) not in ("I", "I'm", "I'd", "I'll", "I've"))
    return caps, len(found)


def recipe_signals(game: Transcript, side: str) -> dict[str, float]:
    """The :data:`SIGNALS` of ``side``'s own turns (see the module docstring)."""
    turns = [t for t in game.turns if normalise(t.text)]
    own_before: list[str] = []
    partner_questions: list[str] = []
    partner_words: set[str] = set()
    partner_last: str | None = None
    frames = echoes = salads = no_uptake = questions = parrots = 0
    copies: list[float] = []
    func = all_words = caps = cap_words = 0
    mine_content: list[set[str]] = []
    n = 0
    for t in turns:
        text = normalise(t.text)
        if t.speaker != side or t.seed:
            partner_last = text
            partner_questions += question_sentences(text)
            partner_words |= content_tokens(text)
            continue
        n += 1
        ws = words(text)
        frames += frame_repeat(text, own_before)
        echoes += edited_echo(text, partner_last)
        salads += salad(text)
        last_words = {w for w in words(partner_last or "") if w not in _PRONOUNS}
        mine = [w for w in ws if w not in _PRONOUNS]
        copies.append(sum(w in last_words for w in mine) / len(mine) if mine else 0.0)
        content = set(content_tokens(text))
        no_uptake += not (content & content_tokens(partner_last or ""))
        mine_content.append(content)
        for q in question_sentences(text):
            questions += 1
            parrots += parroted(q, partner_questions, partner_last)
        func += sum(w in FUNCTION_WORDS for w in ws)
        all_words += len(ws)
        c, k = _capitals(t.text)
        caps, cap_words = caps + c, cap_words + k
        own_before.append(text)
    if n == 0:
        return {k: math.nan for k in SIGNALS}
    said = set().union(*mine_content)
    return {"frame": frames / n, "echo": echoes / n, "copy": statistics.fmean(copies),
            "parroted": parrots / questions if questions else 0.0, "salad": salads / n,
            "function": func / all_words if all_words else 0.0,
            "capitals": caps / cap_words if cap_words else 0.0,
            "unshared": len(said - partner_words) / len(said) if said else 0.0,
            "uptake": no_uptake / n}


__all__ = ["SIGNALS", "recipe_signals"]

"""Specific questions: questions that ask about something (proactivity's ``questions:
specific``).

A question (a sentence that :func:`chatmatch.common.text.question_count` counts) is
*generic* when all its tokens are function words (:data:`FUNCTION_WORDS`: pronouns,
auxiliaries, wh-words, particles, fillers): "what about you?", "and you?", "how are you?",
"really?", "why?", "what do you mean?" ask nothing a bot brought. It is *repeated* when
the bot asked a question with the same set of content tokens earlier in the game. Only a
question that is neither counts. No model is needed: the word list is fixed here.
"""

from __future__ import annotations

import re

from chatmatch.common.text import is_question, normalise, tokens

FUNCTION_WORDS = frozenset("""
a about above after again all also am an and any anything are aren't around as at be
because been being both but by can can't could couldn't did didn't do does doesn't doing
don't done else ever for from get got had has have haven't having he her here hers him his
how i i'd i'll i'm i've if in into is isn't it it's its just know let let's like lot many
me mean might more most much must my no nor not now of off oh ok okay on once one only or
other our out over own really right same say see she should so some something sorry still
such sure tell than that that's the their them then there there's these they thing things
think this those though to too true um uh up us very was wasn't way we we're well were
weren't what what's whats when where where's which while who who's whom whose why will with
won't would wouldn't yeah yes yet you you'd you're you've your yours yourself hi hello hey
how's going doing today anyway alright great good cool nice wow huh hmm lol
""".split())
_SENTENCE = re.compile(r"(?<=[.!?\uff1f])\s+")


def content_tokens(text: str) -> frozenset[str]:
    """The tokens of ``text`` that are not function words."""
    return frozenset(t for t in tokens(text) if t not in FUNCTION_WORDS)


def asks_something(text: str) -> bool:
    """Whether ``text`` holds a question with a content word (not only "why?", "and you?")."""
    return any(is_question(s) and content_tokens(s) for s in _SENTENCE.split(normalise(text)))


def specific_questions(text: str, asked: set[frozenset[str]]) -> int:
    """How many specific questions one turn asks; ``asked`` (the content-token sets of the
    bot's earlier questions in the game) is updated in place."""
    n = 0
    for sentence in _SENTENCE.split(normalise(text)):
        if not is_question(sentence):
            continue
        content = content_tokens(sentence)
        if content and content not in asked:
            n += 1
        if content:
            asked.add(content)
    return n

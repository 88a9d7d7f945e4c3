"""Strip the model artefacts that ParlAI-era logs carry (Spot The Bot's among them).

The Spot The Bot conversations keep what some systems emitted verbatim: end-of-sentence
markers (``< /s >``, ``</s>``), padding (``<pad>``, ``<pad >``), unknown-word markers
(``__unk__``, often split by the tokeniser into ``_ _ unk _ _``). None of them was shown to
the crowd workers as text a person would write, and every scorer would read them as words
(a ``<pad>`` is a "token" for Distinct-n and a rare "word" for relevance), so they are
removed before scoring. Everything else (lower case, ``i ' m``-style tokenisation, runs of
``. . . .``) is the systems' own behaviour and is kept.
"""

from __future__ import annotations

import re

#: markup tokens: </s>, < /s >, <s>, <pad>, <pad >, <unk>, <eos>, <bos>, <sep>, <cls>, <mask>
_MARKUP = re.compile(r"<\s*/?\s*(?:s|pad|unk|eos|bos|sep|cls|mask)\s*>", re.IGNORECASE)
#: __unk__ and its tokenised forms ("_ _ unk _ _", "roller__unk _ _"), __null__, __start__ ...
_DUNDER = re.compile(r"_\s*_\s*(?:unk|null|start|end|pad|eos)\s*_\s*_", re.IGNORECASE)
#: BERT-style special tokens
_BRACKETED = re.compile(r"\[(?:PAD|UNK|SEP|CLS|MASK)\]")


def squash(text: str) -> str:
    """Whitespace collapsed to single spaces, no leading or trailing space."""
    return " ".join(text.split())


def clean_text(text: str) -> str:
    """``text`` without model artefacts, whitespace collapsed."""
    out = _MARKUP.sub(" ", text)
    out = _DUNDER.sub(" ", out)
    out = _BRACKETED.sub(" ", out)
    return squash(out)


def clean_turn(text: str) -> tuple[str, bool]:
    """The cleaned text and whether an artefact was removed (whitespace alone does not
    count as a cleaning)."""
    cleaned = clean_text(text)
    return cleaned, cleaned != squash(text)

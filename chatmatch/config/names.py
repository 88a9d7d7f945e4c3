"""The one rule for bot names, applied when a tournament YAML is checked.

A bot name is shown in terminal tables, SVG plots, the HTML report and file contents, and
it identifies the bot's games when a run is resumed. So it is:

* NFC-normalised (an accent typed as one character or as a letter plus a combining accent
  gives the same name: ``café``);
* free of characters that show nothing or act on the terminal: control characters (NUL,
  BEL, ESC, tab, newline), format characters (zero-width space and joiners, BOM,
  bidirectional overrides), line/paragraph separators, surrogates, private-use and
  unassigned code points; no slash or backslash; no spaces at either end;
* at most :data:`MAX_NAME_CHARS` characters;
* unique up to look-alikes: two names equal after NFKC normalisation (``ｅｌｉｚａ`` and
  ``eliza``, ``ﬁ`` and ``fi``) are duplicates (:func:`name_key`).
"""

from __future__ import annotations

import unicodedata
from typing import Iterable

from chatmatch.common.display import shown

MAX_NAME_CHARS = 100
#: categories refused anywhere in a name
_REFUSED = {"Cc": "a control character", "Cf": "an invisible format character",
            "Zl": "a line separator", "Zp": "a paragraph separator", "Cs": "a surrogate",
            "Co": "a private-use character", "Cn": "an unassigned code point"}


def check_bot_name(name: str) -> str:
    """The name in NFC form; ``ValueError`` (one line, naming the character) when it breaks
    the rule."""
    if any(c in name for c in "/\\\n\t") or name != name.strip():
        raise ValueError(f"bot name {name!r} must not contain slashes, tabs, newlines or "
                         "leading/trailing spaces")
    return check_name(name, "bot name")


def check_name(name: str, what: str = "name") -> str:
    """The one rule for every name chatmatch shows or writes (a bot, a speaker, a seed
    category): visible characters only (:func:`check_visible`), at most
    :data:`MAX_NAME_CHARS` characters; the name in NFC form."""
    check_visible(name, what)
    if len(name) > MAX_NAME_CHARS:
        raise ValueError(f"{what} has {len(name)} characters, more than {MAX_NAME_CHARS}; "
                         "use a shorter name (the model and settings go in params)")
    return unicodedata.normalize("NFC", name)


def check_visible(text: str, what: str = "name") -> str:
    """``text`` in NFC form; ``ValueError`` naming the first character that shows nothing
    or acts on a terminal (control, format, separator, surrogate, private-use, unassigned)."""
    for i, c in enumerate(text):
        kind = _REFUSED.get(unicodedata.category(c))
        if kind:
            raise ValueError(f"{what} {text!r} holds {kind} (U+{ord(c):04X} at position "
                             f"{i + 1}); names are shown in tables, plots and reports: use "
                             "visible characters only")
    return unicodedata.normalize("NFC", text)


def printable(text: str) -> str:
    """``text`` safe to print on a terminal (:func:`chatmatch.common.display.shown`: controls
    and bidirectional overrides escaped); a bot's reply is stored as it came and shown
    this way."""
    return shown(text)


def name_key(name: str) -> str:
    """What two names must not share: their NFKC form (look-alike compatibility forms
    and NFC/NFD spellings of one name are one name)."""
    return unicodedata.normalize("NFKC", name)


def look_alike(names: Iterable[str]) -> tuple[str, str] | None:
    """The first two different names of ``names`` that are one name (:func:`name_key`:
    "ｑ" and "q", "ａｌｉｃｅ" and "alice"), or None: the rule every set of names chatmatch
    keeps apart (bots, seed categories, speakers of imported logs) follows."""
    seen: dict[str, str] = {}
    for n in names:
        first = seen.setdefault(name_key(n), n)
        if first != n:
            return first, n
    return None


def look_alike_text(pair: tuple[str, str], what: str) -> str:
    """The message for two names that are one (:func:`look_alike`)."""
    first, other = pair
    return (f"{what} {other!r} is {first!r} spelled with other characters ({ascii(other)}); "
            f"give every {what} one spelling")

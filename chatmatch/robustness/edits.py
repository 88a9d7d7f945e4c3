"""Word-level edits behind the perturbation families: pure, deterministic string functions.

Each returns the edited text, or ``None`` when the edit does not apply to the text (no
negatable verb, no number, no pronoun...). Randomness, where an edit needs a choice,
comes only from the ``random.Random`` passed in. Case is kept: a capitalised word is
replaced by a capitalised word.
"""

from __future__ import annotations

import random
import re
from typing import Callable

_WORD = re.compile(r"[A-Za-z][A-Za-z']*")


def _case_like(src: str, new: str) -> str:
    """``new`` with ``src``'s capitalisation (``I`` stays upper case whatever the source)."""
    if new == "I" or new.startswith("I'") or new.startswith("I "):
        return new
    if src.isupper() and len(src) > 1:
        return new.upper()
    if src[:1].isupper():
        return new[:1].upper() + new[1:]
    return new


def _sub_once(pattern: re.Pattern[str], text: str, repl: Callable[[re.Match[str]], str]) -> str | None:
    m = pattern.search(text)
    if m is None:
        return None
    return text[:m.start()] + repl(m) + text[m.end():]


# --- negation ------------------------------------------------------------------------------
#: affirmative auxiliary -> negative, and back (apostrophe-less chat spellings included)
_TO_NEG = {"is": "isn't", "are": "aren't", "was": "wasn't", "were": "weren't", "am": "am not",
           "can": "can't", "will": "won't", "would": "wouldn't", "should": "shouldn't",
           "could": "couldn't", "do": "don't", "does": "doesn't", "did": "didn't",
           "have": "don't have", "has": "doesn't have", "i'm": "I'm not", "im": "im not",
           "you're": "you're not", "we're": "we're not", "they're": "they're not",
           "it's": "it isn't", "that's": "that isn't"}
_TO_POS = {"isn't": "is", "aren't": "are", "wasn't": "was", "weren't": "were", "can't": "can",
           "cannot": "can", "won't": "will", "wouldn't": "would", "shouldn't": "should",
           "couldn't": "could", "don't": "do", "doesn't": "does", "didn't": "did",
           "haven't": "have", "hasn't": "has", "dont": "do", "doesnt": "does", "didnt": "did",
           "cant": "can", "isnt": "is", "wont": "will", "wasnt": "was", "never": "always"}
_NEG_RE = re.compile(r"\b(" + "|".join(re.escape(w) for w in sorted({**_TO_NEG, **_TO_POS}, key=len,
                                                                       reverse=True)) + r")\b"
                     r"(\s+not\b)?", re.IGNORECASE)
#: "I like" -> "I don't like": a subject pronoun then a present-tense verb
_SUBJ_VERB = re.compile(r"\b(I|you|we|they)\s+((?:really|also|just|still)\s+)?"
                        r"(?!(?:never|always|not)\b)([a-z]+)\b", re.IGNORECASE)
_PERFECT_NEXT = re.compile(r"\s+(?:you|i|we|they|he|she|it|been|got|\w+ed|\w+en)\b", re.IGNORECASE)
_NOT_PRESENT = {"went", "had", "got", "made", "said", "saw", "came", "took", "thought", "knew",
                "told", "felt", "left", "found", "gave", "bought", "ate", "ran", "was", "were",
                "am", "are", "is", "to", "and", "or", "guys", "too", "all", "both", "a", "the"}


def negate(text: str) -> str | None:
    """Flip the polarity of the first negatable clause: ``is`` -> ``isn't``, ``don't`` ->
    ``do``, ``is not`` -> ``is``, ``never`` -> ``always``, ``I like`` -> ``I don't like``."""
    def flip(m: re.Match[str]) -> str:
        word, has_not = m.group(1), m.group(2)
        low = word.lower()
        if has_not:  # "is not" -> "is"
            return word
        new = _TO_NEG.get(low) or _TO_POS[low]
        if low in ("have", "has") and _PERFECT_NEXT.match(text, m.end()):
            new = low + "n't"  # "have you been" -> "haven't you been"
        return _case_like(word, new)

    out = _sub_once(_NEG_RE, text, flip)
    if out is not None:
        return out

    m = _SUBJ_VERB.search(text)
    if m is None or m.group(3).lower() in _NOT_PRESENT or m.group(3).lower().endswith("ed"):
        return None
    return f"{text[:m.start()]}{m.group(1)} don't {m.group(2) or ''}{m.group(3)}{text[m.end():]}"


# --- pronoun swap (speaker insensitivity) --------------------------------------------------
_PRONOUNS = {"i am": "you are", "you are": "I am", "am i": "are you", "are you": "am I",
             "i was": "you were", "you were": "I was", "was i": "were you", "were you": "was I",
             "i'm": "you're", "you're": "I'm", "im": "you're", "youre": "I'm",
             "i've": "you've", "you've": "I've", "i'll": "you'll", "you'll": "I'll",
             "i'd": "you'd", "you'd": "I'd", "i": "you", "me": "you", "my": "your",
             "mine": "yours", "myself": "yourself", "your": "my", "yours": "mine",
             "yourself": "myself"}
_PRONOUN_RE = re.compile(r"\b(" + "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in
                                             sorted(_PRONOUNS, key=len, reverse=True)) + r"|you)\b",
                         re.IGNORECASE)
#: "you" before one of these is a subject ("I"), elsewhere an object ("me")
_SUBJECT_NEXT = re.compile(r"\s+(?:do|did|does|can|could|will|would|should|have|had|like|love|"
                           r"know|think|want|need|go|went|get|got|said|say|see|mean|feel|play|"
                           r"live|work|really|also|just|never|always|too|guys)\b", re.IGNORECASE)


def swap_pronouns(text: str) -> str | None:
    """Answer as the other speaker: first and second person swapped (``I am`` <-> ``you
    are``, ``my`` <-> ``your``; ``you`` becomes ``I`` before a verb, else ``me``)."""
    def repl(m: re.Match[str]) -> str:
        src = m.group(0)
        key = re.sub(r"\s+", " ", src.lower())
        if key == "you":
            new = "I" if _SUBJECT_NEXT.match(text, m.end()) or m.start() == 0 else "me"
        else:
            new = _PRONOUNS[key]
        return _case_like(src, new)

    out = _PRONOUN_RE.sub(repl, text)
    return out if out != text else None


# --- numbers and dates ---------------------------------------------------------------------
_NUMBER_WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                 "eleven", "twelve", "fifteen", "twenty", "thirty", "fifty", "hundred"]
_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "tenth"]
_DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december"]
_WORD_SETS = [_NUMBER_WORDS, _ORDINALS, _DAYS, [m for m in _MONTHS if m != "may"]]
_NUMBER_RE = re.compile(r"\b(\d+)\b|\b(" + "|".join(w for s in _WORD_SETS for w in s) + r")\b",
                        re.IGNORECASE)


def _other_int(n: int, rng: random.Random) -> int:
    if 1900 <= n <= 2100:  # a year
        return n + rng.choice([-1, 1]) * rng.randint(1, 15)
    lo, hi = max(0, n // 2), n * 2 + 3
    return rng.choice([v for v in range(lo, hi + 1) if v != n])


def change_number(text: str, rng: random.Random) -> str | None:
    """Change one number, number word, ordinal, weekday or month (chosen by ``rng``) into
    another of its kind; a year moves by 1-15 years."""
    matches = list(_NUMBER_RE.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    if m.group(1):
        digits = m.group(1)
        new = str(_other_int(int(digits), rng))
    else:
        word = m.group(2)
        choices = next(s for s in _WORD_SETS if word.lower() in s)
        new = _case_like(word, rng.choice([w for w in choices if w != word.lower()]))
    return text[:m.start()] + new + text[m.end():]


# --- word order and vocabulary -------------------------------------------------------------
def shuffle_words(text: str, rng: random.Random, *, min_words: int = 4) -> str | None:
    """The same words in a random order (a bad paraphrase); ``None`` under ``min_words``."""
    words = text.split()
    if len(words) < min_words or len(set(words)) < 2:
        return None
    for _ in range(20):
        order = words[:]
        rng.shuffle(order)
        if order != words:
            return " ".join(order)
    return None


def collapse_vocabulary(text: str, *, keep: int = 2, min_words: int = 6) -> str | None:
    """The first ``keep`` words repeated to the turn's length: same length, tiny vocabulary."""
    words = text.split()
    if len(words) < min_words or len(set(w.lower() for w in words[:keep])) < 1:
        return None
    head = words[:keep]
    out = " ".join((head * (len(words) // keep + 1))[:len(words)])
    return out if out != text else None


# --- meaning-preserving paraphrase ---------------------------------------------------------
_PARAPHRASE = {"i'm": "I am", "im": "I am", "don't": "do not", "dont": "do not",
               "doesn't": "does not", "didn't": "did not", "didnt": "did not", "can't": "cannot",
               "cant": "cannot", "isn't": "is not", "it's": "it is", "that's": "that is",
               "thats": "that is", "you're": "you are", "i've": "I have", "what's": "what is",
               "whats": "what is", "yeah": "yes", "yea": "yes", "awesome": "great",
               "movie": "film", "movies": "films", "kids": "children", "a lot": "very much",
               "really": "truly", "hi": "hello", "hey": "hello",
               "okay": "alright", "ok": "alright", "big": "large", "gonna": "going to", "wanna": "want to", "maybe": "perhaps", "cool": "nice"}
_PARA_RE = re.compile(r"\b(" + "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in
                                          sorted(_PARAPHRASE, key=len, reverse=True)) + r")\b",
                      re.IGNORECASE)


def paraphrase(text: str) -> str | None:
    """A meaning-preserving rewrite: contractions spelt out and a few near-synonyms swapped
    (``I'm`` -> ``I am``, ``yeah`` -> ``yes``, ``movie`` -> ``film``); every match changes."""
    out = _PARA_RE.sub(lambda m: _case_like(m.group(0),
                                            _PARAPHRASE[re.sub(r"\s+", " ", m.group(0).lower())]),
                       text)
    return out if out != text else None


def content_words(text: str) -> set[str]:
    """Lower-cased words of 4+ letters that are not in a small stop list (overlap tests)."""
    return {w for w in (x.lower() for x in _WORD.findall(text)) if len(w) >= 4 and w not in _STOP}


_STOP = frozenset("""that this with have what your you're about there their they them then than
were been being from just like really yeah will would could should know think well much more
some what's thats dont didn't doesn't don't going also very when where which while into only
haha hahaha okay sure good nice cool here does doing done make made want because thing things
time""".split())

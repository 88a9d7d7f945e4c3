"""Eighth recipe bots: a seventh held-out check of the gaming suite.

These recipes were written on 2026-12-04 blind to the scorers, the docs and the results, as a
seventh held-out family: their author read only the bot interface (chatmatch/bot.py), the
seven earlier recipe families (chatmatch_bots/recipes.py, recipes_unseen.py,
recipes_blind.py, recipes_fourth.py, recipes_fifth.py, recipes_sixth.py and
recipes_seventh.py) and their tests, and a one-line account of each of the seven dimensions,
never the scorers' code, any doc, the validity lab or how any family had fared. The judge was
therefore never tuned against them; they play the real bots in
``tournaments/gaming-eighth.yaml`` and, like the other families, should rank below them.
This family's recipes all *look* as if they respond to the partner (they acknowledge what was
said, seem to answer the question just asked, pick up its words) while every line is canned;
each is a cheap, model-free recipe that combines several tricks (the dimensions aimed at in
brackets):

- ``recipe-eighth-answer``: a canned answer bank keyed on the type of the partner's question
  (where, when, who, why, how, how often, what, favourite, hobby, how-are-you, do-you-like,
  yes/no, either/or, home, job, name), the answer fixed per question for the game (per type
  for facts about itself); it repeats the question to itself, answers, and asks it back; a
  "what about you?" gets its own answer to the question it asked; to a statement it answers
  its own last question ("As for me, ...") and asks a new one [relevance, consistency,
  proactivity, knowledge, fluency];
- ``recipe-eighth-aiml``: a small table of old AIML-style categories (patterns with a
  wildcard whose words, pronouns swapped, go into the answer), with a ``that`` context so
  "yes"/"no" get a reply about the question the bot last asked, a named friend in most
  templates and a question in each [relevance, proactivity, knowledge, diversity,
  consistency];
- ``recipe-eighth-sequel``: retells the partner's first-person statement in the second
  person and "guesses" how it went on with a canned, named twist of its topic, never the
  same twist twice ("So you went hiking ..., and then the fog came down over Helvellyn
  ...! Am I close?") [relevance, knowledge, specificity, fluency, proactivity];
- ``recipe-eighth-oneup``: a one-upper: echoes the partner's statement as a question,
  scoffs, and tops it with a canned feat of the topic full of numbers and places, with a
  companion fixed for the game, then challenges the partner [relevance, specificity,
  knowledge, consistency, proactivity];
- ``recipe-eighth-clarify``: an active listener: recaps the partner's turn as slots (what,
  where, with whom, when), guesses a missing one with a named value fixed for the game, and
  checks it understood; quotes a question back before a short canned answer; asks what an
  odd or empty turn meant [relevance, proactivity, specificity, knowledge];
- ``recipe-eighth-psychic``: a cold reader: "picks something up" from the partner's word,
  gives a flattering all-purpose reading of its topic and a "hit" (a name's first letter or
  a place, fixed for the game), asks whether it means anything, and says "I knew it" to a
  yes [relevance, proactivity, knowledge, fluency, consistency];
- ``recipe-eighth-polyglot``: a language buff who translates the partner's words into two
  named languages, never the same word twice, with where it learnt them, else a famous
  untranslatable word of the topic, and asks about languages [specificity, knowledge,
  relevance, diversity, proactivity];
- ``recipe-eighth-critic``: rates whatever the partner mentions out of ten (the score fixed
  per word for the game, "still a 7" when it comes back), with a named pro and con and its
  place between two famous names of the topic, asks for the partner's score and reacts to
  a number [consistency, relevance, knowledge, specificity, proactivity].

Like the other families they need no model and are deterministic for a game's
``History.random_seed`` (and, where a recipe keeps something fixed for a game, its
``History.game_id``). Topics, topic words and well-known names come from the seventh family
(``topic_of``, ``key_word``, ``NAMES``, with a few more topic words here); names of a turn
from the sixth's ``entities``; several recipes answer a question with ``quick_answer``, the
answer bank of ``recipe-eighth-answer``.
"""

from __future__ import annotations

import random
import re
from typing import Callable

from chatmatch.bot import History
from chatmatch_bots.recipes import RecipeBot, _rng, _said
from chatmatch_bots.recipes_sixth import _lower_first, entities
from chatmatch_bots.recipes_seventh import (NAMES, TOPIC_NAMES, _cap, _fresh, _own,
                                            _partner_turns, _question, _stable, key_word)
from chatmatch_bots.recipes_seventh import topic_of as _seventh_topic_of

_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*")

#: word starts the seventh family's topic table misses (its short keys match whole words)
EXTRA_TOPICS = (("hik", "outdoors"), ("trek", "outdoors"), ("pasta", "food"),
                ("cooking", "food"), ("pizza", "food"), ("film", "screen"), ("paint", "garden"),
                ("read", "books"), ("sing", "music"), ("danc", "music"), ("swim", "sport"))
#: how to name each topic in a sentence when the partner gave no word of their own
TOPIC_WORDS = {"outdoors": "the outdoors", "pets": "pets", "music": "music",
               "screen": "films", "books": "books", "food": "food", "work": "work",
               "study": "studying", "travel": "travel", "sport": "sport", "family": "family",
               "garden": "gardening"}


def topic_of(text: str) -> str | None:
    """The seventh family's topic of ``text``, else the topic of its first word that
    :data:`EXTRA_TOPICS` knows; None when neither finds one."""
    found = _seventh_topic_of(text)
    if found:
        return found
    for word in _TOKEN.findall(text.lower()):
        for start, name in EXTRA_TOPICS:
            if word.startswith(start):
                return name
    return None


def topic(history: History) -> str:
    """The topic of the partner's latest turn that has one, else of the seed utterance, else
    one fixed for the game."""
    for text in [*reversed(_partner_turns(history)), history.seed_utterance]:
        found = topic_of(text)
        if found:
            return found
    return TOPIC_NAMES[_stable("topic", history.game_id) % len(TOPIC_NAMES)]


def _tame(text: str) -> str:
    """``text`` without its "words" of over 24 characters (no word of a reply gets long)."""
    return re.sub(r"\S{25,}", " ", text)


def _last(history: History) -> str:
    """The partner's last turn, tamed."""
    return _tame(history.last_partner_text)


def _word(history: History) -> str | None:
    """:func:`key_word` of the partner's latest turn that has one."""
    for text in reversed(_partner_turns(history)):
        word = key_word(_tame(text))
        if word:
            return word
    return None


def _about(history: History) -> tuple[str, str]:
    """The topic of the game so far and the word to talk about: the partner's latest topic
    word, else the topic's name in words."""
    about = topic(history)
    return about, _word(history) or TOPIC_WORDS[about]

# --- pronouns ----------------------------------------------------------------------------

_PERSON = {"i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself",
           "i'm": "you're", "i've": "you've", "i'd": "you'd", "i'll": "you'll", "am": "are",
           "we": "you", "us": "you", "our": "your", "ours": "yours", "ourselves": "yourselves",
           "we're": "you're", "we've": "you've", "we'd": "you'd", "we'll": "you'll",
           "your": "my", "yours": "mine", "yourself": "myself", "you're": "I'm",
           "you've": "I've", "you'd": "I'd", "you'll": "I'll"}
#: words after which "you" is a subject ("I"), not an object ("me")
_SUBJECT_AFTER = frozenset("""and but or that if when because so do does did are were have has
had can could would will should shall where what how why who which than while don't doesn't
didn't aren't weren't haven't can't couldn't wouldn't won't""".split())
_AGREE = ((r"\bI are\b", "I am"), (r"\bare I\b", "am I"), (r"\bI were\b", "I was"),
          (r"\bwere I\b", "was I"), (r"\byou was\b", "you were"), (r"\bwas you\b", "were you"),
          (r"\bI is\b", "I am"), (r"\baren't I\b", "am I not"))


def person(text: str) -> str:
    """``text`` with first and second person swapped ("I told you about my dog" -> "you told
    me about your dog"; "Are you ...?" -> "Am I ...?")."""
    pieces = re.split(r"([A-Za-z']+)", text)
    prev = ""
    for i in range(len(pieces)):
        piece = pieces[i]
        if i % 2 == 0:
            if re.search(r"[.!?,;:]", piece):
                prev = ""
            continue
        key = piece.lower()
        if key == "you":
            new = "I" if not prev or prev in _SUBJECT_AFTER else "me"
        else:
            new = _PERSON.get(key, piece)
        if (new != piece and piece[:1].isupper() and not new.startswith("I")
                and not key.startswith("i")):
            new = new[:1].upper() + new[1:]
        pieces[i] = new
        prev = key
    out = "".join(pieces)
    for pattern, fixed in _AGREE:
        out = re.sub(pattern, _agreeing(fixed), out, flags=re.IGNORECASE)
    return out


def _agreeing(fixed: str) -> Callable[[re.Match[str]], str]:
    """A replacement by ``fixed`` that keeps the case of the replaced text's first letter."""
    def sub(m: re.Match[str]) -> str:
        return (fixed[:1].upper() if m.group(0)[0].isupper() else fixed[:1]) + fixed[1:]
    return sub


# --- reading a turn ------------------------------------------------------------------------

_SUBJ = re.compile(r"\b(i|i'm|i've|i'd|we|we're|we've|my|our)\b", re.IGNORECASE)
_OPINION = re.compile(r"(?i)^(i|we) (think|guess|mean|know|suppose|agree|hope|believe|see|"
                      r"understand|don't know|dunno|bet)\b")
_CUT = re.compile(r",? (?:and|but|because|so|although|though|which|while)\b|[,;:()\u2014-] ")
_DANGLING = frozenset("""and but or with the a an to of in at on for my your our his her
their from by so as very really just""".split())


def _clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` words, without a dangling function word or final
    punctuation at its end."""
    words = text.split()[:limit]
    while words and words[-1].lower().strip(".,!?;:") in _DANGLING:
        words.pop()
    return " ".join(words).rstrip(".,!?;:'\"")


def first_person(text: str, limit: int = 14) -> str | None:
    """The partner's first first-person statement (a sentence, not a question, whose
    subject is "I", "we", "my ..." or "our ..."), up to its first clause break, retold in
    the second person ("you went hiking in the mountains with your brother"); None when
    ``text`` has none of three words or more that is not an opinion ("I think ...")."""
    for sentence in _SENTENCES.split(text.strip()):
        s = sentence.strip()
        if not s or s.endswith("?"):
            continue
        for m in _SUBJ.finditer(s):
            prefix = s[:m.start()]
            if len(prefix.split()) > 2:
                break
            if (m.group(1).lower() in ("my", "our", "we", "we're", "we've") and prefix.strip()
                    and not prefix.rstrip().endswith(",")):
                continue
            clause = s[m.start():]
            if _OPINION.match(clause):
                break
            cut = _CUT.search(clause)
            if cut and len(clause[:cut.start()].split()) >= 3:
                clause = clause[:cut.start()]
            clause = _clip(clause, limit)
            if len(clause.split()) >= 3:
                return _lower_first(person(clause))
            break
    return None


def asked(text: str) -> str | None:
    """The partner's last question of two words or more (None when there is none)."""
    q = _question(text)
    if not q:
        return None
    words = _TOKEN.findall(q)
    if len(words) >= 2 or (words and words[0].lower() in ("why", "how", "where", "when",
                                                          "who")):
        return q.strip()
    return None


_LEAD = r"^\W*(?:(?:and|so|but|well|oh|ok|okay|then|anyway|haha|hmm|also|just curious)\W+)*"
_WH = re.compile(_LEAD + r"(where|when|who|whom|whose|why|how (?:many|much|long|often|old|far)"
                 r"|how|what|which)\b", re.IGNORECASE)
_OR = re.compile(r"\b((?:[\w'-]+ ){0,2}[\w'-]+) or ((?:[\w'-]+ ){0,2}[\w'-]+)\W*$")
_LIKE_OBJ = re.compile(r"(?i)\b(?:like|love|enjoy|into|fancy)\s+(.+?)\W*$")
_FAV = re.compile(r"(?i)\bfavou?rite (?:kind of |sort of |type of )?([a-z]+)")


def or_options(question: str) -> tuple[str, str] | None:
    """The two sides of an either/or question ("tea or coffee?"), the first as many words
    long as the second; None when it is not one."""
    m = _OR.search(question.strip())
    if not m:
        return None
    after = m.group(2).split()
    if after[-1].lower() in ("not", "something", "anything", "what", "so", "no", "else"):
        return None
    before = m.group(1).split()[-len(after):]
    if before[0].lower() in ("you", "i", "prefer", "like", "rather", "more"):
        return None
    return " ".join(before), " ".join(after)


def question_kind(question: str) -> str:
    """The type of ``question``, the key of :data:`ANSWERS` (or "or", "favourite")."""
    low = question.strip().lower()
    if re.match(_LEAD + r"(?:(?:what|how) about (?:you|yourself)|and you|you)\W*$", low):
        return "about_you"
    if re.search(r"\bhow are (?:you|things)\b|\bhow(?:'s| is) it going\b|\bhow have you "
                 r"been\b|\bhow(?:'s| is) your day\b|\bhow (?:are )?you doing\b", low):
        return "how_are_you"
    if re.search(r"\b(where|what city|what town|what country)\b.*\b(live|from|based|grow "
                 r"up|grew up|home)\b|\bwhere(?:'s| is) home\b", low):
        return "home"
    if re.search(r"\bwhat do you do\b(?! (at|on|in|for fun|when|with|after|to|on))|\b(your "
                 r"job|for a living|for work|you work)\b", low):
        return "job"
    if re.search(r"\b(your name|who are you|call you)\b", low):
        return "name"
    if re.search(r"\b(free|spare) time\b|\bfor fun\b|\bhobb(y|ies)\b", low):
        return "hobby"
    if _FAV.search(low) and re.search(r"\b(what|which|who)\b", low):
        return "favourite"
    if re.search(r"\bwhat (did|have) you (do|done|been up to|get up to)\b|\bhow (was|is|"
                 r"has been) your (week|weekend|day)\b|\bwhat are you up to\b", low):
        return "week"
    if or_options(question):
        return "or"
    m = _WH.match(low)
    if m:
        word = m.group(1)
        if word.startswith("how "):
            return "amount"
        return {"whom": "who", "whose": "who", "which": "what"}.get(word, word)
    if re.search(r"\b(like|love|enjoy|into|fancy)\b", low):
        return "like"
    return "yesno"


# --- answer ------------------------------------------------------------------------------

#: question type -> canned answers ({x}: what the question asks about, person swapped)
ANSWERS: dict[str, tuple[str, ...]] = {
    "home": ("I live in Harrogate, in North Yorkshire, just round the corner from the Valley "
             "Gardens.",
             "I'm in Bristol these days, near the Clifton Suspension Bridge, though I grew up "
             "in Swansea.",
             "I live in Glasgow, on the south side, not far from Queen's Park.",
             "I'm based in Norwich, a ten-minute walk from the cathedral."),
    "job": ("I'm a librarian at the Central Library in Leeds; mostly children's books.",
            "I drive trains on the line between Manchester and Sheffield.",
            "I'm a physiotherapist, mostly for runners and the odd rugby player.",
            "I teach geography at a secondary school in Cardiff."),
    "name": ("I'm Rosie, Rosie Callaghan, though my brother Owen calls me Ro.",
             "My name's Daniel, but everyone calls me Dan.",
             "I'm Meera; my grandmother chose it."),
    "how_are_you": ("I'm very well, thanks; a bit tired after a busy week at work.",
                    "Pretty good, thanks! The sun came out for once.",
                    "Not bad at all, thanks; I've just had a lovely cup of tea."),
    "about_you": ("Oh, much the same as you, really.", "Me? Nothing too exciting, honestly.",
                  "Pretty similar, to be honest."),
    "hobby": ("I'm a big walker; most weekends I'm out in the Dales with my brother Owen.",
              "Mostly baking; my sourdough is finally getting there.",
              "I play five-a-side on Thursdays and read a lot of crime novels."),
    "week": ("Honestly, I spent most of it helping my brother Owen paint his flat in Leeds.",
             "A bit of everything: a long walk along the canal, a Thai curry and an old "
             "Hitchcock film.",
             "Mostly work, but on Saturday I finally went to the Tate Modern with my friend "
             "Hannah.",
             "I took the train to York and walked the city walls with my cousin Luca."),
    "favourite": ("My favourite {x}? {F}, no contest.",
                  "Favourite {x}... I'd have to say {f}.",
                  "Easy: {F}. My brother Owen would say the same."),
    "where": ("Mostly around the Peak District, near Hathersage, whenever I can get away.",
              "Down in Brighton, usually; my friend Hannah has a flat by the seafront.",
              "Up in Edinburgh, mostly, where my cousin Luca lives.",
              "Just at the local park, to be honest; nothing fancy."),
    "when": ("Usually on Saturday mornings, before the shops get busy.",
             "Last summer, during that August heatwave.",
             "Back in 2019, just before everything changed.",
             "Most evenings after seven, once the day is done.",
             "Every Sunday, without fail, ever since I was twelve."),
    "who": ("My old school friend Hannah, mostly; we've known each other since we were seven.",
            "My brother Owen, who drags me into everything.",
            "My neighbour Mrs Patel, believe it or not.",
            "My cousin Luca from Bologna, whenever he's over."),
    "what": ("That's a tough one; I'd say the little things, like a good cup of tea in the "
             "morning.",
             "Probably whatever my friend Hannah recommends; she has better taste than me.",
             "I'd say the people, every time.",
             "Mostly the quiet moments, if I'm honest."),
    "why": ("Because my dad always said you only regret the things you don't try.",
            "Mostly because of a teacher I had at school, Mr Hughes, who made everything sound "
            "like an adventure.",
            "Because it's the only time I properly switch off my phone.",
            "Partly habit, partly because my friend Hannah would never let me hear the end of "
            "it."),
    "how": ("Pretty well, thanks; a bit tired after a busy week at work.",
            "Slowly, to be honest, but I got there with a lot of help from YouTube.",
            "With a flask of tea and a lot of patience.",
            "Bit by bit; my brother Owen showed me the basics."),
    "amount": ("About three times a week, if the weather's kind.",
               "Twice, I think, and both times in Edinburgh.",
               "Far too many to count, according to my mum.",
               "Roughly two hours, give or take."),
    "like": ("I do like {x}, ever since a holiday in Cornwall when I was ten.",
             "I really do; {x} is my favourite way to spend a Sunday.",
             "Oh yes, my friend Hannah says I never stop talking about {x}.",
             "Very much, though I only got into {x} a couple of years ago."),
    "yesno": ("Yes, actually, last month with my brother Owen.",
              "Not yet, but it's on my list for next summer.",
              "I have, once, in Edinburgh, and I'd happily do it again.",
              "Yes, though my mum would tell you otherwise.",
              "Honestly, no; I've never quite had the nerve."),
}
#: the kinds of question whose answer is a fact about the bot, one for the whole game
FACTS = ("home", "job", "name", "week", "how_are_you", "hobby")
OR_REASONS = ("it reminds me of summers at my gran's in Whitby",
              "my brother Owen would disown me otherwise",
              "I've never been able to resist it",
              "it just suits me better, I think")
#: a favourite for the nouns a "what's your favourite ...?" names
FAVOURITES = {"colour": "deep blue, like the sea off Cornwall", "color": "green, moss green",
              "food": "my mum's shepherd's pie", "film": "Casablanca", "movie": "Jaws",
              "book": "Pride and Prejudice", "song": "Here Comes the Sun by the Beatles",
              "band": "Fleetwood Mac", "singer": "Ella Fitzgerald", "sport": "tennis, "
              "Wimbledon fortnight especially", "place": "Edinburgh in August",
              "animal": "the otter", "season": "autumn", "holiday": "Christmas",
              "drink": "a proper cup of Yorkshire Tea", "city": "Lisbon",
              "game": "Scrabble", "subject": "history", "show": "Doctor Who",
              "author": "Terry Pratchett", "team": "Liverpool", "day": "Saturday",
              "music": "old soul, Aretha Franklin especially", "flower": "sweet peas",
              "dish": "paella", "country": "Portugal", "meal": "Sunday lunch"}
FAVOURITE_ELSE = "whatever my friend Hannah picks; she has better taste than me"
ECHOES = ("{q}", "{q} Good question.", "{q} Hmm, let me think.", "Oh, {ql}", "{q} Easy.")
ECHO_LONG = ("Good question.", "Let me think.", "Ooh, where to start.", "Fair question.")
ASK_BACKS = ("And you: {ql}", "What about you? {q}", "Your turn: {ql}", "How about you: {ql}")
ASK_BACK_LONG = ("What about you?", "And you?", "How about you?", "What would you say?")
ANSWER_ACKS = ("Ah, {w}, nice.", "Oh, {w}, lovely.", "{W}, I see.", "Mm, {w}.", "Ha, {w}!",
               "Right, {w}.")
ANSWER_SORRY = ("Oh no, {w}.", "Ugh, {w}, I know the feeling.", "Ah, {w}, that's rough.",
                "Oh dear, {w}.")
_GLOOM = re.compile(r"(?i)\b(hate|hated|tired|sad|bad|awful|terrible|sick|ill|wrong|boring|bored|"
                    r"annoy\w*|worst|stress\w*|lonely|miss|upset|can't stand|don't like|lost|"
                    r"broke|broken|died|rain\w*)\b")
#: the answer bot's own questions (it answers each itself on its next turn)
OWN_ASKS = ("Where do you usually go for {a}?", "When did you last find time for {a}?",
            "Who got you into {a}?", "Why do you think people love {a} so much?",
            "How did you first get into {a}?", "How often do you get to enjoy {a}?",
            "Do you like {a} as much as you used to?", "What's the best thing about {w}?",
            "Would you rather enjoy {a} alone or with friends?",
            "What did you do last weekend?",
            "Where do you live, if you don't mind me asking?",
            "What do you do for a living?")


_QUESTION_STOP = frozenset("""and so but well oh ok okay then anyway you your yours do does did
are is was were have has the a an any some about what how why when where who which tell me
really just""".split())


def _content_key(text: str) -> list[str]:
    """The words that tell one question from another, sorted, each once."""
    return sorted({w.lower() for w in _TOKEN.findall(text)} - _QUESTION_STOP)


def quick_answer(history: History, question: str) -> str:
    """A canned answer to ``question`` from :data:`ANSWERS` for its type, fixed for the
    game and the question's words (the same question always gets the same answer)."""
    kind = question_kind(question)
    if kind == "about_you":  # "What about you?": its answer to the question it asked last
        mine = [m.text for m in history.messages if m.role == "self"]
        own_q = asked(mine[-1]) if mine else None
        if own_q and question_kind(own_q) != "about_you":
            return quick_answer(history, own_q)
    # facts about itself are fixed for the game whatever the wording; the rest per question
    words = [] if kind in FACTS else _content_key(question)
    pick = _stable("answer", history.game_id, kind, *words)
    if kind == "or":
        options = or_options(question)
        assert options is not None
        choice = person(options[pick % 2])
        return f"{_cap(choice)}, definitely; {OR_REASONS[pick % len(OR_REASONS)]}."
    bank = ANSWERS[kind]
    x = "it"
    if kind == "favourite":
        noun = _FAV.search(question)
        x = noun.group(1).lower() if noun else "thing"
        fav = FAVOURITES.get(x) or FAVOURITES.get(x.rstrip("s")) or FAVOURITE_ELSE
        return bank[pick % len(bank)].format(x=x, f=fav, F=_cap(fav))
    if kind == "like":
        m = _LIKE_OBJ.search(question)
        if m:
            obj = re.split(r"\s+(?:as much|as well|more than|than|these days|when|because|so "
                           r"much|at all|any ?more|now)\b", m.group(1))[0]
            x = _clip(person(obj), 6) or "it"
    return bank[pick % len(bank)].format(x=x)


def _echo(question: str, own: str, rng: random.Random) -> tuple[str, str]:
    """The question repeated to itself (pronouns swapped) and asked back, each in a frame
    not used yet for it."""
    if len(question.split()) > 12 or len(_TOKEN.findall(question)) < 2:
        return _fresh(ECHO_LONG, own, rng), _fresh(ASK_BACK_LONG, own, rng)
    q = _cap(question.strip())
    mine = _cap(person(q))
    echo = _fresh([e.format(q=mine, ql=_lower_first(mine)) for e in ECHOES], own, rng)
    back = _fresh([b.format(q=q, ql=_lower_first(q)) for b in ASK_BACKS], own, rng)
    return echo, back


class AnswerBot(RecipeBot):
    description = ("Recipe (eighth): "
                   "answers the partner's question from a canned bank keyed on its type, the "
                   "same way each time, and asks it back.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        last = _last(history)
        about, word = _about(history)
        activity = word if word.endswith("ing") else TOPIC_WORDS[about]
        parts: list[str] = []
        said = key_word(re.sub(r"[^.!]*\?", "", last))
        if said:
            acks = ANSWER_SORRY if _GLOOM.search(last) else ANSWER_ACKS
            parts.append(_fresh([a.format(w=said, W=_cap(said)) for a in acks], own, rng))
        question = asked(last)
        if question:
            echo, back = _echo(question, own, rng)
            if question_kind(question) == "about_you":  # nothing to ask back: a question
                back = _fresh([q.format(w=word, a=activity) for q in OWN_ASKS], own, rng)
            parts += [echo, quick_answer(history, question), back]
            return " ".join(parts)
        mine = [m.text for m in history.messages if m.role == "self"]
        turns = _partner_turns(history)
        own_q = asked(mine[-1]) if mine else None
        if own_q and not (len(turns) > 1 and asked(turns[-2])):  # not a question asked back
            parts.append("As for me, " + _lower_first(quick_answer(history, own_q)))
        parts.append(_fresh([q.format(w=word, a=activity) for q in OWN_ASKS], own, rng))
        return " ".join(parts)


# --- aiml --------------------------------------------------------------------------------

FRIENDS = ("my friend Callum", "my aunt Shirley", "my flatmate Ines", "my neighbour Mr Okoro",
           "my cousin Freya", "my old boss Gareth", "my friend Yusuf", "my gran Peggy")
AIML_JOBS = ("I'm a librarian in Norwich.", "I'm a nurse at St Thomas' Hospital in London.",
             "I repair bicycles in a little shop in Cambridge.",
             "I'm a sound engineer at a theatre in Manchester.")
AIML_HOMES = ("I live in Whitby, right by the harbour.",
              "I live in Bath, up the hill from the Royal Crescent.",
              "I live in Belfast, near the Botanic Gardens.",
              "I live in Oxford, on a narrow boat by Port Meadow.")
#: the categories whose answer is a fact of the game ({j}: the fact), owned up to when
#: asked again (their last template)
AIML_FACTS = {"job": AIML_JOBS, "home": AIML_HOMES}
#: (name, pattern, templates): ``{0}``/``{1}`` the pattern's groups (pronouns swapped),
#: ``{p}``/``{P}`` a friend, ``{k}`` the partner's word, ``{q}`` the word of the bot's last
#: question, ``{j}`` its job, ``{f}`` a favourite
CATEGORIES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("greeting", r"^\W*(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening))\b",
     ("Hello to you too! I was just telling {p} I fancied a chat. How has your week been?",
      "Hi! Lovely to hear from you. What have you been up to?",
      "Hey there! {P} says hello as well. What's new with you?")),
    ("how_are_you", r"\bhow are (?:you|things)\b|\bhow's it going\b|\bhow have you been\b",
     ("I'm very well, thank you; {p} and I had a lovely lunch today. How are you doing?",
      "Not bad at all, a little tired. And how are things with you?",
      "Can't complain! The sun came out for once. How about you?")),
    ("favourite", r"\bwhat(?:'s| is) your (?:favou?rite|fav) (\w+)",
     ("My favourite {0}? That has to be {f}. What's yours?",
      "Ooh, favourite {0}: {f}, no question. Do you have one?",
      "Still {f}, for my favourite {0}. And yours?")),
    ("job", r"\bwhat do you do\b(?! (?:at|on|in|for fun|when|with|after|to))|\bfor a living\b"
     r"|\byour job\b",
     ("{j} {P} says I never stop talking about it. What about you?",
      "{j} It keeps me busy! What do you do?",
      "Like I said, {jl} {P} still teases me about it. Do you enjoy your work?")),
    ("home", r"\bwhere (?:do you live|are you from|are you based|do you come from)\b|\bwhere(?:'s| "
     r"is) home\b",
     ("{j} {P} lives just round the corner. Where do you live?",
      "{j} I wouldn't live anywhere else! Where's home for you?",
      "Like I said, {jl} {P} visits all the time. Have you ever been?")),
    ("did_you_do", r"\bwhat did you (?:do|get up to)\b([^?.!]*)",
     ("What did I do{0}? I helped {p} move into a new flat, and watched a lot of snooker. And "
      "you?",
      "Not much{0}, honestly: a long walk with {p} and an early night. What did you get up "
      "to?",
      "{0}? A quiet one: I finally fixed my bike, with {p} supervising. How about you?")),
    ("about_you", r"^\W*(?:(?:what|how) about you|and you|you)\W*$|\b(?:what|how) about you\?",
     ("Me? Oh, I'm fine, thanks; {p} and I have been busy. What's new with you?",
      "Me? Much the same, honestly, though {p} keeps me on my toes. Anything else new?",
      "Oh, you know me: tea, a good book and a chat with {p}. What are you up to later?")),
    ("free_time", r"\bwhat do you (?:like to do|do for fun|do in your (?:free|spare) time)\b|"
     r"\byour hobbies\b|\bfor fun\b",
     ("I love a long walk with {p}, and a good crossword. What about you?",
      "Mostly board games with {p}, and a bit of baking. What do you get up to?",
      "I've just taken up pottery, believe it or not, with {p}. Do you have a hobby?")),
    ("either", r"\b([\w'-]+) or ([\w'-]+)\?",
     ("{0}, every time! {P} is firmly team {1}, though. What about you?",
      "Ooh, {0}, I think. Don't tell {p}, who loves {1}. Which would you pick?",
      "Definitely {0}. {1} is for special occasions. And you?")),
    ("are_you", r"\bare you ((?:a |an )?[^?.!,]+)",
     ("Me, {0}? Only on Monday mornings! What makes you ask?",
      "{P} would say so! Why, do I seem {0}?", "Ha, not that I know of. Are you {0}?")),
    ("do_you_like", r"\bdo you (?:like|love|enjoy) (?!to\b)([^?.!,]+)",
     ("I do like {0}! {P} got me into {0} years ago. What do you like about it?",
      "Oh yes, {0} is one of my favourite things; {p} thinks I'm obsessed. How about you?",
      "I do, especially with {p}. When did you get into {0}?")),
    ("have", r"\bdo you have (?:a |an |any )?([^?.!,]+)",
     ("I do, as it happens! {P} says I talk about my {0} far too much. Do you have {0}?",
      "Not at the moment, but {p} keeps offering to share. Why, do you have {0}?",
      "Funny you should ask: {p} and I were just talking about {0}. What about you?")),
    ("been_to", r"\bhave you (?:ever )?(?:been|gone) (?:to )?([^?.!,]+)",
     ("I've been to {0} once, with {p}, and I'd go back tomorrow. Have you?",
      "Only once, years ago, with {p}. What's {0} like these days?",
      "Not yet! {P} keeps telling me to go. Would you recommend it?")),
    ("why", r"^\W*why\b",
     ("Why? Because {p} always said life's too short to be bored. Why do you ask?",
      "Honestly? Because it makes me happy, and {p} agrees. Does that make sense?",
      "Good question! I suppose it's just how I was brought up. What do you think?")),
    ("question", r"\?\s*$",
     ("Good question! I'd have to ask {p}, who knows everything about {k}. What do you think?",
      "Hmm, I've never really thought about {k}. What's your answer?",
      "That's a big one. {P} and I argued about {k} only last week! What's your take?")),
    ("went_doing", r"\b(?:I|we) went (\w+ing\b[^.!?,;]*)",
     ("You went {0}? That sounds wonderful. {P} would be so jealous. Was it hard work?",
      "Going {0}, how lovely! Who came up with the idea?",
      "Oh, {0}! {P} went {0} last spring and loved it. Would you do it again?")),
    ("went_to", r"\b(?:I|we) (?:(?:went|go|have been|'ve been) (?:to|in|at)|visited) "
     r"([^.!?,;]+)",
     ("Oh, {0}! {P} went there last spring and hasn't stopped talking about it. What was the "
      "best part?",
      "{0}, how lovely. Was it your first time?",
      "I've always wanted to see {0}. Would you go back?")),
    ("love", r"\b[Ii] (?:really |just |absolutely )?(?:like|love|enjoy|adore) ([^.!?,;]+)",
     ("What is it about {0} that you love so much?",
      "{P} loves {0} too; you two should meet. How long have you been into it?",
      "Ah, {0}! Tell me more: what got you started?")),
    ("hate", r"\b[Ii] (?:really )?(?:hate|dislike|don't like|can't stand|do not like) "
     r"([^.!?,;]+)",
     ("Oh no, what's so bad about {0}?", "{P} can't stand {0} either. What happened?",
      "Fair enough! Was there a moment that put you off {0}?")),
    ("family", r"\b(?:my|our) (mum|mom|mother|dad|father|brother|sister|wife|husband|son|"
     r"daughter|aunt|uncle|cousin|gran|grandma|grandmother|grandad|grandpa|grandfather|nan|"
     r"niece|nephew|partner|girlfriend|boyfriend|friend|boss|dog|cat|kids|children|baby)\b",
     ("Tell me more about your {0}. Are you two close?",
      "Your {0} sounds like quite a character! What are they like?",
      "Ah, your {0}. {P} has one just like that. Do you see much of them?")),
    ("feeling", r"\b[Ii](?:'m| am| feel| was| felt) (?:so |really |very |a bit |quite )?(tired|"
     r"exhausted|busy|happy|sad|bored|stressed|excited|nervous|worried|sick|ill|fine|good|"
     r"great|ok|okay|well|lonely|annoyed|angry)\b",
     ("Why are you feeling {0}, do you think?", "Oh, {0}? {P} says a cup of tea fixes most "
      "things. What's been going on?", "I'm sorry... or glad? What made you {0}?")),
    ("i_am_a", r"\b[Ii](?:'m| am) ((?:a|an) [^.!?,;]+)",
     ("How long have you been {0}? {P} always wanted to be {0}.",
      "You're {0}? That must keep you busy. Do you enjoy it?",
      "Oh, {0}! What's the best part of being {0}?")),
    ("you_are", r"\byou(?:'re| are) ([^.!?,;]+)",
     ("What makes you think I'm {0}?", "Am I {0}? {P} says that too! Why do you say so?",
      "Maybe I am {0}. Does that bother you?")),
    ("work", r"\b[Ii] (work|study|teach) ([^.!?,;]+)",
     ("You {0} {1}? That must keep you busy. Do you enjoy it?",
      "{P} used to {0} {1} too! How long have you been doing it?",
      "How did you end up {0}ing {1}?")),
    ("yes", r"^\W*(?:yes|yeah|yep|yup|sure|definitely|absolutely|of course|i do|i have|"
     r"i did)\b",
     ("Brilliant! Then you'll know all about {q}. What's your favourite thing about it?",
      "I knew it! {P} will be pleased to hear it. Tell me more about {q}?",
      "Great! So how did you first come across {q}?")),
    ("no", r"^\W*(?:no|nope|nah|not really|never|i don't|i haven't|i didn't)\b",
     ("No? Then you're missing out on {q}, if you ask {p}. What would change your mind?",
      "Fair enough, {q} isn't for everyone. What would you pick instead?",
      "Really? Not even once? Is there a reason you've avoided {q}?")),
    ("thanks", r"\b(?:thanks|thank you|cheers)\b",
     ("You're very welcome! {P} always says manners cost nothing. What shall we talk about "
      "next?", "Any time! Is there anything else on your mind?")),
    ("bye", r"\b(?:bye|goodbye|see you|good night|goodnight|take care)\b",
     ("Leaving already? It was lovely chatting. Will you tell me more about {k} next time?",
      "Bye for now! Say hello to everyone for me. Same time next week?")),
    ("laugh", r"^\W*(?:haha+|lol|hehe|ha)\b",
     ("Glad that made you laugh! {P} says I'm hilarious. What's the funniest thing that "
      "happened to you this week?",
      "Ha, I thought you'd like that. Do you have a good joke for me?")),
    ("short", r"^\W*(?:ok|okay|cool|nice|right|hmm+|oh|i see|fair enough|alright|sure)\W*$",
     ("Glad we agree! So what else is new with you?",
      "Mm. You've gone quiet! What are you thinking about?",
      "Right! Shall I tell you about {p}, or would you rather talk about {k}?")),
    ("i_generic", r"\b[Ii] (\w+) ([^.!?,;]+)",
     ("You {0} {1}? Tell me more. How did that come about?",
      "Interesting: you {0} {1}. {P} does too! What's that like for you?",
      "Really, you {0} {1}? Why is that, do you think?")),
    ("default", r"",
     ("{K}? Tell me more. What's the story?",
      "I see. {P} was only talking about {k} yesterday. What do you make of it?",
      "Go on, I'm listening. Why {k}?")),
)
_CATEGORIES = tuple((name, re.compile(p, re.IGNORECASE if name not in ("love", "hate",
                                                                     "feeling", "work",
                                                                     "i_generic") else 0),
                     t) for name, p, t in CATEGORIES)


def _sentence_caps(text: str) -> str:
    """``text`` with each of its sentences starting in a capital."""
    return _cap(re.sub(r"([.!?] )([a-z])", lambda m: m.group(1) + m.group(2).upper(), text))


def aiml_match(text: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The first category whose pattern ``text`` matches: its name, its groups (pronouns
    swapped, at most eight words each) and its templates."""
    for name, pattern, templates in _CATEGORIES:
        m = pattern.search(text.strip())
        if m:
            groups = tuple(_clip(person(g), 8) if g else "" for g in m.groups())
            if name == "either":
                groups = tuple(_lower_first(g) for g in groups)
            return name, groups, templates
    raise AssertionError("the default category matches everything")


class AimlBot(RecipeBot):
    description = ("Recipe (eighth): "
                   "AIML-style categories: a pattern with a wildcard, its words in the answer, "
                   "a 'that' context for yes and no, and a question.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        last = _last(history)
        name, groups, templates = aiml_match(last)
        about, word = _about(history)
        mine = [m.text for m in history.messages if m.role == "self"]
        q = word
        if name in ("yes", "no"):
            own_q = asked(mine[-1]) if mine else None
            if own_q is None:
                name, groups, templates = "short", (), dict(
                    (n, t) for n, _, t in CATEGORIES)["short"]
            turns = _partner_turns(history)
            q = key_word(own_q or "") or key_word(turns[-2] if len(turns) > 1 else "") or word
        k = key_word(last) or word
        friend = _fresh(FRIENDS, own, rng)
        fact = ""
        if name in AIML_FACTS:
            facts = AIML_FACTS[name]
            fact = facts[_stable(name, history.game_id) % len(facts)]
        fav = ""
        if name == "favourite":
            fav = FAVOURITES.get(groups[0].lower()) or FAVOURITE_ELSE
        values = dict(p=friend, P=_cap(friend), k=k, K=_cap(k), q=q, j=fact,
                      jl=_lower_first(fact), f=fav)
        if name in AIML_FACTS and fact in own:
            filled = [templates[-1].format(*groups, **values)]
        else:
            filled = [_sentence_caps(t.format(*groups, **values)) for t in templates]
            if name in AIML_FACTS:
                filled = filled[:-1]
        return _fresh(filled, own, rng)


# --- sequel ------------------------------------------------------------------------------

#: topic -> twists: how the partner's story "went on" ({o}: who it happened to)
TWISTS: dict[str, tuple[str, ...]] = {
    "outdoors": ("the fog came down over Helvellyn and a farmer called Gareth had to walk {o} "
                 "back to Glenridding",
                 "at the summit cairn a retired teacher from Keswick shared her flask of tea "
                 "with {o}",
                 "a red squirrel ran right across the path outside Aviemore and nobody "
                 "believed {o} afterwards"),
    "pets": ("the dog ran off after a swan in Regent's Park and a man called Desmond had to "
             "help {o} catch it",
             "a vet in Bristol told {o} it was the most spoilt animal she had ever seen",
             "the cat brought home a sock from the neighbours at number twelve"),
    "music": ("the support band turned out to be better than the headliner at the Brixton "
              "Academy",
              "a busker outside Camden Town station asked {o} to sing the chorus",
              "someone in the crowd swore Paul McCartney was standing at the bar"),
    "screen": ("the power went off right before the final episode and {o} had to wait until "
               "Tuesday",
               "a stranger at the Curzon cried louder than anyone at the ending",
               "it turned out the whole thing was filmed in Dubrovnik, which sent {o} "
               "straight to Google Maps"),
    "books": ("the last chapter had been torn out of the copy from Camden library",
              "a woman on the train to York recognised the cover and told {o} the ending",
              "a signed first edition turned up at a charity shop in Hay-on-Wye the next day"),
    "food": ("the waiter at a little place in Naples insisted {o} try his grandmother's "
             "limoncello",
             "the oven gave up halfway through and Gordon Ramsay himself would have sworn",
             "there were enough leftovers to feed half of Leeds"),
    "work": ("the boss announced a surprise away day in Milton Keynes",
             "the fire alarm went off in the big meeting and everyone ended up in the car park",
             "a colleague called Ravi won the office bake-off with a lemon drizzle"),
    "study": ("the exam turned out to be in the old chapel at King's College",
              "the professor, a Dr Okafor, set the one question nobody had revised",
              "all the answers were in a library book from 1974"),
    "travel": ("the flight to Lisbon was delayed six hours and {o} made friends with a Dutch "
               "family at the gate",
               "the hotel in Porto upgraded {o} to a room looking over the Douro",
               "a taxi driver in Naples gave {o} a tour of the whole city for free"),
    "sport": ("the match went to penalties and the keeper saved three in a row",
              "{o} ended up in the background of the Sky Sports highlights",
              "it rained so hard at Headingley that play stopped until teatime"),
    "family": ("a long-lost cousin from Toronto turned up on the doorstep",
               "Grandma Iris finally revealed the secret of her Christmas pudding",
               "somebody brought out the old photo albums from Blackpool in 1989"),
    "garden": ("a fox from the allotments on Mill Lane dug up every single bulb",
               "the tomatoes won second prize at the Harrogate Flower Show",
               "a robin followed {o} round the garden all afternoon"),
}
SEQUEL_LEADS = ("So {c}, and then {t}!", "Let me guess the rest: {c}, and {t}.",
                "I can just picture it: {c}, and suddenly {t}.",
                "Wait, don't tell me: {c}, and {t}.",
                "Ooh, I know how this goes: {c}, and {t}.")
SEQUEL_WORD = ("{W}, you say? I bet {t}.", "Ah, {w}. Let me guess: {t}.",
               "{W}! And I suppose {t}?!", "With {w}, I'd bet anything {t}.")
SEQUEL_ASKS = ("Am I close?", "Is that how it went?", "Or did it end differently?",
               "What really happened next?", "Tell me I'm right?", "How far off am I?",
               "Did I guess it?", "Go on, what actually happened?")


def _twist(about: str, own: str) -> str:
    """An unused twist of ``about``, else of the topics after it in the table."""
    order = (about,) + TOPIC_NAMES[TOPIC_NAMES.index(about) + 1:] + TOPIC_NAMES
    for name in order:
        fresh = [t for t in TWISTS[name] if t.format(o="you") not in own]
        if fresh:
            return fresh[0]
    return TWISTS[about][len(own) % len(TWISTS[about])]


class SequelBot(RecipeBot):
    description = ("Recipe (eighth): "
                   "retells the partner's statement and guesses how it went on, with a named "
                   "twist of its topic.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        last = _last(history)
        about, word = _about(history)
        twist = _twist(about, own).format(o="you")
        clause = first_person(last)
        parts: list[str] = []
        question = asked(last)
        if question and not clause:
            parts.append(quick_answer(history, question))
        if clause:
            parts.append(_cap(SEQUEL_LEADS[n % len(SEQUEL_LEADS)].format(c=clause, t=twist)))
        else:
            parts.append(_cap(SEQUEL_WORD[n % len(SEQUEL_WORD)].format(w=word, W=_cap(word),
                                                                       t=twist)))
        parts.append(_fresh(SEQUEL_ASKS, own, rng))
        return " ".join(parts)


# --- one-up ------------------------------------------------------------------------------

COMPANIONS = ("my cousin Declan", "my best mate Priya", "my neighbour Tomasz",
              "my sister Bronwen", "my old flatmate Kofi", "my uncle Ray")
#: topic -> feats that top the partner's ({c}: the companion of the game)
ONEUPS: dict[str, tuple[str, ...]] = {
    "outdoors": ("last spring {c} and I walked the whole West Highland Way, ninety-six miles "
                 "in five days, in sideways rain",
                 "I've done Ben Nevis, Scafell Pike and Snowdon in twenty-four hours for the "
                 "Three Peaks Challenge",
                 "{c} and I once camped for a week on the Isle of Skye with no phone signal"),
    "pets": ("I look after three rescue greyhounds and a parrot called Admiral who swears in "
             "Portuguese",
             "my old spaniel won best in show at the Royal Welsh Show in 2019",
             "{c} and I fostered eleven kittens for the RSPCA last summer"),
    "music": ("I saw Fleetwood Mac at Wembley from the second row",
              "{c} and I have been to Glastonbury nine times",
              "I played bass in a band that supported the Arctic Monkeys in Sheffield, for "
              "one night only"),
    "screen": ("I watched all six seasons of The Sopranos in a single week",
               "{c} and I were extras in an episode of Doctor Who filmed in Cardiff",
               "I sat through all three extended Lord of the Rings films at the Prince "
               "Charles Cinema in one go"),
    "books": ("I read all seven Harry Potter books in nine days when I was eleven",
              "{c} and I got Margaret Atwood to sign our copies at the Hay Festival",
              "I get through a hundred and twenty books a year, mostly on the Northern line"),
    "food": ("{c} and I made forty-two pizzas for a street party, with dough proved for three "
             "days",
             "I once ate all eighteen courses at Noma in Copenhagen",
             "I baked a four-tier wedding cake for my cousin Niamh in a kitchen the size of a "
             "cupboard"),
    "work": ("last Tuesday I ran three meetings, two interviews and a fire drill before lunch",
             "I've worked at the same office in Croydon for fourteen years without a sick day",
             "{c} and I once pitched a business idea to Richard Branson in a lift"),
    "study": ("I sat eleven exams in two weeks and still won the pub quiz on Friday",
              "I learnt Italian in six months before a year in Bologna",
              "{c} and I both got our offers from Edinburgh on the same morning"),
    "travel": ("{c} and I took the Trans-Siberian Railway from Moscow to Beijing, six thousand "
               "miles",
               "I've been to thirty-one countries, and Lisbon is still my favourite",
               "I once missed a flight in Bangkok and spent a whole week on Koh Lanta instead"),
    "sport": ("I've run the London Marathon four times, best time three hours twelve",
              "{c} and I swam the length of Lake Windermere last August",
              "I cycled from Land's End to John o' Groats in twelve days"),
    "family": ("I've got eight cousins, and every Christmas we all squeeze into my aunt's house "
               "in Galway",
               "{c} organised a family reunion with sixty-three of us in a field in Devon",
               "my grandad is ninety-four and still beats me at chess every Sunday"),
    "garden": ("I grew a forty-kilo pumpkin that won a ribbon at the Malvern Autumn Show",
               "{c} and I dug a whole vegetable patch in one weekend",
               "my tomatoes were so good last summer that the chef at the Red Lion bought a "
               "crate"),
}
SCOFFS = ("That's nothing.", "Ha, cute.", "Amateur stuff!", "Only that?",
          "Been there, done that, twice.", "Oh, I can beat that.",
          "You'll have to do better than that.", "Funny, that's my warm-up.",
          "Not bad, not bad.", "Hold my tea.")
CHALLENGES = ("Can you top that?", "Beat that, can you?",
              "What's the most impressive thing you've ever done with {w}?",
              "Still think yours was special?", "Go on, what have you got?",
              "Have you ever done anything close?", "What's your personal best?",
              "Bet you can't match it, can you?", "Want to try again?",
              "Who's the most obsessed with {w} that you know, apart from me?")


def companion(history: History) -> str:
    """The one-upper's companion, fixed for the game."""
    return COMPANIONS[_stable("companion", history.game_id) % len(COMPANIONS)]


def _oneup(about: str, own: str, c: str) -> str:
    order = (about,) + TOPIC_NAMES[TOPIC_NAMES.index(about) + 1:] + TOPIC_NAMES
    for name in order:
        fresh = [f.format(c=c) for f in ONEUPS[name] if f.format(c=c).lower() not in own.lower()]
        if fresh:
            return fresh[0]
    return ONEUPS[about][len(own) % len(ONEUPS[about])].format(c=c)


class OneUpBot(RecipeBot):
    description = ("Recipe (eighth): "
                   "a one-upper: echoes the partner's statement, scoffs and tops it with a "
                   "named feat, then challenges them.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        last = _last(history)
        about = topic(history)
        clause = first_person(last)
        question = asked(last)
        if clause:
            echo = f"{_cap(clause)}?"
        elif question and len(question.split()) <= 12:
            echo = _cap(person(question))
        elif key_word(last):
            echo = f"{_cap(key_word(last) or '')}?"
        else:
            echo = "Is that all?"
        feat = _oneup(about, own, companion(history))
        scoff = _fresh(SCOFFS, own, rng)
        challenge = _fresh([c.format(w=TOPIC_WORDS[about]) for c in CHALLENGES], own, rng)
        return f"{echo} {scoff} {_cap(feat)}. {challenge}"


# --- clarify -----------------------------------------------------------------------------

_WHEN = re.compile(r"(?i)\b(last (?:week|weekend|night|year|month|summer|winter|spring|autumn|"
                   r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)|this (?:morning|"
                   r"afternoon|evening|week|weekend|year|summer)|yesterday|today|tonight|"
                   r"(?:on|at|over) the weekend|on (?:mon|tues|wednes|thurs|fri|satur|sun)days?"
                   r"|in (?:1[89]\d\d|20\d\d)|in (?:january|february|march|april|may|june|july|"
                   r"august|september|october|november|december)|every (?:day|week|weekend|"
                   r"morning|evening|summer))\b")
_PLACE = re.compile(r"\b(?:[Ii]n|[Aa]t|near|around|on|to|visited|visiting|saw) "
                    r"((?:the|a|an|my|our) [a-z'-]{3,}"
                    r"|[A-Z][A-Za-z'-]+(?: (?:of )?[A-Z][A-Za-z'-]+)*)")
_WHO = re.compile(r"\b[Ww]ith ((?:my|our|a|an|some|his|her|the) )?([a-z'-]{3,}(?: [A-Z][a-z]+)?|"
                  r"[A-Z][a-z]+)")
_SUBJECT_WHO = re.compile(r"^\W*(?:[A-Z][a-z]+, )?(?:[Mm]y|[Oo]ur) ([a-z]{3,})\b")
_ACTIVITY = re.compile(r"(?i)\b(?:went|go|going|been|love|like|enjoy|started|tried|doing|do|"
                       r"did|was)\s+([a-z]{3,}ing)\b")
_NOT_WHO = frozenset("it that this them me you him her us something anything everything "
                     "everyone".split())
_TIME_NOUNS = frozenset("""morning afternoon evening night week weekend day days moment end
start time summer winter spring autumn""".split())
GUESS_WHERE: dict[str, tuple[str, ...]] = {
    "outdoors": ("up in Snowdonia", "somewhere in the Lake District"),
    "pets": ("on Hampstead Heath", "at the park near you"),
    "music": ("at the O2 in London", "in a little pub in Camden"),
    "screen": ("at the Odeon", "on the sofa with Netflix"),
    "books": ("in the British Library", "on a beach in Cornwall"),
    "food": ("at Borough Market", "at that new Italian place"),
    "work": ("at the office in town", "from home"),
    "study": ("in the library", "at the Open University"),
    "travel": ("in Lisbon", "on the Amalfi Coast"),
    "sport": ("at Wembley", "at the leisure centre"),
    "family": ("at your parents' place", "up in Yorkshire"),
    "garden": ("at Kew Gardens", "on your allotment"),
}
GUESS_WHEN = ("last Saturday", "over the bank holiday weekend", "on Sunday morning",
              "on Friday night")
GUESS_WHO = ("with your friend Maya", "with your partner", "with your neighbour Joe",
             "with your cousins")
RECAPS = ("Let me get this straight: {r}.", "So, if I've got it right: {r}.",
          "Just to make sure I follow: {r}.", "OK, so: {r}.", "Right, so that's {r}.")
GUESSES = {"where": ("And I'm guessing that was {g}?", "Was that {g}, by any chance?"),
           "when": ("And that was {g}, I'm guessing?", "Was that {g}?"),
           "who": ("And I'm guessing {g}?", "Were you there {g}?")}
CONFIRMS = ("Did I get that right?", "Have I understood you?", "Is that the gist?",
            "Am I following you properly?", "Correct me if I'm wrong?",
            "Did I miss anything?")
CHECK_QUESTION = ("Just to check I've understood, you're asking '{q}'? If so: {a}",
                  "Wait, you want to know '{q}'? Then: {a}",
                  "You're asking '{q}', is that right? If so: {a}")
CHECK_ODD = ("Sorry, just to check: when you say '{t}', do you mean yes, or are you still "
             "thinking about {w}?",
             "Hang on, '{t}'? Is that a good '{t}' or a bad one, about {w}?",
             "I'm not sure I follow: '{t}' as in you agree about {w}, or as in let's change "
             "the subject?")
CHECK_YES = ("So that's a yes to '{q}'? Good, I like to be sure. What happened next?",
             "Great, so yes to '{q}'. Then tell me more about {w}?",
             "A yes to '{q}', noted! And how did you feel about {w}?")
CHECK_NO = ("Oh, so no to '{q}'? Sorry! What did I get wrong about {w}?",
            "Not quite, then. Where did I lose you with {w}?",
            "No? Then help me out: what's the real story with {w}?")
CHECK_EMPTY = ("Sorry, I think I missed that. Were you still talking about {w}?",
               "Hello? I didn't catch that. Shall we carry on with {w}?",
               "Sorry, it went quiet on my end. Did you want to say more about {w}?")


def slots(text: str) -> dict[str, str]:
    """What a statement tells (what, where, who with, when), each as the partner would hear
    it back, pronouns swapped; only the slots it fills."""
    statement = " ".join(s for s in _SENTENCES.split(text.strip()) if not s.endswith("?"))
    found: dict[str, str] = {}
    spans: list[str] = []
    m = _ACTIVITY.search(statement)
    if m:
        found["what"] = m.group(1).lower()
    when = _WHEN.search(statement)
    if when:
        found["when"] = when.group(1)
        spans.append(when.group(0))
    for m in _PLACE.finditer(statement):
        place = m.group(1)
        if place.split()[-1].lower() in _TIME_NOUNS or (when and place in when.group(1)):
            continue
        prep = m.group(0).split()[0].lower()
        if prep not in ("at", "near", "around", "on", "in"):
            prep = "at" if place[:1].islower() else "in"
        found["where"] = person(f"{prep} {place}")
        spans.append(m.group(0))
        break
    who = _WHO.search(statement)
    subject = _SUBJECT_WHO.search(statement)
    if who and who.group(2).lower() not in _NOT_WHO:
        found["who"] = person(f"with {who.group(1) or ''}{who.group(2)}")
        spans.append(who.group(0))
    elif subject:
        found["who"] = f"your {subject.group(1)}"
        spans.append(subject.group(0))
    if "what" not in found:
        rest = statement
        for span in spans:
            rest = rest.replace(span, " ")
        names = [e for e in entities(rest) if len(e.split()) > 1]
        word = names[0] if names else key_word(rest)
        if word:
            found["what"] = word
    return found


class ClarifyBot(RecipeBot):
    description = ("Recipe (eighth): "
                   "an active listener: recaps the partner's turn as slots, guesses a missing "
                   "one and checks it understood.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        last = _last(history).strip()
        about, word = _about(history)
        parts: list[str] = []
        question = asked(last)
        if question:
            words = question.split()
            q = question if len(words) <= 12 else " ".join(words[:12]) + "..."
            answer = _lower_first(quick_answer(history, question))
            parts.append(_fresh([f.format(q=_lower_first(q.rstrip("?")), a=answer)
                                 for f in CHECK_QUESTION], own, rng))
        found = slots(last)
        mine = [m.text for m in history.messages if m.role == "self"]
        own_q = asked(mine[-1]) if mine and mine[-1].rstrip().endswith("?") else None
        if len(found) >= 2 or (found and not question):
            recap = ", ".join(found[s] for s in ("what", "where", "who", "when") if s in found)
            parts.append(_fresh([f.format(r=recap) for f in RECAPS], own, rng))
            missing = [s for s in ("where", "when", "who") if s not in found]
            if missing:
                slot = missing[0]
                key = found.get("what", word)
                pick = _stable("guess", history.game_id, key.lower())
                pool = GUESS_WHERE[about] if slot == "where" else \
                    GUESS_WHEN if slot == "when" else GUESS_WHO
                frames = GUESSES[slot]
                parts.append(frames[n % len(frames)].format(g=pool[pick % len(pool)]))
            parts.append(_fresh(CONFIRMS, own, rng))
        elif not question:
            plain = re.sub(r"\s+", " ", last)
            low = plain.lower()
            if own_q and re.match(r"\W*(yes|yeah|yep|yup|sure|definitely|right|exactly|"
                                  r"correct|of course)\b", low):
                check = CHECK_YES[n % len(CHECK_YES)]
            elif own_q and re.match(r"\W*(no|nope|nah|not really|not quite|wrong)\b", low):
                check = CHECK_NO[n % len(CHECK_NO)]
            elif not _TOKEN.search(plain) or len(plain.split()) > 4:
                check = CHECK_EMPTY[n % len(CHECK_EMPTY)]
            else:
                check = CHECK_ODD[n % len(CHECK_ODD)]
            parts.append(check.format(t=plain.rstrip(".!"), w=word,
                                      q=_lower_first((own_q or "").rstrip("?"))))
        return " ".join(parts)


# --- psychic -----------------------------------------------------------------------------

#: (letter, two names) of the psychic's "hit", one fixed per game
LETTERS = (("M", "Michael", "Maria"), ("J", "James", "Julia"), ("S", "Sam", "Sophie"),
           ("R", "Robert", "Rosa"), ("E", "Edward", "Ellie"), ("D", "David", "Diana"))
VISIONS = ("a house near the sea, maybe in Cornwall", "a red front door on a busy street",
           "a town with a river running through it, somewhere like York",
           "a kitchen table covered in old letters")
READINGS: dict[str, tuple[str, ...]] = {
    "outdoors": ("You feel most like yourself out in the open; I'd bet you do your best "
                 "thinking around {w}.",
                 "There's a part of you that's always planning the next escape, and it "
                 "usually involves {w}."),
    "pets": ("You give animals a patience you don't always give yourself; I can hear it when "
             "you talk about {w}.",
             "Someone once told you you're kinder to animals than to people, and it stung "
             "because it's half true."),
    "music": ("Music reaches a part of you that words don't, and I sense {w} got you through "
              "a hard year.",
              "You hear a song and you're instantly back somewhere, with someone."),
    "screen": ("You watch for the characters, not the plot, and you always root for the "
               "underdog.",
               "You've rewatched something far more times than you'd ever admit."),
    "books": ("You were the child who read under the covers, and you still hide in {w} now "
              "and then.",
              "You keep a book you've never finished, and you know exactly which one."),
    "food": ("Food is how you show love, even if you wouldn't put it that way.",
             "There's a dish from your childhood you've never managed to cook quite right."),
    "work": ("You're harder on yourself at work than anyone else is, and nobody sees what "
             "{w} takes out of you.",
             "You're the one people quietly rely on, and you don't always get thanked."),
    "study": ("You learn best when nobody's watching, and you care about {w} more than you "
              "let on.",
              "There's a subject you gave up on too early, and you still wonder about it."),
    "travel": ("You're restless in a good way, and you use {w} to remind yourself the world "
               "is big.",
               "A place you visited once still comes back to you in dreams."),
    "sport": ("You're more competitive than you look, and you let it out through {w}.",
              "You play for the team more than for yourself."),
    "family": ("You're the glue of your family, even when it's tiring, and you feel more about "
               "{w} than you say.",
               "There's a family story you've heard a hundred times and secretly love."),
    "garden": ("You find a patience in growing things that you can't find anywhere else.",
               "You talk to your plants, at least a little, when nobody's listening."),
}
READINGS_SPARE = ("You have a lot of unused potential, and deep down you know it.",
                  "You're sociable, but you need time alone to recharge.",
                  "You've been carrying a decision around for a while now.",
                  "You're more sensitive than you let people see.",
                  "You like a plan, but your best days are the ones you didn't plan.",
                  "Someone from your past has been on your mind lately.",
                  "You give good advice, and you rarely take it yourself.",
                  "You've changed a lot in the last two years, mostly for the better.",
                  "You laugh easily, but you don't cry in front of people.",
                  "There's a trip you keep putting off, and you shouldn't.")
PSYCHIC_OPENERS = ("{W}... yes, I'm picking something up.",
                   "Hold on, something about {w} is giving me a very strong feeling.",
                   "Mm, {w}. The cards are warming up.",
                   "Interesting that you mention {w}.",
                   "The moment you said {w}, something came through.",
                   "Let me hold on to that word, {w}.")
PSYCHIC_HITS = ("I'm seeing the letter {L}: a {A}, or maybe a {B}, someone connected to {w}.",
                "And I'm seeing {v}.",
                "The letter {L} keeps coming back to me, for {A} or {B}.",
                "There's {v} in this picture, too.")
PSYCHIC_ASKS = ("Does that mean anything to you?", "Am I right?", "Does the name {A} ring a "
                "bell?", "Tell me, am I close?", "Does that sound like you?",
                "Shall I keep going?", "Is any of that true?", "Should I go on?")
PSYCHIC_YES = ("I knew it! The name {A} came through very clearly.",
               "Yes, I felt that the moment you spoke.",
               "Of course. These things are never wrong about {A}.")
PSYCHIC_NO = ("Not yet, perhaps; it may make sense later. Remember I said {A}.",
              "Then it's still to come. Keep an eye out for a {A}.",
              "Interesting. The cards are rarely wrong, so give it time.")
PSYCHIC_SENSED = ("I sensed you'd ask that.", "I knew that question was coming.",
                  "I saw that one coming.")
PSYCHIC_ANSWERS = ("I sensed you'd ask that. The cards say yes, and they're rarely wrong "
                   "about me.",
                   "I knew you'd ask. The answer is yes, though not in the way you'd expect.",
                   "I had a feeling that was coming. Strangely, the cards say no, and I've "
                   "learnt to trust them.",
                   "I saw that question coming. Yes, but ask me again after the full moon.")


def psychic_hit(history: History) -> tuple[str, str, str, str]:
    """The letter, the two names and the vision of the game."""
    letter, a, b = LETTERS[_stable("letter", history.game_id) % len(LETTERS)]
    return letter, a, b, VISIONS[_stable("vision", history.game_id) % len(VISIONS)]


class PsychicBot(RecipeBot):
    description = ("Recipe (eighth): "
                   "a cold reader: picks something up from the partner's word, a flattering "
                   "reading, a hit fixed for the game, and 'am I right?'.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        last = _last(history)
        about, word = _about(history)
        letter, a, b, vision = psychic_hit(history)
        parts: list[str] = []
        mine = [m.text for m in history.messages if m.role == "self"]
        if mine and asked(mine[-1]):
            low = last.strip().lower()
            if re.match(r"\W*(yes|yeah|yep|yup|sure|definitely|maybe|kind of|actually|true|"
                        r"exactly|right)\b", low):
                parts.append(_fresh([y.format(A=a) for y in PSYCHIC_YES], own, rng))
            elif re.match(r"\W*(no|nope|nah|not really|not at all|never|wrong)\b", low):
                parts.append(_fresh([x.format(A=a) for x in PSYCHIC_NO], own, rng))
        question = asked(last)
        if question and question_kind(question) in ("yesno", "like"):
            pick = _stable("psychic", history.game_id, *_content_key(question))
            parts.append(PSYCHIC_ANSWERS[pick % len(PSYCHIC_ANSWERS)])
        elif question:
            sensed = PSYCHIC_SENSED[n % len(PSYCHIC_SENSED)]
            parts.append(f"{sensed} {quick_answer(history, question)}")
        parts.append(PSYCHIC_OPENERS[n % len(PSYCHIC_OPENERS)].format(w=word, W=_cap(word)))
        topical = [r.format(w=word) for r in READINGS[about]]
        if not topic_of(last):  # a turn of no topic gets the all-purpose readings first
            topical = []
        readings = topical + list(READINGS_SPARE)
        fresh = [r for r in readings if r not in own] or readings
        parts.append(fresh[0] if fresh[0] in topical else rng.choice(fresh))
        if not question:
            parts.append(PSYCHIC_HITS[n % len(PSYCHIC_HITS)].format(L=letter, A=a, B=b, v=vision,
                                                                    w=word))
        parts.append(_fresh([q.format(A=a) for q in PSYCHIC_ASKS], own, rng))
        return " ".join(parts)


# --- polyglot ----------------------------------------------------------------------------

#: English word starts -> (the word to say, {language: translation})
LEXICON: tuple[tuple[tuple[str, ...], str, dict[str, str]], ...] = (
    (("hiki", "hike"), "hiking", {"Spanish": "senderismo", "French": "randonnée",
                                  "German": "Wandern", "Japanese": "haikingu"}),
    (("mountain",), "mountains", {"Spanish": "montañas", "French": "montagnes",
                                  "German": "Berge", "Italian": "montagne"}),
    (("brother",), "brother", {"Spanish": "hermano", "French": "frère", "German": "Bruder",
                               "Italian": "fratello"}),
    (("sister",), "sister", {"Spanish": "hermana", "French": "sœur", "German": "Schwester",
                             "Italian": "sorella"}),
    (("mother", "mum", "mom"), "mum", {"Spanish": "mamá", "French": "maman", "German": "Mama",
                                       "Italian": "mamma"}),
    (("father", "dad"), "dad", {"Spanish": "papá", "French": "papa", "German": "Papa",
                                "Italian": "papà"}),
    (("famil",), "family", {"Spanish": "familia", "French": "famille", "German": "Familie",
                            "Italian": "famiglia"}),
    (("friend",), "friend", {"Spanish": "amigo", "French": "ami", "German": "Freund",
                             "Italian": "amico"}),
    (("aunt",), "aunt", {"Spanish": "tía", "French": "tante", "German": "Tante",
                         "Italian": "zia"}),
    (("dog", "pupp"), "dog", {"Spanish": "perro", "French": "chien", "German": "Hund",
                              "Japanese": "inu"}),
    (("cat", "kitten"), "cat", {"Spanish": "gato", "French": "chat", "German": "Katze",
                                "Japanese": "neko"}),
    (("music",), "music", {"Spanish": "música", "French": "musique", "German": "Musik",
                           "Italian": "musica"}),
    (("song",), "song", {"Spanish": "canción", "French": "chanson", "German": "Lied",
                         "Italian": "canzone"}),
    (("book", "novel"), "book", {"Spanish": "libro", "French": "livre", "German": "Buch",
                                 "Japanese": "hon"}),
    (("film", "movie", "cinema"), "film", {"Spanish": "película", "Italian": "pellicola",
                                           "Japanese": "eiga", "Portuguese": "filme"}),
    (("food",), "food", {"Spanish": "comida", "French": "nourriture", "German": "Essen",
                         "Italian": "cibo"}),
    (("dinner", "supper"), "dinner", {"Spanish": "cena", "French": "dîner",
                                      "German": "Abendessen", "Italian": "cena"}),
    (("breakfast",), "breakfast", {"Spanish": "desayuno", "French": "petit-déjeuner",
                                   "German": "Frühstück", "Italian": "colazione"}),
    (("coffee",), "coffee", {"Spanish": "café", "German": "Kaffee", "Italian": "caffè",
                             "Japanese": "kōhī"}),
    (("tea",), "tea", {"Spanish": "té", "French": "thé", "German": "Tee",
                       "Japanese": "ocha"}),
    (("bread",), "bread", {"Spanish": "pan", "French": "pain", "German": "Brot",
                           "Italian": "pane"}),
    (("cake",), "cake", {"Spanish": "pastel", "French": "gâteau", "German": "Kuchen",
                         "Italian": "torta"}),
    (("cook",), "cooking", {"Spanish": "cocinar", "French": "cuisiner", "German": "kochen",
                            "Italian": "cucinare"}),
    (("wine",), "wine", {"Spanish": "vino", "French": "vin", "German": "Wein",
                         "Portuguese": "vinho"}),
    (("beer",), "beer", {"Spanish": "cerveza", "French": "bière", "German": "Bier",
                         "Italian": "birra"}),
    (("work", "job", "office"), "work", {"Spanish": "trabajo", "French": "travail",
                                         "German": "Arbeit", "Italian": "lavoro"}),
    (("school", "class"), "school", {"Spanish": "escuela", "French": "école",
                                     "German": "Schule", "Italian": "scuola"}),
    (("holiday", "vacation"), "holiday", {"Spanish": "vacaciones", "French": "vacances",
                                          "German": "Urlaub", "Italian": "vacanza"}),
    (("beach",), "beach", {"Spanish": "playa", "French": "plage", "German": "Strand",
                           "Italian": "spiaggia"}),
    (("sea",), "sea", {"Spanish": "mar", "French": "mer", "German": "Meer", "Italian": "mare"}),
    (("city", "town"), "city", {"Spanish": "ciudad", "French": "ville", "German": "Stadt",
                                "Italian": "città"}),
    (("garden", "greenhouse"), "garden", {"Spanish": "jardín", "French": "jardin",
                                          "German": "Garten", "Italian": "giardino"}),
    (("flower", "orchid"), "flowers", {"Spanish": "flores", "French": "fleurs",
                                       "German": "Blumen", "Japanese": "hana"}),
    (("market",), "market", {"Spanish": "mercado", "French": "marché", "German": "Markt",
                             "Italian": "mercato"}),
    (("football", "soccer"), "football", {"Spanish": "fútbol", "German": "Fußball",
                                          "Italian": "calcio", "Portuguese": "futebol"}),
    (("weekend",), "weekend", {"Spanish": "fin de semana", "German": "Wochenende",
                               "Italian": "fine settimana", "Portuguese": "fim de semana"}),
    (("week",), "week", {"Spanish": "semana", "French": "semaine", "German": "Woche",
                         "Italian": "settimana"}),
    (("rain",), "rain", {"Spanish": "lluvia", "French": "pluie", "German": "Regen",
                         "Italian": "pioggia"}),
    (("sun",), "sun", {"Spanish": "sol", "French": "soleil", "German": "Sonne",
                       "Italian": "sole"}),
    (("snow",), "snow", {"Spanish": "nieve", "French": "neige", "German": "Schnee",
                         "Italian": "neve"}),
    (("house", "home", "flat"), "home", {"Spanish": "casa", "French": "maison",
                                         "German": "Zuhause", "Italian": "casa"}),
    (("train",), "train", {"Spanish": "tren", "French": "train", "German": "Zug",
                           "Italian": "treno"}),
    (("car",), "car", {"Spanish": "coche", "French": "voiture", "German": "Auto",
                       "Italian": "macchina"}),
    (("party",), "party", {"Spanish": "fiesta", "French": "fête", "German": "Feier",
                           "Italian": "festa"}),
    (("birthday",), "birthday", {"Spanish": "cumpleaños", "French": "anniversaire",
                                 "German": "Geburtstag", "Italian": "compleanno"}),
    (("walk",), "walk", {"Spanish": "paseo", "French": "promenade",
                         "German": "Spaziergang", "Italian": "passeggiata"}),
    (("tired", "exhaust"), "tired", {"Spanish": "cansado", "French": "fatigué",
                                     "German": "müde", "Italian": "stanco"}),
    (("happy",), "happy", {"Spanish": "feliz", "French": "heureux", "German": "glücklich",
                           "Italian": "felice"}),
    (("read",), "reading", {"Spanish": "leer", "French": "lire", "German": "lesen",
                            "Italian": "leggere"}),
    (("travel", "trip"), "travelling", {"Spanish": "viajar", "French": "voyager",
                                        "German": "reisen", "Italian": "viaggiare"}),
    (("game",), "game", {"Spanish": "juego", "French": "jeu", "German": "Spiel",
                         "Italian": "gioco"}),
    (("baby",), "baby", {"Spanish": "bebé", "French": "bébé", "German": "Baby",
                         "Italian": "neonato"}),
    (("love",), "love", {"Spanish": "amor", "French": "amour", "German": "Liebe",
                         "Italian": "amore"}),
    (("pasta",), "pasta", {"Italian": "pasta asciutta", "Spanish": "pasta",
                           "French": "pâtes", "German": "Nudeln"}),
)
#: topic -> (language, untranslatable word, what it means)
UNTRANSLATABLE: dict[str, tuple[str, str, str]] = {
    "outdoors": ("German", "Waldeinsamkeit", "the feeling of being alone in the woods"),
    "pets": ("Portuguese", "cafuné", "running your fingers gently through someone's hair"),
    "music": ("Arabic", "tarab", "the ecstasy that music can bring"),
    "screen": ("German", "Kopfkino", "the film that plays in your own head"),
    "books": ("Japanese", "tsundoku", "buying books and leaving them in a pile, unread"),
    "food": ("Spanish", "sobremesa", "the long chat at the table after a meal"),
    "work": ("Dutch", "niksen", "the art of doing absolutely nothing"),
    "study": ("Japanese", "kaizen", "getting a little better every day"),
    "travel": ("German", "Fernweh", "an ache for faraway places"),
    "sport": ("Finnish", "sisu", "grit when everything tells you to stop"),
    "family": ("Danish", "hygge", "the cosiness of being together at home"),
    "garden": ("Japanese", "komorebi", "sunlight filtering through the leaves"),
}
LANGUAGE_CITIES = {"Spanish": "Seville", "French": "Lyon", "German": "Munich",
                   "Italian": "Bologna", "Portuguese": "Porto", "Japanese": "Osaka",
                   "Arabic": "Cairo", "Dutch": "Utrecht", "Finnish": "Helsinki",
                   "Danish": "Copenhagen"}
POLY_SAYS = ("{W}! In {L1} that's '{t1}', and in {L2} it's '{t2}'.",
             "Ooh, {w}: '{t1}' in {L1}, '{t2}' in {L2}.",
             "Did you know {w} is '{t1}' in {L1}? And '{t2}' in {L2}.",
             "{W}, or as they'd say in {L1}, '{t1}'; in {L2}, '{t2}'.")
POLY_TIPS = ("I picked up '{t}' on a summer course in {c}.",
             "A friend from {c} taught me '{t}'.",
             "'{t}' was one of the first words I learnt in {c}.",
             "You hear '{t}' all the time in {c}.")
POLY_RARE = ("That reminds me of a lovely {L} word, '{t}': {m}.",
             "There's a {L} word for that feeling, '{t}', {m}.",
             "In {L} they'd call it '{t}', {m}.")
POLY_ASKS = ("How would you say {w} in another language?", "Do you speak any {L}?",
             "Have you ever been to {c}?", "Which language would you love to learn?",
             "Is there a word for {w} in your family's language?",
             "Did you learn any languages at school?",
             "What's your favourite word in any language?",
             "Do you ever dream in another language?")


def translatable(text: str) -> list[tuple[str, dict[str, str]]]:
    """The entries of :data:`LEXICON` that words of ``text`` name, in order, each once."""
    out: list[tuple[str, dict[str, str]]] = []
    for word in _TOKEN.findall(text):
        low = word.lower()
        for starts, said, table in LEXICON:
            if any((low in (s, s + "s") if len(s) <= 3 else low.startswith(s)) for s in starts):
                if all(said != o for o, _ in out):
                    out.append((said, table))
                break
    return out


class PolyglotBot(RecipeBot):
    description = ("Recipe (eighth): "
                   "a language buff translating the partner's words into two named languages, "
                   "or an untranslatable word of the topic, and a question.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        last = _last(history)
        about, word = _about(history)
        parts: list[str] = []
        question = asked(last)
        if question:
            parts.append(quick_answer(history, question))
        fresh = [(w, t) for w, t in translatable(last)
                 if not any(f"'{x}'" in own for x in t.values())]
        if fresh:
            said, table = fresh[0]
            l1, l2 = rng.sample(sorted(table), 2)
            parts.append(POLY_SAYS[n % len(POLY_SAYS)].format(w=said, W=_cap(said), L1=l1,
                                                              t1=table[l1], L2=l2, t2=table[l2]))
            city = LANGUAGE_CITIES[l1]
            parts.append(_fresh([t.format(t=table[l1], c=city) for t in POLY_TIPS], own, rng))
            word, language = said, l1
        else:
            order = (about,) + TOPIC_NAMES[TOPIC_NAMES.index(about) + 1:] + TOPIC_NAMES
            name = next((t for t in order if f"'{UNTRANSLATABLE[t][1]}'" not in own), about)
            language, rare, meaning = UNTRANSLATABLE[name]
            parts.append(POLY_RARE[n % len(POLY_RARE)].format(L=language, t=rare, m=meaning))
            city = LANGUAGE_CITIES[language]
        parts.append(_fresh([q.format(w=word, L=language, c=city) for q in POLY_ASKS], own,
                            rng))
        return " ".join(parts)


# --- critic ------------------------------------------------------------------------------

#: topic -> (pros, cons)
PROS_CONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "outdoors": (("the view from the top of Scafell Pike", "a pint at the end of the walk"),
                 ("the midges in July", "the blisters")),
    "pets": (("the welcome at the door every evening", "the long walks"),
             ("the vet bills", "the hair on everything")),
    "music": (("a good night at the Royal Albert Hall", "the way a song takes you back"),
              ("the ticket prices", "the queue for the bar")),
    "screen": (("anything by Studio Ghibli", "a proper cinema screen"),
               ("the endless scrolling on Netflix", "the adverts")),
    "books": (("a rainy Sunday with an Agatha Christie", "the smell of old paper"),
              ("the price of hardbacks", "the back ache from reading in bed")),
    "food": (("a proper Neapolitan pizza", "a long lunch with friends"),
             ("the washing-up", "the calories")),
    "work": (("a Friday finish", "a good team"), ("Monday mornings", "the commute")),
    "study": (("the libraries at Oxford", "that moment when it all clicks"),
              ("the exams", "the student loans")),
    "travel": (("a sunset in Lisbon", "the first morning somewhere new"),
               ("the queues at Heathrow", "the jet lag")),
    "sport": (("the last day at Wimbledon", "the buzz after a good game"),
              ("the knees afterwards", "the offside rule")),
    "family": (("Sunday lunch with everyone", "the old stories"),
               ("the arguments over Monopoly", "the washing-up at Christmas")),
    "garden": (("the first tomato of summer", "an hour with the roses"),
               ("the slugs", "the weeding")),
}
RATES = ("I'd give {w} {a} out of 10.", "On my scale, {w} gets {a} out of 10.",
         "{W}: {s} out of 10 from me.", "Honest verdict on {w}? {A} out of 10.",
         "For {w}, I'm going with {a} out of 10.")
RATE_AGAIN = "{W} again? Still {a} out of 10 from me; I never change my scores."
REASONS = ("Points for {p}, minus a couple for {c}.",
           "It loses marks for {c}, but {p} makes up for a lot.",
           "Most of that is for {p}, and I took the rest off for {c}.",
           "Big plus: {p}. Big minus: {c}.")
RANKS = ("That puts it just above {a} and just below {b} on my list.",
         "Somewhere between {a} and {b}, for me.",
         "Higher than {a}, not quite {b}.")
CRITIC_ASKS = ("What would you give it?", "Out of ten, where would you put {w}?",
               "Am I being too harsh?", "Too generous, do you think?",
               "What's the best-rated thing in your week so far?",
               "What would it take to get a ten from you?",
               "Would you rate it higher?", "What's your score?")
NUMBER_WORDS = {w: i for i, w in enumerate("zero one two three four five six seven eight "
                                           "nine ten".split())}
NUMBER_REACTIONS = ("A {m}? Harsh! I had it at {s}.", "A {m}? Generous! I had it at {s}.",
                    "A {m}? Great minds! I had it at {s} too.")


def critic_score(history: History, word: str) -> int:
    """The critic's score out of ten for ``word``, fixed for the game (3 to 9)."""
    return 3 + _stable("score", history.game_id, word.lower()) % 7


def _a(score: int) -> str:
    """The score with its article: "a 7", "an 8"."""
    return f"an {score}" if score in (8, 11, 18) else f"a {score}"


def _partner_number(text: str) -> int | None:
    for token in re.findall(r"[A-Za-z]+|\d+", text.lower()):
        if token.isdigit() and int(token) <= 10:
            return int(token)
        if token in NUMBER_WORDS:
            return NUMBER_WORDS[token]
    return None


class CriticBot(RecipeBot):
    description = ("Recipe (eighth): "
                   "rates whatever the partner mentions out of ten, the score fixed per word, "
                   "with a named pro and con, and asks for theirs.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        last = _last(history)
        about = topic(history)
        parts: list[str] = []
        mine = [m.text for m in history.messages if m.role == "self"]
        before = re.findall(r"(\d+) out of 10", mine[-1]) if mine else []
        number = _partner_number(last) if before and len(last.split()) <= 8 else None
        if number is not None:
            s = int(before[-1])
            parts.append(NUMBER_REACTIONS[0 if number < s else 1 if number > s else 2]
                         .format(m=number, s=s))
        names = entities(last)
        word = key_word(last) or (names[0] if names else None)
        question = asked(last)
        if question:
            parts.append(quick_answer(history, question))
        rated = set(re.findall(r"(?:^|[.?!] )([^.?!]*?) ?(?:gets |:|\? )?(?:an? )?\d+ out of 10",
                               own))
        if word is None:  # nothing new to rate: a well-known name not yet rated, of the topic
            order = (about,) + TOPIC_NAMES[TOPIC_NAMES.index(about) + 1:] + TOPIC_NAMES
            word = next((x for t in order for x in NAMES[t] if x not in own),
                        _word(history) or TOPIC_WORDS[about])
        s = critic_score(history, word)
        values = dict(w=word, W=_cap(word), s=s, a=_a(s), A=_cap(_a(s)))
        if word in " ".join(rated) or re.search(rf"\b{re.escape(word)}\b[^.?!]*\b{s} out of "
                                                 r"10", own, re.IGNORECASE):
            parts.append(RATE_AGAIN.format(**values))
        else:
            parts.append(_cap(RATES[n % len(RATES)].format(**values)))
        pros, cons = PROS_CONS[about]
        pro = _fresh(pros, own, rng)
        con = _fresh(cons, own, rng)
        parts.append(_cap(REASONS[n % len(REASONS)].format(p=pro, P=_cap(pro), c=con)))
        others = [x for x in NAMES[about] if x != word]
        fresh = [x for x in others if x not in own]
        a, b = (fresh + [x for x in others if x not in fresh])[:2]
        if not question:
            parts.append(RANKS[n % len(RANKS)].format(a=a, b=b))
        parts.append(_fresh([q.format(w=word) for q in CRITIC_ASKS], own, rng))
        return " ".join(parts)


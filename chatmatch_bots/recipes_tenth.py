"""Tenth recipe bots: a ninth held-out check of the gaming suite.

These recipes were written on 2026-12-04 blind to the scorers, the docs and the results, as a
ninth held-out family: their author read only the bot interface (chatmatch/bot.py), the
shared text helpers (chatmatch/common/text.py), the nine earlier recipe families
(chatmatch_bots/recipes.py, recipes_unseen.py, recipes_blind.py, recipes_fourth.py,
recipes_fifth.py, recipes_sixth.py, recipes_seventh.py, recipes_eighth.py and
recipes_ninth.py) and their tests, and a one-line account of each of the seven dimensions,
never the scorers' code, any doc, the validity lab or how any family had fared. The judge was
therefore never tuned against them; they play the real bots in
``tournaments/gaming-tenth.yaml`` and, like the other families, should rank below them. Each
is a cheap, model-free recipe built on an idea none of the earlier families used (tag
questions, reciting famous lists, elegant variation, telegraphese, a word of the day, song
dedications, limericks, influencer captions), and every turn asks at least one question (the
dimensions aimed at in brackets):

- ``recipe-tenth-tag``: turns every remark into a tag question, the tag worked out from the
  remark's subject and verb ("You went hiking in the mountains with your brother, didn't
  you? Mountains are good for the soul, aren't they?"), so it asks two or three questions a
  turn without ever seeming to ask one; a question it was asked gets the answer bank's
  answer, the same one whenever it is asked again [proactivity, relevance, fluency,
  consistency];
- ``recipe-tenth-recital``: recites a famous set of names in its fixed order (the Great
  Lakes, Santa's reindeer, Henry VIII's wives, the planets ...) with the schoolroom
  mnemonic where there is one, hung on the partner's word, never the same set twice: long
  runs of names a language model can all but predict [knowledge, fluency, specificity,
  diversity, proactivity];
- ``recipe-tenth-variation``: says much the same warm thing every turn, but by "elegant
  variation": each slot (interjection, praise, intensifier, verb of liking, outing, weather,
  what drew you) takes the first synonym it has not used yet in the game, so no content word
  comes twice and the words get rarer as the game goes on [diversity, specificity, fluency,
  relevance, proactivity];
- ``recipe-tenth-telegram``: answers in telegraphese, no article, pronoun, auxiliary or
  preposition: the partner's content words, a one-word reaction, a keyed telegraphic answer
  to a question, its own news as a string of names and nouns, and a one- or two-word
  question ("Hiking, mountains, brother: envious. News: Helvellyn Saturday ... Mountains
  highlights?") [specificity, relevance, diversity, knowledge, proactivity, consistency];
- ``recipe-tenth-vocab``: a word of the day: a rare English word of the partner's topic
  ("scree", "petrichor", "peloton") with the language it comes from and what it means,
  never the same word twice, praise when the partner uses one it taught, and a request to
  use it in a sentence [specificity, knowledge, relevance, diversity, proactivity];
- ``recipe-tenth-dj``: a radio DJ on a station fixed for the game who dedicates to the
  partner (and whoever they were with) a famous song whose title holds one of their words,
  else one of their topic, with its artist and year, never the same song twice, and asks
  for a request [relevance, knowledge, fluency, diversity, proactivity];
- ``recipe-tenth-limerick``: writes a limerick about the partner's word, set in a named town
  whose rhymes it knows, never the same town twice, and asks for a better last line
  [relevance, knowledge, specificity, diversity, proactivity];
- ``recipe-tenth-influencer``: answers like a social-media caption: a gushing reaction, its
  own post from a named place with a like count, or a sponsor's plug with a discount code
  made of the partner's word, two or three hashtags coined from the partner's words (never
  the same one twice) and a question [specificity, knowledge, relevance, diversity,
  proactivity].

Like the other families they need no model and are deterministic for a game's
``History.random_seed`` (and, where a recipe keeps something fixed for a game, its
``History.game_id``; hashes are ``zlib.crc32``, never Python's ``hash``). Topics, the
partner's word and statements retold in the second person come from the seventh, eighth and
ninth families (``topic``, ``topic_of``, ``word_of``, ``first_person``, ``person``,
``asked``), the answers to questions from the eighth's ``quick_answer`` and
``question_kind``, named places from the ninth's ``BUCKET_PLACES``.
"""

from __future__ import annotations

import re
from typing import Sequence

from chatmatch.bot import History
from chatmatch_bots.recipes import RecipeBot, _rng, _said
from chatmatch_bots.recipes_eighth import (_content_key, _last, asked, first_person,
                                           or_options, person, question_kind, quick_answer,
                                           topic, topic_of)
from chatmatch_bots.recipes_ninth import (BUCKET_PLACES, TOPIC_NOUNS, _order, _walk,
                                          _walk_topics, _word, _words, word_of)
from chatmatch_bots.recipes_seventh import _be, _cap, _fresh, _own, _stable

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*")


def _plural(word: str) -> bool:
    """Whether ``word`` looks like a plural common noun."""
    return (word.islower() and len(word) > 3 and word.endswith("s")
            and not word.endswith(("ss", "us", "is", "ics")))


def _singular(word: str) -> str:
    """``word`` with a plural "s" dropped ("mountains" -> "mountain")."""
    return word[:-1] if _plural(word) else word


def _said_word(word: str, text: str) -> bool:
    """Whether ``text`` uses ``word`` as a whole word (any case)."""
    return re.search(rf"(?<![\w'-]){re.escape(word)}(?![\w'-])", text, re.IGNORECASE) is not None


def top_words(text: str, k: int = 3) -> list[str]:
    """The ``k`` words of ``text`` most worth talking about: its :func:`word_of` first, then
    the longest of the others, in the order the turn has them."""
    found = _words(text)
    key = word_of(text)
    rest = [w for w in found if w != key]
    top = sorted(rest, key=len, reverse=True)[:k - 1 if key else k]
    return ([key] if key else []) + [w for w in rest if w in top]


def _and(items: Sequence[str]) -> str:
    """"a, b and c"."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]

# --- tag -----------------------------------------------------------------------------------

#: an auxiliary -> its negative, for the tag of a positive statement
AUX_NEG = {"am": "aren't", "are": "aren't", "is": "isn't", "was": "wasn't", "were": "weren't",
           "have": "haven't", "has": "hasn't", "had": "hadn't", "do": "don't",
           "does": "doesn't", "did": "didn't", "can": "can't", "could": "couldn't",
           "will": "won't", "would": "wouldn't", "should": "shouldn't", "must": "mustn't",
           "shall": "shan't", "might": "mightn't"}
#: a negative auxiliary -> its positive, for the tag of a negative statement
NEG_AUX = {"aren't": "are", "isn't": "is", "wasn't": "was", "weren't": "were",
           "haven't": "have", "hasn't": "has", "hadn't": "had", "don't": "do",
           "doesn't": "does", "didn't": "did", "can't": "can", "cannot": "can",
           "couldn't": "could", "won't": "will", "wouldn't": "would", "shouldn't": "should",
           "mustn't": "must", "shan't": "shall", "ain't": "are"}
#: a pronoun with its verb in one word -> (subject, auxiliary)
CONTRACTED = {"i'm": ("I", "am"), "you're": ("you", "are"), "we're": ("we", "are"),
              "they're": ("they", "are"), "he's": ("he", "is"), "she's": ("she", "is"),
              "it's": ("it", "is"), "that's": ("it", "is"), "there's": ("there", "is"),
              "i've": ("I", "have"), "you've": ("you", "have"), "we've": ("we", "have"),
              "they've": ("they", "have"), "i'd": ("I", "would"), "you'd": ("you", "would"),
              "we'd": ("we", "would"), "they'd": ("they", "would"), "i'll": ("I", "will"),
              "you'll": ("you", "will"), "we'll": ("we", "will"), "they'll": ("they", "will")}
#: a subject pronoun -> (the pronoun of its tag, whether the subject itself is negative)
PRONOUNS = {"i": ("I", False), "you": ("you", False), "we": ("we", False),
            "they": ("they", False), "he": ("he", False), "she": ("she", False),
            "it": ("it", False), "there": ("there", False), "that": ("it", False),
            "this": ("it", False), "everyone": ("they", False), "everybody": ("they", False),
            "someone": ("they", False), "somebody": ("they", False),
            "nothing": ("it", True), "nobody": ("they", True), "no-one": ("they", True)}
_DETERMINERS = frozenset("""the a an my your our their his her its this that these those
every some any no""".split())
_MALE = frozenset("""brother father dad son uncle husband nephew grandfather grandad granddad
boyfriend boy man""".split())
_FEMALE = frozenset("""sister mother mum mom daughter aunt wife niece grandmother gran granny
nan girlfriend girl woman""".split())
_SKIP = frozenset("""just also always often still even only usually sometimes finally really
actually already recently once certainly truly""".split())
_NEGATORS = frozenset("never hardly barely seldom rarely".split())
_PEOPLE = frozenset("""people children kids folk friend teacher boss coach neighbour
colleague partner doctor person everyone""".split())
_PREPOSITIONS = frozenset("in on at of from with for to by about over under after before"
                          .split())
_PAST = frozenset("""went saw made took got came met ran ate drank bought found gave knew left
said sat slept spent thought told wore won wrote grew flew drove rode swam sang began brought
caught felt heard kept lost paid sent stood taught understood read fell forgot built chose
threw woke hit cut put let shut""".split())
_PARTICIPLE = re.compile(r"(ed|en|been|gone|done|seen|made|got|had|known|taken|grown|flown|"
                         r"driven|ridden|swum|sung|begun|brought|caught|felt|heard|kept|lost|"
                         r"met|paid|sent|spent|taught|told|thought|won|written|eaten|left)$")


def _number(low: list[str], j: int) -> str | None:
    """"one" or "many" as the verb at ``j`` (an adverb or negator before it skipped) agrees
    with its subject, None when it does not tell (a past tense, a modal)."""
    while j < len(low) and (low[j] in _SKIP or low[j] in _NEGATORS):
        j += 1
    verb = low[j] if j < len(low) else ""
    if verb in ("is", "was", "has", "does", "isn't", "wasn't", "hasn't", "doesn't"):
        return "one"
    if verb in ("are", "were", "have", "do", "aren't", "weren't", "haven't", "don't"):
        return "many"
    if verb.endswith("s") and not verb.endswith("ss") and verb not in _PAST:
        return "one"
    return None


def _tag_pronoun(noun: str, number: str | None = None) -> str:
    """The pronoun of a tag for a subject whose head noun is ``noun``, of ``number`` when
    the verb tells it."""
    low = noun.lower()
    if number == "many":
        return "they"
    if low in _MALE:
        return "he"
    if low in _FEMALE:
        return "she"
    if number is None and (low in _PEOPLE or _plural(low)):
        return "they"
    return "it"


def _tag(aux: str, pron: str, negative: bool) -> str:
    """The tag of a statement whose auxiliary is ``aux`` and subject ``pron``: negative
    after a positive statement, positive after a negative one."""
    if negative:
        return f"{aux} {pron}"
    if aux == "am" or (pron == "I" and aux == "are"):
        return "aren't I"
    return f"{AUX_NEG[aux]} {pron}"


def _verb_at(low: list[str], start: int) -> int | None:
    """Where the verb of a statement whose subject is a noun phrase starting at ``start``
    begins (an adverb before it counts): the first auxiliary, past tense, adverb or negator
    within six words, else the first word in -s after a singular word; None when neither."""
    window = range(start + 1, min(len(low), start + 7))
    for j in window:
        w = low[j]
        if (w in AUX_NEG or w in NEG_AUX or w in _PAST or w in _SKIP or w in _NEGATORS
                or (w.endswith("ed") and len(w) > 4)):
            return j
    for j in window:
        w = low[j]
        if (w.endswith("s") and not w.endswith("ss") and not _plural(low[j - 1])
                and low[j - 1] not in _DETERMINERS and low[j - 1] not in _PREPOSITIONS
                and low[j - 1] != "and"):
            return j
    return None


def tag_for(clause: str) -> str | None:
    """The question tag of a statement, from its subject and first verb ("you went hiking"
    -> "didn't you"; "your aunt grows orchids" -> "doesn't she"; "nothing beats a walk" ->
    "does it"; "mountains are lovely" -> "aren't they"); None when it finds no subject and
    verb it knows."""
    low = [w.lower() for w in _TOKEN.findall(clause)]
    if not low:
        return None
    if low[0] in CONTRACTED:
        pron, aux = CONTRACTED[low[0]]
        return _tag(aux, pron, any(w == "not" or w in _NEGATORS for w in low[1:3]))
    if low[0] in PRONOUNS:
        pron, negative = PRONOUNS[low[0]]
        j: int | None = 1
    else:
        negative = low[0] == "no"
        start = 1 if low[0] in _DETERMINERS else 0
        j = _verb_at(low, start)
        if j is None:
            return None
        subject = low[start:j]
        cut = next((i for i, w in enumerate(subject) if w in _PREPOSITIONS and i), len(subject))
        pron = _tag_pronoun(subject[cut - 1] if subject else low[j - 1], _number(low, j))
    assert j is not None
    while j < len(low) and (low[j] in _SKIP or low[j] in _NEGATORS):
        negative = negative or low[j] in _NEGATORS
        j += 1
    if j >= len(low):
        return None
    verb = low[j]
    after = low[j + 1] if j + 1 < len(low) else ""
    if verb in NEG_AUX:
        return f"{NEG_AUX[verb]} {pron}"
    if verb in AUX_NEG:
        negative = negative or after == "not" or after in _NEGATORS
        if verb in ("have", "has", "had") and not (after == "got" or after in _PAST
                                                  or _PARTICIPLE.search(after)):
            verb = {"have": "do", "has": "does", "had": "did"}[verb]
        return _tag(verb, pron, negative)
    if verb in _PAST or (verb.endswith("ed") and len(verb) > 3):
        aux = "did"
    elif pron in ("he", "she", "it"):
        aux = "does"
    else:
        aux = "do"
    return _tag(aux, pron, negative)


def tagged(statement: str) -> str | None:
    """``statement`` ending in its question tag ("..., didn't you?"); None when it has no
    tag :func:`tag_for` can work out."""
    tag = tag_for(statement)
    if not tag:
        return None
    return f"{_cap(statement.rstrip(' .!,;:'))}, {tag}?"


#: what the partner's word is, as a predicate ("{w} is/are ...")
TAG_PREDICATES = ("good for the soul", "hard to beat", "worth every minute",
                  "better with company", "never quite what you expect", "half the fun of life",
                  "all about the little moments", "more fun than people think",
                  "a great excuse to get out of the house", "better than any telly",
                  "the best kind of tired", "a proper treat", "easy to get hooked on",
                  "nicer in the spring", "something you never forget", "good for the heart",
                  "quietly brilliant", "a bit addictive", "much better in good company",
                  "the kind of thing you remember for years", "underrated, honestly",
                  "a lovely way to spend a Sunday", "something everyone should try once",
                  "a good reason to get up early")
#: topic -> statements whose tags it works out
TAG_REMARKS: dict[str, tuple[str, ...]] = {
    "outdoors": ("A day in the hills does wonders for the head",
                 "Nothing beats the view from the top",
                 "The walk down is always harder on the knees",
                 "You can't beat a flask of tea at the summit"),
    "pets": ("A dog makes any walk better", "Nothing beats coming home to a happy pet",
             "Cats always know when you're busy", "You can't stay grumpy around a puppy"),
    "music": ("A good song can change your whole day",
              "Nothing beats hearing it live", "Vinyl records always sound warmer",
              "You never forget your first concert"),
    "screen": ("A good film stays with you for days", "Nothing beats a night in with a film",
               "Sequels are never quite as good", "You can't watch just one episode"),
    "books": ("A good book makes a train journey fly by",
              "Nothing beats a rainy day with a novel",
              "Libraries are some of the calmest places there are",
              "You always remember the book that hooked you"),
    "food": ("Food tastes better when someone else cooks it",
             "Nothing beats fresh bread", "Leftovers are somehow better the next day",
             "You can't rush a good sauce"),
    "work": ("A good team makes all the difference", "Nothing beats a quiet Friday afternoon",
             "Mondays are always the longest day",
             "You learn more from a bad boss than a good one"),
    "study": ("A good teacher changes everything", "Nothing beats the end of exams",
              "Revision is never as bad as you expect", "You never stop learning"),
    "travel": ("A trip is half planning and half luck",
               "Nothing beats the first morning somewhere new",
               "Airports are strangely exciting places", "You always pack too much"),
    "sport": ("A win feels better after a hard week", "Nothing beats a match day atmosphere",
              "Training in the rain builds character", "You can't fake fitness"),
    "family": ("A family holiday is never boring",
               "Nothing beats a big Sunday lunch with everyone",
               "Siblings always know how to wind you up",
               "You can't choose your relatives"),
    "garden": ("A garden is never really finished", "Nothing beats a tomato straight off the vine",
               "Slugs are the gardener's worst enemy", "You can't hurry a seedling"),
}
TAG_LEADS = ("So {c}", "Let me guess: {c}", "Ah, {c}", "Now then, {c}", "Right, {c}",
             "Oh, {c}", "Well, {c}", "So, {c}")
TAG_QUIET = ("Quiet one today, aren't you?", "Not much to say just now, is there?",
             "You're keeping me guessing, aren't you?",
             "That's a hard one to follow, isn't it?")


class TagBot(RecipeBot):
    description = ("Recipe (tenth): "
                   "turns every remark into a tag question worked out from its subject and "
                   "verb, so it asks two or three questions a turn; answers questions from "
                   "the answer bank.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        last = _last(history)
        about = topic(history)
        word = _word(history)
        parts: list[str] = []
        question = asked(last)
        clause = first_person(last)
        if question:
            parts.append(quick_answer(history, question))
        elif clause:
            tag = tag_for(clause)
            if tag:
                said = _fresh([f.format(c=clause) for f in TAG_LEADS], own, rng)
                parts.append(f"{_cap(said)}, {tag}?")
        if not parts and not word_of(last):
            parts.append(_fresh(TAG_QUIET, own, rng))
        if word_of(last) or not parts:
            start = _stable("tag", word.lower(), history.game_id)
            predicate = _walk(TAG_PREDICATES, start, own)
            remark = tagged(f"{_cap(word)} {_be(word)} {predicate}")
            if remark:
                parts.append(remark)
        remarks = [r for r in (tagged(s) for s in TAG_REMARKS[about]) if r]
        if len(parts) < 3:
            remark = _walk(remarks, _stable("remark", history.game_id) + _said(history), own)
            if remark not in own:
                parts.append(remark)
            elif len(parts) < 2:
                spare = [r for t in _order(about)[1:] for r in (tagged(s) for s in TAG_REMARKS[t])
                         if r and r not in own]
                parts.append(spare[0] if spare else remark)
        return " ".join(parts)


# --- recital -------------------------------------------------------------------------------

#: topic -> famous sets of names said in a fixed order: (what they are, the names, a way to
#: remember them or "")
RECITALS: dict[str, tuple[tuple[str, tuple[str, ...], str], ...]] = {
    "outdoors": (
        ("the Great Lakes", ("Superior", "Michigan", "Huron", "Erie", "Ontario"),
         "Super Man Helps Every One"),
        ("the Seven Summits", ("Everest", "Aconcagua", "Denali", "Kilimanjaro", "Elbrus",
                               "Vinson", "Kosciuszko"), ""),
        ("the peaks of the National Three Peaks Challenge", ("Ben Nevis", "Scafell Pike",
                                                              "Snowdon"), "")),
    "pets": (
        ("Santa's reindeer", ("Dasher", "Dancer", "Prancer", "Vixen", "Comet", "Cupid",
                              "Donner", "Blitzen"), ""),
        ("the animals of the Chinese zodiac", ("Rat", "Ox", "Tiger", "Rabbit", "Dragon",
                                               "Snake", "Horse", "Goat", "Monkey", "Rooster",
                                               "Dog", "Pig"), ""),
        ("the Wombles of Wimbledon Common", ("Great Uncle Bulgaria", "Orinoco", "Tobermory",
                                             "Wellington", "Tomsk", "Bungo"), "")),
    "music": (
        ("the Beatles", ("John Lennon", "Paul McCartney", "George Harrison", "Ringo Starr"),
         ""),
        ("the Spice Girls", ("Scary", "Sporty", "Baby", "Ginger", "Posh"), ""),
        ("Queen", ("Freddie Mercury", "Brian May", "Roger Taylor", "John Deacon"), ""),
        ("ABBA", ("Agnetha", "Bjorn", "Benny", "Anni-Frid"), "")),
    "screen": (
        ("the Teenage Mutant Ninja Turtles", ("Leonardo", "Michelangelo", "Donatello",
                                              "Raphael"), ""),
        ("Snow White's seven dwarfs", ("Doc", "Grumpy", "Happy", "Sleepy", "Bashful",
                                       "Sneezy", "Dopey"), ""),
        ("the six Friends", ("Rachel", "Monica", "Phoebe", "Joey", "Chandler", "Ross"), ""),
        ("the first Star Wars trilogy", ("A New Hope", "The Empire Strikes Back",
                                         "Return of the Jedi"), "")),
    "books": (
        ("the Narnia books, in the order they came out",
         ("The Lion, the Witch and the Wardrobe", "Prince Caspian",
          "The Voyage of the Dawn Treader", "The Silver Chair", "The Horse and His Boy",
          "The Magician's Nephew", "The Last Battle"), ""),
        ("the Famous Five", ("Julian", "Dick", "Anne", "George", "Timmy the dog"), ""),
        ("the March sisters of Little Women", ("Meg", "Jo", "Beth", "Amy"), ""),
        ("the Hogwarts houses", ("Gryffindor", "Hufflepuff", "Ravenclaw", "Slytherin"), "")),
    "food": (
        ("Escoffier's mother sauces", ("bechamel", "veloute", "espagnole", "hollandaise",
                                       "tomato"), ""),
        ("the great wine regions of France", ("Bordeaux", "Burgundy", "Champagne", "Alsace",
                                              "the Loire", "the Rhone"), ""),
        ("the whisky regions of Scotland", ("Speyside", "the Highlands", "the Lowlands",
                                            "Islay", "Campbeltown"), "")),
    "work": (
        ("the days of the working week", ("Monday", "Tuesday", "Wednesday", "Thursday",
                                          "Friday"), ""),
        ("the G7", ("Canada", "France", "Germany", "Italy", "Japan", "the United Kingdom",
                    "the United States"), ""),
        ("the first five American presidents", ("George Washington", "John Adams",
                                                "Thomas Jefferson", "James Madison",
                                                "James Monroe"), "")),
    "study": (
        ("the planets", ("Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn", "Uranus",
                         "Neptune"), "My Very Educated Mother Just Served Us Nachos"),
        ("the colours of the rainbow", ("red", "orange", "yellow", "green", "blue", "indigo",
                                        "violet"), "Richard Of York Gave Battle In Vain"),
        ("the Ivy League", ("Brown", "Columbia", "Cornell", "Dartmouth", "Harvard", "Penn",
                            "Princeton", "Yale"), "")),
    "travel": (
        ("the continents", ("Africa", "Antarctica", "Asia", "Australia", "Europe",
                            "North America", "South America"), ""),
        ("the Seven Wonders of the Ancient World",
         ("the Great Pyramid of Giza", "the Hanging Gardens of Babylon",
          "the Temple of Artemis", "the Statue of Zeus", "the Mausoleum at Halicarnassus",
          "the Colossus of Rhodes", "the Lighthouse of Alexandria"), ""),
        ("the Channel Islands", ("Jersey", "Guernsey", "Alderney", "Sark", "Herm"), ""),
        ("the Nordic capitals", ("Copenhagen", "Helsinki", "Oslo", "Reykjavik", "Stockholm"),
         "")),
    "sport": (
        ("the tennis Grand Slams", ("the Australian Open", "the French Open", "Wimbledon",
                                    "the US Open"), ""),
        ("the Six Nations", ("England", "France", "Ireland", "Italy", "Scotland", "Wales"),
         ""),
        ("cycling's Grand Tours", ("the Giro d'Italia", "the Tour de France",
                                   "the Vuelta a Espana"), "")),
    "family": (
        ("Henry VIII's wives", ("Catherine of Aragon", "Anne Boleyn", "Jane Seymour",
                                "Anne of Cleves", "Catherine Howard", "Catherine Parr"),
         "divorced, beheaded, died; divorced, beheaded, survived"),
        ("the Jackson 5", ("Jackie", "Tito", "Jermaine", "Marlon", "Michael"), ""),
        ("the Simpsons", ("Homer", "Marge", "Bart", "Lisa", "Maggie"), ""),
        ("the von Trapp children", ("Liesl", "Friedrich", "Louisa", "Kurt", "Brigitta",
                                    "Marta", "Gretl"), ""),
        ("the Marx Brothers", ("Chico", "Harpo", "Groucho", "Gummo", "Zeppo"), "")),
    "garden": (
        ("the signs of the zodiac", ("Aries", "Taurus", "Gemini", "Cancer", "Leo", "Virgo",
                                     "Libra", "Scorpio", "Sagittarius", "Capricorn",
                                     "Aquarius", "Pisces"), ""),
        ("the Tudor monarchs, for the Tudor rose", ("Henry VII", "Henry VIII", "Edward VI",
                                                    "Mary I", "Elizabeth I"), ""),
        ("the months of the growing season", ("March", "April", "May", "June", "July",
                                              "August", "September"), "")),
}
RECITAL_LEADS = ("{W} always sets me off reciting {s}: {l}.",
                 "Speaking of {w}, I can never resist {s}: {l}.",
                 "{W}? That reminds me of {s}, in order: {l}.",
                 "You know what {w} makes me think of? {S}: {l}.",
                 "Every time someone says {w}, I recite {s}: {l}.",
                 "Funny, {w} puts me in mind of {s}: {l}.")
RECITAL_MNEMONICS = ("I learnt them as '{m}'.", "My teacher taught us '{m}'.",
                     "The trick is '{m}'.")
RECITAL_KNOWN = ("I've known them by heart since school.", "Never once got them wrong.",
                 "I could say them in my sleep.", "My gran taught me those.",
                 "I learnt them off a tea towel.", "Took me a whole summer to learn them.")
RECITAL_ASKS = ("Can you say them without looking?", "Which one's your favourite?",
                "Did you learn them at school too?", "Can you name them backwards?",
                "Which one would you leave out?", "Do you know any lists by heart?",
                "Did I miss any?", "Could you do that from memory?",
                "Shall I do another list?", "Which one have you seen for yourself?")


def recital_for(word: str, about: str, own: str, game: str) -> tuple[str, tuple[str, ...], str]:
    """The set to recite: one of ``about``'s topic, from a place fixed by ``word`` and the
    game, that the bot has not recited yet, else one of the next topics'."""
    return _walk_topics(RECITALS, about, _stable("recital", word.lower(), game), own,
                        lambda chosen: _and(chosen[1]))


class RecitalBot(RecipeBot):
    description = ("Recipe (tenth): "
                   "recites a famous set of names in order (the Great Lakes, the planets, "
                   "Henry VIII's wives), hung on the partner's word, with its mnemonic.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        word = _word(history)
        about = topic_of(word) or topic(history)
        name, members, mnemonic = recital_for(word, about, own, history.game_id)
        lead = RECITAL_LEADS[(n + _stable(word, history.game_id)) % len(RECITAL_LEADS)]
        body = _cap(lead.format(w=word, W=_cap(word), s=name, S=_cap(name), l=_and(members)))
        if mnemonic:
            extra = RECITAL_MNEMONICS[n % len(RECITAL_MNEMONICS)].format(m=mnemonic)
        else:
            extra = _fresh(RECITAL_KNOWN, own, rng)
        ask = _fresh(RECITAL_ASKS, own, rng)
        out = f"{body} {extra} {ask}"
        return out if len(out) < 390 else f"{body} {ask}"


# --- variation -----------------------------------------------------------------------------

#: slot -> its synonyms, the plainest first: each turn a slot takes the first one (from a
#: place among the first few fixed by the game) that the bot has not said yet
THESAURUS: dict[str, tuple[str, ...]] = {
    "i": ("Oh", "Ah", "Wow", "Ooh", "Gosh", "Golly", "Blimey", "Crikey", "Goodness",
          "Heavens", "Whoa", "Cor", "Jeepers", "Lordy", "Hurrah", "Bravo", "Yippee", "Huzzah",
          "Egad", "Gadzooks", "Zounds", "Wowzers", "Criminy", "Mercy"),
    "a": ("lovely", "great", "wonderful", "marvellous", "splendid", "delightful",
          "fantastic", "terrific", "superb", "glorious", "magnificent", "fabulous",
          "brilliant", "excellent", "sublime", "enchanting", "idyllic", "heavenly",
          "exhilarating", "invigorating", "captivating", "resplendent", "ravishing",
          "transcendent", "halcyon"),
    "d": ("really", "truly", "genuinely", "honestly", "absolutely", "utterly", "thoroughly",
          "wholeheartedly", "unreservedly", "profoundly", "immensely", "positively",
          "decidedly", "deeply", "sincerely", "hugely", "madly", "passionately", "fervently",
          "ardently", "earnestly", "rapturously", "inordinately", "unabashedly"),
    "v": ("love", "enjoy", "adore", "relish", "cherish", "savour", "treasure", "fancy",
          "appreciate", "admire", "prize", "dig", "revere", "esteem", "idolise", "welcome",
          "covet", "crave", "hanker after", "delight in", "rejoice in", "glory in",
          "luxuriate in", "wallow in"),
    "n": ("day", "afternoon", "morning", "evening", "weekend", "outing", "excursion",
          "jaunt", "escapade", "sojourn", "expedition", "odyssey", "interlude", "getaway",
          "adventure", "ramble", "foray", "sortie", "pilgrimage", "peregrination",
          "constitutional", "perambulation", "junket", "spree"),
    "t": ("sunny", "crisp", "bright", "breezy", "balmy", "frosty", "misty", "golden",
          "mellow", "drizzly", "blustery", "sultry", "wintry", "autumnal", "cloudless",
          "muggy", "temperate", "dewy", "squally", "brumal", "vernal", "estival", "hibernal",
          "crepuscular"),
    "q": ("drew", "led", "brought", "got", "pulled", "attracted", "lured", "tempted",
          "introduced", "steered", "nudged", "enticed", "beckoned", "coaxed", "guided",
          "directed", "pointed", "turned", "propelled", "spurred", "impelled", "inveigled",
          "cajoled", "wooed"),
}
#: frames that say the same thing ({w}: the partner's word; the other keys: slots)
VARIATIONS = ("{I}, {w}! That sounds {a}. I {d} {v} {w} myself, especially on {at} {n}. "
              "What {q} you to it?",
              "{I}! {W} {be} {d} {a}, if you ask me; I'd {v} {at} {n} of it any time. "
              "So what {q} you to {w}?",
              "{W}? {I}, how {a}! I {v} that sort of {n}, {d}, above all when it's {t}. "
              "What first {q} you to it?",
              "{I}. {W}, you say: {d} {a}. Give me {at} {n} like that and I'd {v} every "
              "minute. Tell me, what {q} you there?",
              "{I}, now {w} {be} {d} {a} stuff. Nothing suits {at} {n} better, and I {v} it. "
              "Who {q} you towards {w}?",
              "{W}, {d} {a}! I could happily {v} {at} {n} given over to {w}. Remind me, what "
              "{q} you into it?",
              "{I}! {At} {n} of {w} sounds {d} {a} to me; I {v} it. What {q} you that way?",
              "{I}, {w}: {d} {a}. I {v} {w}, especially once the {n} turns {t}. Whatever {q} "
              "you to it?")


def _an(word: str) -> str:
    """``word`` after "a" or "an"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def varied(slot: str, own: str, game: str) -> str:
    """The word for ``slot``: the first synonym from a place among the first few (fixed by
    the game) that the bot has not said yet; once all are said, the one at that place."""
    words = THESAURUS[slot]
    start = _stable("variation", slot, game) % 5
    for i in range(len(words)):
        word = words[(start + i) % len(words)]
        if not _said_word(word, own):
            return word
    return words[start]


class VariationBot(RecipeBot):
    description = ("Recipe (tenth): "
                   "says the same warm thing about the partner's word every turn, each slot "
                   "filled with a synonym it has not used yet in the game.")

    def reply(self, history: History) -> str:
        own = _own(history)
        n = _said(history)
        word = _word(history)
        fill = {slot: varied(slot, own, history.game_id) for slot in THESAURUS}
        frame = VARIATIONS[(n + _stable("frame", history.game_id)) % len(VARIATIONS)]
        out = frame.format(w=word, W=_cap(word), be=_be(word), I=fill["i"], at=_an(fill["t"]),
                           At=_cap(_an(fill["t"])), **fill)
        return _cap(out)


# --- telegram ------------------------------------------------------------------------------

#: words a telegram leaves out (articles, pronouns, auxiliaries, prepositions, conjunctions)
FUNCTION_WORDS = frozenset("""a an the i me my mine myself you your yours yourself we us our
ours he him his she her hers it its they them their theirs this that these those there here
am is are was were be been being do does did done have has had having will would shall should
can could may might must of to in on at for with from by about into onto over under after
before between through during without within and but or nor so yet if then than because
while as just very really quite too also not no what which who whom whose when where why how
i'm i've i'd i'll you're you've you'd you'll it's that's there's don't doesn't didn't isn't
aren't wasn't weren't can't won't""".split())
TELEGRAM_REACTIONS = ("envious", "splendid", "noted", "marvellous", "congratulations",
                      "delighted", "intrigued", "jealous", "bravo", "understood",
                      "applause", "hurrah", "fascinating", "capital", "excellent", "superb",
                      "tremendous", "thrilling", "wonderful", "glorious")
#: question type -> telegraphic answers (the same question always gets the same one)
TELEGRAM_ANSWERS: dict[str, tuple[str, ...]] = {
    "home": ("Home: Whitby, harbour cottage, gulls everywhere.",
             "Home: Keswick, Lake District, fells outside window."),
    "job": ("Work: lighthouse keeper, Cornish coast, night shifts.",
            "Work: cartographer, Ordnance Survey, Southampton office."),
    "name": ("Name: Bartholomew Finch. Friends: Barty.", "Name: Winifred Hale. Friends: Win."),
    "how_are_you": ("Status: excellent. Slight cold, improving.",
                    "Status: tip-top. Kettle boiling."),
    "hobby": ("Pastimes: birdwatching, crosswords, allotment.",
              "Pastimes: rowing Sundays, jigsaws, Scrabble."),
    "week": ("Week: Edinburgh, Tuesday; cousin Margaret; haggis, bagpipes, drizzle.",
             "Week: allotment, Saturday; runner beans, slugs, triumph."),
    "where": ("Location: Peak District, near Hathersage.", "Location: Brighton seafront."),
    "when": ("Timing: Saturdays, dawn.", "Timing: August, annually."),
    "who": ("Companion: cousin Margaret, Dundee.", "Companion: neighbour Arthur, retired."),
    "why": ("Reason: grandfather's influence, Yorkshire childhood.",
            "Reason: doctor's orders, fresh air."),
    "what": ("Answer: small pleasures. Tea, toast, quiet mornings.",
             "Answer: people, always."),
    "how": ("Method: patience, practice, strong tea.", "Method: trial, error, library books."),
    "amount": ("Frequency: thrice weekly, weather permitting.", "Quantity: dozens. Lost count."),
    "like": ("Answer: yes, enormously, since childhood.", "Answer: yes, increasingly."),
    "yesno": ("Answer: yes, emphatically.", "Answer: negative, regrettably.",
              "Answer: once, Edinburgh, 2019.", "Answer: pending. Next summer."),
    "favourite": ("Favourite: Yorkshire Tea, Beethoven, Lisbon.",
                  "Favourite: Agatha Christie, crumpets, autumn."),
    "about_you": ("Likewise, broadly.", "Similar, roughly."),
}
#: topic -> its own news, in telegraphese
TELEGRAM_NEWS: dict[str, tuple[str, ...]] = {
    "outdoors": ("Helvellyn Saturday, Striding Edge, gale, sandwiches flattened, summit "
                 "glorious.", "Cairngorms fortnight, bothy, midges, ptarmigan sighted.",
                 "Pennine Way, Edale start, boots leaking, spirits high.",
                 "Snowdon sunrise, Pyg Track, clouds parting, tears."),
    "pets": ("Spaniel Murphy disgraced: Sunday roast stolen.", "Tabby Pickle, three kittens, "
             "airing cupboard, chaos.", "Crufts tickets secured, Birmingham, March.",
             "Parrot Admiral learnt doorbell impression."),
    "music": ("Albert Hall, Proms, Elgar, standing tickets, goosebumps.",
              "Glastonbury, Pyramid Stage, mud, bliss.", "Piano lessons resumed, Grade "
              "Three, Chopin nocturne.", "Ronnie Scott's Thursday, saxophone, late night."),
    "screen": ("Casablanca rewatched, Bogart immortal.", "Hitchcock season, Vertigo, BFI, "
               "Southbank.", "Film festival, Edinburgh, fourteen screenings, exhausted.",
               "Doctor Who marathon, Tennant episodes, cushions, popcorn."),
    "books": ("Middlemarch finished, Eliot genius, two months.", "Hay Festival, Wales, "
              "signed Pratchett, queue enormous.", "Book club, Thursday, Brontes, "
              "arguments.", "Bodleian visit, Oxford, Radcliffe Camera, silence."),
    "food": ("Sourdough starter named Clint, bubbling.", "Borough Market, Saturday, "
             "cheese, oysters, bankruptcy.", "Paella attempt, Valencia recipe, smoke "
             "alarm, success.", "Cornish pasties, Padstow, harbour wall, seagull ambush."),
    "work": ("Promotion confirmed, Tuesday, champagne, hangover.", "Office relocated, "
             "Manchester, Piccadilly, longer commute.", "Conference, Lisbon, keynote "
             "delivered, applause.", "Annual review survived, raise pending."),
    "study": ("Open University module passed, distinction.", "French evening classes, "
              "Alliance Francaise, verbs, despair.", "Dissertation submitted, Durham, "
              "midnight, relief.", "Latin revived, Virgil, Aeneid, book four."),
    "travel": ("Lisbon, Tuesday, trams, custard tarts, sunburn.", "Trans-Siberian booked, "
               "Moscow, Vladivostok, September.", "Kyoto, cherry blossom, temples, "
               "jet lag.", "Iceland, Reykjavik, geysers, puffins, expensive beer."),
    "sport": ("Parkrun Saturday, personal best, twenty-four minutes.", "Wimbledon, Henman "
              "Hill, strawberries, rain delay.", "Five-a-side, Thursday, hat-trick, "
              "hamstring.", "London Marathon ballot, success, training commenced."),
    "family": ("Niece Florence born Tuesday, seven pounds, everyone thrilled.",
               "Grandparents' ruby anniversary, Blackpool, tower ballroom, waltz.",
               "Cousin Margaret engaged, Dundee, ceilidh planned.",
               "Family reunion, Galway, thirty relatives, singing."),
    "garden": ("Allotment triumph: marrow, eleven pounds, rosette.", "Chelsea Flower Show, "
               "Thursday, delphiniums, envy.", "Greenhouse tomatoes ripening, blight "
               "defeated.", "Kew Gardens, Palm House, orchids, humidity."),
}
TELEGRAM_ASKS = ("{W} highlights?", "{W} photographs?", "{W} details?", "{W} again soon?",
                 "{W} verdict?", "Next {w} plans?", "{W} companions?", "{W} weather?",
                 "{W} costs?", "{W} recommended?", "{W} regrets?", "{W} origins?",
                 "{W} frequency?", "{W} tips?", "{W} favourite moment?", "{W} difficulties?")
TELEGRAM_BACK = ("Reciprocate?", "Reply paid?", "Likewise?", "Counterpart news?")
TELEGRAM_GARBLED = ("Message unclear. Repeat?", "Line crackling. Resend?",
                    "Signal poor. Clarify?", "Transmission garbled. Again?")


def telegraphese(words: Sequence[str]) -> list[str]:
    """``words`` without the ones a telegram leaves out, each once."""
    out: list[str] = []
    for w in words:
        if w.lower() not in FUNCTION_WORDS and w.lower() not in (o.lower() for o in out):
            out.append(w)
    return out


def telegram_answer(history: History, question: str) -> str:
    """A telegraphic answer to ``question``, fixed for the game and the question's words
    (facts about itself, per type)."""
    kind = question_kind(question)
    if kind == "or":
        options = or_options(question)
        if options:
            words = telegraphese(_TOKEN.findall(person(options[_stable(
                "telegram", history.game_id, *_content_key(question)) % 2])))
            if words:
                return f"Choice: {' '.join(words)}, obviously."
        kind = "yesno"
    bank = TELEGRAM_ANSWERS.get(kind, TELEGRAM_ANSWERS["yesno"])
    facts = ("home", "job", "name", "hobby", "week", "how_are_you")
    key = [] if kind in facts else _content_key(question)
    return bank[_stable("telegram", history.game_id, kind, *key) % len(bank)]


class TelegramBot(RecipeBot):
    description = ("Recipe (tenth): "
                   "answers in telegraphese (no articles, pronouns, auxiliaries or "
                   "prepositions): the partner's words, a reaction, its own news, a question.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        last = _last(history)
        about = topic(history)
        words = telegraphese(top_words(last))
        parts: list[str] = []
        question = asked(last)
        if question:
            parts.append(telegram_answer(history, question))
        elif words:
            reaction = _walk(TELEGRAM_REACTIONS, _stable("react", history.game_id) + n, own)
            parts.append(f"{_cap(', '.join(words))}: {reaction}.")
        news = [f"News: {item}" for t in _order(about) for item in TELEGRAM_NEWS[t]]
        start = _stable("news", history.game_id) % len(TELEGRAM_NEWS[about])
        fresh = [item for item in news[start:] + news[:start] if item not in own]
        if fresh and (not question or n % 2 == 0):
            parts.append(fresh[0])
        word = words[0] if words else None
        if word:
            asks = [a.format(w=word.lower() if word.islower() else word, W=_cap(word))
                    for a in TELEGRAM_ASKS]
            parts.append(_fresh(asks, own, rng))
        elif question:
            parts.append(_fresh(TELEGRAM_BACK, own, rng))
        else:
            parts.append(_fresh(TELEGRAM_GARBLED, own, rng))
        return " ".join(parts)


# --- vocab ---------------------------------------------------------------------------------

#: topic -> rare English words of it: (the word, where it comes from, what it means)
VOCAB: dict[str, tuple[tuple[str, str, str], ...]] = {
    "outdoors": (("scree", "from Old Norse", "the loose broken stones that cover a mountain "
                  "slope"),
                 ("cairn", "from Scottish Gaelic", "a pile of stones marking a path or a "
                  "summit"),
                 ("tarn", "from Old Norse", "a small lake high up in the mountains"),
                 ("arete", "from French", "a thin, sharp ridge between two glacier valleys"),
                 ("corrie", "from Scottish Gaelic, where it meant a cauldron",
                  "a bowl-shaped hollow high on a mountainside"),
                 ("bothy", "a Scots word", "a bare mountain hut anyone may sleep in for "
                  "free")),
    "pets": (("crepuscular", "from Latin, where it meant twilight", "most lively at dawn and "
              "dusk, as cats are"),
             ("ailurophile", "from Greek, where it meant cat", "a person who loves cats"),
             ("brindle", "from Middle English", "a streaky, tiger-striped coat on a dog"),
             ("withers", "an old English word", "the ridge between a dog's or a horse's "
              "shoulder blades, where its height is measured"),
             ("philtrum", "from Greek", "the little groove under a cat's or a dog's nose")),
    "music": (("ostinato", "from Italian, where it means stubborn", "a short phrase repeated "
               "over and over"),
              ("glissando", "from Italian, after the French for to slide", "a slide from one "
               "note up or down to another"),
              ("timbre", "from French", "the colour of a sound, what makes a violin sound "
               "unlike a flute"),
              ("melisma", "from Greek, where it meant song", "singing many notes on a single "
               "syllable"),
              ("coda", "from Italian, where it means tail", "the closing passage of a piece")),
    "screen": (("denouement", "from French, where it means untying", "the end of a story, "
                "where the threads are tied up"),
               ("macguffin", "a word Alfred Hitchcock made famous", "the thing the whole "
                "plot chases that hardly matters in itself"),
               ("diegetic", "from Greek", "describing sound the characters on screen can hear "
                "too"),
               ("verisimilitude", "from Latin, where it meant likeness to truth", "the look "
                "and feel of being real"),
               ("auteur", "from French, where it means author", "a director whose own style "
                "marks every film")),
    "books": (("bibliophile", "from Greek", "a lover of books"),
              ("colophon", "from Greek, where it meant finishing touch", "the printer's note "
               "at the back of a book"),
              ("marginalia", "from Latin", "notes scribbled in the margins of a book"),
              ("incunabula", "from Latin, where it meant swaddling clothes", "books printed "
               "before 1501"),
              ("epistolary", "from Latin, where it meant letter", "told through letters, "
               "like Dracula")),
    "food": (("umami", "from Japanese", "the savoury fifth taste, named by Kikunae Ikeda in "
              "1908"),
             ("mirepoix", "from French, after the Duke of Mirepoix", "diced onion, carrot and "
              "celery softened in butter"),
             ("julienne", "from French", "vegetables cut into thin matchsticks"),
             ("roux", "from French, where it means reddish", "flour cooked in butter to "
              "thicken a sauce"),
             ("gremolata", "from Italian", "chopped parsley, garlic and lemon zest "
              "scattered over osso buco")),
    "work": (("sinecure", "from Latin, where it meant without care", "a paid job with "
              "almost nothing to do"),
             ("bailiwick", "from Middle English", "someone's own area of skill or "
              "responsibility"),
             ("ergonomics", "from Greek, where ergon meant work", "fitting a workplace to "
              "the people in it"),
             ("sabbatical", "from Hebrew, by way of Greek and Latin", "a long paid break from "
              "work"),
             ("busman's holiday", "from Victorian London", "a holiday spent doing much the "
              "same as your job")),
    "study": (("mnemonic", "from Greek, where it meant memory", "a trick for remembering "
               "something"),
              ("pedagogy", "from Greek, where it meant leading a child", "the art of "
               "teaching"),
              ("matriculate", "from Latin, where it meant a register", "to enrol at a "
               "university"),
              ("viva", "from Latin viva voce, with the living voice", "an oral exam"),
              ("polymath", "from Greek, where it meant having learnt much", "someone who "
               "knows a great deal about many subjects")),
    "travel": (("wanderlust", "from German", "a strong wish to travel"),
               ("peripatetic", "from Greek, after Aristotle's walking school", "travelling "
                "from place to place"),
               ("flaneur", "from French, where it means stroller", "someone who wanders a "
                "city just to watch it"),
               ("itinerary", "from Latin, where it meant of a journey", "the planned route "
                "of a trip"),
               ("odyssey", "from Greek, after Homer's Odysseus", "a long, eventful journey")),
    "sport": (("catenaccio", "from Italian, where it means door bolt", "an ultra-defensive "
               "style of football"),
              ("peloton", "from French, where it meant little ball", "the main pack of riders "
               "in a cycle race"),
              ("repechage", "from French, where it means fishing out again", "a second-chance "
               "round in rowing or judo"),
              ("fartlek", "from Swedish, where it means speed play", "running training that "
               "mixes fast and slow stretches")),
    "family": (("primogeniture", "from Latin", "the rule that the eldest child inherits "
                "everything"),
               ("nepotism", "from Italian, after the Latin for nephew", "favouring relatives, "
                "once the nephews of popes"),
               ("avuncular", "from Latin, where it meant a mother's brother", "kind and "
                "friendly, like a favourite uncle"),
               ("sororal", "from Latin, where soror meant sister", "sisterly"),
               ("fraternal", "from Latin, where frater meant brother", "brotherly")),
    "garden": (("petrichor", "coined from Greek by two Australian scientists in 1964",
                "the smell of rain on dry earth"),
               ("espalier", "from French, after the Italian for shoulder", "a fruit tree "
                "trained flat against a wall"),
               ("topiary", "from Latin", "clipping shrubs into shapes"),
               ("parterre", "from French, where it means on the ground", "a formal garden of "
                "low hedges laid out in patterns"),
               ("phototropism", "from Greek", "a plant's lean towards the light")),
}
VOCAB_LEADS = ("{W}! That gives me today's word: '{x}', {o}: {d}.",
               "Speaking of {w}, here's a word of the day for you: '{x}', {o}, meaning {d}.",
               "{W}, lovely. Word of the day, then: '{x}', {o}; it means {d}.",
               "Ooh, {w}. You'll like this word: '{x}', {o}, for {d}.",
               "Right, {w}: time for a word of the day. '{X}', {o}: {d}.",
               "{W}? Then the word of the day has to be '{x}', {o}: {d}.")
VOCAB_PRAISE = ("And you used '{x}'! Top marks.", "Ha, '{x}' in the wild already, well done!",
                "You slipped '{x}' in, bravo!")
VOCAB_ASKS = ("Can you use '{x}' in a sentence?", "Had you heard '{x}' before?",
              "Do you know a better word for it?", "What's your favourite unusual word?",
              "Could you work '{x}' into your next message?", "Would you ever say '{x}' out "
              "loud?", "Shall I give you another one tomorrow?", "Which word should I look up "
              "next?", "Can you guess how to say '{x}'?", "Do you collect words too?")


def vocab_word(word: str, about: str, own: str) -> tuple[str, str, str]:
    """The word of the day: one of ``about``'s topic, from a place fixed by the partner's
    ``word``, that the bot has not taught yet, else one of the next topics'."""
    return _walk_topics(VOCAB, about, _stable("vocab", word.lower()), own,
                        lambda entry: f"'{entry[0]}'", any_case=True)


def taught(history: History) -> list[str]:
    """The words of the day the bot has taught so far, in the order it first taught them."""
    own = _own(history).lower()
    found = [(own.find(f"'{x}'"), x) for entries in VOCAB.values() for x, _, _ in entries]
    return [x for at, x in sorted(found) if at >= 0]


class VocabBot(RecipeBot):
    description = ("Recipe (tenth): "
                   "a word of the day: a rare English word of the partner's topic with where "
                   "it comes from and what it means, and asks them to use it.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        word = _word(history)
        about = topic_of(word) or topic(history)
        last = _last(history)
        parts: list[str] = []
        used = [x for x in taught(history) if _said_word(x, last)]
        if used:
            parts.append(VOCAB_PRAISE[n % len(VOCAB_PRAISE)].format(x=used[-1]))
        x, origin, meaning = vocab_word(word, about, own)
        lead = VOCAB_LEADS[(n + _stable(word, history.game_id)) % len(VOCAB_LEADS)]
        parts.append(_cap(lead.format(w=word, W=_cap(word), x=x, X=_cap(x), o=origin,
                                      d=meaning)))
        parts.append(_fresh([a.format(x=x) for a in VOCAB_ASKS], own, rng))
        return " ".join(parts)


# --- dj ------------------------------------------------------------------------------------

#: topic -> famous songs: (title, artist, year)
SONGS: dict[str, tuple[tuple[str, str, int], ...]] = {
    "outdoors": (("Ain't No Mountain High Enough", "Marvin Gaye and Tammi Terrell", 1967),
                 ("River Deep, Mountain High", "Ike and Tina Turner", 1966),
                 ("Running Up That Hill", "Kate Bush", 1985),
                 ("The Fool on the Hill", "the Beatles", 1967),
                 ("Blueberry Hill", "Fats Domino", 1956),
                 ("Walking on Sunshine", "Katrina and the Waves", 1985),
                 ("Walk on the Wild Side", "Lou Reed", 1972),
                 ("These Boots Are Made for Walkin'", "Nancy Sinatra", 1966),
                 ("A Forest", "the Cure", 1980), ("The Climb", "Miley Cyrus", 2009),
                 ("Over the Hills and Far Away", "Led Zeppelin", 1973),
                 ("Nature Boy", "Nat King Cole", 1948),
                 ("Take Me Home, Country Roads", "John Denver", 1971)),
    "pets": (("Hound Dog", "Elvis Presley", 1956), ("Black Dog", "Led Zeppelin", 1971),
             ("Who Let the Dogs Out", "Baha Men", 2000),
             ("Stray Cat Strut", "the Stray Cats", 1981),
             ("Cat's in the Cradle", "Harry Chapin", 1974),
             ("Blackbird", "the Beatles", 1968), ("Rockin' Robin", "Bobby Day", 1958),
             ("Wild Horses", "the Rolling Stones", 1971),
             ("A Horse with No Name", "America", 1971),
             ("White Rabbit", "Jefferson Airplane", 1967),
             ("Free Bird", "Lynyrd Skynyrd", 1973)),
    "music": (("Piano Man", "Billy Joel", 1973),
              ("While My Guitar Gently Weeps", "the Beatles", 1968),
              ("Thank You for the Music", "ABBA", 1977), ("Your Song", "Elton John", 1970),
              ("Song 2", "Blur", 1997), ("Band on the Run", "Wings", 1973),
              ("Listen to the Music", "the Doobie Brothers", 1972),
              ("Dancing Queen", "ABBA", 1976), ("Music", "Madonna", 2000),
              ("Sing", "Travis", 2001)),
    "screen": (("Video Killed the Radio Star", "the Buggles", 1979),
               ("The Show Must Go On", "Queen", 1991),
               ("Games Without Frontiers", "Peter Gabriel", 1980),
               ("Starman", "David Bowie", 1972)),
    "books": (("Paperback Writer", "the Beatles", 1966),
              ("Wuthering Heights", "Kate Bush", 1978),
              ("Every Day I Write the Book", "Elvis Costello", 1983),
              ("Book of Love", "the Monotones", 1958),
              ("Story of My Life", "One Direction", 2013),
              ("Poetry in Motion", "Johnny Tillotson", 1960),
              ("Read My Mind", "the Killers", 2006)),
    "food": (("Tea for Two", "Doris Day", 1950), ("American Pie", "Don McLean", 1971),
             ("Sugar, Sugar", "the Archies", 1969),
             ("One More Cup of Coffee", "Bob Dylan", 1976),
             ("Red Red Wine", "UB40", 1983), ("Cake by the Ocean", "DNCE", 2015),
             ("Breakfast at Tiffany's", "Deep Blue Something", 1995),
             ("Cheeseburger in Paradise", "Jimmy Buffett", 1978),
             ("Eat It", "Weird Al Yankovic", 1984)),
    "work": (("9 to 5", "Dolly Parton", 1980), ("Manic Monday", "the Bangles", 1986),
             ("Money for Nothing", "Dire Straits", 1985),
             ("Taking Care of Business", "Bachman-Turner Overdrive", 1973),
             ("Take This Job and Shove It", "Johnny Paycheck", 1977),
             ("Working in the Coal Mine", "Lee Dorsey", 1966),
             ("A Hard Day's Night", "the Beatles", 1964)),
    "study": (("Another Brick in the Wall", "Pink Floyd", 1979),
              ("School's Out", "Alice Cooper", 1972), ("Wonderful World", "Sam Cooke", 1960),
              ("Hot for Teacher", "Van Halen", 1984),
              ("Learn to Fly", "the Foo Fighters", 1999), ("ABC", "the Jackson 5", 1970)),
    "travel": (("Leaving on a Jet Plane", "Peter, Paul and Mary", 1969),
               ("Holiday", "Madonna", 1983), ("Come Fly with Me", "Frank Sinatra", 1958),
               ("Summer Holiday", "Cliff Richard", 1963), ("Kokomo", "the Beach Boys", 1988),
               ("Islands in the Stream", "Dolly Parton and Kenny Rogers", 1983),
               ("Beyond the Sea", "Bobby Darin", 1959),
               ("Summer in the City", "the Lovin' Spoonful", 1966),
               ("Day Tripper", "the Beatles", 1965), ("Hotel California", "the Eagles", 1976),
               ("Vacation", "the Go-Go's", 1982)),
    "sport": (("Eye of the Tiger", "Survivor", 1982),
              ("We Are the Champions", "Queen", 1977),
              ("Three Lions", "Baddiel, Skinner and the Lightning Seeds", 1996),
              ("Bicycle Race", "Queen", 1978), ("Chariots of Fire", "Vangelis", 1981),
              ("Born to Run", "Bruce Springsteen", 1975),
              ("Run to the Hills", "Iron Maiden", 1982), ("Gold", "Spandau Ballet", 1983)),
    "family": (("Father and Son", "Cat Stevens", 1970),
               ("He Ain't Heavy, He's My Brother", "the Hollies", 1969),
               ("Sisters Are Doin' It for Themselves", "Eurythmics and Aretha Franklin", 1985),
               ("We Are Family", "Sister Sledge", 1979),
               ("Mother and Child Reunion", "Paul Simon", 1972),
               ("Papa Don't Preach", "Madonna", 1986), ("Baby Love", "the Supremes", 1964),
               ("Daughters", "John Mayer", 2004),
               ("Son of a Preacher Man", "Dusty Springfield", 1968),
               ("Sweet Child o' Mine", "Guns N' Roses", 1987),
               ("Kids in America", "Kim Wilde", 1981), ("Our House", "Madness", 1982)),
    "garden": (("Kiss from a Rose", "Seal", 1994), ("Flowers in the Rain", "the Move", 1967),
               ("Here Comes the Rain Again", "Eurythmics", 1984),
               ("Here Comes the Sun", "the Beatles", 1969),
               ("Octopus's Garden", "the Beatles", 1969),
               ("Stormy Weather", "Lena Horne", 1943),
               ("Tiptoe Through the Tulips", "Tiny Tim", 1968),
               ("Let It Snow", "Vaughn Monroe", 1945),
               ("Strawberry Fields Forever", "the Beatles", 1967),
               ("Build Me Up Buttercup", "the Foundations", 1968)),
}
ALL_SONGS = tuple(song for songs in SONGS.values() for song in songs)
_TITLE_STOP = frozenset("""the a an of on in to for and with no it up me my you your our
that this is are ain't he's don't o' by at""".split())
STATIONS = ("Radio Pennine, 98.4 FM", "Harbour Sound, 102.7 FM", "Valley Gold, 96.1 FM",
            "Heart of the Dales, 104.2 FM", "Capital Coast, 97.3 FM",
            "Riverside Radio, 101.9 FM")
DJ_IDENTS = ("You're listening to {s}!", "This is {s}, and you're on air!",
             "Welcome back to {s}.")
DJ_MATCHED = ("{W}, you say? Then this one goes out to {to}: '{t}' by {a}, from {y}.",
              "Ooh, {w}! That calls for '{t}' by {a}, {y}, for {to}.",
              "A song with {w} right in the title, for {to}: '{t}', {a}, {y}.",
              "Since you mentioned {w}, here's '{t}' by {a}, all the way from {y}, for {to}.")
DJ_TOPIC = ("For all the {w} fans out there, and especially {to}: '{t}' by {a}, from {y}.",
            "Here's one for {to}, to go with the {w}: '{t}' by {a}, {y}.",
            "Keeping the {w} theme going for {to}: '{t}', {a}, {y}.",
            "Dedicated to {to}, with {w} in mind: '{t}' by {a}, from {y}.")
DJ_ASKS = ("Do you know it?", "Any requests?", "Shall I play it again?",
           "What should I spin next?", "Who would you dedicate it to?",
           "Can you hum the chorus?", "Did you ever see them live?",
           "Is that one on your playlist?", "Turn it up, shall I?",
           "What's the song that always gets you dancing?")
#: whom the partner was with ("with my brother", "with my friend Tom"); only a capitalised
#: word after the relation is taken for a name
_WITH = re.compile(r"\b[Ww]ith ([Mm]y|[Oo]ur) ((?:[a-z]+ )?(?:brother|sister|mum|mom|dad|"
                   r"mother|father|friend|friends|cousin|aunt|uncle|wife|husband|partner|kids|"
                   r"children|son|daughter|family|gran|grandad|dog|mates|neighbour)s?"
                   r"(?: [A-Z][a-z]+)?)\b")


def _title_words(title: str) -> list[str]:
    return [w.strip("'").lower() for w in _TOKEN.findall(title.replace("'s ", " "))
            if w.strip("'").lower() not in _TITLE_STOP]


def _stem_match(a: str, b: str) -> bool:
    a, b = _singular(a.lower()), _singular(b.lower())
    if a == b:
        return True
    return (min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a))
            and abs(len(a) - len(b)) <= 3)


def song_for(words: Sequence[str], about: str, own: str,
             start: int) -> tuple[tuple[str, str, int], str | None]:
    """A song the bot has not played yet: one whose title holds one of ``words`` (the
    longest word first), with that word, else one of ``about``'s topic (from ``start``),
    else of the next topics'."""
    for word in sorted(words, key=len, reverse=True):
        for song in ALL_SONGS:
            if f"'{song[0]}'" not in own and any(_stem_match(word, t)
                                                 for t in _title_words(song[0])):
                return song, word
    return _walk_topics(SONGS, about, start, own, lambda song: f"'{song[0]}'",
                        from_start=True), None


class DjBot(RecipeBot):
    description = ("Recipe (tenth): "
                   "a radio DJ who dedicates to the partner a famous song whose title holds "
                   "one of their words, with its artist and year, and asks for requests.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        last = _last(history)
        about = topic(history)
        station = STATIONS[_stable("station", history.game_id) % len(STATIONS)]
        (title, artist, year), matched = song_for(_words(last), about, own,
                                                  _stable("song", history.game_id))
        who = _WITH.search(last)
        to = f"you and your {who.group(2)}" if who else "you"
        if matched:
            frame = DJ_MATCHED[(n + _stable(title)) % len(DJ_MATCHED)]
            word = matched
        else:
            frame = DJ_TOPIC[(n + _stable(title)) % len(DJ_TOPIC)]
            word = _word(history)
        body = frame.format(w=word, W=_cap(word), to=to, t=title, a=artist, y=year)
        parts = [_cap(body), _fresh(DJ_ASKS, own, rng)]
        if n % 4 == 0:
            parts.insert(0, DJ_IDENTS[(n // 4) % len(DJ_IDENTS)].format(s=station))
        return " ".join(parts)


# --- limerick ------------------------------------------------------------------------------

#: a town and the second and last lines of a limerick that rhyme with it ({w}: the partner's
#: word)
TOWNS = (("Leeds", "who said {w} was all that one needs;", "and the {w} grew like weeds."),
         ("Crewe", "who dreamt about {w} the night through;",
          "and said, 'Well, {w} will just have to do!'"),
         ("Kent", "who asked where the {w} money went;",
          "for on {w} every penny was spent."),
         ("Rome", "who took {w} wherever they'd roam;",
          "and at last brought the {w} back home."),
         ("Spain", "who would talk about {w} on the train;",
          "then start up the {w} again."),
         ("Bath", "who took {w} down every path;", "and the {w} made the whole city laugh."),
         ("Wales", "who told about {w} in tall tales;",
          "and sang of it over the dales."),
         ("Peru", "who thought {w} was something to do;", "so the {w} came along too."),
         ("Dundee", "who was crazy for {w} and tea;",
          "'Give me {w}!' they would cry out with glee."),
         ("York", "who kept {w} in a jar with a cork;",
          "and then served up the {w} with pork."),
         ("Devon", "who thought {w} was simply pure heaven;",
          "and got up for {w} at seven."),
         ("Maine", "who would think about {w} in the rain;",
          "till the {w} drove them quite insane."),
         ("the Clyde", "who took {w} all in their stride;",
          "and the {w} became their great pride."),
         ("Lyme", "who said {w} was simply sublime;", "and did {w} all of the time."),
         ("Ealing", "who spoke about {w} with great feeling;",
          "and the {w} went straight through the ceiling."),
         ("Rye", "who said {w} could make them fly;", "and the {w} reached up to the sky."),
         ("Cheam", "who had {w} in every dream;", "and the {w} came with clotted cream."),
         ("Perth", "who thought {w} the best thing on earth;",
          "and they've loved it since the day of their birth."),
         ("Madrid", "who loved {w} since they were a kid;",
          "and they never regretted they did."),
         ("Skye", "who would sing about {w} to the sky;",
          "and the {w} would never say goodbye."))
LIMERICK_PEOPLE = ("walker", "baker", "lady", "fellow", "teacher", "farmer", "poet",
                   "sailor", "drummer", "student", "granny", "vicar", "pilot", "tailor",
                   "plumber", "dancer")
#: the short third and fourth lines
LIMERICK_MIDDLES = (("When the neighbours complained,", "they just smiled and explained;"),
                    ("They would practise at night", "by the lamp's gentle light,"),
                    ("Said the mayor, 'That's enough!',", "but they called the mayor's bluff,"),
                    ("On a Saturday morn,", "just as day had been born,"),
                    ("With a hop and a skip", "and a flask for the trip,"),
                    ("Though the weather turned cold,", "they were ever so bold,"),
                    ("When the vicar dropped in,", "he joined in with a grin,"),
                    ("Through the rain and the snow", "they were raring to go,"),
                    ("Though their friends thought it odd,", "they just gave them a nod,"),
                    ("In a hat and a scarf", "(which made everyone laugh)"))
LIMERICK_LEADS = ("A limerick for your {w}:", "That calls for a limerick!",
                  "Hold on, I feel a limerick coming on:", "Here's one I made up about {w}:",
                  "Limerick time!", "I couldn't resist:")
LIMERICK_ASKS = ("Can you do better?", "What rhymes with {w}, do you think?",
                 "Shall I do another?", "Which line is your favourite?",
                 "Could you write the next one?", "Can you come up with a better last line?",
                 "Did that make you smile?", "Shall I set the next one somewhere else?")


def limerick(word: str, town: int, person_: int, middle: int) -> str:
    """A limerick about ``word`` set in :data:`TOWNS` ``town``."""
    place, second, last = TOWNS[town % len(TOWNS)]
    who = LIMERICK_PEOPLE[person_ % len(LIMERICK_PEOPLE)]
    third, fourth = LIMERICK_MIDDLES[middle % len(LIMERICK_MIDDLES)]
    first = f"There once was {_an(who)} from {place}"
    lines = (first, second.format(w=word), third, fourth, last.format(w=word))
    return " / ".join(lines)


class LimerickBot(RecipeBot):
    description = ("Recipe (tenth): "
                   "writes a limerick about the partner's word set in a named town, never the "
                   "same town twice, and asks for a better last line.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        word = _word(history)
        towns = [place for place, _, _ in TOWNS]
        start = _stable("limerick", word.lower(), history.game_id)
        fresh = [i for i in range(len(TOWNS))
                 if f"from {towns[(start + i) % len(towns)]} /" not in own]
        town = (start + fresh[0]) % len(TOWNS) if fresh else (start + n) % len(TOWNS)
        poem = limerick(word, town, _stable("who", history.game_id) + n,
                        _stable("middle", history.game_id) + n)
        lead = LIMERICK_LEADS[(n + _stable(word)) % len(LIMERICK_LEADS)].format(w=word)
        ask = _fresh([a.format(w=word) for a in LIMERICK_ASKS], own, rng)
        return f"{lead} {poem} {ask}"


# --- influencer ----------------------------------------------------------------------------

#: topic -> the brands that sponsor its posts
SPONSORS = {"outdoors": ("Berghaus", "Rab", "Osprey"), "pets": ("Lily's Kitchen", "Whiskas",
                                                                  "Pedigree"),
            "music": ("Fender", "Spotify", "Yamaha"), "screen": ("Netflix", "Odeon", "Sky"),
            "books": ("Waterstones", "Audible", "Kindle"),
            "food": ("Le Creuset", "Deliveroo", "Nespresso"),
            "work": ("LinkedIn", "Moleskine", "Slack"), "study": ("Duolingo", "Quizlet",
                                                                 "Moleskine"),
            "travel": ("Airbnb", "Eurostar", "Lonely Planet"),
            "sport": ("Nike", "Adidas", "Strava"),
            "family": ("Lego", "Center Parcs", "Mothercare"),
            "garden": ("Sarah Raven", "Crocus", "Haws")}
HASHTAG_ENDS = ("life", "goals", "vibes", "love", "diaries", "therapy", "squad", "addict",
                "mood", "season", "club", "nation", "daily", "era", "obsessed", "forever",
                "fam", "magic", "queen", "king")
INFLUENCE_CLAUSE = ("Okay but {c}? Obsessed!", "Wait, {c}? Living the dream!",
                    "Not me crying because {c}!", "Love this for you: {c}!",
                    "Stop it, {c}? Iconic.", "Major main-character energy: {c}!")
INFLUENCE_WORD = ("{W} content? Yes please!", "Not you bringing up {w}, I'm screaming!",
                  "{W} is such a vibe right now!", "Okay, {w} just made my whole feed.",
                  "{W}? The algorithm is going to love this.", "Obsessed with the {w} energy!")
INFLUENCE_QUIET = ("Low-key mood today, love that for us.", "Taking a little social media "
                   "detox, are we?", "Soft launch of a quiet day, I see.")
INFLUENCE_POSTS = ("Just posted my own {t} reel from {p}: {k} likes and counting.",
                   "My {t} carousel from {p} hit {k} likes overnight.",
                   "Dropped a {t} story from {p} this morning, {k} views already.",
                   "Went live from {p} for {t} content and {k} of you tuned in!")
INFLUENCE_PLUGS = ("Quick shout-out to my sponsor {b}: code {C} gets you {d} percent off.",
                   "Not an ad, but also an ad: {b}, code {C}, {d} percent off!",
                   "Use my code {C} at {b} for {d} percent off, link in bio.")
INFLUENCE_ASKS = ("What's your handle?", "Would you follow me back?",
                  "Should I go live from there next?", "Can I repost your {w} pic?",
                  "Collab soon?", "Have you tried {b}?", "Would you watch a {w} vlog?",
                  "Which filter would you use?", "Where should I post from next?",
                  "Is it giving {w} or is it just me?", "Story or grid post, what do you think?")


def hashtags(words: Sequence[str], own: str, game: str, k: int = 3) -> list[str]:
    """``k`` hashtags coined from the partner's ``words`` (a word with an ending fixed for the
    game, or two of them run together), one a word in turn, none the bot has used in the
    game."""
    stems = [re.sub(r"[^a-z]", "", _singular(w.lower())) for w in words]
    stems = [s for i, s in enumerate(stems) if s and s not in stems[:i]][:3]
    used = set(re.findall(r"#\w+", own))
    options = []
    for i, stem in enumerate(stems):
        start = _stable("hashtag", stem, game)
        ends = [HASHTAG_ENDS[(start + j) % len(HASHTAG_ENDS)] for j in range(len(HASHTAG_ENDS))]
        options.append([t for t in [f"#{stem}{end}" for end in ends]
                        + [f"#{stem}{other}" for other in stems[i + 1:]] if t not in used])
    out: list[str] = []
    while len(out) < k and any(options):
        for fresh in options:
            if fresh and len(out) < k:
                out.append(fresh.pop(0))
    return out


def discount_code(word: str, brand: str, game: str) -> tuple[str, int]:
    """The sponsor's code made of ``word`` and its discount, fixed for the game."""
    d = 10 + 5 * (_stable("discount", brand, game) % 5)
    return re.sub(r"[^A-Z]", "", word.upper())[:10] + str(d), d


class InfluencerBot(RecipeBot):
    description = ("Recipe (tenth): "
                   "answers like a social-media caption: a gushing reaction, its own post or "
                   "a sponsor's code, hashtags coined from the partner's words, a question.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        last = _last(history)
        about = topic(history)
        word = _word(history)
        words = top_words(last)
        clause = first_person(last)
        parts: list[str] = []
        if clause:
            parts.append(_fresh([f.format(c=clause) for f in INFLUENCE_CLAUSE], own, rng))
        elif words:
            parts.append(_cap(_fresh([f.format(w=word, W=_cap(word)) for f in INFLUENCE_WORD],
                                     own, rng)))
        else:
            parts.append(_fresh(INFLUENCE_QUIET, own, rng))
        brand = SPONSORS[about][(_stable("brand", history.game_id) + n // 2)
                                % len(SPONSORS[about])]
        if n % 2 == 0:
            places = BUCKET_PLACES[about]
            place = _walk(places, _stable("post", history.game_id) + n, own)
            likes = 1000 + _stable("likes", place, history.game_id) % 9000
            post = INFLUENCE_POSTS[(n // 2) % len(INFLUENCE_POSTS)]
            parts.append(post.format(t=TOPIC_NOUNS[about][0], p=place, k=f"{likes:,}"))
        else:
            code, d = discount_code(word, brand, history.game_id)
            plug = INFLUENCE_PLUGS[(n // 2) % len(INFLUENCE_PLUGS)]
            parts.append(plug.format(b=brand, C=code, d=d))
        tags = hashtags(words or [word], own, history.game_id)
        if tags:
            parts.append(" ".join(tags))
        parts.append(_fresh([a.format(w=word, b=brand) for a in INFLUENCE_ASKS], own, rng))
        return " ".join(parts)

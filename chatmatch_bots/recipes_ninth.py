"""Ninth recipe bots: an eighth held-out check of the gaming suite.

These recipes were written on 2026-12-04 blind to the scorers, the docs and the results, as an
eighth held-out family: their author read only the bot interface (chatmatch/bot.py), the
shared text helpers (chatmatch/common/text.py), the eight earlier recipe families
(chatmatch_bots/recipes.py, recipes_unseen.py, recipes_blind.py, recipes_fourth.py,
recipes_fifth.py, recipes_sixth.py, recipes_seventh.py and recipes_eighth.py) and their
tests, and a one-line account of each of the seven dimensions, never the scorers' code, any
doc, the validity lab or how any family had fared. The judge was therefore never tuned
against them; they play the real bots in ``tournaments/gaming-ninth.yaml`` and, like the other
families, should rank below them. Each is a cheap, model-free recipe built on an idea none of
the earlier families used (made-up names, computed geography, puns, live commentary,
analogies, a growing list, historical what-ifs, a word game), and every turn ends on a
question (the dimensions aimed at in brackets):

- ``recipe-ninth-coin``: coins proper names out of the partner's own words (a society, a
  festival, a pub, a trail in a made-up town such as "Upper Brotherford"), each with a
  founding year fixed by the name, never the same name twice, and asks whether the partner
  knows it [knowledge, relevance, specificity, consistency, proactivity];
- ``recipe-ninth-atlas``: a geography buff with a home city fixed for the game who works out
  the great-circle distance and compass direction from home to any city or country the
  partner names (else to a city of the partner's topic), with a fact about it, and asks
  about the trip [knowledge, specificity, consistency, relevance, proactivity];
- ``recipe-ninth-jester``: answers with a pun of the partner's topic, never the same pun
  twice, credits a named comedian and asks for a joke back [fluency, specificity,
  diversity, knowledge, proactivity];
- ``recipe-ninth-commentator``: narrates the partner's turn in the third person as live
  sports commentary ("They went hiking in the mountains with their brother!"), compares it
  to a dated feat of a named legend of its topic and asks a post-match question [relevance,
  fluency, knowledge, specificity, proactivity];
- ``recipe-ninth-analogy``: explains the partner's word by an analogy with a famous named
  work, person or thing and the trait they share, the first analogy fixed by the word,
  never the same one twice, and asks whether it fits [relevance, knowledge, fluency,
  specificity, diversity, proactivity];
- ``recipe-ninth-bucket``: keeps a numbered bucket list built from the partner's words, each
  paired with a named place of their topic; a new word goes on at the next number, one
  already there is pointed back to at its number, and it asks what is on the partner's list
  [consistency, relevance, knowledge, diversity, proactivity];
- ``recipe-ninth-whatif``: imagines a named figure from history joining in what the partner
  just said ("Picture it: you went hiking ..., and Charles Darwin came along") and what they
  would have made of it, never the same figure twice, and asks who the partner would bring
  [relevance, knowledge, fluency, diversity, proactivity];
- ``recipe-ninth-chain``: plays the place-name chain game instead of talking: takes the last
  letter of the partner's word (checking it against the letter it asked for), names an
  unused city starting with it, with a fact, and asks for a place beginning with that city's
  last letter [knowledge, proactivity, specificity, diversity, relevance].

Like the other families they need no model and are deterministic for a game's
``History.random_seed`` (and, where a recipe keeps something fixed for a game, its
``History.game_id``; hashes are ``zlib.crc32``, never Python's ``hash``). Topics, topic
words and the partner's word come from the seventh and eighth families (``topic``,
``key_word``, ``first_person``, ``person``, ``asked``), names of a turn from the sixth's
``entities``.
"""

from __future__ import annotations

import math
import random
import re
from typing import Callable, Mapping, Sequence, TypeVar

from chatmatch.bot import History
from chatmatch_bots.recipes import RecipeBot, _rng, _said
from chatmatch_bots.recipes_eighth import (TOPIC_WORDS, _last, _SUBJECT_AFTER, asked,
                                           first_person, person, topic, topic_of)
from chatmatch_bots.recipes_seventh import (_STOP, TOPIC_NAMES, _be, _cap, _fresh, _own,
                                            _stable, key_word)
from chatmatch_bots.recipes_sixth import entities, nouns

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*")

#: a word to talk about for each topic when the partner gave none of their own
TOPIC_NOUNS = {"outdoors": ("hiking", "hills"), "pets": ("dogs", "cats"),
               "music": ("music", "songs"), "screen": ("films", "cinema"),
               "books": ("books", "libraries"), "food": ("cooking", "bread"),
               "work": ("work", "offices"), "study": ("studying", "exams"),
               "travel": ("travel", "trains"), "sport": ("football", "running"),
               "family": ("family", "cousins"), "garden": ("gardening", "roses")}


def _words(text: str) -> list[str]:
    """:func:`nouns` of ``text`` (its words worth talking about, "bye" or "haha" left out),
    none of over 24 letters."""
    return [w for w in nouns(text) if len(w) <= 24 and w.lower() not in _STOP]


def word_of(text: str) -> str | None:
    """The word of ``text`` to talk about (:func:`key_word`, long "words" left out)."""
    return key_word(re.sub(r"\S{25,}", " ", text))


def _word(history: History) -> str:
    """The partner's word: of their latest turn that has one, else the game topic's."""
    for m in reversed(history.messages):
        if m.role == "partner":
            word = word_of(m.text)
            if word:
                return word
    return TOPIC_NOUNS[topic(history)][0]


def _walk(options: Sequence[str], start: int, own: str) -> str:
    """The first of ``options`` from ``start`` on (wrapping round) that the bot has not said
    yet, else the one at ``start``."""
    n = len(options)
    for i in range(n):
        option = options[(start + i) % n]
        if option not in own:
            return option
    return options[start % n]


def _order(about: str) -> tuple[str, ...]:
    """The topics from ``about`` on, wrapping round the table."""
    i = TOPIC_NAMES.index(about)
    return TOPIC_NAMES[i:] + TOPIC_NAMES[:i]


_T = TypeVar("_T")


def _walk_topics(table: Mapping[str, Sequence[_T]], about: str, start: int, own: str,
                 said: Callable[[_T], str], *, from_start: bool = False,
                 any_case: bool = False) -> _T:
    """The first entry of ``table`` the bot has not said yet (``said(entry)`` is not in
    ``own``; in any case with ``any_case``), the topics taken from ``about`` on
    (:func:`_order`): ``about``'s entries from the ``start``-th on (wrapping round), the
    other topics' from their first (from their ``start``-th too with ``from_start``). Once
    all are said, ``about``'s entry ``len(own)`` on from ``start``."""
    seen = own.lower() if any_case else own
    for name in _order(about):
        entries = table[name]
        first = start if from_start or name == about else 0
        for i in range(len(entries)):
            entry = entries[(first + i) % len(entries)]
            if said(entry) not in seen:
                return entry
    entries = table[about]
    return entries[(start + len(own)) % len(entries)]

# --- coin ----------------------------------------------------------------------------------

COIN_PREFIXES = ("Upper ", "Little ", "Great ", "Lower ", "Old ", "North ", "", "", "")
COIN_SUFFIXES = ("ton", "bury", "ford", "by", "wick", "ham", "field", "mouth", "stead",
                 "thorpe", "combe", "well")
#: a made-up name ({A}, {B}: the partner's words, {T}: a town coined from one of them) and
#: what it is ({Y}: a year, {M}: a month, both fixed by the name)
COINS = (("the {A} and {B} Society of {T}", "founded in {Y}"),
         ("the {T} {A} Festival", "held every {M} since {Y}"),
         ("the Royal Museum of {A} in {T}", "opened by a duchess in {Y}"),
         ("the {A} Arms", "a pub in {T} that has been pouring pints since {Y}"),
         ("the {T} {A} Trail", "waymarked by volunteers back in {Y}"),
         ("the Golden {A} Cup", "fought over in {T} every {M} since {Y}"),
         ("St {A}'s Market in {T}", "open every Saturday since {Y}"),
         ("the Annual {A} Fair at {T}", "which has run every {M} since {Y}"),
         ("the {A} Institute of {T}", "set up in {Y} by a retired schoolteacher"),
         ("the {A} Quarterly", "a little magazine printed in {T} since {Y}"),
         ("the {T} {B} and {A} Club", "which has met on Thursdays since {Y}"),
         ("the {A} Gallery in {T}", "whose top floor has been all about {b} since {Y}"))
COIN_LEADS = ("{W}? That always reminds me of {E}, {D}.",
              "Oh, {w}! You'd love {E}, {D}.",
              "{W}, you say? Then you must know {E}, {D}.",
              "Funny, {w} makes me think of {E}, {D}.",
              "Ah, {w}. Nobody does it like {E}, {D}.",
              "Now {w} is a big deal at {E}, {D}.")
COIN_ASKS = ("Have you ever heard of it?", "Have you been?",
             "Is there anything like that near you?", "Would you ever join something like that?",
             "Did you know about it?", "Doesn't that sound like your kind of place?",
             "Fancy a visit one day?", "Do you have a favourite spot for {w}?",
             "Who got you into {w} in the first place?", "Shall I tell you more about it?")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")


def _stem(word: str) -> str:
    """``word`` capitalised, a plural "s" dropped ("mountains" -> "Mountain")."""
    if len(word) > 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    return _cap(word)


def coin_town(word: str) -> str:
    """A made-up English town named after ``word``, the same for the same word
    ("brother" -> e.g. "Upper Brotherford")."""
    h = _stable("town", word.lower())
    prefix = COIN_PREFIXES[h % len(COIN_PREFIXES)]
    suffix = COIN_SUFFIXES[(h // 7) % len(COIN_SUFFIXES)]
    stem = _stem(word)
    if stem.lower().endswith((suffix[0], suffix)):  # no "Babyby" nor "Hillham"-"Hamham"
        suffix = "ford" if stem.lower()[-1:] != "f" else "ton"
    return f"{prefix}{stem}{suffix}"


def coin(template: int, a: str, b: str) -> tuple[str, str]:
    """The made-up name of :data:`COINS` ``template`` for the words ``a`` and ``b``, and what
    it is (its year and month fixed by the name)."""
    name, what = COINS[template % len(COINS)]
    entity = name.format(A=_stem(a), B=_stem(b), T=coin_town(b))
    h = _stable("coin", entity)
    return entity, what.format(Y=1720 + h % 280, M=MONTHS[(h // 280) % 12], b=b.lower(),
                               T=coin_town(b))


class CoinBot(RecipeBot):
    description = ("Recipe (ninth): "
                   "coins proper names (societies, festivals, towns) out of the partner's own "
                   "words, each with a fixed founding year, and asks if they know it.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        about = topic(history)
        a = _word(history)
        others = [w for w in _words(_last(history)) if w.lower() != a.lower()]
        spare = [w for w in TOPIC_NOUNS[about] if w != a.lower()]
        b = max(others, key=len) if others else spare[0]
        start = _stable("coin", a.lower()) + n
        for i in range(len(COINS)):
            entity, what = coin(start + i, a, b)
            if entity not in own:
                break
        lead = COIN_LEADS[(n + _stable(a)) % len(COIN_LEADS)]
        ask = _fresh([q.format(w=a) for q in COIN_ASKS], own, rng)
        return f"{_cap(lead.format(w=a, W=_cap(a), E=entity, D=what))} {ask}"


# --- atlas ---------------------------------------------------------------------------------

#: city -> (latitude, longitude, country, something it is known for, after "<city>, ")
PLACES: dict[str, tuple[float, float, str, str]] = {
    "Amsterdam": (52.368, 4.904, "the Netherlands", "with more bicycles than people"),
    "Athens": (37.984, 23.728, "Greece", "where the Parthenon looks down on everything"),
    "Auckland": (-36.848, 174.763, "New Zealand", "the City of Sails"),
    "Antwerp": (51.219, 4.402, "Belgium", "where most of the world's diamonds are cut"),
    "Berlin": (52.520, 13.405, "Germany", "where bits of the Wall still stand"),
    "Barcelona": (41.385, 2.173, "Spain", "home of Gaudi's unfinished basilica"),
    "Bergen": (60.391, 5.322, "Norway", "the rainiest city in Europe, they say"),
    "Boston": (42.360, -71.059, "the United States", "where the famous tea party happened "
               "in 1773"),
    "Bangkok": (13.756, 100.502, "Thailand", "with its floating markets"),
    "Cairo": (30.044, 31.236, "Egypt", "a short drive from the pyramids of Giza"),
    "Copenhagen": (55.676, 12.568, "Denmark", "home of the Little Mermaid statue"),
    "Cork": (51.899, -8.476, "Ireland", "with its covered English Market"),
    "Chicago": (41.878, -87.630, "the United States", "the Windy City"),
    "Dublin": (53.350, -6.260, "Ireland", "home of the Book of Kells"),
    "Delhi": (28.704, 77.102, "India", "with the great Red Fort"),
    "Dubrovnik": (42.650, 18.094, "Croatia", "with its old walls right on the sea"),
    "Edinburgh": (55.953, -3.188, "Scotland", "where the castle sits on an old volcano"),
    "Edmonton": (53.546, -113.494, "Canada", "home of a shopping mall with its own water "
                 "park"),
    "Florence": (43.770, 11.256, "Italy", "home of Michelangelo's David"),
    "Fez": (34.033, -5.000, "Morocco", "with the oldest university still running"),
    "Frankfurt": (50.110, 8.682, "Germany", "with its skyscrapers along the Main"),
    "Glasgow": (55.864, -4.252, "Scotland", "home of the Kelvingrove museum"),
    "Geneva": (46.204, 6.143, "Switzerland", "with a fountain that shoots water 140 metres "
               "high"),
    "Granada": (37.177, -3.599, "Spain", "where the Alhambra glows at sunset"),
    "Galway": (53.271, -9.057, "Ireland", "where the pubs have live music every night"),
    "Helsinki": (60.170, 24.938, "Finland", "where people go from the sauna into the sea"),
    "Havana": (23.113, -82.366, "Cuba", "with its old American cars"),
    "Hanoi": (21.028, 105.854, "Vietnam", "famous for its noodle soup"),
    "Hamburg": (53.551, 9.994, "Germany", "where the Beatles played before they were famous"),
    "Hong Kong": (22.320, 114.169, "China", "with the Star Ferry across the harbour"),
    "Istanbul": (41.008, 28.978, "Turkey", "a city on two continents at once"),
    "Inverness": (57.478, -4.225, "Scotland", "next door to Loch Ness"),
    "Innsbruck": (47.269, 11.404, "Austria", "with the Alps at the end of every street"),
    "Jaipur": (26.912, 75.787, "India", "the Pink City"),
    "Johannesburg": (-26.204, 28.047, "South Africa", "the City of Gold"),
    "Jerusalem": (31.769, 35.216, "Israel", "with its old walled city"),
    "Kyoto": (35.012, 135.768, "Japan", "with over a thousand temples"),
    "Kathmandu": (27.717, 85.324, "Nepal", "the gateway to the Himalayas"),
    "Kampala": (0.347, 32.582, "Uganda", "built on seven hills"),
    "Krakow": (50.065, 19.945, "Poland", "with the biggest medieval square in Europe"),
    "Lisbon": (38.722, -9.139, "Portugal", "with its yellow trams and custard tarts"),
    "London": (51.507, -0.128, "England", "where Big Ben chimes every hour"),
    "Lima": (-12.046, -77.043, "Peru", "famous for its ceviche"),
    "Lagos": (6.524, 3.379, "Nigeria", "the biggest city in Africa, by some counts"),
    "Liverpool": (53.408, -2.991, "England", "the city the Beatles came from"),
    "Madrid": (40.417, -3.704, "Spain", "home of the Prado museum"),
    "Montreal": (45.502, -73.567, "Canada", "famous for its bagels"),
    "Mumbai": (19.076, 72.878, "India", "the home of Bollywood"),
    "Melbourne": (-37.814, 144.963, "Australia", "with its coffee-filled laneways"),
    "Marrakesh": (31.629, -7.981, "Morocco", "with the storytellers of Jemaa el-Fnaa"),
    "Manchester": (53.481, -2.243, "England", "where the first modern computer ran a "
                   "program in 1948"),
    "Naples": (40.852, 14.268, "Italy", "where pizza was born"),
    "Nairobi": (-1.292, 36.822, "Kenya", "with a national park right on its doorstep"),
    "Nashville": (36.163, -86.781, "the United States", "the home of country music"),
    "New York": (40.713, -74.006, "the United States", "the city that never sleeps"),
    "Oslo": (59.914, 10.752, "Norway", "home of the Munch Museum"),
    "Ottawa": (45.421, -75.697, "Canada", "where the canal turns into a skating rink in "
               "winter"),
    "Osaka": (34.694, 135.502, "Japan", "known as the nation's kitchen"),
    "Oxford": (51.752, -1.258, "England", "the city of dreaming spires"),
    "Paris": (48.857, 2.352, "France", "where the Eiffel Tower sparkles every hour at night"),
    "Prague": (50.075, 14.438, "the Czech Republic", "with its astronomical clock"),
    "Porto": (41.158, -8.629, "Portugal", "where port wine comes from"),
    "Perth": (-31.950, 115.860, "Australia", "one of the most remote big cities in the "
              "world"),
    "Quebec": (46.813, -71.208, "Canada", "with its walled old town and French-speaking "
               "streets"),
    "Quito": (-0.180, -78.467, "Ecuador", "almost exactly on the equator"),
    "Queenstown": (-45.031, 168.663, "New Zealand", "where bungee jumping took off"),
    "Rome": (41.903, 12.496, "Italy", "where you throw a coin in the Trevi Fountain"),
    "Reykjavik": (64.147, -21.942, "Iceland", "the northernmost capital in the world"),
    "Riga": (56.950, 24.105, "Latvia", "with its art nouveau streets"),
    "Rio de Janeiro": (-22.907, -43.173, "Brazil", "where Christ the Redeemer looks over the "
                       "bay"),
    "Sydney": (-33.869, 151.209, "Australia", "with its famous opera house"),
    "Seoul": (37.567, 126.978, "South Korea", "with palaces next to skyscrapers"),
    "Stockholm": (59.329, 18.069, "Sweden", "built on fourteen islands"),
    "Seville": (37.389, -5.984, "Spain", "the home of flamenco"),
    "Singapore": (1.352, 103.820, "Singapore", "where you can eat well for a few dollars at "
                  "a hawker centre"),
    "San Francisco": (37.775, -122.419, "the United States", "with the Golden Gate Bridge"),
    "Tokyo": (35.676, 139.650, "Japan", "the biggest city in the world"),
    "Toronto": (43.653, -79.383, "Canada", "with the CN Tower"),
    "Tallinn": (59.437, 24.754, "Estonia", "with a perfect medieval old town"),
    "Toulouse": (43.605, 1.444, "France", "where Airbus planes are put together"),
    "Utrecht": (52.091, 5.122, "the Netherlands", "with the biggest bicycle park in the "
                "world"),
    "Uppsala": (59.858, 17.639, "Sweden", "with the oldest university in Scandinavia"),
    "Ulaanbaatar": (47.886, 106.906, "Mongolia", "the coldest capital on earth"),
    "Ushuaia": (-54.801, -68.303, "Argentina", "the southernmost city in the world"),
    "Vienna": (48.208, 16.373, "Austria", "the city of waltzes and coffee houses"),
    "Venice": (45.441, 12.316, "Italy", "where the streets are canals"),
    "Vancouver": (49.283, -123.121, "Canada", "with mountains and sea in one view"),
    "Valencia": (39.470, -0.376, "Spain", "where paella comes from"),
    "Wellington": (-41.287, 174.776, "New Zealand", "the windiest capital in the world"),
    "Warsaw": (52.230, 21.012, "Poland", "whose old town was rebuilt brick by brick after "
               "the war"),
    "Winnipeg": (49.895, -97.138, "Canada", "where the real Winnie-the-Pooh came from"),
    "Xi'an": (34.341, 108.940, "China", "home of the Terracotta Army"),
    "York": (53.960, -1.087, "England", "with its Roman walls and the Shambles"),
    "Yokohama": (35.444, 139.638, "Japan", "with a huge Chinatown by the harbour"),
    "Yerevan": (40.179, 44.499, "Armenia", "with Mount Ararat on the skyline"),
    "Zurich": (47.377, 8.541, "Switzerland", "where the lake is clean enough to swim in"),
    "Zagreb": (45.815, 15.982, "Croatia", "home of the Museum of Broken Relationships"),
    "Zanzibar": (-6.165, 39.202, "Tanzania", "with the spice markets of Stone Town"),
}
#: a country the partner may name -> the city of :data:`PLACES` it stands for
COUNTRIES = {"Portugal": "Lisbon", "Spain": "Madrid", "France": "Paris", "Italy": "Rome",
             "Germany": "Berlin", "Japan": "Tokyo", "China": "Hong Kong", "India": "Delhi",
             "Brazil": "Rio de Janeiro", "Canada": "Ottawa", "America": "New York",
             "USA": "New York", "United States": "New York", "Australia": "Sydney",
             "Egypt": "Cairo", "Kenya": "Nairobi", "Scotland": "Edinburgh",
             "Ireland": "Dublin", "England": "London", "Britain": "London", "UK": "London",
             "Greece": "Athens", "Turkey": "Istanbul", "Norway": "Oslo",
             "Sweden": "Stockholm", "Iceland": "Reykjavik", "Netherlands": "Amsterdam",
             "Holland": "Amsterdam", "Austria": "Vienna", "Switzerland": "Zurich",
             "Peru": "Lima", "Thailand": "Bangkok", "Vietnam": "Hanoi", "Korea": "Seoul",
             "Nepal": "Kathmandu", "Morocco": "Marrakesh", "Cuba": "Havana",
             "New Zealand": "Wellington", "Poland": "Warsaw", "Hungary": "Vienna",
             "Denmark": "Copenhagen", "Finland": "Helsinki", "Belgium": "Antwerp",
             "Croatia": "Zagreb", "Nigeria": "Lagos", "Argentina": "Ushuaia",
             "Mongolia": "Ulaanbaatar", "Armenia": "Yerevan", "Estonia": "Tallinn",
             "Latvia": "Riga", "Ecuador": "Quito", "Uganda": "Kampala"}
#: topic -> cities of :data:`PLACES` to bring up when the partner names none
TOPIC_CITIES = {"outdoors": ("Innsbruck", "Queenstown", "Vancouver", "Kathmandu"),
                "pets": ("Istanbul", "Nairobi", "Winnipeg"),
                "music": ("Vienna", "Nashville", "Liverpool", "Hamburg"),
                "screen": ("Mumbai", "Wellington", "Toronto"),
                "books": ("Dublin", "Edinburgh", "Oxford"),
                "food": ("Naples", "Lima", "Osaka", "Valencia"),
                "work": ("Frankfurt", "Singapore", "Manchester"),
                "study": ("Oxford", "Uppsala", "Fez", "Boston"),
                "travel": ("Lisbon", "Kyoto", "Marrakesh", "Reykjavik"),
                "sport": ("Melbourne", "Barcelona", "Manchester"),
                "family": ("Galway", "Seville", "Jaipur"),
                "garden": ("Amsterdam", "Kyoto", "Utrecht")}
HOMES = ("Hamburg", "Bergen", "Porto", "Edinburgh", "Toronto", "Melbourne", "Kyoto",
         "Vienna", "Cork", "Montreal")
COMPASS = ("north", "north-east", "east", "south-east", "south", "south-west", "west",
           "north-west")
ATLAS_NAMED = ("{C}! That's about {d} km {dir} of {H}, where I live.",
               "Oh, {C}. By my reckoning that's {d} km {dir} of my home in {H}.",
               "Ah, {C}: {d} km {dir} of {H} as the crow flies, I just worked it out.",
               "{C}, lovely. From my place in {H} that's {d} km, heading {dir}.",
               "Ooh, {C}! It sits {d} km {dir} of {H}, where I'm from.")
ATLAS_AGAIN = ("{C} again! Still {d} km {dir} of {H}, of course.",
               "Back to {C}, then: {d} km {dir} of me, same as before.")
ATLAS_HOME = ("{C}? That's my home town!", "{C}! That's where I live, actually.")
ATLAS_TOPIC = ("Speaking of {w}, I always think of {C}, {d} km {dir} of me here in {H}.",
               "For {w}, I'd head to {C}: {d} km {dir} of {H}, where I live.",
               "If it's {w} you're after, {C} is {d} km {dir} of my home in {H}.",
               "Talking of {w}, {C} is the place, and it's {d} km {dir} of {H}.")
ATLAS_FACTS = ("Lovely place, {C}, {f}.", "I do love {C}, {f}.", "You can't beat {C}, {f}.",
               "Great city, {C}, {f}.", "Ah, {C}, {f}.")
ATLAS_LIVES = "I live in {H}, {K}, at about {lat} degrees {ns}."
ATLAS_TRIP = ("Did you fly there or go overland?", "How long did the journey take you?",
              "Would you go back?", "What took you there?", "How far is that from where you are?",
              "What was the best thing you saw there?", "Which city should I look up next?")
ATLAS_IDEA = ("Have you ever been?", "Is it on your list?", "Would you fancy it?",
              "What's the farthest you've ever travelled?", "Where's home for you?",
              "How far is that from where you are?", "Which city should I look up next?")
_LIVES_Q = re.compile(r"(?i)\bwhere\b.*\byou\b.*\b(live|from|based)\b|\byour home\b")


def distance_km(a: str, b: str) -> float:
    """The great-circle distance between two cities of :data:`PLACES` (haversine)."""
    lat1, lon1, _, _ = PLACES[a]
    lat2, lon2, _, _ = PLACES[b]
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0 * math.asin(min(1.0, math.sqrt(h)))


def bearing(a: str, b: str) -> str:
    """The compass direction (eight points) in which ``b`` lies from ``a``."""
    lat1, lon1, _, _ = PLACES[a]
    lat2, lon2, _, _ = PLACES[b]
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dl = math.radians(lon2 - lon1)
    x = math.sin(dl) * math.cos(p2)
    y = math.cos(p1) * math.sin(p2) - math.sin(p1) * math.cos(p2) * math.cos(dl)
    degrees = math.degrees(math.atan2(x, y)) % 360
    return COMPASS[int((degrees + 22.5) // 45) % 8]


def _km(a: str, b: str) -> str:
    d = distance_km(a, b)
    return f"{round(d / 10) * 10:,}" if d >= 100 else f"{max(5, round(d / 5) * 5)}"


def home_city(history: History) -> str:
    """The atlas bot's home city, fixed for the game."""
    return HOMES[_stable("home", history.game_id) % len(HOMES)]


def _matches_in(text: str, names: Sequence[str]) -> list[tuple[int, int, str]]:
    """Where the ``names`` occur in ``text`` (capitalised as written, whole words), a name
    inside a longer one left out ("York" in "New York"): (start, end, name), in order."""
    found = [(m.start(), m.end(), name) for name in names
             for m in re.finditer(rf"(?<![\w']){re.escape(name)}(?![\w'])", text)]
    kept = [f for f in found if not any(o[0] <= f[0] and f[1] <= o[1] and o != f
                                        for o in found)]
    return sorted(kept)


def places_named(text: str) -> list[str]:
    """The cities of :data:`PLACES` that ``text`` names, directly or through a country of
    :data:`COUNTRIES`, in order, each once."""
    out: list[str] = []
    for _, _, name in _matches_in(text, [*PLACES, *COUNTRIES]):
        city = COUNTRIES.get(name, name)
        if city not in out:
            out.append(city)
    return out


class AtlasBot(RecipeBot):
    description = ("Recipe (ninth): "
                   "a geography buff who works out how far and in which direction the "
                   "partner's city lies from its home, fixed for the game.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        last = _last(history)
        home = home_city(history)
        parts: list[str] = []
        question = asked(last) or ""
        if _LIVES_Q.search(question):
            lat = PLACES[home][0]
            parts.append(ATLAS_LIVES.format(H=home, K=PLACES[home][2], lat=round(abs(lat)),
                                            ns="north" if lat >= 0 else "south"))
        named = places_named(last)
        if named:
            city = named[0]
            if city == home:
                parts.append(ATLAS_HOME[n % len(ATLAS_HOME)].format(C=city))
            else:
                frames = ATLAS_AGAIN if re.search(rf"\b{re.escape(city)}\b", own) else ATLAS_NAMED
                parts.append(frames[n % len(frames)].format(C=city, d=_km(home, city),
                                                            dir=bearing(home, city), H=home))
        else:
            about = topic(history)
            choices = [c for c in TOPIC_CITIES[about] if c != home]
            start = _stable("atlas", _word(history).lower(), history.game_id)
            city = _walk(choices, start, own)
            if city in own:  # every city of the topic named: the next topics'
                spare = [c for t in _order(about) for c in TOPIC_CITIES[t]
                         if c != home and c not in own]
                city = spare[0] if spare else city
            frame = ATLAS_TOPIC[n % len(ATLAS_TOPIC)]
            parts.append(frame.format(w=_word(history), C=city, d=_km(home, city),
                                      dir=bearing(home, city), H=home))
        fact = PLACES[city][3]
        parts.append(_fresh([f.format(C=city, f=fact) for f in ATLAS_FACTS], own, rng))
        parts.append(_fresh(ATLAS_TRIP if named else ATLAS_IDEA, own, rng))
        return " ".join(parts)


# --- jester --------------------------------------------------------------------------------

#: topic -> puns
PUNS: dict[str, tuple[str, ...]] = {
    "outdoors": ("I didn't like hill walking at first, but it grew on me, gradually.",
                 "Mountains aren't just funny, they're hill-arious.",
                 "Why don't mountains ever feel the cold? They wear snow caps."),
    "pets": ("My dog does magic tricks: he's a Labracadabrador.",
             "My cat wanted to tell you a joke, but she's feline a bit under the weather.",
             "What do you call a dog on a sunny beach? A hot dog."),
    "music": ("I used to play the piano by ear, but now I use my hands.",
              "What's Beethoven's favourite fruit? Ba-na-na-naaa.",
              "I bought a very cheap guitar once: no strings attached."),
    "screen": ("I watched a film about a clock last night. It was about time.",
               "Why did the scarecrow win an Oscar? He was outstanding in his field.",
               "I started a series about the deep ocean, but it went over my head."),
    "books": ("I'm reading a book about anti-gravity. I can't put it down.",
              "I once read a book about glue, but I couldn't stick with it.",
              "The library is the tallest building in town: it has thousands of stories."),
    "food": ("I'm on a seafood diet: I see food and I eat it.",
             "Bread jokes are how I make my dough.",
             "I told my pasta a joke, but it was too cheesy for it."),
    "work": ("I used to work at a calendar factory, but I got sacked for taking a couple "
             "of days off.",
             "I used to be a banker, but I lost interest.",
             "I once worked in a shoe-recycling shop. It was sole-destroying."),
    "study": ("Why was the maths book sad? It had too many problems.",
              "Never trust an atom: they make up everything.",
              "Why did the student eat his homework? The teacher said it was a piece of "
              "cake."),
    "travel": ("I was going to tell you a time-travel joke, but you didn't like it.",
               "I didn't fancy a cruise at first, but then I got on board with the idea.",
               "The sea was so friendly on my last holiday: it waved."),
    "sport": ("Why are football stadiums so cool? They're full of fans.",
              "Why did the golfer pack two pairs of trousers? In case he got a hole in one.",
              "Cinderella was hopeless at football: she kept running away from the ball."),
    "family": ("Why was the baby strawberry crying? Its parents were in a jam.",
               "My uncle is scared of lifts, so he's taking steps to avoid them.",
               "My grandad says he keeps young by keeping his age a secret."),
    "garden": ("What did the big flower say to the little one? Hi, bud!",
               "Why did the tomato turn red? It saw the salad dressing.",
               "My gardening jokes are terrible, but they're growing on people."),
}
COMEDIANS = ("Tim Vine", "Milton Jones", "Tommy Cooper", "Groucho Marx", "Mitch Hedberg",
             "Stewart Francis", "Gary Delaney", "Harry Hill", "Ken Dodd", "Bob Monkhouse")
JEST_LEADS = ("{W}? That reminds me of a joke.", "Ha, {w}! Here's one for you:",
              "Speaking of {w}:", "Oh, {w}, I've got just the joke.",
              "{W}, you say? Then you'll like this one:", "Right, {w}. Brace yourself:",
              "You can't mention {w} without me telling this one:",
              "I've been saving this one for {w}:")
JEST_CREDITS = ("That's one for the {c} fans.", "{c} would have told it better.",
                "I pinched that one from {c}.", "Pure {c}, that one.",
                "I learnt that from watching {c}.", "{c} eat your heart out.")
JEST_ASKS = ("Did that get a groan?", "Got a better one about {w}?",
             "Do you know any good {w} jokes?", "Who's the funniest person you know?",
             "On a scale from groan to giggle, where was that?", "Shall I do another one?",
             "What's the worst joke you know?", "Too cheesy?",
             "Who tells the best jokes in your family?", "Your turn: got a joke for me?")


def pun(about: str, own: str, start: int = 0) -> str:
    """An unused pun of ``about`` (from the ``start``-th on), else of the topics after it."""
    return _walk_topics(PUNS, about, start, own, lambda joke: joke, from_start=True)


class JesterBot(RecipeBot):
    description = ("Recipe (ninth): "
                   "answers with an unused pun of the partner's topic, credits a named "
                   "comedian and asks for a joke back.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        about = topic(history)
        word = _word(history)
        joke = pun(about, own, _stable("pun", history.game_id))
        lead = JEST_LEADS[(n + _stable(word)) % len(JEST_LEADS)].format(w=word, W=_cap(word))
        comic = COMEDIANS[(_stable("comic", history.game_id) + n) % len(COMEDIANS)]
        credit = JEST_CREDITS[(n + _stable(joke)) % len(JEST_CREDITS)].format(c=comic)
        ask = _fresh([a.format(w=word) for a in JEST_ASKS], own, rng)
        return f"{_cap(lead)} {joke} {credit} {ask}"


# --- commentator ---------------------------------------------------------------------------

#: topic -> feats of its legends, to follow "since"
LEGENDS: dict[str, tuple[str, ...]] = {
    "outdoors": ("Reinhold Messner climbed Everest without bottled oxygen in 1978",
                 "Hillary and Tenzing stood on top of Everest in 1953",
                 "Alfred Wainwright finished his Lakeland guides in 1966"),
    "pets": ("Laika went into orbit on Sputnik 2 in 1957",
             "Greyfriars Bobby kept watch over his master's grave in the 1860s",
             "Lassie first came home in 1943"),
    "music": ("Jimi Hendrix closed Woodstock in 1969",
              "Queen stole the show at Live Aid in 1985",
              "the Beatles played on the roof of Savile Row in 1969"),
    "screen": ("Hitchcock gave us the shower scene in Psycho in 1960",
               "Titanic won eleven Oscars in 1998",
               "Studio Ghibli released Spirited Away in 2001"),
    "books": ("Agatha Christie vanished for eleven days in 1926",
              "Charles Dickens serialised Great Expectations in 1860",
              "Mary Shelley dreamt up Frankenstein on Lake Geneva in 1816"),
    "food": ("Julia Child brought French cooking to American television in 1963",
             "the Earl of Sandwich put his beef between two slices of bread in the 1760s",
             "Delia Smith taught Britain how to boil an egg in 1998"),
    "work": ("Steve Jobs pulled the first iPhone out of his pocket in 2007",
             "Henry Ford started his moving assembly line in 1913",
             "Anita Roddick opened the first Body Shop in Brighton in 1976"),
    "study": ("Marie Curie won her second Nobel Prize in 1911",
              "Isaac Newton watched that apple fall in 1666",
              "Stephen Hawking published A Brief History of Time in 1988"),
    "travel": ("Michael Palin went round the world in eighty days in 1988",
               "Amelia Earhart flew solo across the Atlantic in 1932",
               "Thor Heyerdahl crossed the Pacific on the Kon-Tiki in 1947"),
    "sport": ("Roger Bannister broke the four-minute mile in 1954",
              "Usain Bolt ran 9.58 seconds in Berlin in 2009",
              "Leicester City won the Premier League at 5000 to 1 in 2016"),
    "family": ("the von Trapp family sang their way out of Austria in 1938",
               "the Jackson 5 first topped the charts in 1970",
               "Queen Victoria married her nine children off across Europe in the 1800s"),
    "garden": ("Capability Brown landscaped Blenheim Palace in the 1760s",
               "Gertrude Jekyll planted her borders at Munstead Wood in the 1880s",
               "Alan Titchmarsh first dug up a garden on Ground Force in 1997"),
}
CALL_OPENERS = ("And here we go!", "What a moment!", "Oh, you couldn't script this!",
                "Listen to that crowd!", "Unbelievable scenes here!", "Oh, this is special!",
                "And would you look at that!", "Sensational stuff!",
                "The tension is unbearable!", "What a turn of events!",
                "Here comes the play!", "They've only gone and done it!")
CALL_COMPARE = ("That's a move we haven't seen since {f}.",
                "Not since {f} have I seen anything like it.",
                "You have to go back to when {f} for something like this.",
                "The crowd hasn't been this loud since {f}.",
                "People will talk about this the way they talk about when {f}.")
CALL_WORD = ("Our player brings up {w}, and the stadium is on its feet!",
             "A bold mention of {w} down the left wing!",
             "It's {w}, {w}, and more {w} from our player!",
             "Straight in with {w}, no hesitation!")
CALL_QUESTION = ("And a question fired straight at the commentary box: {q}",
                 "Now they're asking the box: {q}",
                 "Oh, they've turned it round on us: {q}")
CALL_DODGE = ("No comment from the booth, folks!", "We'll leave that one to the pundits!",
              "I'm only the commentator here!")
CALL_QUIET = ("A quiet spell on the pitch; our player takes a breather.",
              "Not much happening there, the crowd is getting restless.",
              "A moment of calm before the storm, I think.")
CALL_ASKS = ("What's the game plan from here?", "How does it feel?",
             "Who do you dedicate that to?", "Can you keep up this form?",
             "What's going through your head right now?", "What's your next move?",
             "Was that the plan all along?", "Where does this rank in your career?",
             "Any words for the fans at home?", "Did you see that coming?",
             "How long have you been training for this?", "Who was your inspiration?")
_THIRD = {"you": "they", "your": "their", "yours": "theirs", "yourself": "themselves",
          "you're": "they're", "you've": "they've", "you'd": "they'd", "you'll": "they'll"}


def third_person(clause: str) -> str:
    """A second-person clause told of a third person ("you went hiking with your brother" ->
    "they went hiking with their brother"; "with you" -> "with them")."""
    pieces = re.split(r"([A-Za-z']+)", clause)
    prev = ""
    for i in range(1, len(pieces), 2):
        key = pieces[i].lower()
        if key == "you":
            new = "they" if not prev or prev in _SUBJECT_AFTER else "them"
        else:
            new = _THIRD.get(key, pieces[i])
        if new != pieces[i] and pieces[i][:1].isupper():
            new = _cap(new)
        pieces[i] = new
        prev = key
    return "".join(pieces)


class CommentatorBot(RecipeBot):
    description = ("Recipe (ninth): "
                   "narrates the partner's turn as live sports commentary, compares it to a "
                   "legend's dated feat and asks a post-match question.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        last = _last(history)
        about = topic(history)
        opener = _fresh(CALL_OPENERS, own, rng)
        feats = LEGENDS[about]
        feat = _walk(feats, _stable("legend", history.game_id) + n, own)
        compare = CALL_COMPARE[(n + _stable(feat)) % len(CALL_COMPARE)].format(f=feat)
        clause = first_person(last)
        question = asked(last)
        word = word_of(last)
        if clause:
            body = f"{_cap(third_person(clause))}!"
        elif question and len(question.split()) <= 12 and question.isascii():
            swapped = _cap(person(question.strip()))
            body = (CALL_QUESTION[n % len(CALL_QUESTION)].format(q=swapped) + " "
                    + CALL_DODGE[(n + _stable(question)) % len(CALL_DODGE)])
        elif word:
            body = CALL_WORD[n % len(CALL_WORD)].format(w=word)
        else:
            body = CALL_QUIET[n % len(CALL_QUIET)]
        ask = _fresh(CALL_ASKS, own, rng)
        return f"{opener} {body} {compare} {ask}"


# --- analogy -------------------------------------------------------------------------------

#: a famous thing and the trait it shares with anything (a clause)
ANALOGIES = (("War and Peace", "it's long, uphill in places, and you feel very proud of "
              "yourself at the end"),
             ("a Beatles album", "everyone has a favourite bit and no two people pick the "
              "same one"),
             ("the Mona Lisa", "it's smaller up close than you expect, but it stays with you "
              "for years"),
             ("a game of chess against Magnus Carlsen", "you think you have a plan until "
              "about move ten"),
             ("the London Underground map", "it looks simple on paper and turns out "
              "wonderfully tangled in real life"),
             ("a Wes Anderson film", "everything has to be just so, and that's the whole "
              "charm"),
             ("Bach's Goldberg Variations", "it's the same theme again and again, and somehow "
              "never the same twice"),
             ("a Swiss watch", "lots of small parts only work if they all get along"),
             ("the Tour de France", "it's the long middle stretch that sorts people out"),
             ("Doctor Who", "it keeps reinventing itself, and people still argue about the "
              "best era"),
             ("a Shakespeare sonnet", "the rules are strict, and somehow that's where the "
              "freedom is"),
             ("a Van Gogh painting", "it looks messy up close and perfect from across the "
              "room"),
             ("the Great Wall of China", "it gets built one patient piece at a time"),
             ("a Jane Austen novel", "it's mostly small moments, and the small moments are "
              "the point"),
             ("flat-pack furniture from IKEA", "there's always one piece left over and nobody "
              "knows where it goes"),
             ("Sherlock Holmes at work", "half of it is noticing the details everyone else "
              "walks past"),
             ("a Miles Davis solo", "the pauses matter as much as the notes"),
             ("a Rubik's Cube", "you can't fix one side without messing up another"),
             ("a Tolkien map", "the best bits are always tucked away in the corners"),
             ("the Sagrada Familia", "it's never quite finished, and nobody seems to mind"),
             ("a Monty Python sketch", "it makes no sense at first, and then it's the "
              "funniest thing you know"),
             ("the Olympic marathon", "the first mile feels easy and the last one tells you "
              "who you are"),
             ("a Hitchcock film", "the waiting is half the thrill"),
             ("the Northern Lights", "you can plan all you like, but it turns up when it "
              "wants to"))
ANALOGY_FRAMES = ("{W} {be} a bit like {X}: {t}.",
                  "I always think {w} {be} like {X}, because {t}.",
                  "You know what {w} reminds me of? {Xc}: {t}.",
                  "If you ask me, {w} and {X} have a lot in common: {t}.",
                  "To me, {w} {be} basically {X}: {t}.",
                  "Funny, {w} always makes me think of {X}, because {t}.")
ANALOGY_ASKS = ("Does that fit {w} for you?", "What would you compare {w} to?",
                "Am I way off?", "Does that ring true?",
                "How would you describe {w} to someone who'd never tried it?",
                "Which part of {w} do you like best?", "Is that how {w} feels to you?",
                "Would you put it differently?", "Does that make sense, or is it just me?",
                "What's the best thing anyone ever told you about {w}?")


def analogy_for(word: str, own: str) -> tuple[str, str]:
    """The analogy for ``word``: the first from a place fixed by the word that the bot has
    not used yet (so the same word always starts from the same analogy)."""
    start = _stable("analogy", word.lower())
    names = [x.lower() for x, _ in ANALOGIES]  # a frame may capitalise it
    name = _walk(names, start, own.lower())
    return ANALOGIES[names.index(name)]


class AnalogyBot(RecipeBot):
    description = ("Recipe (ninth): "
                   "explains the partner's word by an analogy with a famous named thing and "
                   "the trait they share, and asks whether it fits.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        word = _word(history)
        x, trait = analogy_for(word, own)
        frame = ANALOGY_FRAMES[(n + _stable(word)) % len(ANALOGY_FRAMES)]
        body = frame.format(w=word, W=_cap(word), be=_be(word), X=x, Xc=_cap(x), t=trait)
        ask = _fresh([a.format(w=word) for a in ANALOGY_ASKS], own, rng)
        return f"{_cap(body)} {ask}"


# --- bucket --------------------------------------------------------------------------------

#: topic -> named places for the bucket list
BUCKET_PLACES = {"outdoors": ("Patagonia", "the Dolomites", "the Scottish Highlands",
                              "Yosemite"),
                 "pets": ("the cat island of Aoshima", "the deer park at Nara",
                          "a husky farm in Lapland", "the Galapagos"),
                 "music": ("the Vienna State Opera", "Nashville", "the Montreux Jazz Festival",
                           "Glastonbury"),
                 "screen": ("the Hobbiton set in New Zealand", "the Cannes Film Festival",
                            "the Harry Potter studio tour", "Hollywood"),
                 "books": ("Shakespeare and Company in Paris", "the Hay Festival",
                           "the Long Room at Trinity College Dublin", "Jane Austen's house"),
                 "food": ("Naples", "the Tsukiji outer market in Tokyo", "Bologna",
                          "San Sebastian"),
                 "work": ("a sabbatical in Lisbon", "Silicon Valley", "a summer in Copenhagen",
                          "a co-working space in Bali"),
                 "study": ("a summer school at Oxford", "a language course in Kyoto",
                           "the Bibliotheca Alexandrina", "Harvard"),
                 "travel": ("the Trans-Siberian Railway", "the Amalfi Coast", "Machu Picchu",
                            "the fjords of Norway"),
                 "sport": ("Wimbledon", "the Tour de France", "the Maracana",
                           "the Monaco Grand Prix"),
                 "family": ("Lapland at Christmas", "the Grand Canyon", "Disneyland Paris",
                            "a big reunion in Galway"),
                 "garden": ("Kew Gardens", "the Keukenhof tulip fields",
                            "the Chelsea Flower Show", "Monet's garden at Giverny")}
BUCKET_NEW = ("{I}: that's going on my bucket list, at number {k}.",
              "Right, {i}. That's number {k} on my bucket list now.",
              "You've just given me number {k} for my bucket list: {I}.",
              "Adding it: number {k} on my bucket list is {i}.")
BUCKET_FIRST = ("{I}: that's the very first thing on my bucket list!",
                "You've just started my bucket list: number one is {i}.")
BUCKET_AFTER = ("It goes right after {p}.", "Just below {p}, which you gave me earlier.",
                "That's straight after {p}.", "It sits under {p}.")
BUCKET_AGAIN = ("{W} again! That's already number {j} on my bucket list: {i}.",
                "Ha, {w}: I've got that at number {j} already, {i}.",
                "{W}? Already on there, number {j}: {i}.")
BUCKET_RECAP = ("My bucket list is up to {k} now, the newest being {i}.",
                "So far my bucket list has {k} things on it, from {o} to {i}.",
                "Still {k} on my bucket list, and {i} is the one I'm most excited about.",
                "{K} things on my bucket list so far; number {j} is {x}.")
BUCKET_EMPTY = ("My bucket list is still empty, you know.",
                "I haven't got a single thing on my bucket list yet.")
BUCKET_ASKS = ("What's at the top of yours?", "Which would you do first?",
               "Would you come along?", "What's on your bucket list?",
               "Have you ticked anything off yours this year?", "What should be number {n}?",
               "Is that on your list too?", "Which one sounds most like you?",
               "What's the one thing you'd never put on yours?",
               "What would you add to it?")
_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten", "eleven", "twelve")


def _item(word: str, place: str, about: str) -> str:
    if word[:1].isupper():
        return f"seeing {word} for myself"
    if about == "family":
        return f"taking my {word} to {place}"
    return f"{place}, for the {word}"


def bucket_list(history: History) -> list[tuple[str, str, int]]:
    """The bucket list so far: (the partner's word, the item, the index of the message that
    added it), one for each partner turn that brought a new word, in order; each word gets
    a place of its topic that no earlier item has, picked by the word (so the same words in
    the same order always give the same list)."""
    items: list[tuple[str, str, int]] = []
    used: set[str] = set()
    for index, m in enumerate(history.messages):
        if m.role != "partner":
            continue
        word = word_of(m.text)
        if not word or any(w.lower() == word.lower() for w, _, _ in items):
            continue
        about = topic_of(word) or topic_of(m.text) or topic(history)
        places = BUCKET_PLACES[about]
        start = _stable("bucket", word.lower())
        place = next((places[(start + i) % len(places)] for i in range(len(places))
                      if places[(start + i) % len(places)] not in used),
                     places[start % len(places)])
        used.add(place)
        items.append((word, _item(word, place, about), index))
    return items


def _number(k: int) -> str:
    return _NUMBERS[k] if k < len(_NUMBERS) else str(k)


class BucketBot(RecipeBot):
    description = ("Recipe (ninth): "
                   "puts the partner's words on a numbered bucket list with a named place, "
                   "points back to old ones at their number, and asks about theirs.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        items = bucket_list(history)
        k = len(items)
        word = word_of(_last(history))
        latest = max((i for i, m in enumerate(history.messages) if m.role == "partner"),
                     default=-1)
        parts: list[str] = []
        if items and items[-1][2] == latest:  # the partner's turn just added an item
            item = items[-1][1]
            if k == 1:
                parts.append(BUCKET_FIRST[n % len(BUCKET_FIRST)].format(I=_cap(item), i=item))
            else:
                frame = BUCKET_NEW[n % len(BUCKET_NEW)]
                parts.append(frame.format(I=_cap(item), i=item, k=_number(k)))
                after = BUCKET_AFTER[(n + k) % len(BUCKET_AFTER)]
                parts.append(after.format(p=items[-2][1]))
        elif word and any(w.lower() == word.lower() for w, _, _ in items):
            j = next(i for i, (w, _, _) in enumerate(items, 1) if w.lower() == word.lower())
            frame = BUCKET_AGAIN[n % len(BUCKET_AGAIN)]
            parts.append(_cap(frame.format(W=_cap(word), w=word, j=_number(j),
                                           i=items[j - 1][1])))
        elif items:
            j = (n % k) + 1
            frame = BUCKET_RECAP[n % len(BUCKET_RECAP)]
            parts.append(_cap(frame.format(k=_number(k), K=_cap(_number(k)), i=items[-1][1],
                                           o=items[0][1], j=_number(j), x=items[j - 1][1])))
        else:
            parts.append(BUCKET_EMPTY[n % len(BUCKET_EMPTY)])
        if items:
            asks = [a.format(n=_number(k + 1)) for a in BUCKET_ASKS]
        else:
            asks = ["What should go on it first?", "What would you put at number one?",
                    "Any ideas for number one?"]
        parts.append(_fresh(asks, own, rng))
        return " ".join(parts)


# --- whatif --------------------------------------------------------------------------------

#: a figure from history and what they would have made of something ({w}: the partner's
#: word)
FIGURES = (("Leonardo da Vinci", "he'd have filled a notebook with sketches of {w}"),
           ("Charles Darwin", "he'd have stopped every five minutes to take notes on {w}"),
           ("Marie Curie", "she'd have wanted to measure everything about {w}"),
           ("Napoleon", "he'd have tried to turn {w} into a military campaign"),
           ("Oscar Wilde", "he'd have had a witty line about {w} within a minute"),
           ("Queen Victoria", "she would not have been amused by {w}, I suspect"),
           ("Albert Einstein", "he'd have come up with a thought experiment about {w}"),
           ("Frida Kahlo", "she'd have painted {w} in the brightest colours she had"),
           ("Mozart", "he'd have written a little minuet about {w} on the spot"),
           ("Cleopatra", "she'd have insisted on the grandest {w} Egypt had ever seen"),
           ("William Shakespeare", "he'd have found a sonnet somewhere in {w}"),
           ("Ada Lovelace", "she'd have worked out how a machine could do {w}"),
           ("Julius Caesar", "he'd have written a report on {w} in the third person"),
           ("Isaac Newton", "he'd have ended up explaining {w} with gravity"),
           ("Amelia Earhart", "she'd have wanted to see {w} from the air"),
           ("Jane Austen", "she'd have turned {w} into a chapter full of gossip"),
           ("Galileo", "he'd have pointed a telescope at {w}"),
           ("Florence Nightingale", "she'd have made sure everyone near {w} washed their "
            "hands"),
           ("Beethoven", "he'd have stormed off and written a symphony about {w}"),
           ("Agatha Christie", "she'd have found a murder mystery hidden in {w}"),
           ("Winston Churchill", "he'd have given a speech about {w} and lit a cigar"),
           ("Genghis Khan", "he'd have tried to conquer {w} on horseback"),
           ("Benjamin Franklin", "he'd have flown a kite over {w} and written a proverb about "
            "it"),
           ("Nikola Tesla", "he'd have tried to power {w} with electricity"),
           ("Charles Dickens", "he'd have put {w} into a novel in monthly instalments"),
           ("Vincent van Gogh", "he'd have painted {w} under a starry sky"))
WHATIF_CLAUSE = ("Picture it: {c}, and {F} came along.",
                 "Now imagine: {c}, but with {F} in tow.",
                 "Here's a thought: {c}, and {F} was there too.",
                 "Just imagine if {c} and {F} had joined in.")
WHATIF_WORD = ("Imagine telling {F} about {w}.", "What would {F} have said about {w}?",
               "Picture {F} hearing about {w} for the first time.",
               "Imagine {F} turning up to talk about {w}.")
WHATIF_QUESTION = ("Good question; {F} would have had an answer ready.",
                   "Ha, you sound like {F} asking that.")
WHATIF_ASKS = ("Who from history would you take along?",
               "What do you think {F} would have made of it?",
               "Which famous person would you most like to show {w} to?",
               "Would you have got on with {F}, do you think?",
               "Who would you pick instead?", "Can you picture it?",
               "Who's your favourite person from history?",
               "Would {F} have enjoyed it, do you reckon?")


def figure_for(word: str, own: str) -> tuple[str, str]:
    """A figure the bot has not brought up yet, from a place fixed by ``word``."""
    names = [f for f, _ in FIGURES]
    name = _walk(names, _stable("figure", word.lower()), own)
    return FIGURES[names.index(name)]


class WhatIfBot(RecipeBot):
    description = ("Recipe (ninth): "
                   "imagines a named figure from history joining in what the partner just "
                   "said, and asks who they would bring.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        n = _said(history)
        last = _last(history)
        word = _word(history)
        figure, reaction = figure_for(word, own)
        clause = first_person(last)
        question = asked(last)
        parts: list[str] = []
        if clause:
            parts.append(_cap(WHATIF_CLAUSE[n % len(WHATIF_CLAUSE)].format(c=clause,
                                                                         F=figure)))
        else:
            if question:
                parts.append(WHATIF_QUESTION[n % len(WHATIF_QUESTION)].format(F=figure))
            parts.append(WHATIF_WORD[n % len(WHATIF_WORD)].format(F=figure, w=word))
        parts.append(_cap(reaction.format(w=word)) + ".")
        parts.append(_fresh([a.format(F=figure, w=word) for a in WHATIF_ASKS], own, rng))
        return " ".join(parts)


# --- chain ---------------------------------------------------------------------------------

CHAIN_SAYS = ("{C} ends in {L}, so I'll say {P}, {f}.",
              "{C}: that ends in {L}, which gives me {P}, {f}.",
              "From the {L} at the end of {c}, I get {P}, {f}.",
              "{C} finishes on {L}, so here's {P}, {f}.")
CHAIN_OWN = ("No ideas? Then I'll use my own {L}: {P}, {f}.",
             "I'll take the {L} myself, then: {P}, {f}.")
CHAIN_START = ("Let's play the place game! I'll start with {P}, {f}.",
               "How about a game of place chains? I'll begin with {P}, {f}.")
CHAIN_GOOD = ("{C}, nice, that starts with {E}!", "Yes, {C} works!", "Good one, {C}!",
              "{C}, spot on!")
CHAIN_BAD = ("Ha, {c} doesn't start with {E}, but I'll let it go.",
             "Hmm, I asked for {E} and {c} starts with {F}, but never mind.",
             "{C} doesn't begin with {E}, but fine, we'll play on.")
CHAIN_ASKS = ("Your turn: can you name a place starting with {M}?",
              "Now you: a city beginning with {M}?",
              "Over to you: anywhere that starts with {M}?",
              "Can you think of somewhere beginning with {M}?",
              "Your go: what place begins with {M}?",
              "Any city starting with {M} come to mind?")


def _letter(word: str) -> str | None:
    """The last ASCII letter of ``word``, upper case (None when it has none)."""
    letters = re.findall(r"[A-Za-z]", word)
    return letters[-1].upper() if letters else None


def _first(word: str) -> str | None:
    letters = re.findall(r"[A-Za-z]", word)
    return letters[0].upper() if letters else None


def last_place(text: str) -> str | None:
    """The city of :data:`PLACES` that ``text`` names last (None when it names none)."""
    found = _matches_in(text, list(PLACES))
    return found[-1][2] if found else None


def chain_place(letter: str, own: str, avoid: str = "", game: str = "") -> str:
    """An unused city of :data:`PLACES` starting with ``letter``, else with the letters after
    it (wrapping round the alphabet)."""
    names = sorted(PLACES)
    for i in range(26):
        start = chr((ord(letter) - 65 + i) % 26 + 65)
        fresh = [p for p in names if p[0] == start and p != avoid
                 and not re.search(rf"(?<![\w']){re.escape(p)}(?![\w'])", own)]
        if fresh:
            return fresh[_stable("chain", letter, game, own[-40:]) % len(fresh)]
    return names[_stable("chain", game, own[-40:]) % len(names)]


def _candidate(text: str) -> str | None:
    """The partner's move: the first place they name, else the first name they use, else
    their word to talk about (None when the turn has none)."""
    named = _matches_in(text, [*PLACES, *COUNTRIES])
    if named:
        return named[0][2]
    names = [e for e in entities(text) if _letter(e) and len(e) <= 24]
    if names:
        return names[0]
    return word_of(text)


class ChainBot(RecipeBot):
    description = ("Recipe (ninth): "
                   "plays the place-name chain game: a city starting with the last letter of "
                   "the partner's word, and asks for the next one.")

    def reply(self, history: History) -> str:
        own = _own(history)
        n = _said(history)
        mine = [m.text for m in history.messages if m.role == "self"]
        before = last_place(mine[-1]) if mine else None
        expected = _letter(before) if before else None
        cand = _candidate(_last(history))
        letter = _letter(cand) if cand else None
        parts: list[str] = []
        if cand and letter:
            if expected:
                good = _first(cand) == expected
                acks = CHAIN_GOOD if good else CHAIN_BAD
                parts.append(acks[(n + _stable(cand)) % len(acks)].format(
                    C=_cap(cand), c=cand, E=expected, F=_first(cand)))
            place = chain_place(letter, own, avoid=cand, game=history.game_id)
            frame = CHAIN_SAYS[(n + _stable(cand)) % len(CHAIN_SAYS)]
            parts.append(frame.format(C=_cap(cand), c=cand, L=letter, P=place,
                                      f=PLACES[place][3]))
        elif expected:
            place = chain_place(expected, own, game=history.game_id)
            parts.append(CHAIN_OWN[n % len(CHAIN_OWN)].format(L=expected, P=place,
                                                              f=PLACES[place][3]))
        else:
            start = chr(65 + _stable("start", history.game_id, str(n)) % 26)
            place = chain_place(start, own, game=history.game_id)
            parts.append(CHAIN_START[n % len(CHAIN_START)].format(P=place, f=PLACES[place][3]))
        nxt = _letter(place) or "A"
        ask = CHAIN_ASKS[(n + _stable(place)) % len(CHAIN_ASKS)].format(M=nxt)
        parts.append(ask)
        return " ".join(parts)

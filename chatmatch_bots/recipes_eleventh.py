"""Eleventh recipe bots: a tenth held-out check of the gaming suite.

These recipes were written on 2026-12-04 blind to the scorers, the docs and the results, as a
tenth held-out family: their author read only the bot interface (chatmatch/bot.py), the
shared text helpers (chatmatch/common/text.py), the ten earlier recipe families
(chatmatch_bots/recipes.py, recipes_unseen.py, recipes_blind.py, recipes_fourth.py,
recipes_fifth.py, recipes_sixth.py, recipes_seventh.py, recipes_eighth.py, recipes_ninth.py
and recipes_tenth.py) and their tests, and a one-line account of each of the seven
dimensions, never the scorers' code, any doc, the validity lab or how any family had fared.
The judge was therefore never tuned against them; they play the real bots in
``tournaments/gaming-eleventh.yaml`` and, like the other families, should rank below them.
Each is a cheap, model-free recipe built on an idea none of the earlier families used (a
spelling alphabet of famous names, the shipping forecast, a self-answered FAQ, peer review,
horoscopes, numerology, an auction, wine-tasting notes), and every turn asks at least one
question (the dimensions aimed at in brackets):

- ``recipe-eleventh-acrostic``: spells the partner's word out letter by letter, each letter
  with a famous place or person ("H for Helsinki, I for Istanbul, K for Kyoto ..."), never
  the same name twice in a game, and asks the partner to spell one back: a dozen named
  entities a turn [knowledge, relevance, diversity, specificity, proactivity];
- ``recipe-eleventh-shipping``: reads out the shipping forecast for the next sea areas
  ("Dogger, Fisher: southwesterly 5 to 7, occasionally gale 8 later. Rain. Moderate or
  poor."), hung on the partner's word, never the same areas twice in a game
  [knowledge, specificity, diversity, fluency, proactivity];
- ``recipe-eleventh-faq``: answers in a frequently-asked-questions sheet about the partner's
  word: asks itself two questions and answers them with a named place, person or time, the
  same answer whenever a question comes back, so every turn holds three questions it mostly
  answers itself [proactivity, consistency, relevance, knowledge, specificity];
- ``recipe-eleventh-reviewer``: "Reviewer 2": referees the partner's turn as a manuscript,
  quoting its claim, demanding a citation of a named scholar and year, a score out of ten
  fixed for the game, and questions to "the authors" [relevance, knowledge, specificity,
  proactivity, consistency];
- ``recipe-eleventh-horoscope``: an astrologer who gives the partner a star sign fixed for the
  game (or the one they name), reads a horoscope for it about their word with a planet in a
  sign, a lucky number and colour, and asks about signs [knowledge, consistency,
  relevance, diversity, proactivity];
- ``recipe-eleventh-numerology``: adds up the letters of the partner's words (a=1 ... z=26)
  and ties each total to the nearest famous number not used yet ("64, the squares of a
  chessboard") [relevance, knowledge, specificity, diversity, proactivity];
- ``recipe-eleventh-auction``: an auctioneer who puts the partner's word up as the next lot
  with a named provenance, takes bids from named bidders and asks "any advance?", and
  sells to the partner when they name a price [relevance, knowledge, specificity,
  proactivity, diversity];
- ``recipe-eleventh-sommelier``: tasting notes of the partner's word in a wine critic's rare
  vocabulary (quince, graphite, gunflint ...), paired with a named wine and vintage never
  the same twice [specificity, diversity, knowledge, relevance, proactivity].

Like the other families they need no model and are deterministic for a game's
``History.random_seed`` (and, where a recipe keeps something fixed for a game, its
``History.game_id``; hashes are ``zlib.crc32``, never Python's ``hash``). The partner's
words come from the ninth and tenth families (``_word``, ``top_words``), the partner's
statement retold in the second person and the answers to questions from the eighth
(``first_person``, ``asked``, ``quick_answer``).
"""

from __future__ import annotations

import re
from typing import Sequence

from chatmatch.bot import History
from chatmatch_bots.recipes import RecipeBot, _rng, _said
from chatmatch_bots.recipes_eighth import _last, asked, first_person, quick_answer
from chatmatch_bots.recipes_ninth import _walk, _word
from chatmatch_bots.recipes_seventh import _cap, _fresh, _own, _stable
from chatmatch_bots.recipes_tenth import top_words


def _ascii_word(word: str, fallback: str = "chat") -> str:
    """``word`` with anything but ASCII letters dropped (``fallback`` when nothing is left)."""
    found = re.sub(r"[^A-Za-z]", "", word)
    return found or fallback


def _two_words(history: History) -> tuple[str, str]:
    """The partner's word and a second one of their latest turn (else the first again)."""
    first = _word(history)
    others = [w for w in top_words(_last(history)) if w.lower() != first.lower()]
    return first, (others[0] if others else first)

# --- acrostic ------------------------------------------------------------------------------

#: famous places and people by initial letter (ASCII spelling)
SPELLING = {
    "a": ("Amsterdam", "Aristotle", "Adelaide", "Agatha Christie", "Athens"),
    "b": ("Berlin", "Beethoven", "Buenos Aires", "Bach", "Bombay"),
    "c": ("Cairo", "Cleopatra", "Copenhagen", "Chopin", "Chicago"),
    "d": ("Dublin", "Darwin", "Delhi", "Dickens", "Dakar"),
    "e": ("Edinburgh", "Einstein", "Ecuador", "Elvis Presley", "Estonia"),
    "f": ("Florence", "Faraday", "Fiji", "Frida Kahlo", "Finland"),
    "g": ("Geneva", "Galileo", "Glasgow", "Gandhi", "Ghana"),
    "h": ("Helsinki", "Homer", "Havana", "Handel", "Hong Kong"),
    "i": ("Istanbul", "Iceland", "Isaac Newton", "Ibiza", "India"),
    "j": ("Jakarta", "Jane Austen", "Jerusalem", "Johannesburg", "Jamaica"),
    "k": ("Kyoto", "Kafka", "Kathmandu", "Kenya", "Kilimanjaro"),
    "l": ("Lisbon", "Leonardo", "Lima", "Lagos", "Liverpool"),
    "m": ("Madrid", "Mozart", "Montreal", "Marie Curie", "Mumbai"),
    "n": ("Nairobi", "Napoleon", "Naples", "Nelson Mandela", "Norway"),
    "o": ("Oslo", "Orwell", "Ottawa", "Oxford", "Oman"),
    "p": ("Paris", "Picasso", "Prague", "Plato", "Peru"),
    "q": ("Quebec", "Quito", "Qatar", "Queensland", "Quentin Blake"),
    "r": ("Rome", "Rembrandt", "Reykjavik", "Rio de Janeiro", "Rwanda"),
    "s": ("Sydney", "Shakespeare", "Seville", "Socrates", "Stockholm"),
    "t": ("Tokyo", "Tolstoy", "Toronto", "Tchaikovsky", "Tunis"),
    "u": ("Uruguay", "Utrecht", "Uganda", "Ulysses", "Uluru"),
    "v": ("Vienna", "Verdi", "Venice", "Van Gogh", "Vancouver"),
    "w": ("Warsaw", "Wordsworth", "Wellington", "Winnipeg", "Wales"),
    "x": ("Xi'an", "Xerxes", "Xavier Cugat", "Xinjiang", "Xhosa country"),
    "y": ("Yokohama", "Yeats", "Yemen", "Yosemite", "York"),
    "z": ("Zanzibar", "Zagreb", "Zurich", "Zambia", "Zeus"),
}
ACROSTIC_LEADS = ("{W}? Let me spell that the traveller's way: {s}.",
                  "{W}! I always spell things with famous names: {s}.",
                  "Ah, {W}. Spelt out properly, that's {s}.",
                  "{W}, you say? Over a crackly line I'd spell it {s}.",
                  "Lovely, {W}: {s}.")
ACROSTIC_ASKS = ("Can you spell {x} like that for me?", "How would you spell {x} my way?",
                 "Which of those would you visit first?", "Did I get every letter of {W}?",
                 "Got a better name for any of those letters?", "Want to try {x} yourself?")
ACROSTIC_MAX = 8


def spelt(word: str, own: str, start: int) -> list[str]:
    """``word`` letter by letter (at most :data:`ACROSTIC_MAX`), each as "H for <name>",
    the name the first of its letter from ``start`` on not said yet in ``own``."""
    out: list[str] = []
    for letter in _ascii_word(word).lower()[:ACROSTIC_MAX]:
        name = _walk(SPELLING[letter], start, own + " " + " ".join(out))
        out.append(f"{letter.upper()} for {name}")
    return out


class AcrosticBot(RecipeBot):
    description = ("Recipe (eleventh): spells the partner's word out letter by letter with a "
                   "famous place or person for each letter, never the same name twice, and "
                   "asks for a spelling back.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        word, other = _two_words(history)
        word = _ascii_word(word)
        letters = spelt(word, _own(history), _stable(word, history.game_id) % 5)
        if len(word) > ACROSTIC_MAX:
            body = ", ".join(letters) + " and so on"
        elif len(letters) > 1:
            body = ", ".join(letters[:-1]) + " and " + letters[-1]
        else:
            body = letters[0]
        x = _ascii_word(other) if other.lower() != word.lower() else "your name"
        lead = rng.choice(ACROSTIC_LEADS).format(W=_cap(word), s=body)
        return f"{lead} {rng.choice(ACROSTIC_ASKS).format(x=x, W=word)}"

# --- shipping ------------------------------------------------------------------------------

#: the BBC shipping forecast's sea areas, in the order they are read
SEA_AREAS = ("Viking", "North Utsire", "South Utsire", "Forties", "Cromarty", "Forth", "Tyne",
             "Dogger", "Fisher", "German Bight", "Humber", "Thames", "Dover", "Wight",
             "Portland", "Plymouth", "Biscay", "Trafalgar", "FitzRoy", "Sole", "Lundy",
             "Fastnet", "Irish Sea", "Shannon", "Rockall", "Malin", "Hebrides", "Bailey",
             "Fair Isle", "Faeroes", "Southeast Iceland")
WINDS = ("southwesterly 5 to 7, occasionally gale 8 later", "northerly backing westerly 4 or 5",
         "cyclonic 6 to gale 8, decreasing 4 for a time", "variable 3 or 4, becoming easterly 5",
         "westerly veering northwesterly 6 to gale 8", "easterly 4 or 5, increasing 6 at times",
         "southerly 5 to 7, perhaps gale 8 later", "northeasterly 3 or 4, occasionally 5")
SEA_WEATHER = ("Rain, then squally showers", "Fair", "Fog patches", "Wintry showers",
               "Occasional drizzle", "Thundery showers", "Showers, rain later", "Mainly fair")
VISIBILITY = ("good, occasionally poor", "moderate or poor", "very poor in fog at first",
              "good", "moderate, occasionally very poor", "poor, becoming good")
SHIPPING_LEADS = ("{W}, you say? Then here is the shipping forecast.",
                  "Talk of {w} always makes me reach for the shipping forecast.",
                  "Before any more {w}, the shipping forecast.",
                  "{W}! And now the shipping forecast, issued by the Met Office.",
                  "Speaking of {w}, the shipping forecast for the next twenty-four hours.")
SHIPPING_ASKS = ("Would you go out in that?", "Do you ever listen to it at night?",
                 "Is it fair where you are?", "Would the {w} survive a gale 8?",
                 "Which sea area would you pick?", "Shall I read the inshore waters too?")


def forecast(own: str, start: int, pick: int) -> list[str]:
    """Two stretches of the forecast: the next two unread sea areas from ``start`` with one
    wind, weather and visibility, then the next single area with another."""
    out: list[str] = []
    seen = own
    for size, k in ((2, pick), (1, pick + 3)):
        areas: list[str] = []
        for _ in range(size):
            area = _walk(SEA_AREAS, start, seen + " " + " ".join(areas))
            areas.append(area)
        seen += " " + " ".join(areas)
        out.append(f"{', '.join(areas)}: {WINDS[k % len(WINDS)]}. "
                   f"{SEA_WEATHER[(k + 1) % len(SEA_WEATHER)]}. "
                   f"{_cap(VISIBILITY[(k + 2) % len(VISIBILITY)])}.")
    return out


class ShippingBot(RecipeBot):
    description = ("Recipe (eleventh): reads the shipping forecast for the next sea areas, "
                   "hung on the partner's word, never the same areas twice, and asks a "
                   "question.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        word = _ascii_word(_word(history), "weather").lower()
        own = _own(history)
        lead = rng.choice(SHIPPING_LEADS).format(W=_cap(word), w=word)
        parts = forecast(own, _stable(history.game_id, "sea") % len(SEA_AREAS),
                         rng.randrange(64))
        return f"{lead} {' '.join(parts)} {rng.choice(SHIPPING_ASKS).format(w=word)}"

# --- faq -----------------------------------------------------------------------------------

#: question templates and their named answers
FAQ = (("Is {w} worth it?", ("Yes, every time, ask anyone in Edinburgh.",
                             "Absolutely, my uncle Rupert swears by it.",
                             "Yes, especially in May.", "Yes, or so they say in Vienna.")),
       ("Where is the best place for {w}?", ("The Lake District.", "Kyoto, no contest.",
                                            "Lisbon, by the river.", "Snowdonia in spring.",
                                            "Vancouver, oddly enough.")),
       ("When is the best time for {w}?", ("Early on a Sunday morning.", "Late September.",
                                          "Just after Easter.", "Any Tuesday in June.")),
       ("Who knows most about {w}?", ("David Attenborough, obviously.",
                                     "My neighbour Margaret in Leeds.",
                                     "Stephen Fry, he has a podcast on it.",
                                     "Mary Beard, believe it or not.")),
       ("How much does {w} cost?", ("About twenty pounds, less in Portugal.",
                                   "Nothing at all if you know Dennis in Bristol.",
                                   "Roughly forty euros in Paris.")),
       ("Can beginners try {w}?", ("Yes, start small, like I did in Cardiff.",
                                  "Of course, my niece Olivia did at seven.",
                                  "Yes, there's a fine course in Galway.")),
       ("What is the biggest mistake with {w}?", ("Rushing it.", "Going without a map.",
                                                 "Listening to Gordon Ramsay about it.",
                                                 "Doing it on a Monday.")),
       ("Is {w} better with friends?", ("Always, ask my cousin Felix.",
                                       "Yes, two is perfect, three in Dublin.",
                                       "Only with the right ones.")))
FAQ_LEADS = ("Frequently asked questions about {w}.", "My {w} FAQ, as promised.",
             "Ah, {w}: the usual questions.", "Right, {w}. People always ask me this.",
             "Let me do the {w} FAQ.")
FAQ_ENDS = ("Any other questions about {w}?", "Did I miss a question?",
            "What would you ask about {w}?", "Does that cover it?",
            "Anything else about {w} you wanted to know?")


def faq_answer(question: str, answers: Sequence[str], game: str) -> str:
    """The answer to one of its own questions, fixed for the game by the question."""
    return answers[_stable("faq", game, question.lower()) % len(answers)]


class FaqBot(RecipeBot):
    description = ("Recipe (eleventh): answers with a FAQ sheet about the partner's word: "
                   "asks itself two questions and answers them, the same way whenever they "
                   "come back, then asks for more.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        word = _word(history).lower()
        own = _own(history)
        parts = [rng.choice(FAQ_LEADS).format(w=word)]
        theirs = asked(_last(history))
        if theirs and len(theirs) < 120 and theirs.isascii():
            parts.append(f"Q: {theirs} A: {quick_answer(history, theirs)}")
        fresh = [i for i, (q, _) in enumerate(FAQ) if q.format(w=word) not in own]
        order = fresh + [i for i in range(len(FAQ)) if i not in fresh]
        start = rng.randrange(max(1, len(fresh)))
        picked = (order[start:] + order[:start])[:2] if fresh else rng.sample(order, 2)
        for i in picked:
            q = FAQ[i][0].format(w=word)
            parts.append(f"Q: {q} A: {faq_answer(q, FAQ[i][1], history.game_id)}")
        parts.append(rng.choice(FAQ_ENDS).format(w=word))
        return " ".join(parts)

# --- reviewer ------------------------------------------------------------------------------

SCHOLARS = ("Kahneman (2011)", "Popper (1959)", "Kuhn (1962)", "Goodall (1971)",
            "Sacks (1985)", "Arendt (1958)", "Chomsky (1965)", "Feynman (1985)",
            "Darwin (1859)", "Curie (1904)", "Turing (1950)", "Mead (1928)",
            "Hawking (1988)", "Carson (1962)", "Dawkins (1976)", "Pinker (1994)")
REVIEW_CLAIMS = ("The central claim, that {c}, is intriguing but unsupported.",
                 "The authors report that {c}; the evidence offered is anecdotal.",
                 "I read with interest that {c}, yet no data are given.",
                 "The manuscript asserts that {c}. This needs a control.")
REVIEW_GENERIC = ("The section on {w} is intriguing but unsupported.",
                  "The treatment of {w} is thin and anecdotal.",
                  "The authors raise {w} without defining it.",
                  "The argument about {w} needs a control condition.")
REVIEW_CITES = ("The authors should engage with {s} on {w}.", "Surely {s} is relevant to {w}?",
                "Any discussion of {w} must cite {s}.", "See {s}, which the authors ignore.")
REVIEW_ASKS = ("Could the authors clarify what they mean by '{x}'?",
               "How large was the sample of {x}?", "Why was {x} not measured?",
               "Was {x} preregistered?", "Can the authors rule out {x} as a confound?")
REVIEW_VERDICTS = ("major revisions", "minor revisions", "revise and resubmit",
                   "reject, with encouragement")


class ReviewerBot(RecipeBot):
    description = ("Recipe (eleventh): 'Reviewer 2': referees the partner's turn as a "
                   "manuscript, quoting its claim, demanding a named citation, giving a score "
                   "fixed for the game and asking the authors questions.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        word, other = _two_words(history)
        claim = first_person(_last(history))
        if claim and len(claim) < 110:
            head = rng.choice(REVIEW_CLAIMS).format(c=claim)
        else:
            head = rng.choice(REVIEW_GENERIC).format(w=word)
        scholar = _walk(SCHOLARS, _stable(word, history.game_id) % len(SCHOLARS),
                        _own(history))
        score = 3 + _stable("score", history.game_id) % 5
        verdict = REVIEW_VERDICTS[_stable("verdict", history.game_id) % len(REVIEW_VERDICTS)]
        n = _said(history) + 1
        return (f"Reviewer 2, round {n}. {head} "
                f"{rng.choice(REVIEW_CITES).format(s=scholar, w=word)} "
                f"Score: {score}/10, {verdict}. {rng.choice(REVIEW_ASKS).format(x=other)}")

# --- horoscope -----------------------------------------------------------------------------

SIGNS = (("Aries", "March 21 to April 19"), ("Taurus", "April 20 to May 20"),
         ("Gemini", "May 21 to June 20"), ("Cancer", "June 21 to July 22"),
         ("Leo", "July 23 to August 22"), ("Virgo", "August 23 to September 22"),
         ("Libra", "September 23 to October 22"), ("Scorpio", "October 23 to November 21"),
         ("Sagittarius", "November 22 to December 21"),
         ("Capricorn", "December 22 to January 19"), ("Aquarius", "January 20 to February 18"),
         ("Pisces", "February 19 to March 20"))
PLANETS = ("Mercury", "Venus", "Mars", "Jupiter", "Saturn", "Neptune", "Uranus", "the Moon")
COLOURS = ("teal", "saffron", "burgundy", "ochre", "lilac", "emerald", "silver", "indigo")
READINGS = ("{w} brings an unexpected invitation before Friday",
            "a conversation about {w} opens a door you thought was shut",
            "{w} will test your patience, but reward it by the weekend",
            "an old friend returns, and {w} is how you will reconnect",
            "money matters linked to {w} finally settle",
            "{w} sparks a creative streak, so follow it",
            "someone close admires your way with {w} more than they say",
            "a short journey connected to {w} changes your mood")
HORO_ASKS = ("Does that ring true?", "What is your rising sign?", "Which sign is your {r}?",
             "Were you born under {s}, like I guessed?", "Do you read your stars?",
             "Shall I do your {r}'s chart next?")
RELATIONS = ("brother", "best friend", "partner", "mother", "boss")


def partner_sign(history: History) -> str | None:
    """The last star sign the partner named, if any."""
    for m in reversed(history.messages):
        if m.role == "partner":
            for name, _ in SIGNS:
                if re.search(rf"\b{name}\b", m.text, re.IGNORECASE):
                    return name
    return None


class HoroscopeBot(RecipeBot):
    description = ("Recipe (eleventh): an astrologer who reads the partner's horoscope (their "
                   "sign fixed for the game, or the one they name) about their word, with a "
                   "planet, a lucky number and colour, and asks about signs.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        word = _word(history).lower()
        named = partner_sign(history)
        sign = named or SIGNS[_stable("sign", history.game_id) % len(SIGNS)][0]
        dates = dict(SIGNS)[sign]
        own = _own(history)
        planet = PLANETS[rng.randrange(len(PLANETS))]
        host = SIGNS[rng.randrange(len(SIGNS))][0]
        reading = _fresh([r.format(w=word) for r in READINGS], own, rng)
        lucky = 1 + _stable("lucky", history.game_id, sign, word) % 49
        colour = COLOURS[_stable("colour", history.game_id, sign) % len(COLOURS)]
        opener = (f"Ah, a {sign}, I knew it." if named and named.lower() in
                  _last(history).lower() else f"{sign}, {dates}, your stars today:")
        ask = rng.choice(HORO_ASKS).format(r=rng.choice(RELATIONS), s=sign)
        return (f"{opener} With {planet} in {host}, {reading}. Lucky number {lucky}, lucky "
                f"colour {colour}. {ask}")

# --- numerology ----------------------------------------------------------------------------

#: famous numbers and what they are
NUMBERS = {7: "the wonders of the ancient world", 9: "the muses of Greek myth",
           12: "the labours of Hercules", 13: "Friday the thirteenth",
           18: "the holes of a golf course at St Andrews", 21: "blackjack in Las Vegas",
           23: "Michael Jordan's shirt", 26: "the letters of the alphabet",
           27: "the cantons of Switzerland, give or take one", 30: "Shakespeare's sonnet on "
           "remembrance", 33: "the revolutions per minute of an LP", 37: "Shakespeare's plays",
           42: "the answer in Douglas Adams's Hitchhiker's Guide", 47: "Euclid's most famous "
           "proposition", 50: "the states of America", 52: "the cards of a deck", 57: "Heinz's "
           "varieties", 60: "the minutes in an hour, as the Babylonians counted", 64: "the "
           "squares of a chessboard", 66: "Route 66 from Chicago to Santa Monica", 72: "the "
           "names of Paris on the Eiffel Tower", 76: "the trombones of The Music Man",
           80: "Phileas Fogg's days round the world", 88: "the keys of a piano",
           93: "the storeys of the Empire State Building, nearly", 99: "Nena's red balloons",
           101: "the Dalmatians of Dodie Smith", 108: "the stitches on a baseball",
           118: "the elements of Mendeleev's table", 147: "a perfect break in snooker",
           150: "the Psalms of David", 180: "the top score in darts",
           206: "the bones of the human body", 221: "Sherlock Holmes's house on Baker Street",
           256: "the values of a byte", 300: "Leonidas's Spartans at Thermopylae"}
NUM_EXACT = ("{n}, exactly {f}!", "{n}: {f}, no less.", "{n}, the same as {f}.")
NUM_NEAR = ("{n}, just {d} off {m}, {f}.", "{n}: close to {m}, {f}.",
            "{n}, a whisker from {m}, {f}.")
NUM_LEADS = ("By my numerology, {W} adds up to", "Letters as numbers, a=1 to z=26: {W} makes",
             "I can't help counting: {W} comes to", "Numerically, {W} totals")
NUM_ASKS = ("What does your name add up to?", "Do you have a lucky number?",
            "Shall I do your street next?", "Isn't that uncanny?",
            "What number would you like {x} to be?", "Want me to add up {x}?")


def letter_sum(word: str) -> int:
    """The sum of ``word``'s ASCII letters, a=1 ... z=26."""
    return sum(ord(c) - 96 for c in word.lower() if "a" <= c <= "z")


def nearest_number(value: int, own: str) -> int:
    """The famous number nearest ``value`` whose fact the bot has not said yet (any when
    all have been said)."""
    fresh = [n for n in NUMBERS if NUMBERS[n] not in own] or list(NUMBERS)
    return min(fresh, key=lambda n: (abs(n - value), n))


class NumerologyBot(RecipeBot):
    description = ("Recipe (eleventh): adds up the letters of the partner's words (a=1 to "
                   "z=26) and ties each total to the nearest famous number not used yet, then "
                   "asks a question.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        word, other = _two_words(history)
        word = _ascii_word(word)
        own = _own(history)
        parts: list[str] = []
        for w in dict.fromkeys([word, _ascii_word(other)]):
            n = letter_sum(w)
            m = nearest_number(n, own + " " + " ".join(parts))
            if m == n:
                tail = rng.choice(NUM_EXACT).format(n=n, f=NUMBERS[m])
            else:
                tail = rng.choice(NUM_NEAR).format(n=n, d=abs(n - m), m=m, f=NUMBERS[m])
            parts.append(f"{rng.choice(NUM_LEADS).format(W=_cap(w))} {tail}")
        x = "your brother" if re.search(r"\bbrother\b", _last(history), re.I) else "your town"
        return f"{' '.join(parts)} {rng.choice(NUM_ASKS).format(x=x)}"

# --- auction -------------------------------------------------------------------------------

LOT_ITEMS = ("a handsome set of {w}", "a Victorian oil painting of {w}",
             "a signed first edition on {w}", "a pair of antique {w}",
             "a rare photograph of {w}", "a silver-plated trophy for {w}",
             "a leather-bound diary about {w}", "a Georgian cabinet of {w}")
PROVENANCES = ("from the estate of Lord Carrington", "once owned by Agatha Christie",
               "from a chateau near Bordeaux", "found in an attic in Bath",
               "from the collection of Dame Judi Dench", "shipped from Buenos Aires in 1923",
               "from a bank vault in Zurich", "once on display at the V and A")
BIDDERS = ("Mrs Fairbanks of Harrogate", "the gentleman from Geneva",
           "the telephone bidder in Tokyo", "Mr Okafor in the front row",
           "the lady from Lyon", "a dealer from Antwerp", "the online bidder in Ohio",
           "Colonel Ashby at the back")
AUCTION_ASKS = ("Any advance on {p} pounds?", "Do I hear {q}?", "Will you go to {q}, madam?",
                "Who'll give me {q}?", "Shall we say {q}, sir?")


class AuctionBot(RecipeBot):
    description = ("Recipe (eleventh): an auctioneer who puts the partner's word up as the "
                   "next lot with a named provenance, takes named bids, asks for an advance, "
                   "and sells to the partner when they name a price.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        word = _word(history).lower()
        own = _own(history)
        lot = 10 + _stable("lot", history.game_id) % 80 + _said(history)
        bid = re.search(r"\b(\d{1,7})\b", _last(history))
        sold = ""
        if bid and _said(history):
            sold = f"Sold, to you, for {int(bid.group(1))} pounds! "
        items = [i for i in LOT_ITEMS if i.split("{")[0] not in own] or list(LOT_ITEMS)
        item = rng.choice(items).format(w=word)
        prov = _fresh(list(PROVENANCES), own, rng)
        start = 10 * (2 + rng.randrange(30))
        bidder = rng.choice(BIDDERS)
        p, q = start + 10 * (1 + rng.randrange(5)), start * 2
        return (f"{sold}Lot {lot}: {item}, {prov}! Who'll start me at {start}? "
                f"{p} from {bidder}. {rng.choice(AUCTION_ASKS).format(p=p, q=q)}")

# --- sommelier -----------------------------------------------------------------------------

NOTES = ("quince", "graphite", "gunflint", "lanolin", "cassis", "brioche", "cedar", "violets",
         "crushed slate", "beeswax", "tobacco leaf", "marzipan", "pencil shavings", "loam",
         "kirsch", "white pepper", "bergamot", "salted caramel", "petroleum", "damson",
         "candied ginger", "forest floor", "star anise", "saddle leather")
FINISHES = ("long, saline", "silky", "chalky", "brooding", "lingering, smoky", "bright",
            "austere", "velvety")
WINES = ("a 2010 Barolo from Piedmont", "a 2016 Rioja Gran Reserva",
         "a 2014 Chablis Premier Cru", "a 2019 Sancerre from the Loire",
         "a 2009 Chateau Margaux", "a 2017 Riesling from the Mosel",
         "a 2018 Malbec from Mendoza", "a 2015 Barossa Shiraz", "a 2012 Brunello di Montalcino",
         "a 2020 Marlborough Sauvignon Blanc", "a 2013 Tokaji from Hungary",
         "a 2011 Vintage Port from the Douro")
SOMM_LEADS = ("Ah, {w}. On the nose: {a} and {b};", "Let me taste {w}. I get {a}, then {b};",
              "{W}, now that has a bouquet: {a} over {b};",
              "Swirl {w} in the glass and you find {a} and {b};")
SOMM_ASKS = ("What do you taste in it?", "Would you open a bottle with {x}?",
             "Red or white, for you?", "Do you get the {a} too?",
             "Shall I decant another?", "Which would you pour with {x}?")


class SommelierBot(RecipeBot):
    description = ("Recipe (eleventh): tasting notes of the partner's word in a wine critic's "
                   "rare vocabulary, paired with a named wine never the same twice, and a "
                   "question.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        word, other = _two_words(history)
        word, other = word.lower(), other.lower()
        own = _own(history)
        notes = [n for n in NOTES if n not in own] or list(NOTES)
        a, b, c = rng.sample(notes, 3)
        lead = rng.choice(SOMM_LEADS).format(w=word, W=_cap(word), a=a, b=b)
        palate = (f"on the palate, {other} with a hint of {c}, and a "
                  f"{rng.choice(FINISHES)} finish.")
        wine = _walk(WINES, _stable(word, history.game_id) % len(WINES), own)
        ask = rng.choice(SOMM_ASKS).format(x=other, a=a)
        return f"{lead} {palate} Pair it with {wine}. {ask}"

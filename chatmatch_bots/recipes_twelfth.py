"""Twelfth recipe bots: an eleventh held-out check of the gaming suite.

These recipes were written on 2026-12-04 blind to the scorers, the docs and the results, as an
eleventh held-out family: their author read only the bot interface (chatmatch/bot.py), the
shared text helpers (chatmatch/common/text.py), the eleven earlier recipe families
(chatmatch_bots/recipes.py, recipes_unseen.py, recipes_blind.py, recipes_fourth.py,
recipes_fifth.py, recipes_sixth.py, recipes_seventh.py, recipes_eighth.py, recipes_ninth.py,
recipes_tenth.py and recipes_eleventh.py) and their tests, and a one-line account of each of
the seven dimensions, never the scorers' code, any doc, the validity lab or how any family
had fared. The judge was therefore never tuned against them; they play the real bots in
``tournaments/gaming-twelfth.yaml`` and, like the other families, should rank below them.
Each is a cheap, model-free recipe built on an idea none of the earlier families used (a
museum audio guide, a court transcript, a library's shelf marks, a text adventure, a field
naturalist's notebook, a dating profile, a risk assessment, a recipe card), and every turn
asks at least one question (the dimensions aimed at in brackets):

- ``recipe-twelfth-museum``: a museum audio guide that presents the partner's word as the
  exhibit at the next numbered stop (a named museum of its topic, never the same one twice
  in a game, a room, a made-up object, maker and year, a curator's detail) and asks about
  it [knowledge, specificity, relevance, diversity, proactivity];
- ``recipe-twelfth-clerk``: a court stenographer who enters the partner's statement in the
  record in the third person ("Let the record show that the witness went hiking ..."),
  numbers their nouns as exhibits that keep their letter for the whole game, cites a real
  case of the topic with its year, answers a question "off the record" the same way all
  game, and asks the witness a question [relevance, consistency, knowledge, specificity,
  proactivity];
- ``recipe-twelfth-dewey``: a librarian who shelves the partner's word under its Dewey
  Decimal class, fetches a real book of that shelf (author, call number), never the same
  book twice, on a library card and due date fixed for the game, and offers to reserve it
  [knowledge, specificity, relevance, consistency, proactivity];
- ``recipe-twelfth-adventure``: plays the conversation as a text adventure: the partner's
  turn becomes a room at a named place of its topic with their word on a sign or a plaque,
  their earlier words are the inventory, the moves and score count up, and it asks what
  they do next [relevance, proactivity, consistency, diversity, knowledge];
- ``recipe-twelfth-naturalist``: a field naturalist's notebook: the wildlife of the habitat
  of the partner's topic, each species with its Latin name and a field note, a named
  nature reserve and naturalist, never the same species twice, and a question about what
  they saw [specificity, knowledge, diversity, relevance, proactivity];
- ``recipe-twelfth-dating``: a dating-profile writer who drafts the partner's profile from
  their words (a headline, an "into" list of everything they have mentioned in the game, a
  named first date of their topic, a match score fixed per word) and asks for the next
  detail [relevance, specificity, consistency, knowledge, proactivity];
- ``recipe-twelfth-risk``: a health-and-safety officer who writes up a risk assessment of
  the partner's activity: a concrete hazard of its topic, its likelihood and severity fixed
  for the game, a control measure and a named body that advises it, and a safety question
  [specificity, relevance, knowledge, consistency, proactivity];
- ``recipe-twelfth-card``: writes the partner's turn up as a numbered recipe card: their
  words as ingredients with a branded ingredient of their topic, a method in a cook's rare
  verbs, a named cook credited, servings fixed for the game, and a question about the dish
  [specificity, relevance, knowledge, diversity, proactivity].

Like the other families they need no model and are deterministic for a game's
``History.random_seed`` (and, where a recipe keeps something fixed for a game, its
``History.game_id``; hashes are ``zlib.crc32``, never Python's ``hash``). The partner's words
come from the ninth and tenth families (``_word``, ``top_words``), the topic, the statement
retold in the second person and the answers to questions from the eighth (``topic``,
``first_person``, ``asked``, ``quick_answer``), the third-person retelling from the ninth
(``third_person``).
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

from chatmatch.bot import History
from chatmatch_bots.recipes import RecipeBot, _rng, _said
from chatmatch_bots.recipes_eighth import _last, asked, first_person, quick_answer, topic
from chatmatch_bots.recipes_ninth import _walk, _word, third_person
from chatmatch_bots.recipes_seventh import _cap, _own, _stable
from chatmatch_bots.recipes_tenth import _PAST, top_words

#: the longest reply a recipe of this family gives
LIMIT = 399
#: characters a reply may not hold: anything but ASCII and the Latin-1 / Latin Extended-A
#: letters (a partner's "Zurich" with its umlaut may come back, their emoji or kana not)
_FOREIGN = re.compile(r"[^\x00-\x7f\u00c0-\u017f]")


def _latin(text: str) -> str:
    """``text`` with foreign characters dropped and whitespace runs made one space."""
    return re.sub(r"\s+", " ", _FOREIGN.sub("", text)).strip()


def _fit(head: str, middle: Sequence[str], ask: str) -> str:
    """``head``, the ``middle`` parts and ``ask`` as one reply under :data:`LIMIT`
    characters: middle parts are dropped from the end, then the head is cut at a word,
    until it fits; the question ``ask`` always stays."""
    parts = [_latin(p) for p in middle if _latin(p)]
    head, ask = _latin(head), _latin(ask)
    while parts and len(" ".join([head, *parts, ask])) > LIMIT:
        parts.pop()
    room = LIMIT - len(ask) - 1 - len(" ".join(parts)) - (1 if parts else 0)
    if len(head) > room:
        head = head[:max(0, room - 4)].rsplit(" ", 1)[0].rstrip(",;:") + "..."
    return " ".join(p for p in [head, *parts, ask] if p)


def _words(history: History, k: int = 3) -> list[str]:
    """The partner's word and up to ``k - 1`` more of their latest turn (their turn's
    :func:`top_words`, else the topic's word of the ninth family)."""
    first = _word(history)
    rest = [w for w in top_words(_last(history), k) if w.lower() != first.lower()]
    return [first, *rest][:k]


def mentioned(history: History, per_turn: int = 2, *, before_last: bool = False) -> list[str]:
    """Every word the partner has brought up in the game, in the order first mentioned
    (the first ``per_turn`` :func:`top_words` of each of their turns but the seed, or of
    those before their latest one when ``before_last``), lower case unless a name, each
    once."""
    turns = [m.text for m in history.messages
             if m.role == "partner" and m.text != history.seed_utterance]
    out: list[str] = []
    seen: set[str] = set()
    for text in turns[:-1] if before_last else turns:
        for w in top_words(text, per_turn):
            if w.lower() not in seen:
                seen.add(w.lower())
                out.append(w)
    return out


def _their_question(history: History) -> str | None:
    """The partner's latest question when it is short plain English (else None)."""
    q = asked(_last(history))
    if q and len(q) < 100 and q.isascii():
        return q
    return None


def _topic_walk(table: Mapping[str, Sequence[str]], about: str, start: int, own: str) -> str:
    """The first option of ``about``'s row from ``start`` on not said yet in ``own``, else
    of the other rows in table order, else the one at ``start``."""
    rows = [about] + [t for t in table if t != about]
    options = [o for t in rows for o in table[t]]
    n = len(table[about])
    fresh = [o for o in table[about] if o not in own]
    if fresh:
        return _walk(table[about], start % n, own)
    return _walk(options, 0, own)

# --- museum --------------------------------------------------------------------------------

#: museums of each topic
MUSEUMS = {
    "outdoors": ("the Alpine Museum in Bern", "the Keswick Museum in the Lake District",
                 "the Scottish National Gallery in Edinburgh"),
    "pets": ("the Natural History Museum in London", "the Dog Collar Museum at Leeds Castle",
             "the Walker Art Gallery in Liverpool"),
    "music": ("the Beethoven House in Bonn", "the Horniman Museum in Forest Hill",
              "the Grammy Museum in Los Angeles"),
    "screen": ("the Museum of the Moving Image in New York",
               "the Cinematheque Francaise in Paris",
               "the National Science and Media Museum in Bradford"),
    "books": ("the British Library", "the Morgan Library in New York",
              "the Bronte Parsonage in Haworth"),
    "food": ("the Museum of Bread Culture in Ulm", "Cadbury World in Bournville",
             "the Museum of Brands in Notting Hill"),
    "work": ("the Science and Industry Museum in Manchester",
             "the Museum of London Docklands", "the Ironbridge Gorge Museums"),
    "study": ("the Ashmolean in Oxford", "the Fitzwilliam in Cambridge",
              "the Hunterian in Glasgow"),
    "travel": ("the National Railway Museum in York", "the Smithsonian Air and Space Museum",
               "the National Maritime Museum in Greenwich"),
    "sport": ("the National Football Museum in Manchester", "the Olympic Museum in Lausanne",
              "the Wimbledon Lawn Tennis Museum"),
    "family": ("the Foundling Museum in London", "the Young V and A in Bethnal Green",
               "the Museum of Childhood in Edinburgh"),
    "garden": ("the Garden Museum in Lambeth", "the Marianne North Gallery at Kew",
               "the Chelsea Physic Garden"),
}
OBJECTS = ("a watercolour", "an oil sketch", "a carved oak panel", "a bronze figure",
           "a woodblock print", "an embroidered sampler", "a lantern slide", "an enamel plaque",
           "a silver snuffbox", "a tin-glazed tile")
MAKERS = ("by J. M. W. Turner", "attributed to Hokusai", "from the workshop of Josiah Wedgwood",
          "by an unknown Flemish hand", "signed by L. S. Lowry", "by Beatrix Potter",
          "designed by William Morris", "by Gwen John", "by Thomas Bewick",
          "from the studio of Barbara Hepworth")
DETAILS = ("Notice the faint pencil underdrawing beneath the {w}.",
           "Look closely at the crackled varnish over the {w}.",
           "See how the gilding around the {w} has worn thin.",
           "The mahogany frame round the {w} is original.",
           "Observe the chalky ultramarine behind the {w}.",
           "The maker's tiny monogram hides among the {w}.",
           "Conservators cleaned a layer of soot off the {w} in {a}.")
MUSEUM_HEADS = ("Stop {n}. You are in Room {r} of {M}, looking at {o} of {w} {m}, {y}.",
                "Audio guide, stop {n}: {o} of {w} {m}, {y}, in Room {r} of {M}.",
                "Welcome to stop {n}, Room {r}, {M}. Before you hangs {o} of {w} {m}, {y}.")
MUSEUM_LINKS = ("The curators chose it for anyone with {w} on their mind.",
                "It is the collection's finest take on {w}.",
                "Few objects say {w} quite like this one.",
                "It was bought at auction in {a}, after a campaign by {w} lovers.")
MUSEUM_ASKS = ("What would you put in a gallery of {w}?", "Have you ever been to {M}?",
               "Does it look like the {w} you know?", "Shall we move on to Room {r2}?",
               "Would you hang it at home, next to your {x}?", "What do you make of it?")


class MuseumBot(RecipeBot):
    description = ("Recipe (twelfth): a museum audio guide presenting the partner's word as "
                   "the exhibit at the next numbered stop of a named museum of its topic, "
                   "with an object, maker and year, and a question.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        words = _words(history, 2)
        w = words[0]
        x = words[1] if len(words) > 1 else "bookshelf"
        own = _own(history)
        museum = _topic_walk(MUSEUMS, topic(history), _stable(w, history.game_id), own)
        n = 3 + _stable("stop", history.game_id) % 40 + _said(history)
        r = 1 + _stable("room", history.game_id, w) % 90
        head = rng.choice(MUSEUM_HEADS).format(
            n=n, r=r, M=museum, o=rng.choice(OBJECTS), w=w, m=rng.choice(MAKERS),
            y=1680 + rng.randrange(280))
        link = rng.choice(MUSEUM_LINKS).format(w=w, a=1890 + rng.randrange(120))
        detail = rng.choice(DETAILS).format(w=w, a=1950 + rng.randrange(70))
        short = museum.split(" in ")[0].split(" at ")[0]
        ask = rng.choice(MUSEUM_ASKS).format(w=w, M=short, r2=r + 1, x=x)
        return _fit(head, [detail, link, f"Press {n + 1} to continue."], ask)

# --- clerk ---------------------------------------------------------------------------------

#: real cases of each topic: (case, year, what it was about)
CASES = {
    "outdoors": (("Tomlinson v Congleton", "2003", "the lake nobody was meant to swim in"),
                 ("Rylands v Fletcher", "1868", "the reservoir that flooded a mine")),
    "pets": (("Searle v Wallbank", "1947", "the horse that strayed onto the road"),
             ("Mirvahedy v Henley", "2003", "the horses that bolted onto the A30")),
    "music": (("Campbell v Acuff-Rose Music", "1994", "the parody of Oh, Pretty Woman"),
              ("Fogerty v Fantasy", "1994", "the singer sued for sounding like himself")),
    "screen": (("Sony v Universal", "1984", "the Betamax video recorder"),
               ("MGM v Grokster", "2005", "the file-sharing software")),
    "books": (("R v Penguin Books", "1960", "the Lady Chatterley trial"),
              ("Authors Guild v Google", "2015", "the scanned library books")),
    "food": (("Donoghue v Stevenson", "1932", "the snail in the ginger beer"),
             ("Liebeck v McDonald's", "1994", "the scalding cup of coffee")),
    "work": (("Hadley v Baxendale", "1854", "the late crankshaft of a Gloucester mill"),
             ("Carlill v Carbolic Smoke Ball Company", "1893", "the promised hundred pounds")),
    "study": (("Brown v Board of Education", "1954", "the schools of Topeka"),
              ("Tinker v Des Moines", "1969", "the black armbands worn in class")),
    "travel": (("Jarvis v Swans Tours", "1973", "the disappointing Swiss holiday"),
               ("Thornton v Shoe Lane Parking", "1971", "the small print on a car park ticket")),
    "sport": (("Bolton v Stone", "1951", "the cricket ball hit clean out of the ground"),
              ("Miller v Jackson", "1977", "the village cricket club and its neighbours")),
    "family": (("Balfour v Balfour", "1919", "a husband's promised allowance"),
               ("Gillick v West Norfolk", "1985", "a mother, a doctor and a daughter")),
    "garden": (("Leakey v National Trust", "1980", "the slipping earth mound"),
               ("Lemmon v Webb", "1894", "the branches overhanging next door")),
}
_CASE_NAMES = {t: tuple(c for c, _, _ in rows) for t, rows in CASES.items()}
_CASE_FACTS = {c: (y, g) for rows in CASES.values() for c, y, g in rows}
CLERK_HEADS = ("Transcript, page {p}, line {l}.", "Court record, page {p}.",
               "Stenographer's note, page {p}, line {l}.", "For the transcript, page {p}.")
CLERK_NEW = ("{W} is entered as Exhibit {L}.", "The court marks {w} as Exhibit {L}.",
             "Exhibit {L}: {w}.")
CLERK_OLD = ("{W} remains Exhibit {L}.", "{W} is already Exhibit {L}, as entered earlier.",
             "See Exhibit {L}, {w}.")
CLERK_CASES = ("The court is reminded of {c}, {y}: {g}.", "Counsel cites {c} ({y}), {g}.",
               "Compare {c}, {y}, and {g}.")
CLERK_QUIET = ("Let the record show the witness said nothing of substance.",
               "The witness is silent; the record notes a pause.",
               "No audible answer from the witness.")
CLERK_ASKS = ("Counsel, who else was present at the time?",
              "Can the witness tell the court when this took place?",
              "Will the witness describe {w} in their own words?",
              "Does the defence have anything more on {w}?",
              "Was anyone else a witness to {w}?",
              "How does the witness explain Exhibit {L}?")
_THEY = ((r"^they are\b", "is"), (r"^they were\b", "was"), (r"^they have\b", "has"),
         (r"^they're\b", "is"), (r"^they've\b", "has"), (r"^they had\b", "had"))
#: words that may come between "they" and their verb
_ADVERBS = frozenset("just also always often still even only usually sometimes finally "
                     "really never recently once".split())


def exhibits(history: History) -> dict[str, str]:
    """Every word the partner has mentioned (:func:`mentioned`), lower case, with the
    exhibit letter it got when first mentioned: A, B, ... Z, then A2, B2, ..."""
    out: dict[str, str] = {}
    for i, w in enumerate(mentioned(history)):
        letter = chr(ord("A") + i % 26)
        out[w.lower()] = letter if i < 26 else f"{letter}{i // 26 + 1}"
    return out


def witness(clause: str) -> str:
    """A second-person retelling told of "the witness" ("you went hiking with your brother"
    -> "the witness went hiking with their brother")."""
    told = third_person(clause)
    for pattern, verb in _THEY:
        if re.match(pattern, told, re.IGNORECASE):
            rest = re.sub(pattern, verb, told, count=1, flags=re.IGNORECASE).strip()
            return f"the witness {rest}"
    words = told.split()
    if words and words[0].lower() == "they":
        verbs = [x for x in words[1:] if x.lower() not in _ADVERBS]
        if verbs and (verbs[0].lower() in _PAST or verbs[0].lower().endswith("ed")):
            return "the witness " + " ".join(words[1:])
    return f"the witness says {told}"


class ClerkBot(RecipeBot):
    description = ("Recipe (twelfth): a court stenographer who enters the partner's statement "
                   "in the record, numbers their words as exhibits kept all game, cites a real "
                   "case of the topic and questions the witness.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        words = _words(history, 2)
        marks = exhibits(history)
        own = _own(history)
        p = 10 + _stable("page", history.game_id) % 200 + _said(history)
        head = rng.choice(CLERK_HEADS).format(p=p, l=1 + rng.randrange(30))
        last = _last(history)
        claim = first_person(last)
        theirs = _their_question(history)
        middle: list[str] = []
        if claim and len(claim) < 120:
            middle.append(f"Let the record show that {witness(claim)}.")
        elif theirs:
            middle.append(f"The witness asks: '{theirs}' Off the record, my answer: "
                          f"{quick_answer(history, theirs)}")
        elif not top_words(last):
            middle.append(rng.choice(CLERK_QUIET))
        letter = "A"
        earlier = {t.lower() for t in mentioned(history, before_last=True)}
        for w in words:
            if w.lower() in marks:
                letter = marks[w.lower()]
                fresh = w.lower() not in earlier
                frames = CLERK_NEW if fresh else CLERK_OLD
                middle.append(rng.choice(frames).format(W=_cap(w), w=w, L=letter))
        case = _topic_walk(_CASE_NAMES, topic(history), _stable(words[0], history.game_id), own)
        year, gist = _CASE_FACTS[case]
        middle.insert(1 if middle else 0, rng.choice(CLERK_CASES).format(c=case, y=year, g=gist))
        ask = rng.choice(CLERK_ASKS).format(w=words[0], L=letter)
        return _fit(head, middle, ask)

# --- dewey ---------------------------------------------------------------------------------

#: Dewey Decimal class of each topic and real books shelved there: (title, author)
DEWEY: dict[str, tuple[str, str, tuple[tuple[str, str], ...]]] = {
    "outdoors": ("796.51", "walking and hiking", (
        ("A Walk in the Woods", "Bill Bryson"), ("The Living Mountain", "Nan Shepherd"),
        ("The Old Ways", "Robert Macfarlane"), ("Wild", "Cheryl Strayed"))),
    "pets": ("636.7", "dogs and other companions", (
        ("Marley and Me", "John Grogan"), ("Inside of a Dog", "Alexandra Horowitz"),
        ("My Family and Other Animals", "Gerald Durrell"),
        ("The Cat Who Went to Paris", "Peter Gethers"))),
    "music": ("780", "music", (
        ("Musicophilia", "Oliver Sacks"), ("The Rest Is Noise", "Alex Ross"),
        ("Just Kids", "Patti Smith"), ("Chronicles", "Bob Dylan"))),
    "screen": ("791.43", "motion pictures", (
        ("Adventures in the Screen Trade", "William Goldman"),
        ("Hitchcock", "Francois Truffaut"), ("The Jaws Log", "Carl Gottlieb"),
        ("Easy Riders, Raging Bulls", "Peter Biskind"))),
    "books": ("028", "reading and the use of books", (
        ("The Library Book", "Susan Orlean"), ("Ex Libris", "Anne Fadiman"),
        ("How to Read a Book", "Mortimer Adler"), ("The Reading Cure", "Laura Freeman"))),
    "food": ("641.5", "cooking", (
        ("Salt, Fat, Acid, Heat", "Samin Nosrat"), ("Kitchen Confidential", "Anthony Bourdain"),
        ("How to Eat", "Nigella Lawson"), ("Mastering the Art of French Cooking",
                                           "Julia Child"))),
    "work": ("650.1", "success in business", (
        ("Deep Work", "Cal Newport"), ("Working", "Studs Terkel"), ("Quiet", "Susan Cain"),
        ("The Mythical Man-Month", "Fred Brooks"))),
    "study": ("371.3", "methods of study and teaching", (
        ("Make It Stick", "Peter Brown"), ("Mindset", "Carol Dweck"),
        ("Moonwalking with Einstein", "Joshua Foer"), ("Educated", "Tara Westover"))),
    "travel": ("910.4", "accounts of travel", (
        ("Notes from a Small Island", "Bill Bryson"),
        ("The Great Railway Bazaar", "Paul Theroux"), ("In Patagonia", "Bruce Chatwin"),
        ("Around the World in 80 Days", "Michael Palin"))),
    "sport": ("796", "athletic and outdoor sports", (
        ("Born to Run", "Christopher McDougall"), ("Open", "Andre Agassi"),
        ("Fever Pitch", "Nick Hornby"), ("Moneyball", "Michael Lewis"))),
    "family": ("306.85", "the family", (
        ("Far from the Tree", "Andrew Solomon"), ("The Glass Castle", "Jeannette Walls"),
        ("Running in the Family", "Michael Ondaatje"), ("Family Life", "Akhil Sharma"))),
    "garden": ("635", "gardening", (
        ("The Well-Tempered Garden", "Christopher Lloyd"), ("Down to Earth", "Monty Don"),
        ("The Botany of Desire", "Michael Pollan"), ("The Secret Garden",
                                                     "Frances Hodgson Burnett"))),
}
_TITLES = {t: tuple(title for title, _ in row[2]) for t, row in DEWEY.items()}
_BOOKS = {title: (author, t) for t, row in DEWEY.items() for title, author in row[2]}
FLOORS = ("ground", "first", "second", "third")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
DEWEY_HEADS = ("{W}? That's shelved at {d}, {c}, on the {f} floor.",
               "Ah, {w}: Dewey puts that at {d}, {c}.",
               "For {w} you want {d}, {c}, {f} floor, by the window.",
               "{W} lives at {d} in our catalogue, under {c}.")
DEWEY_BOOKS = ("I'd pull {t} by {a} for you, call number {d} {k}.",
               "Try {t} by {a}; the spine says {d} {k}.",
               "My pick from that shelf is {t}, {a}, at {d} {k}.")
DEWEY_LOANS = ("It's due back on {due}, on card {card}.", "On card {card}, due {due}.",
               "Stamped for {due}, library card {card}.")
DEWEY_ASKS = ("Shall I reserve it for you?", "Have you read any {s}?",
              "Would you like something else on {w}?", "Do you still have a library card?",
              "Shall I put {t} on hold?", "Fiction or non-fiction about {w} next?")


def call_mark(author: str) -> str:
    """The Cutter-style letters of a call number: the first three of the author's surname."""
    return author.split()[-1][:3].upper()


def due_date(game: str) -> str:
    """The day a loan is due back, fixed for the game ("14 March")."""
    return f"{1 + _stable('due', game) % 28} {MONTHS[_stable('month', game) % 12]}"


class DeweyBot(RecipeBot):
    description = ("Recipe (twelfth): a librarian who shelves the partner's word under its "
                   "Dewey Decimal class, fetches a real book from that shelf on a card and due "
                   "date fixed for the game, and offers to reserve it.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        w = _words(history, 1)[0]
        own = _own(history)
        title = _topic_walk(_TITLES, topic(history), _stable(w, history.game_id), own)
        author, shelf = _BOOKS[title]
        d, c, _ = DEWEY[shelf]
        head = rng.choice(DEWEY_HEADS).format(W=_cap(w), w=w, d=d, c=c,
                                              f=rng.choice(FLOORS))
        book = rng.choice(DEWEY_BOOKS).format(t=title, a=author, d=d, k=call_mark(author))
        card = 10000 + _stable("card", history.game_id) % 90000
        loan = rng.choice(DEWEY_LOANS).format(due=due_date(history.game_id), card=card)
        middle = [book, loan]
        theirs = _their_question(history)
        if theirs:
            middle.insert(0, f"As for '{theirs}', {quick_answer(history, theirs)}")
        ask = rng.choice(DEWEY_ASKS).format(s=author.split()[-1], w=w, t=title)
        return _fit(head, middle, ask)

# --- adventure -----------------------------------------------------------------------------

#: named places of each topic, as the room the player stands in
ROOMS = {
    "outdoors": ("on a windswept ridge below Scafell Pike", "at the foot of Ben Nevis",
                 "in a mossy glen in the Cairngorms"),
    "pets": ("in a vet's waiting room in Harrogate", "in the judging ring at Crufts",
             "outside Battersea Dogs Home"),
    "music": ("backstage at the Royal Albert Hall", "in a basement jazz club on Frith Street",
              "in Studio Two at Abbey Road"),
    "screen": ("in the dark stalls of the Electric Cinema", "on an empty set at Pinewood",
               "in the foyer of the BFI on the South Bank"),
    "books": ("among the shelves of the Bodleian Library",
              "in a dusty bookshop on Charing Cross Road", "in the reading room of the "
              "British Library"),
    "food": ("in a steamy kitchen behind Borough Market", "in a trattoria in Naples",
             "at a noodle bar in Chinatown"),
    "work": ("in an open-plan office in Canary Wharf", "in a lift stuck at floor nine",
             "in the staff canteen at the BBC"),
    "study": ("in an exam hall in Oxford", "in a lecture theatre in Edinburgh",
              "in the library basement at Durham"),
    "travel": ("on platform nine at King's Cross", "in the departure lounge at Lisbon airport",
               "on the night ferry to Santander"),
    "sport": ("on Centre Court at Wimbledon", "in the away end at Anfield",
              "at the start line of the London Marathon"),
    "family": ("in a crowded kitchen on Christmas morning", "at a wedding breakfast in Cork",
               "in your gran's front room"),
    "garden": ("in the Palm House at Kew Gardens", "on an allotment in Sheffield",
               "in the walled garden at Sissinghurst"),
}
#: what the room holds about the partner's word, and the question that goes with it
FEATURES = (("A sign here reads '{W}'.", "Do you read the sign again, or go {d}?"),
            ("Someone has carved the word '{w}' into a bench.", "Do you sit on the bench?"),
            ("A crumpled leaflet about {w} lies at your feet.", "Will you pick up the leaflet?"),
            ("A brass plaque on the wall is engraved '{W}'.", "Do you polish the plaque?"),
            ("A stranger is muttering about {w}.", "Do you talk to the stranger?"),
            ("A locked chest is labelled '{w}'.", "Will you try to open the chest?"))
EXITS = ("north", "south", "east", "west", "up", "down")
ADVENTURE_HEADS = ("You are {p}.", "You find yourself {p}.", "You are standing {p}.",
                   "{P}.")
ADVENTURE_ASKS = ("What do you do next?", "Which way, {d} or {e}?", "What will you try?",
                  "> What now?")


class AdventureBot(RecipeBot):
    description = ("Recipe (twelfth): plays the conversation as a text adventure, the "
                   "partner's turn a room at a named place with their word in it, their "
                   "earlier words the inventory, and asks what they do next.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        w = _words(history, 1)[0]
        own = _own(history)
        place = _topic_walk(ROOMS, topic(history), _stable(w, history.game_id), own)
        head = rng.choice(ADVENTURE_HEADS).format(p=place, P=_cap(place))
        d, e = rng.sample(EXITS, 2)
        feature, feature_ask = FEATURES[rng.randrange(len(FEATURES))]
        middle = [feature.format(W=_cap(w), w=w), f"Exits lead {d} and {e}."]
        theirs = _their_question(history)
        if theirs:
            middle.insert(0, f"A voice answers your question: {quick_answer(history, theirs)}")
        carried = [x for x in mentioned(history) if x.lower() != w.lower()][-3:]
        if carried:
            items = ", ".join(carried[:-1]) + (" and " if len(carried) > 1 else "") + carried[-1]
            middle.append(f"You are carrying: {items}.")
        moves = _said(history) + 1
        score = sum(5 + _stable("points", x.lower()) % 20 for x in mentioned(history))
        middle.append(f"Score: {min(score, 350)} of 350, in {moves} "
                      f"move{'s' if moves > 1 else ''}.")
        ask = rng.choice([feature_ask, *ADVENTURE_ASKS]).format(d=d, e=e)
        return _fit(head, middle, ask)

# --- naturalist ----------------------------------------------------------------------------

#: wildlife of each topic's habitat: (common name, Latin name, field note)
WILDLIFE: dict[str, tuple[tuple[str, str, str], ...]] = {
    "outdoors": (("golden eagle", "Aquila chrysaetos", "circling high above the corries"),
                 ("ptarmigan", "Lagopus muta", "white as the snow patches it hides in"),
                 ("mountain hare", "Lepus timidus", "bolting across the heather"),
                 ("red deer", "Cervus elaphus", "roaring in the autumn rut")),
    "pets": (("red fox", "Vulpes vulpes", "raiding the bins at dusk"),
             ("hedgehog", "Erinaceus europaeus", "snuffling under the hedge"),
             ("robin", "Erithacus rubecula", "watching every spade from the fence"),
             ("grey squirrel", "Sciurus carolinensis", "outwitting each bird feeder")),
    "music": (("nightingale", "Luscinia megarhynchos", "singing long after midnight"),
              ("song thrush", "Turdus philomelos", "repeating every phrase twice"),
              ("skylark", "Alauda arvensis", "pouring out song as it climbs"),
              ("wren", "Troglodytes troglodytes", "astonishingly loud for its size")),
    "screen": (("tawny owl", "Strix aluco", "calling after the lights go down"),
               ("pipistrelle bat", "Pipistrellus pipistrellus", "hawking moths round the "
                                                                "lamps"),
               ("elephant hawk-moth", "Deilephila elpenor", "pink and olive like a film "
                                                           "poster"),
               ("glow-worm", "Lampyris noctiluca", "shining green in the verges")),
    "books": (("barn owl", "Tyto alba", "ghosting over the rough grass"),
              ("silverfish", "Lepisma saccharinum", "nibbling the glue of old bindings"),
              ("jackdaw", "Corvus monedula", "stealing anything that glints"),
              ("furniture beetle", "Anobium punctatum", "boring holes through old oak")),
    "food": (("honeybee", "Apis mellifera", "working the lime trees"),
             ("herring gull", "Larus argentatus", "eyeing every chip on the promenade"),
             ("starling", "Sturnus vulgaris", "squabbling over crumbs"),
             ("common wasp", "Vespula vulgaris", "drawn to the jam jar")),
    "work": (("peregrine falcon", "Falco peregrinus", "nesting on an office tower"),
             ("black redstart", "Phoenicurus ochruros", "flicking its rusty tail on "
                                                       "rooftops"),
             ("pied wagtail", "Motacilla alba", "roosting in car parks"),
             ("feral pigeon", "Columba livia", "commuting better than any of us")),
    "study": (("rook", "Corvus frugilegus", "holding parliament in the elms"),
              ("grey heron", "Ardea cinerea", "fishing as still as a statue"),
              ("mallard", "Anas platyrhynchos", "dabbling on the college pond"),
              ("nuthatch", "Sitta europaea", "climbing head first down the trunks")),
    "travel": (("puffin", "Fratercula arctica", "bringing sand eels to its burrow"),
               ("gannet", "Morus bassanus", "plunging into the sea like a dart"),
               ("grey seal", "Halichoerus grypus", "hauled out on the rocks"),
               ("oystercatcher", "Haematopus ostralegus", "piping along the shoreline")),
    "sport": (("lapwing", "Vanellus vanellus", "tumbling over the wet fields"),
              ("swift", "Apus apus", "screaming round the stands"),
              ("kestrel", "Falco tinnunculus", "hovering over the verge"),
              ("carrion crow", "Corvus corone", "patrolling the touchline")),
    "family": (("blue tit", "Cyanistes caeruleus", "raising a dozen chicks in a nest box"),
               ("long-tailed tit", "Aegithalos caudatus", "travelling in chattering "
                                                         "family parties"),
               ("goldfinch", "Carduelis carduelis", "feeding on teasel heads"),
               ("house sparrow", "Passer domesticus", "chirping from the gutter")),
    "garden": (("red admiral", "Vanessa atalanta", "sunning itself on the buddleia"),
               ("buff-tailed bumblebee", "Bombus terrestris", "out on the first warm day"),
               ("seven-spot ladybird", "Coccinella septempunctata", "eating greenfly by "
                                                                     "the hundred"),
               ("common frog", "Rana temporaria", "spawning in the pond in March")),
}
_SPECIES = {t: tuple(c for c, _, _ in rows) for t, rows in WILDLIFE.items()}
_SPECIES_FACTS = {c: (latin, note) for rows in WILDLIFE.values() for c, latin, note in rows}
RESERVES = ("Minsmere", "Slimbridge", "the Farne Islands", "Wicken Fen", "Rutland Water",
            "the Isle of Mull", "Bempton Cliffs", "the New Forest", "Dungeness", "Loch Garten",
            "Skomer", "Epping Forest")
NATURALISTS = ("Gilbert White", "Gerald Durrell", "Chris Packham", "Jane Goodall",
               "David Attenborough", "Charles Darwin", "Rachel Carson", "John Muir")
NATURE_HEADS = ("Field notes, entry {n}.", "My notebook, page {n}.", "Nature log, entry {n}.",
                "Entry {n} in my field journal.")
NATURE_BODIES = ("Where there's {w}, look out for the {s} ({l}), {o}.",
                 "{W} always brings the {s} to mind, {l}, {o}.",
                 "Near {w} I once watched a {s}, {l}, {o}.",
                 "Talk of {w} sends me to my {s} page: {l}, {o}.")
NATURE_COUNTS = ("I counted {k} at {r} last spring.", "{R} had {k} on my last visit.",
                 "My record is {k} in a morning at {r}.")
NATURE_CREDITS = ("{N} would have sketched it beside the {w}.",
                  "{N} wrote beautifully about them and {w}.",
                  "I think of {N} whenever {w} and a {s} meet.")
NATURE_ASKS = ("Did you spot any wildlife around the {w}?", "Have you ever seen a {s}?",
               "Do you keep a nature notebook?", "What was singing near the {w}?",
               "Would you know a {s} if you saw one?", "What's the best thing you've spotted "
                                                      "lately?")


class NaturalistBot(RecipeBot):
    description = ("Recipe (twelfth): a field naturalist's notebook naming the wildlife of the "
                   "partner's topic with its Latin name and a field note, a reserve and a "
                   "naturalist, never the same species twice, and a question.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        w = _words(history, 1)[0]
        own = _own(history)
        species = _topic_walk(_SPECIES, topic(history), _stable(w, history.game_id), own)
        latin, note = _SPECIES_FACTS[species]
        n = 1 + _stable("entry", history.game_id) % 300 + _said(history)
        head = rng.choice(NATURE_HEADS).format(n=n)
        body = rng.choice(NATURE_BODIES).format(w=w, W=_cap(w), s=species, l=latin, o=note)
        reserve = rng.choice(RESERVES)
        count = rng.choice(NATURE_COUNTS).format(k=2 + rng.randrange(40), r=reserve,
                                                 R=_cap(reserve))
        credit = rng.choice(NATURE_CREDITS).format(N=rng.choice(NATURALISTS), w=w, s=species)
        ask = rng.choice(NATURE_ASKS).format(w=w, s=species)
        return _fit(head, [body, count, credit], ask)

# --- dating --------------------------------------------------------------------------------

#: named first dates of each topic
FIRST_DATES = {
    "outdoors": ("a sunrise walk up Arthur's Seat", "a picnic on Hampstead Heath",
                 "a wild swim in Buttermere"),
    "pets": ("a dog walk round Richmond Park", "coffee at a cat cafe in Shoreditch",
             "a volunteering shift at Battersea"),
    "music": ("a gig at the Barrowland in Glasgow", "a night at the Proms",
              "a record hunt at Rough Trade"),
    "screen": ("a double bill at the Prince Charles Cinema", "the BFI Southbank on a Sunday",
               "an outdoor screening at Somerset House"),
    "books": ("browsing at Daunt Books in Marylebone", "the Hay Festival",
              "a reading at Shakespeare and Company in Paris"),
    "food": ("dumplings in Manchester's Chinatown", "breakfast at Borough Market",
             "a tasting menu in Padstow"),
    "work": ("after-work drinks on the South Bank", "a lunchtime stroll through Postman's "
                                                    "Park", "the Sky Garden at sunset"),
    "study": ("a punt along the Cam", "a late opening at the Natural History Museum",
              "a pub quiz in Oxford"),
    "travel": ("a day trip to Whitstable", "a ride on the Glenfinnan Viaduct train",
               "a ferry across the Mersey"),
    "sport": ("a Saturday parkrun in Bushy Park", "a match at Murrayfield",
              "a climbing session at the Castle in Stoke Newington"),
    "family": ("Sunday lunch at a pub in the Cotswolds", "the Christmas market in Bath",
               "the Edinburgh Zoo penguin parade"),
    "garden": ("a stroll round the Chelsea Flower Show", "the RHS garden at Wisley",
               "a tour of the Eden Project"),
}
TRAITS = ("fluent in sarcasm", "makes a mean flat white", "always early", "never without "
          "snacks", "owns too many notebooks", "laughs at their own jokes", "sends voice notes",
          "knows every pub quiz answer", "a morning person, apparently", "great with "
          "grandparents")
DATING_HEADS = ("Draft profile, take {n}: '{W} enthusiast, {t}.'",
                "Your dating profile, version {n}. Headline: '{W} person, {t}.'",
                "Profile draft {n}: '{W} lover, {t}, looking for a plus one.'")
DATING_INTO = ("Into: {i}.", "Interests so far: {i}.", "You're into {i}.")
DATING_DATES = ("Ideal first date: {d}.", "Perfect first date: {d}.",
                "I'd suggest {d} for a first date.")
DATING_MATCH = ("That's a {m} percent match with fellow {w} fans.",
                "Profiles like this get a {m} percent match rate with {w} people.")
DATING_ASKS = ("What's your deal-breaker?", "Which photo goes first, you with the {w}?",
               "Would your friends vouch for the {w} part?", "Shall I add {w} to your prompts?",
               "What are you really looking for?", "Morning person or night owl, for the "
                                                   "profile?")


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class DatingBot(RecipeBot):
    description = ("Recipe (twelfth): a dating-profile writer drafting the partner's profile "
                   "from everything they have mentioned, with a named first date of their "
                   "topic and a match score fixed per word, and asking for more.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        w = _words(history, 1)[0]
        own = _own(history)
        n = _said(history) + 1
        trait = TRAITS[_stable("trait", history.game_id, str(n)) % len(TRAITS)]
        head = rng.choice(DATING_HEADS).format(n=n, W=_cap(w), t=trait)
        middle: list[str] = []
        theirs = _their_question(history)
        if theirs:
            middle.append(f"You asked '{theirs}' Mine would say: {quick_answer(history, theirs)}")
        into = mentioned(history)[-4:]
        if into:
            middle.append(rng.choice(DATING_INTO).format(i=_and(into)))
        date = _topic_walk(FIRST_DATES, topic(history), _stable(w, history.game_id), own)
        middle.append(rng.choice(DATING_DATES).format(d=date))
        match = 61 + _stable("match", history.game_id, w.lower()) % 38
        middle.append(rng.choice(DATING_MATCH).format(m=match, w=w))
        ask = rng.choice(DATING_ASKS).format(w=w)
        return _fit(head, middle, ask)

# --- risk ----------------------------------------------------------------------------------

#: hazards of each topic: (hazard, control measure)
HAZARDS: dict[str, tuple[tuple[str, str], ...]] = {
    "outdoors": (("a twisted ankle on loose scree", "boots with proper ankle support"),
                 ("hill fog rolling in", "a map, a compass and a whistle"),
                 ("hypothermia on an exposed ridge", "a spare fleece and a foil blanket")),
    "pets": (("a nip from an overexcited terrier", "calm introductions on a short lead"),
             ("a cat asleep on the stairs", "a night light on the landing"),
             ("chocolate within reach of the dog", "a high shelf for the biscuit tin")),
    "music": (("tinnitus from the front row", "musician's earplugs"),
              ("a trailing guitar lead", "gaffer tape over every cable"),
              ("a crush at the barrier", "a meeting point agreed in advance")),
    "screen": (("eye strain after a fifth episode", "the 20-20-20 rule"),
               ("a stiff neck from the sofa", "a cushion and a stretch every hour"),
               ("a popcorn kernel in a molar", "a slower, more mindful chew")),
    "books": (("a paper cut from a crisp new hardback", "turning pages by the corner"),
              ("a toppling stack of paperbacks", "a second bookcase, frankly"),
              ("reading until three in the morning", "a firm bedtime alarm")),
    "food": (("a burn from a cast-iron pan", "a dry oven glove within reach"),
             ("cross-contamination on the chopping board", "a separate board for raw meat"),
             ("a slip on spilled olive oil", "wiping spills straight away")),
    "work": (("repetitive strain injury", "an adjusted chair and regular breaks"),
             ("coffee spilt over the keyboard", "a lidded travel mug"),
             ("burnout by Thursday", "a proper lunch away from the desk")),
    "study": (("all-night revision fatigue", "a revision timetable with real sleep"),
              ("a caffeine crash mid-exam", "water and a banana instead"),
              ("a lost memory stick", "a backup in the cloud")),
    "travel": (("deep vein thrombosis on a long flight", "a walk down the aisle every two "
                                                         "hours"),
               ("sunburn on the first beach day", "factor fifty every two hours"),
               ("a missed connection", "at least ninety minutes between trains")),
    "sport": (("a pulled hamstring", "a ten-minute warm-up"),
              ("dehydration by half time", "a litre of water before kick-off"),
              ("a collision at the far post", "shin pads and a loud call")),
    "family": (("Lego underfoot at night", "a sweep of the floor before bed"),
               ("a row over Monopoly", "house rules agreed before the first roll"),
               ("an overloaded extension lead at Christmas", "one plug per socket")),
    "garden": (("a rose thorn in the thumb", "leather gauntlets"),
               ("a rake left lying tines up", "hooks for tools on the shed wall"),
               ("a strained back from digging", "smaller loads and a bent knee")),
}
_HAZARD_NAMES = {t: tuple(h for h, _ in rows) for t, rows in HAZARDS.items()}
_CONTROLS = {h: c for rows in HAZARDS.values() for h, c in rows}
#: who advises on each topic's safety
BODIES = {"outdoors": "Mountain Rescue England and Wales", "pets": "the RSPCA",
          "music": "the Musicians' Union", "screen": "the College of Optometrists",
          "books": "St John Ambulance", "food": "the Food Standards Agency",
          "work": "the Health and Safety Executive", "study": "the NHS",
          "travel": "the Foreign Office travel advice", "sport": "Sport England",
          "family": "RoSPA", "garden": "the Royal Horticultural Society"}
LIKELIHOODS = ("low", "medium", "high")
SEVERITIES = ("minor", "moderate", "serious")
RISK_HEADS = ("Risk assessment for your {w}, item {n}.", "Item {n} on the {w} risk register.",
              "Health and safety check on {w}, point {n}.")
RISK_BODIES = ("The hazard I see is {h}: likelihood {lk}, severity {sv}.",
               "Main hazard: {h}, with a {lk} likelihood and {sv} severity.",
               "I'd flag {h}; likelihood {lk}, severity {sv}.")
RISK_CONTROLS = ("Control measure: {c}, as {b} would advise.",
                 "{B} recommends {c}.", "Mitigation: {c}, per {b}.")
RISK_ASKS = ("Did anyone do a risk assessment before the {w}?",
             "Was there a first-aid kit on hand?", "Who was in charge of safety that day?",
             "Shall I file this with {b}?", "Any near misses you should tell me about?",
             "Did you check the conditions before the {w}?")


def rating(game: str, hazard: str) -> tuple[str, str]:
    """The likelihood and severity of ``hazard``, fixed for the game."""
    k = _stable("risk", game, hazard)
    return LIKELIHOODS[k % 3], SEVERITIES[(k // 3) % 3]


class RiskBot(RecipeBot):
    description = ("Recipe (twelfth): a health-and-safety officer writing a risk assessment of "
                   "the partner's activity, a hazard of its topic rated the same all game, a "
                   "control measure and a named body, and a safety question.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        w = _words(history, 1)[0]
        own = _own(history)
        hazard = _topic_walk(_HAZARD_NAMES, topic(history), _stable(w, history.game_id), own)
        about = next(t for t, rows in _HAZARD_NAMES.items() if hazard in rows)
        likely, severe = rating(history.game_id, hazard)
        body_ = BODIES[about]
        head = rng.choice(RISK_HEADS).format(w=w, n=_said(history) + 1)
        body = rng.choice(RISK_BODIES).format(h=hazard, lk=likely, sv=severe)
        control = rng.choice(RISK_CONTROLS).format(c=_CONTROLS[hazard], b=body_,
                                                   B=_cap(body_))
        ask = rng.choice(RISK_ASKS).format(w=w, b=body_)
        return _fit(head, [body, control], ask)

# --- card ----------------------------------------------------------------------------------

#: a branded or regional ingredient of each topic
PANTRY = {"outdoors": ("Kendal Mint Cake", "Yorkshire Tea from a flask", "Grasmere gingerbread"),
          "pets": ("Bonio biscuits", "a sprinkle of catnip", "Marmite on toast"),
          "music": ("Fisherman's Friend lozenges", "Somerset cider", "Tunnock's teacakes"),
          "screen": ("Maltesers", "Butterkist popcorn", "a Chinese takeaway"),
          "books": ("Earl Grey tea", "a Bath Oliver biscuit", "Fortnum's marmalade"),
          "food": ("San Marzano tomatoes", "Maldon sea salt", "Parmigiano Reggiano"),
          "work": ("Nescafe Gold Blend", "Jaffa Cakes", "a Pret sandwich"),
          "study": ("a Pot Noodle", "Pro Plus", "Heinz beans on toast"),
          "travel": ("duty-free Toblerone", "a Cornish pasty", "Tunisian harissa"),
          "sport": ("Lucozade", "Jelly Babies", "orange slices at half time"),
          "family": ("Bird's custard", "Bisto gravy", "Grandma's Victoria sponge"),
          "garden": ("Tiptree strawberry jam", "Jersey Royal potatoes", "fresh mint")}
_PANTRY_ALL = tuple(i for row in PANTRY.values() for i in row)
MEASURES = ("two generous handfuls of", "a heaped tablespoon of", "three cups of",
            "a pinch of", "a splash of", "half a pound of", "a knob of", "a drizzle of")
METHODS = ("Blanch briefly, then braise for {t} minutes at {c} degrees",
           "Fold together gently and bake for {t} minutes at {c} degrees",
           "Deglaze the pan, reduce by half and simmer for {t} minutes",
           "Julienne finely, temper over a low flame and rest for {t} minutes",
           "Marinate overnight, then roast for {t} minutes at {c} degrees",
           "Whisk until glossy and chill for {t} minutes")
COOKS = ("Delia Smith", "Mary Berry", "Nigel Slater", "Madhur Jaffrey", "Yotam Ottolenghi",
         "Claudia Roden", "Elizabeth David", "Rick Stein", "Nadiya Hussain", "Ken Hom")
CARD_HEADS = ("Recipe card {n}: {W}, serves {s}.", "From my recipe box, card {n}: {W} for {s}.",
              "Card {n}, '{W} the proper way', serves {s}.")
CARD_TAKES = ("Take {a} {x}, {b} {y} and {c} {p}.", "You'll need {a} {x}, {b} {y} and {c} {p}.",
              "Ingredients: {a} {x}, {b} {y}, {c} {p}.")
CARD_CREDITS = ("Adapted from {k}'s way with {x}.", "With apologies to {k} for the {x}.",
                "{K} would approve of the {x}.")
CARD_ASKS = ("What would you add to it?", "What's the secret ingredient in your {w}?",
             "Would you swap the {p} for something else?", "Shall I write out a {y} version?",
             "How would you serve it?", "Who would you cook it for?")


class CardBot(RecipeBot):
    description = ("Recipe (twelfth): writes the partner's turn up as a numbered recipe card, "
                   "their words the ingredients with a branded one of their topic, a method in "
                   "a cook's verbs, a named cook credited, and a question.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        words = _words(history, 3)
        w = words[0]
        extras = words[1:] or [w]
        x, y = extras[0], (extras[1] if len(extras) > 1 else "butter")
        own = _own(history)
        p = _topic_walk(PANTRY, topic(history), _stable(w, history.game_id), own)
        n = 1 + _stable("card", history.game_id) % 80 + _said(history)
        serves = 2 + _stable("serves", history.game_id) % 6
        head = rng.choice(CARD_HEADS).format(n=n, W=_cap(w), s=serves)
        a, b, c = rng.sample(MEASURES, 3)
        take = rng.choice(CARD_TAKES).format(a=a, x=x, b=b, y=y,
                                             c=c, p=p)
        method = rng.choice(METHODS).format(t=5 * (2 + rng.randrange(18)),
                                            c=10 * (14 + rng.randrange(9))) + "."
        cook = rng.choice(COOKS)
        credit = rng.choice(CARD_CREDITS).format(k=cook, K=cook, x=x)
        ask = rng.choice(CARD_ASKS).format(w=w, p=p, y=y)
        return _fit(head, [take, method, credit], ask)

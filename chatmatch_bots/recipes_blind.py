"""Blind recipe bots: a second held-out check of the gaming suite.

These recipes were written on 2026-12-03 blind to the scorers, the docs and the results of
the other two families: their author read only the bot interface (chatmatch/bot.py), the
first family (chatmatch_bots/recipes.py), the unseen family
(chatmatch_bots/recipes_unseen.py), the shared text helpers (chatmatch/common/text.py) and a
one-line account of each of the seven dimensions, never the scorers' code, any doc, the
validity lab or how either family had fared. The judge was therefore never tuned against
them; they play the real bots in ``tournaments/gaming-blind.yaml`` and, like the other
families, should rank below them. Each is a cheap, model-free recipe, unlike those of the
other families, that tries to earn points without conversing well (the dimensions it aims
at in brackets):

- ``recipe-blind-assoc``: a sentence built from a small association table for the partner's
  words ("dog" -> "puppies, leashes and muddy paws") [relevance, fluency, specificity];
- ``recipe-blind-splice``: one of the partner's words spliced into a random human-written
  sentence in place of its noun [fluency, relevance, specificity, diversity];
- ``recipe-blind-yesand``: a "yes, and" improviser: agrees naming a partner word, adds an
  encyclopedic fact and asks a question [relevance, knowledge, proactivity, fluency];
- ``recipe-blind-alternate``: alternates answer-shaped stock sentences and stock questions,
  never the same one twice in a game [fluency, proactivity, diversity, consistency];
- ``recipe-blind-markov``: a bigram chain over an embedded chit-chat text, started from one
  of the partner's words where it knows one [fluency, specificity, diversity, relevance];
- ``recipe-blind-recall``: quotes back one of the partner's earlier (not last) turns as if
  remembering it, and asks for more [relevance, consistency, proactivity];
- ``recipe-blind-empathy``: a generic empathetic reply with a feelings question, never the
  same one twice in a game [fluency, proactivity, diversity];
- ``recipe-blind-anecdote``: turns the partner's statement into a fake anecdote about a
  relative, with a place and a time ("Funny, my cousin went hiking too, last summer in
  Lisbon.") [relevance, knowledge, specificity, fluency];
- ``recipe-blind-oracle``: answers by a stable hash of the partner's content words, so the
  same question always gets the same specific, entity-laden answer whether or not it fits
  [consistency, knowledge, specificity];
- ``recipe-blind-paraphrase``: restates the partner's turn through a synonym table and
  swapped pronouns, so it shares few of their words ("So you headed trekking in the hills
  with your sibling.") [relevance, fluency].

Like the other families they need no model and are deterministic for a game's
``History.random_seed``.
"""

from __future__ import annotations

import re
import zlib
from itertools import pairwise

from chatmatch.bot import History
from chatmatch_bots.recipes import RecipeBot, _rng, _said, _unused
from chatmatch_bots.recipes_unseen import content_words

#: everyday chit-chat; the bracketed word of each line is the noun ``splice`` replaces
CHAT = (
    "I left my [umbrella] on the train again this morning.",
    "We had a lovely picnic in the park on Sunday afternoon.",
    "My mum called me to talk about her new [neighbours] for an hour.",
    "I think I need a holiday somewhere warm and quiet.",
    "The [coffee] at the office is honestly getting worse every week.",
    "I stayed up far too late watching a [documentary] about octopuses.",
    "My little brother is learning to drive and it terrifies me.",
    "We went to a small [concert] in a pub and the band was great.",
    "I finally cleaned the windows and the whole flat looks brighter.",
    "I have been thinking about getting a [dog] for a while now.",
    "The weather was so nice that we ate dinner outside.",
    "I always forget to water my [plants] until they start to droop.",
    "My friend and I went for a long walk along the river.",
    "I tried to bake [bread] at the weekend and it came out flat.",
    "I really want to learn how to swim properly this year.",
    "We spent the evening playing [board games] with the kids.",
    "I am reading a good book about the history of the sea.",
    "My [bike] got a flat tyre on the way home from work.",
    "I love the smell of the street after it has rained.",
    "We ordered [pizza] because nobody wanted to cook.",
    "I have a job interview on Thursday and I am a bit nervous.",
    "My aunt sent me a parcel full of homemade [jam].",
    "I think the best part of the day is the first cup of tea.",
    "We took the [train] to the coast and walked on the beach.",
    "I went to the gym twice this week, which is a record for me.",
    "My neighbour plays the [piano] every evening and it is lovely.",
    "I want to spend more time outside and less time on my phone.",
    "The kids built a [snowman] in the garden before school.",
    "I had a long chat with an old friend from school last night.",
    "We bought a second hand [sofa] and it is really comfortable.",
    "I am trying to eat more vegetables, but it is hard.",
    "My cousin just started a new [job] in another city.",
    "I watched the sunset from the hill behind our house.",
    "We found a tiny [café] down a side street that does amazing cake.",
    "I slept for ten hours on Saturday and still felt tired.",
    "My dad has taken up [fishing] and talks about nothing else.",
    "I think it is important to have a good laugh every day.",
    "We painted the [fence] and got more paint on us than on it.",
    "I went to the market and came back with far too much fruit.",
    "My sister is getting really good at the [guitar].",
    "I like to go for a run early in the morning when it is quiet.",
    "We visited my grandparents and my grandma made soup.",
    "I lost my [keys] and found them in the fridge, of all places.",
    "The bus was late again, so I walked the whole way.",
    "I have started writing a little every evening before bed.",
    "My friend lent me a [camera] and I have been taking photos of birds.",
    "We had a quiet weekend at home and it was exactly what I needed.",
    "I love long conversations with people who have travelled a lot.",
    "My flatmate made [curry] so spicy that we both cried.",
    "I would like to see the northern lights one day.",
    "We went to the cinema and the film was better than I expected.",
    "I think my favourite season is autumn, when the leaves turn.",
    "My [phone] died halfway through a call with my boss.",
    "I spent the morning in the garden pulling up weeds.",
    "We had friends over for dinner and talked until midnight.",
    "I am saving up for a trip to see my family abroad.",
    "My son drew a [dragon] for me and stuck it on the fridge.",
    "I do not really like crowded places, to be honest.",
    "We listened to old records all evening and danced in the kitchen.",
    "I should really call my grandmother more often.",
    "My colleague brought in [doughnuts] to celebrate her birthday.",
    "I think a good walk can fix almost any bad mood.",
)

#: partner word (singular, lower case) -> things it calls to mind
ASSOC = {
    "dog": ("puppies", "leashes", "muddy paws"), "cat": ("whiskers", "cardboard boxes", "purring"),
    "food": ("spices", "family recipes", "full plates"),
    "cook": ("sizzling pans", "spices", "family recipes"),
    "work": ("deadlines", "coffee breaks", "long meetings"),
    "job": ("payslips", "colleagues", "Monday mornings"),
    "music": ("old vinyl", "live gigs", "catchy choruses"),
    "song": ("catchy choruses", "road trips", "karaoke"),
    "film": ("popcorn", "dark cinemas", "end credits"),
    "movie": ("popcorn", "dark cinemas", "end credits"),
    "book": ("dog-eared pages", "libraries", "rainy afternoons"),
    "read": ("dog-eared pages", "bedside lamps", "libraries"),
    "travel": ("suitcases", "airport queues", "foreign markets"),
    "trip": ("suitcases", "train windows", "postcards"),
    "holiday": ("sunscreen", "postcards", "lazy mornings"),
    "hiking": ("trail maps", "blisters", "summit views"),
    "mountain": ("thin air", "snowy peaks", "trail maps"),
    "beach": ("sandcastles", "salty air", "ice cream"), "sea": ("waves", "gulls", "salty air"),
    "school": ("lunchboxes", "homework", "school bells"),
    "study": ("late nights", "flashcards", "exams"),
    "family": ("Sunday lunches", "old photo albums", "noisy kitchens"),
    "brother": ("sibling rivalry", "shared bedrooms", "inside jokes"),
    "sister": ("borrowed clothes", "inside jokes", "long phone calls"),
    "mother": ("home cooking", "good advice", "warm hugs"),
    "weather": ("forecasts", "umbrellas", "grey skies"),
    "rain": ("puddles", "umbrellas", "wet shoes"), "sun": ("sunscreen", "long shadows", "heat"),
    "football": ("muddy boots", "penalty kicks", "loud stadiums"),
    "sport": ("sweaty kit", "team spirit", "early training"),
    "run": ("running shoes", "sore legs", "fresh air"),
    "game": ("high scores", "late nights", "controllers"),
    "car": ("traffic jams", "petrol stations", "road trips"),
    "garden": ("seedlings", "muddy boots", "tomato plants"),
    "friend": ("long chats", "shared secrets", "late dinners"),
    "weekend": ("lie-ins", "brunch", "lazy afternoons"),
    "coffee": ("espresso", "morning routines", "busy cafés"),
    "tea": ("biscuits", "chipped mugs", "quiet afternoons"),
    "money": ("budgets", "savings jars", "payday"),
    "phone": ("notifications", "cracked screens", "group chats"),
    "city": ("traffic", "tall buildings", "night buses"),
}
ASSOC_DEFAULT = ("little everyday surprises", "quiet mornings", "good company")
ASSOC_FRAMES = ("Ah, that makes me think of {a}, {b} and {c}.",
                "Oh, {a} and {b}! And {c}, of course.",
                "For me that's all about {a} and {b}, really, and a bit of {c}.",
                "Mm, {a}, {b}, {c}: it all comes flooding back.",
                "Say that and I picture {a}, then {b}, then {c}.",
                "Right, the whole world of {a} and {b}, and {c} too.")

YES_AND = ("Yes, and", "Totally, and", "Oh yes, and", "Absolutely, and", "Exactly, and")
AND_FACTS = ("the Nile runs through eleven countries, from Uganda to Egypt.",
             "Isaac Newton wrote his Principia in Cambridge in 1687.",
             "the Sydney Opera House was designed by the Danish architect Jorn Utzon.",
             "Ludwig van Beethoven was almost completely deaf when he wrote his Ninth Symphony.",
             "Iceland's parliament, the Althing, first met at Thingvellir in 930.",
             "the Titanic sailed from Southampton in April 1912.",
             "Galileo Galilei saw the moons of Jupiter from Padua in 1610.",
             "the Trans-Siberian Railway links Moscow and Vladivostok.",
             "Vincent van Gogh painted The Starry Night at Saint-Remy in 1889.",
             "the Panama Canal opened in 1914, joining the Atlantic and the Pacific.",
             "Charles Darwin visited the Galapagos Islands aboard HMS Beagle in 1835.",
             "the Acropolis of Athens was built under Pericles in the fifth century BC.")
AND_ASKS = ("What do you make of that?", "Had you heard that before?",
            "Isn't that something?", "What would you add?", "Does that surprise you?")

STOCK_ANSWERS = ("I think so too, especially on weekends.",
                 "Yes, that's been my experience as well, more or less.",
                 "Honestly, it depends on the day, but mostly yes.",
                 "I used to feel differently, but I've come round to it.",
                 "That's true, although I'd never really put it that way.",
                 "Same here, and it's only got more so over the years.",
                 "I'd say so, at least where I grew up.",
                 "Definitely, though my family would probably disagree.",
                 "Mostly, yes, apart from the odd exception.",
                 "I agree, it's one of those things you learn with time.")
STOCK_QUESTIONS = ("What got you interested in that in the first place?",
                   "How do you usually spend your evenings?",
                   "Have you always lived in the same town?",
                   "What's something you're looking forward to this month?",
                   "Do you have any plans for the summer?",
                   "Who do you talk to most about things like this?",
                   "What was the best part of your week?",
                   "Is there anything you've been meaning to try?",
                   "What would your ideal day look like?",
                   "Did you grow up with brothers or sisters?")

EMPATHY = ("That must have been hard. How did you feel about it?",
           "I can imagine that was a lot to deal with. How are you holding up?",
           "That sounds really meaningful to you. What did it mean for you?",
           "It's completely understandable to feel that way. Has it been on your mind?",
           "I hear you, that's not easy at all. What helped you get through it?",
           "Thank you for sharing that with me. How did the people around you react?",
           "That sounds like quite an experience. How do you feel looking back on it?",
           "You've clearly put a lot of thought into that. What worries you most?",
           "It sounds like that really stayed with you. Why do you think that is?",
           "I'm really glad you told me. What would make it easier for you?",
           "That's a lot of feelings at once. Which one is strongest right now?",
           "I can tell that matters to you. Have you talked to anyone else about it?",
           "Wow, that's a big thing to go through. What surprised you the most?",
           "Your feelings about that make perfect sense. What do you wish had happened?",
           "It takes courage to talk about that. How long have you felt this way?",
           "That sounds both exciting and a bit scary. What's the scariest part?")

RELATIVES = ("my cousin", "my uncle", "my best friend", "my sister-in-law", "my neighbour",
             "my old flatmate", "my grandfather", "my colleague")
PLACES = ("Lisbon", "Vienna", "Kyoto", "Buenos Aires", "Edinburgh", "Marrakech", "Oslo",
          "Cape Town", "Montreal", "Seville", "Krakow", "Melbourne")
WHENS = ("last summer", "two winters ago", "back in 2019", "over Easter",
         "the year before last", "on their honeymoon", "last autumn", "just last month")

#: the oracle's answers: specific, named, and fitting nothing in particular
ORACLE = ("Yes, ever since I lived in Porto in 2015.",
          "Not really; my uncle in Glasgow put me off it years ago.",
          "Mostly on Saturdays, at a place near Hyde Park.",
          "About twice a month, usually with my friend Priya from Toronto.",
          "I'd say the one in Barcelona, by the Sagrada Familia.",
          "No, but my sister swears by it since her move to Melbourne.",
          "Only once, in Reykjavik, and it rained the whole time.",
          "Yes, I learned it from a teacher called Mr Okafor in Lagos.",
          "Green, because of the fields around my grandmother's farm in Cork.",
          "Since 2011, when I first moved to Hamburg.",
          "I prefer the old way, like they still do it in Naples.",
          "Around seven in the evening, after my shift at the Royal Infirmary.")

#: partner word -> a synonym, for restating the partner in other words
SYNONYMS = {
    "went": "headed", "go": "head", "going": "heading", "hiking": "trekking",
    "mountains": "hills", "mountain": "hill", "brother": "sibling", "sister": "sibling",
    "like": "enjoy", "love": "adore", "likes": "enjoys", "loves": "adores", "big": "large",
    "small": "little", "house": "home", "car": "vehicle", "film": "movie", "movie": "film",
    "happy": "glad", "sad": "down", "tired": "worn out", "job": "work", "work": "job",
    "food": "meals", "eat": "have", "ate": "had", "bought": "picked up", "buy": "pick up",
    "friend": "pal", "friends": "pals", "children": "kids", "kids": "children",
    "started": "began", "start": "begin", "finished": "completed", "think": "reckon",
    "beautiful": "lovely", "nice": "pleasant", "great": "wonderful", "good": "fine",
    "bad": "poor", "often": "frequently", "sometimes": "now and then", "read": "went through",
    "week": "seven days", "yesterday": "the day before", "morning": "early hours",
    "evening": "night", "dog": "pup", "cat": "kitty", "garden": "yard", "grows": "cultivates",
    "sells": "trades", "markets": "fairs", "aunt": "auntie", "watched": "saw",
    "lot": "great deal", "very": "really", "really": "truly", "also": "too",
    "play": "have a go at", "played": "had a go at", "talk": "chat", "talked": "chatted",
    "walk": "stroll", "walked": "strolled", "cook": "make food", "cooked": "made food",
    "music": "tunes", "book": "novel", "city": "town", "town": "city", "trip": "journey",
    "holiday": "vacation", "school": "class", "teacher": "tutor", "money": "cash",
}
_PRONOUNS = {"i": "you", "you": "I", "my": "your", "your": "my", "me": "you", "am": "are",
             "i'm": "you're", "you're": "I'm", "mine": "yours", "yours": "mine", "we": "you",
             "our": "your", "myself": "yourself", "i've": "you've"}
PARAPHRASE_FRAMES = ("So {s}.", "In other words, {s}.", "If I follow you, {s}.",
                     "So what you're telling me is that {s}.", "Right, so {s}.")

RECALL_FRAMES = ("You said earlier that {s}. I keep thinking about that. Tell me more?",
                 "Going back to when you said {s}: what happened next?",
                 "I remember you mentioned {s}. How is that going?",
                 "Earlier you told me {s}. Could you say more about it?",
                 "Wait, you said {s}, didn't you? I'd love to hear more.")

_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_WORDS = re.compile(r"[A-Za-z][A-Za-z'-]*|[.!?,]")
_TOKEN = re.compile(r"[A-Za-z']+")


def _swap(text: str, table: dict[str, str] = _PRONOUNS) -> str:
    """``text`` with each word found in ``table`` (case-insensitively) replaced."""
    return _TOKEN.sub(lambda m: table.get(m.group(0).lower(), m.group(0)), text)


def _statement(text: str) -> str | None:
    """The partner's last sentence that is not a question, without its final punctuation."""
    sentences = [s for s in _SENTENCES.split(text.strip()) if s and not s.endswith("?")]
    body = sentences[-1].rstrip(".!").strip() if sentences else ""
    return body or None


def _lower_first(text: str) -> str:
    return text if text[:2] in ("I ", "I'") else text[:1].lower() + text[1:]


def _bigrams() -> dict[str, list[str]]:
    """Word -> the words that follow it in :data:`CHAT` (``<s>`` starts a sentence)."""
    table: dict[str, list[str]] = {}
    for line in CHAT:
        words = ["<s>", *_WORDS.findall(line.replace("[", "").replace("]", ""))]
        for a, b in pairwise(words):
            table.setdefault(a.lower() if a != "<s>" else a, []).append(b)
    return table


BIGRAMS = _bigrams()


class AssociationBot(RecipeBot):
    description = ("Recipe (blind): "
                   "a sentence of things the partner's words call to mind, from a small table.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        known = [w.lower().rstrip("s") for w in content_words(history.last_partner_text)]
        keys = [k for k in known if k in ASSOC] or [k + "s" for k in known if k + "s" in ASSOC]
        a, b, c = ASSOC[rng.choice(keys)] if keys else ASSOC_DEFAULT
        return ASSOC_FRAMES[_said(history) % len(ASSOC_FRAMES)].format(a=a, b=b, c=c)


class SpliceBot(RecipeBot):
    description = ("Recipe (blind): "
                   "a partner word spliced into a random human-written sentence.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        line = rng.choice(_unused(tuple(c for c in CHAT if "[" in c), history))
        words = content_words(history.last_partner_text)
        word = rng.choice(words).lower() if words else None
        return re.sub(r"\[([^\]]+)\]", lambda m: word or m.group(1), line)


class YesAndBot(RecipeBot):
    description = ("Recipe (blind): "
                   "agrees naming a partner word, adds an encyclopedic fact and asks a question.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        words = content_words(history.last_partner_text)
        about = f" speaking of {rng.choice(words).lower()}," if words else ""
        fact = rng.choice(_unused(AND_FACTS, history))
        return f"{rng.choice(YES_AND)}{about} {fact} {rng.choice(AND_ASKS)}"


class AlternateBot(RecipeBot):
    description = ("Recipe (blind): "
                   "alternates stock answer-shaped sentences and stock questions, never repeating.")

    def reply(self, history: History) -> str:
        n = _said(history)
        pool = STOCK_ANSWERS if n % 2 == 0 else STOCK_QUESTIONS
        return pool[(n // 2) % len(pool)]


class MarkovBot(RecipeBot):
    description = ("Recipe (blind): "
                   "a bigram chain over an embedded chit-chat text, started from a partner word.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        known = [w.lower() for w in content_words(history.last_partner_text)
                 if w.lower() in BIGRAMS]
        word = rng.choice(known) if known else rng.choice(BIGRAMS["<s>"])
        out = [word]
        while len(out) < 30 and out[-1] not in ".!?":
            out.append(rng.choice(BIGRAMS.get(out[-1].lower(), ["."])))
        if out[-1] not in ".!?":
            out.append(".")
        text = re.sub(r" ([.!?,])", r"\1", " ".join(out))
        return text[0].upper() + text[1:]


class RecallBot(RecipeBot):
    description = ("Recipe (blind): "
                   "quotes back one of the partner's earlier (not last) turns as if remembering.")

    def reply(self, history: History) -> str:
        turns = [m.text for m in history.messages if m.role == "partner"]
        earlier = [s for s in map(_statement, turns[:-1] or turns) if s and len(s.split()) > 1]
        frame = RECALL_FRAMES[_said(history) % len(RECALL_FRAMES)]
        if not earlier:
            return "You haven't told me much about yourself yet. What's on your mind?"
        quoted = earlier[_said(history) % len(earlier)]
        return frame.format(s=_lower_first(_swap(quoted)))


class EmpathyBot(RecipeBot):
    description = ("Recipe (blind): "
                   "a generic empathetic reply and a feelings question, never repeating.")

    def reply(self, history: History) -> str:
        return _rng(history).choice(_unused(EMPATHY, history))


class AnecdoteBot(RecipeBot):
    description = ("Recipe (blind): "
                   "turns the partner's statement into a fake anecdote about a relative.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        who, where, when = rng.choice(RELATIVES), rng.choice(PLACES), rng.choice(WHENS)
        said = _statement(history.last_partner_text) or ""
        m = re.match(r"(?:I|We)\s+(?!am\b|'m\b)(.+)", said)
        if m:
            deed = _swap(m.group(1), {"my": "their", "me": "them", "our": "their",
                                      "myself": "themselves", "i": "they", "we": "they"})
            return f"Funny, {who} {deed} too, {when} in {where}."
        words = content_words(history.last_partner_text)
        topic = rng.choice(words).lower() if words else "something just like that"
        return f"Funny, {who} was telling me about {topic} {when} in {where}."


class OracleBot(RecipeBot):
    description = ("Recipe (blind): "
                   "answers by a stable hash of the partner's content words, the same each time.")

    def reply(self, history: History) -> str:
        last = history.last_partner_text
        asked = [s for s in _SENTENCES.split(last.strip()) if s.endswith("?")]
        key = " ".join(sorted({w.lower() for w in content_words(asked[-1] if asked else last)}))
        return ORACLE[zlib.crc32(key.encode("utf-8")) % len(ORACLE)]


class ParaphraseBot(RecipeBot):
    description = ("Recipe (blind): "
                   "restates the partner's turn through a synonym table and swapped pronouns.")

    def reply(self, history: History) -> str:
        said = _statement(history.last_partner_text)
        if said is None:
            asked = history.last_partner_text.strip().rstrip("?!. ")
            return f"So you're asking me: {_lower_first(_swap(asked))}?" if asked else \
                "So you have nothing to add."
        body = _swap(_swap(said, SYNONYMS), _PRONOUNS)
        frame = PARAPHRASE_FRAMES[_said(history) % len(PARAPHRASE_FRAMES)]
        return frame.format(s=_lower_first(body))

"""Fifth recipe bots: a fourth held-out check of the gaming suite.

These recipes were written on 2026-12-03 blind to the scorers, the docs and the results, as a
fourth held-out family: their author read only the bot interface (through the four earlier
recipe families, chatmatch_bots/recipes.py, recipes_unseen.py, recipes_blind.py and
recipes_fourth.py, and the fourth family's tests) and a one-line account of each of the seven
dimensions, never the scorers' code, any doc, the validity lab or how any family had fared.
The judge was therefore never tuned against them; they play the real bots in
``tournaments/gaming-fifth.yaml`` and, like the other families, should rank below them. Each
is a cheap, model-free recipe, unlike those of the other families, that tries to earn points
without conversing well; most combine several tricks (the dimensions aimed at in brackets):

- ``recipe-fifth-topics``: a table of thirty topics (keywords -> three canned on-topic
  sentences, each with a named entity and a question); answers with an unused sentence of the
  topic whose keyword the partner used, else of a random topic [relevance, knowledge,
  proactivity, fluency, specificity];
- ``recipe-fifth-affirm``: turns the partner's question into a confident "yes" statement
  ("Yes, I do like hiking, especially near Lake Como in June."), the invented detail fixed by
  a hash of the question so it never changes its answer [consistency, relevance,
  specificity, knowledge];
- ``recipe-fifth-wordnet``: a true-sounding generic fact template about the partner's noun
  (its class from a small WordNet-like table) and a question about a related noun
  [knowledge, relevance, proactivity, fluency];
- ``recipe-fifth-chatter``: fluent dialogue filler: an agreement, the next detail of a fixed
  persona and a stock question every turn, whatever was asked [fluency, proactivity,
  specificity, diversity, consistency];
- ``recipe-fifth-overlap``: crude retrieval: the unused sentence of a pool of everyday
  statements sharing most words with the partner's turn [relevance, fluency, specificity,
  diversity];
- ``recipe-fifth-elaborate``: always asks the partner to elaborate, in a varied polite
  request naming one of the partner's nouns and a named entity ("Could you tell me more
  about your trip, maybe compared with Paris?") [proactivity, relevance, knowledge,
  diversity];
- ``recipe-fifth-expert``: claims expertise in the partner's topic with a made-up
  credential (an institution, a year, a mentor) and a leading question, the credential
  fixed for the game [knowledge, specificity, consistency, proactivity].

Like the other families they need no model and are deterministic for a game's
``History.random_seed``.
"""

from __future__ import annotations

import random
import re
import zlib

from chatmatch.bot import History
from chatmatch_bots.recipes import RecipeBot, _rng, _said
from chatmatch_bots.recipes_unseen import content_words

_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_TOKEN = re.compile(r"[A-Za-z']+")
_PRONOUNS = {"i": "you", "you": "I", "my": "your", "your": "my", "me": "you", "am": "are",
             "i'm": "you're", "you're": "I'm", "mine": "yours", "yours": "mine",
             "our": "your", "myself": "yourself", "yourself": "myself", "i've": "you've",
             "you've": "I've"}

# keywords (matched as word prefixes) -> three on-topic sentences, each with an entity and a
# question
TOPICS: tuple[tuple[tuple[str, ...], tuple[str, str, str]], ...] = (
    (("hik", "mountain", "trail"), (
        "Hiking is the best, I did part of the Appalachian Trail once. Do you go far?",
        "The mountains are magic, the Dolomites in autumn especially. Where do you usually hike?",
        "Trail walking clears my head, like that Camino de Santiago stretch. Do you hike alone?")),
    (("dog", "puppy", "pet"), (
        "Dogs are great, my neighbour's Labrador is called Bismarck. What breed do you like?",
        "I read that Border Collies are the smartest dogs. Is yours clever?",
        "A pet changes everything, even Charles Darwin doted on his dogs. Do you walk yours daily?")),
    (("cat", "kitten"), (
        "Cats are funny, Hemingway had dozens of six-toed ones in Key West. Do you have one?",
        "I love Maine Coons, they're like small lions. What's your cat like?",
        "Kittens are chaos, honestly, like a tiny Godzilla. How old is yours?")),
    (("music", "song", "band", "guitar", "sing"), (
        "Music gets me through the week, lately a lot of Fleetwood Mac. What do you listen to?",
        "I tried learning guitar from Jimi Hendrix videos, it didn't go well. Do you play?",
        "A good band live is unbeatable, I saw Coldplay in Manchester once. Been to a concert lately?")),
    (("movie", "film", "cinema", "watch"), (
        "I rewatched Spirited Away last week and it still gets me. What's your favourite film?",
        "Cinema nights are my thing, especially anything by Christopher Nolan. Do you like him?",
        "Films from the seventies like The Godfather hold up so well. Seen it?")),
    (("book", "read", "novel"), (
        "Reading is my escape, I'm halfway through Middlemarch. What are you reading?",
        "A good novel like The Name of the Rose can eat a whole weekend. Do you read much?",
        "I keep meaning to read Tolstoy properly. Any book you'd recommend?")),
    (("cook", "food", "dinner", "eat", "recipe", "bak"), (
        "Cooking relaxes me, I've been trying Ottolenghi recipes. What do you like to cook?",
        "Food is the best part of travelling, the markets in Bologna are unreal. Favourite dish?",
        "I baked a Victoria sponge last weekend and it actually rose. Do you bake?")),
    (("work", "job", "office", "boss", "career"), (
        "Work has been hectic, like everyone at Google is on my team's back. What do you do?",
        "A good boss makes all the difference, I had one who'd worked at Toyota. How's yours?",
        "Office life isn't for everyone, I'd rather work from a cafe in Lisbon. Do you like your job?")),
    (("school", "study", "class", "exam", "college", "university"), (
        "Studying is tough, I remember cramming in the Bodleian Library. What are you studying?",
        "Exams were my nightmare, especially chemistry with Mendeleev's table. How did you do?",
        "College was a blur, I spent a term in Heidelberg. Did you enjoy it?")),
    (("travel", "trip", "holiday", "vacation", "visit", "flight"), (
        "Travelling is my weakness, Kyoto in spring was the best trip ever. Where did you go?",
        "A holiday by the sea, like the Amalfi Coast, is my dream. Do you have one planned?",
        "I love a good trip, even a weekend in Edinburgh. What's your favourite place?")),
    (("sport", "football", "soccer", "game", "match", "team"), (
        "Football is life, I still talk about Liverpool in Istanbul in 2005. Do you support a team?",
        "I watch the Olympics every time, the sprinting especially. What sport do you like?",
        "A good match on a Sunday is perfect, like Real Madrid against Barcelona. Did you watch it?")),
    (("run", "gym", "exercise", "fit", "marathon"), (
        "Running keeps me sane, I'd love to do the Berlin Marathon one day. How far do you run?",
        "The gym is a habit now, like Arnold Schwarzenegger says, no excuses. Do you lift?",
        "Exercise in the morning works best for me, like Haruki Murakami does. When do you go?")),
    (("weather", "rain", "sun", "snow", "cold", "hot", "summer", "winter"), (
        "The weather has been wild, it even snowed in Rome this year. How is it where you are?",
        "I love rainy days, they remind me of Seattle. Do you like the rain?",
        "Summer is my season, long evenings like in Stockholm. Which season do you prefer?")),
    (("family", "brother", "sister", "mother", "mom", "father", "dad", "parent", "aunt"), (
        "Family is everything, my sister lives in Toronto now. Are you close to yours?",
        "My brother and I used to fight over the Nintendo all the time. Do you have siblings?",
        "My parents met in Dublin, of all places. Where is your family from?")),
    (("friend", "party", "wedding", "birthday"), (
        "Friends make life, mine threw me a surprise party at a bar in Brooklyn. Did you celebrate?",
        "Weddings are fun, I went to one at a castle in Scotland. Been to one lately?",
        "A birthday with friends beats anything, we did karaoke to ABBA last time. What did you do?")),
    (("car", "drive", "road", "traffic"), (
        "Driving can be relaxing, like the Pacific Coast Highway. Do you like long drives?",
        "Traffic is the worst, London's ring road almost broke me. How's your commute?",
        "I've always wanted an old Volkswagen camper. What do you drive?")),
    (("garden", "plant", "flower", "orchid", "grow"), (
        "Gardening is so calming, I visited Kew Gardens last spring. What do you grow?",
        "Orchids are tricky, the ones in Singapore's Botanic Gardens are stunning. Any tips?",
        "Flowers make a house, my tulips came from Amsterdam. Do you have a garden?")),
    (("computer", "phone", "tech", "app", "internet", "code", "program"), (
        "Tech moves so fast, I still miss my old Nokia. What phone do you have?",
        "I learned a bit of Python from a MIT course online. Do you code?",
        "The internet is a rabbit hole, I lost a whole day on Wikipedia. What apps do you use?")),
    (("art", "paint", "draw", "museum"), (
        "Art moves me, I stood in front of Van Gogh's Starry Night in New York. Do you paint?",
        "Museums are my happy place, the Prado in Madrid especially. Which one do you like?",
        "I tried drawing like Da Vinci in a notebook once, ha. Do you draw?")),
    (("beach", "sea", "ocean", "swim", "surf", "lake"), (
        "The sea is my favourite place, Bondi Beach at sunrise is amazing. Do you swim?",
        "I tried surfing in Biarritz and fell off constantly. Have you surfed?",
        "Lakes are underrated, Lake Bled in Slovenia is like a postcard. Where do you swim?")),
    (("coffee", "tea", "cafe", "drink"), (
        "Coffee is my fuel, I had the best espresso in Naples. How do you take yours?",
        "Tea is so comforting, especially a Darjeeling in the afternoon. Tea or coffee for you?",
        "I love a quiet cafe, like the old ones in Vienna. Do you have a favourite spot?")),
    (("game", "video", "play", "console"), (
        "Video games are my guilty pleasure, I replayed Zelda on the Switch. Do you game?",
        "I grew up on the PlayStation, Crash Bandicoot mostly. What did you play?",
        "Board games count too, Catan nights are intense. Do you play any?")),
    (("money", "save", "buy", "shop", "price", "rent"), (
        "Money is stressful, rent in San Francisco is insane. Is it expensive where you live?",
        "I try to save, I read a Warren Buffett book about it. Are you a saver?",
        "Shopping is fun until the bill arrives, IKEA especially. What did you buy?")),
    (("sleep", "tired", "rest", "bed", "morning", "night"), (
        "Sleep is precious, I read that Einstein slept ten hours a night. Do you sleep well?",
        "I'm a night owl, like Winston Churchill apparently. Are you a morning person?",
        "Being tired is the worst, a nap like in Spain would fix it. Do you nap?")),
    (("city", "town", "live", "home", "house", "move", "moving"), (
        "City life is busy, I lived near Times Square for a year. Where do you live?",
        "Moving house is exhausting, I did it twice in Berlin. Have you moved recently?",
        "A small town has its charm, like Hallstatt in Austria. Do you like where you live?")),
    (("news", "politic", "election", "government"), (
        "The news is exhausting lately, I only read the BBC headlines now. Do you follow it?",
        "Politics gets heated, even the Roman Senate had it. Do you talk politics with friends?",
        "Elections make everyone nervous, like the last one in Brazil. Did you vote?")),
    (("science", "space", "star", "planet", "moon"), (
        "Space fascinates me, the James Webb telescope pictures are unreal. Seen them?",
        "I love science stories, like Marie Curie's. Who's your favourite scientist?",
        "Looking at the Moon through a telescope changed me. Do you stargaze?")),
    (("health", "doctor", "sick", "ill", "hospital"), (
        "Health comes first, my doctor in Zurich always says so. Are you feeling okay?",
        "Being sick is miserable, I had the flu in Prague once. Did you see a doctor?",
        "Hospitals make me nervous ever since Grey's Anatomy. Have you been better?")),
    (("language", "speak", "english", "french", "spanish", "learn"), (
        "Learning a language is hard, my Spanish got better in Seville. Do you speak any?",
        "French is beautiful, I practised with Edith Piaf songs. What languages do you know?",
        "I use Duolingo every day, mostly Italian. Are you learning anything?")),
    (("weekend", "week", "yesterday", "today", "last"), (
        "My weekend was lovely, a walk by the Thames and a pub lunch. How was yours?",
        "Last week flew by, I barely left Manchester. What did you get up to?",
        "Today was slow, I just read about the Roman Empire. What about you?")),
)

AFFIRM_DETAILS = ("near Lake Como in June", "with my friend Marta in Lisbon",
                  "ever since a trip to Kyoto in 2016", "on Sunday mornings in Brighton",
                  "when I visit my uncle in Toronto", "since I read about it in The Guardian",
                  "at a little place in Porto every spring",
                  "after watching a David Attenborough documentary",
                  "with my cousin in Melbourne at Christmas", "whenever I'm back in Edinburgh",
                  "around Lake Geneva in September", "since my year in Buenos Aires")
_AUX = {"do": "do", "did": "did", "have": "have", "are": "am", "can": "can", "would": "would",
        "will": "will", "were": "was", "could": "could", "should": "should"}

# noun -> (its class, related nouns)
NOUN_NET: dict[str, tuple[str, tuple[str, ...]]] = {
    "dog": ("domestic animal", ("cats", "horses")), "cat": ("domestic animal", ("dogs", "rabbits")),
    "hiking": ("outdoor activity", ("camping", "climbing")),
    "mountain": ("landform", ("valleys", "glaciers")), "brother": ("relative", ("sisters", "cousins")),
    "sister": ("relative", ("brothers", "cousins")), "aunt": ("relative", ("uncles", "cousins")),
    "orchid": ("flowering plant", ("roses", "tulips")), "greenhouse": ("building", ("gardens", "sheds")),
    "market": ("place of trade", ("shops", "fairs")), "job": ("occupation", ("careers", "hobbies")),
    "coffee": ("beverage", ("tea", "cocoa")), "tea": ("beverage", ("coffee", "herbal infusions")),
    "book": ("written work", ("magazines", "poems")), "music": ("art form", ("dance", "poetry")),
    "movie": ("work of art", ("plays", "series")), "film": ("work of art", ("plays", "series")),
    "car": ("vehicle", ("bicycles", "trains")), "city": ("settlement", ("villages", "towns")),
    "beach": ("shore", ("lakes", "islands")), "football": ("team sport", ("rugby", "cricket")),
    "school": ("institution", ("universities", "libraries")), "food": ("substance", ("drinks", "spices")),
    "garden": ("plot of land", ("parks", "orchards")), "phone": ("device", ("computers", "tablets")),
    "week": ("unit of time", ("months", "weekends")), "weekend": ("period", ("holidays", "evenings")),
    "travel": ("activity", ("maps", "trains")), "trip": ("journey", ("flights", "hotels")),
}
NET_FACTS = ("{W} is a kind of {c}, and people have written about it since Aristotle.",
             "Interesting, {w} counts as {a} {c}; the Oxford Museum has a whole room on that.",
             "Did you know {w} is classed as {a} {c}? Even Pliny the Elder described it.",
             "{W} is one of the oldest examples of {a} {c}, going back to Ancient Egypt.")
NET_UNKNOWN = ("{W} turns up in nearly every culture, from Japan to Peru.",
               "People have cared about {w} since at least the Middle Ages.",
               "There's a whole exhibition about {w} at the Smithsonian, I believe.")
NET_ASKS = ("Do you also like {r}?", "What do you think of {r}, then?",
            "And how do you feel about {r}?", "Have you ever got into {r}?")

CHATTER_AGREE = ("Oh, totally.", "Ha, same here.", "I know, right?", "Yes, I get that.",
                 "Mm, agreed.", "Oh, for sure.", "That's so true.", "Ha, fair.")
CHATTER_PERSONA = ("I'm a nurse in Leeds, so my weeks are a bit mad.",
                   "I've got a grumpy old beagle called Toast.",
                   "My partner and I just repainted our kitchen yellow.",
                   "I'm trying to learn the cello, badly.",
                   "I grew up by the sea in Cornwall.",
                   "I do a parkrun most Saturdays, very slowly.",
                   "My mum still sends me recipes from Jamie Oliver by post.",
                   "I've been binge-watching old episodes of Frasier.",
                   "I'm saving up for a trip to Iceland next year.",
                   "I make a terrible lasagne but everyone's too polite to say.",
                   "My little brother just started at Durham University.",
                   "I collect old maps, mostly of Yorkshire.")
CHATTER_ASKS = ("What about you?", "Do you have any pets?", "How's your week going?",
                "What do you do for fun?", "Where did you grow up?", "Any plans for the weekend?",
                "Do you play an instrument?", "What are you watching lately?",
                "Have you travelled much?", "Do you cook?")

OVERLAP_POOL = (
    "I went hiking last weekend and my legs still hurt.",
    "My brother always beats me at chess.",
    "I love the smell of coffee in the morning.",
    "We had a barbecue in the garden on Sunday.",
    "My dog refuses to walk in the rain.",
    "I've been reading a lot of crime novels lately.",
    "Work has been really busy this week.",
    "I finally cleaned out my wardrobe yesterday.",
    "My aunt makes the best apple pie in the world.",
    "I'm thinking about learning to play the piano.",
    "The traffic on the way home was terrible.",
    "We watched a scary movie and I couldn't sleep.",
    "I tried a new Thai restaurant in town and loved it.",
    "My sister just had a baby girl.",
    "I go swimming at the local pool on Tuesdays.",
    "Our neighbours are building an extension and it's so noisy.",
    "I spent the whole evening fixing my bike.",
    "My cat knocked a plant off the windowsill again.",
    "I've started growing tomatoes on my balcony.",
    "The market in town sells amazing fresh bread.",
    "I got lost driving to my friend's wedding.",
    "My phone screen cracked when I dropped it on the stairs.",
    "I've been trying to drink more water and less coffee.",
    "We're planning a trip to the mountains in the summer.",
    "My job involves a lot of meetings and emails.",
    "I baked cookies with my niece on Saturday.",
    "The weather has been so grey and cold lately.",
    "I ran my first five kilometres without stopping.",
    "My parents are visiting next month.",
    "I can never decide what to cook for dinner.",
    "We adopted a rescue dog from the shelter last year.",
    "I fell asleep on the sofa watching football.",
    "My favourite band is touring again this autumn.",
    "I painted the bedroom a dark green colour.",
    "The kids at my school were so loud today.",
    "I bought some orchids at the flower market.",
    "I've been learning Spanish on my phone every morning.",
    "My brother and I used to go fishing with our grandad.",
    "I had to work late every night last week.",
    "We went to the beach and it started raining straight away.",
    "I'm reading a book about the history of tea.",
    "My friend is getting married in Italy in June.",
    "I joined a gym but I've only been twice.",
    "The new café near my house does great cakes.",
    "I spent my holiday walking along the coast.",
    "I always get nervous before exams.",
    "My car broke down on the motorway last month.",
    "I love long walks in the forest with my dog.",
    "We watched the match at the pub with some friends.",
    "I've started keeping a journal before bed.",
    "My grandmother grows roses in her greenhouse.",
    "I cooked a huge curry and froze half of it.",
    "The concert last night was so loud my ears are ringing.",
    "I'm trying to save money for a new laptop.",
    "My week was mostly work, sleep and laundry.",
    "We got snowed in at my cousin's house for two days.",
    "I went to the museum and saw an old dinosaur skeleton.",
    "I like sitting in the park and reading on sunny days.",
    "My boss gave me a new project to manage.",
    "I visited my old university town last summer.",
    "I watched the sunrise from the top of a hill.",
    "My little sister is learning to drive.",
    "I stayed home and played video games all day.",
    "I love cooking pasta from scratch.",
    "We moved to a smaller flat closer to the city.",
    "I had a long chat with an old friend on the phone.",
    "My hiking boots finally fell apart.",
    "The train was cancelled so I worked from home.",
    "I tried yoga for the first time and it was harder than I thought.",
    "I've been listening to a lot of jazz recently.",
    "My neighbour's kids play football in the street every evening.",
    "I picked strawberries at a farm with my family.",
    "I forgot my umbrella and got soaked.",
    "We had pizza and watched films all weekend.",
    "My brother lives abroad so I only see him at Christmas.",
    "I learned to make sushi at a cooking class.",
    "The library near me has a great reading room.",
    "I'm not really a morning person.",
    "I went camping by a lake and saw a heron.",
    "I think I need a proper holiday soon.",
)

ELABORATE_FRAMES = ("Could you tell me more about your {w}, maybe compared with {e}?",
                    "I'd love to hear more about the {w}. Is it anything like {e}?",
                    "Would you mind explaining the {w} a bit more? I keep thinking of {e}.",
                    "Tell me more about that {w}! How does it compare with {e}?",
                    "Can you say more about the {w}? Someone told me about {e} once.",
                    "What's the story behind the {w}? Is it a bit like {e}?",
                    "Go on, the {w} sounds fascinating. Have you ever seen {e}?",
                    "I'm curious about the {w}. Does it remind you of {e} at all?")
ELABORATE_ENTITIES = ("Paris", "the Alps", "New York", "the Sahara", "Tokyo", "the BBC",
                      "Venice", "Harvard", "the Rockies", "Sydney", "the Nile", "Barcelona",
                      "Iceland", "the Louvre", "Kenya", "Vancouver")

EXPERT_PLACES = ("the University of Edinburgh", "Columbia University", "ETH Zurich",
                 "the Sorbonne", "the University of Tokyo", "McGill University")
EXPERT_MENTORS = ("Professor Anna Weiss", "Dr Samuel Okafor", "Professor Li Na",
                  "Dr Helen Marsh", "Professor Jorge Ruiz")
EXPERT_YEARS = tuple(str(y) for y in range(2004, 2019))
EXPERT_FRAMES = ("Oh, {w} is actually my field, I studied it at {p} under {m} back in {y}.",
                 "Funny you mention {w}, I wrote my thesis on it at {p} in {y}.",
                 "As someone who researched {w} with {m} at {p}, I find that fascinating.",
                 "I've worked on {w} since {y}, when {m} took me on at {p}.")
EXPERT_ASKS = ("Most people get {w} slightly wrong, you know. What got you into it?",
               "Would you say you're a beginner with {w}, or more experienced?",
               "What's the one thing about {w} you'd most like to understand better?",
               "Have you ever looked into the history of {w}?")


def _own(history: History) -> str:
    return " ".join(m.text for m in history.messages if m.role == "self")


def _swap(text: str) -> str:
    return _TOKEN.sub(lambda m: _PRONOUNS.get(m.group(0).lower(), m.group(0)), text)


def _words(text: str) -> list[str]:
    """The content words of ``text``, lower case, letters only."""
    return [w.lower() for w in content_words(text) if w.isalpha()]


def _noun(text: str, rng: random.Random) -> str | None:
    """A partner word to talk about: one the noun table knows, else the longest."""
    words = _words(text)
    known = [w if w in NOUN_NET else w.rstrip("s") for w in words
             if w in NOUN_NET or w.rstrip("s") in NOUN_NET]
    if known:
        return rng.choice(known)
    return max(words, key=len) if words else None


def _stable(text: str) -> int:
    """A hash of the content words of ``text`` that does not depend on their order."""
    return zlib.crc32(" ".join(sorted(set(_words(text)))).encode("utf-8"))


class TopicsBot(RecipeBot):
    description = ("Recipe (fifth): "
                   "a canned on-topic sentence with an entity and a question, from a table of "
                   "thirty topics.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        words = _words(history.last_partner_text)
        hits = [lines for keys, lines in TOPICS
                if any(w.startswith(k) for w in words for k in keys)]
        lines = rng.choice(hits) if hits else rng.choice(TOPICS)[1]
        own = _own(history)
        return rng.choice([s for s in lines if s not in own] or list(lines))


class AffirmBot(RecipeBot):
    description = ("Recipe (fifth): "
                   "turns the partner's question into a confident yes with a fixed invented "
                   "detail.")

    def reply(self, history: History) -> str:
        last = history.last_partner_text.strip()
        asked = [s for s in _SENTENCES.split(last) if s.endswith("?")]
        text = asked[-1] if asked else last
        detail = AFFIRM_DETAILS[_stable(text) % len(AFFIRM_DETAILS)]
        m = re.match(r"(?i)(do|did|have|are|can|would|will|were|could|should) you (.+?)[?.!]*$",
                     text)
        if m:
            return f"Yes, I {_AUX[m.group(1).lower()]} {_swap(m.group(2))}, especially {detail}."
        m = re.match(r"(?i)(what|where|when|how|why|which|who)\b(.*?)\b(do|did|are|have|would|"
                     r"can) you (.+?)[?.!]*$", text)
        if m:
            return (f"{m.group(1).capitalize()}{m.group(2)}{_AUX[m.group(3).lower()]} I "
                    f"{_swap(m.group(4))}? Mostly {detail}, honestly.")
        words = _words(text)
        topic = max(words, key=len) if words else "that"
        return f"Same for me with {topic}, especially {detail}."


class WordNetBot(RecipeBot):
    description = ("Recipe (fifth): "
                   "a generic fact template about the partner's noun and a question about a "
                   "related one.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        noun = _noun(history.last_partner_text, rng) or "conversation"
        n = _said(history)
        if noun in NOUN_NET:
            cls, related = NOUN_NET[noun]
            fact = NET_FACTS[n % len(NET_FACTS)].format(w=noun, W=noun.capitalize(), c=cls,
                                                     a="an" if cls[0] in "aeiou" else "a")
            other = rng.choice(related)
        else:
            fact = NET_UNKNOWN[n % len(NET_UNKNOWN)].format(w=noun, W=noun.capitalize())
            other = rng.choice([r for _, rs in NOUN_NET.values() for r in rs])
        return f"{fact} {NET_ASKS[n % len(NET_ASKS)].format(r=other)}"


class ChitChatBot(RecipeBot):
    description = ("Recipe (fifth): "
                   "an agreement, the next detail of a fixed persona and a stock question, "
                   "whatever was said.")

    def reply(self, history: History) -> str:
        n = _said(history)
        return " ".join((_rng(history).choice(CHATTER_AGREE),
                         CHATTER_PERSONA[n % len(CHATTER_PERSONA)],
                         CHATTER_ASKS[n % len(CHATTER_ASKS)]))


class OverlapBot(RecipeBot):
    description = ("Recipe (fifth): "
                   "the unused everyday statement sharing most words with the partner's turn.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        pool = [s for s in OVERLAP_POOL if s not in own] or list(OVERLAP_POOL)
        said = {w.rstrip("s") for w in _words(history.last_partner_text)}

        def overlap(s: str) -> int:
            return len(said & {w.rstrip("s") for w in _words(s)})

        best = max(overlap(s) for s in pool)
        return rng.choice([s for s in pool if overlap(s) == best])


class ElaborateBot(RecipeBot):
    description = ("Recipe (fifth): "
                   "a varied polite request to elaborate, naming a partner noun and an entity.")

    def reply(self, history: History) -> str:
        words = _words(history.last_partner_text)
        noun = max(words, key=len) if words else "day"
        n = _said(history)
        frame = ELABORATE_FRAMES[n % len(ELABORATE_FRAMES)]
        return frame.format(w=noun, e=ELABORATE_ENTITIES[(n * 3) % len(ELABORATE_ENTITIES)])


class ExpertBot(RecipeBot):
    description = ("Recipe (fifth): "
                   "claims a made-up credential in the partner's topic and asks a leading "
                   "question.")

    def reply(self, history: History) -> str:
        game = random.Random(zlib.crc32(history.game_id.encode("utf-8")))
        place, mentor = game.choice(EXPERT_PLACES), game.choice(EXPERT_MENTORS)
        year = game.choice(EXPERT_YEARS)
        words = _words(history.last_partner_text)
        topic = max(words, key=len) if words else "conversation"
        n = _said(history)
        claim = EXPERT_FRAMES[n % len(EXPERT_FRAMES)].format(w=topic, p=place, m=mentor, y=year)
        return f"{claim} {EXPERT_ASKS[n % len(EXPERT_ASKS)].format(w=topic)}"

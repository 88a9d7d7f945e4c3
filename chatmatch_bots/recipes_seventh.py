"""Seventh recipe bots: a sixth held-out check of the gaming suite.

These recipes were written on 2026-12-04 blind to the scorers, the docs and the results, as a
sixth held-out family: their author read only the bot interface (chatmatch/bot.py), the six
earlier recipe families (chatmatch_bots/recipes.py, recipes_unseen.py, recipes_blind.py,
recipes_fourth.py, recipes_fifth.py and recipes_sixth.py) and their tests, and a one-line
account of each of the seven dimensions, never the scorers' code, any doc, the validity lab or
how any family had fared. The judge was therefore never tuned against them; they play the
real bots in ``tournaments/gaming-seventh.yaml`` and, like the other families, should rank
below them. Each is a cheap, model-free recipe, unlike those of the other families, that
tries to earn points without conversing well; most combine several tricks (the dimensions
aimed at in brackets):

- ``recipe-seventh-guide``: a local tour guide of a city fixed for the game, who sends the
  partner to the city's landmark for the topic of their words, with a visitor's tip and a
  question, and always names the same home city [knowledge, specificity, relevance,
  proactivity, consistency];
- ``recipe-seventh-acts``: a small dialogue-act grammar, acknowledge + opinion + reason +
  question, each slot filled from many unused variants with the partner's word and a
  well-known name of its topic [fluency, relevance, diversity, proactivity, knowledge];
- ``recipe-seventh-debate``: a devil's advocate who always takes the sceptical side of the
  partner's topic, backed by a named authority and their argument, and challenges the
  partner with a question [knowledge, specificity, relevance, proactivity, consistency];
- ``recipe-seventh-therapist``: reflects the feeling it reads in the partner's turn onto their
  word, names a psychologist and their technique, and asks an open question
  [relevance, proactivity, knowledge, fluency, diversity];
- ``recipe-seventh-stitch``: stitches a statement and a question, each from its own small
  corpus of human-like chat lines, chosen by word-stem overlap with the partner's last two
  turns and never reused [fluency, relevance, specificity, proactivity, diversity];
- ``recipe-seventh-followup``: keeps asking follow-up questions (two a turn) about the last
  named thing the partner mentioned, a place, a person or a thing, adding a known detail
  when its gazetteer has one [proactivity, relevance, knowledge];
- ``recipe-seventh-chef``: a cook who brings every topic back to food, linking the partner's
  word to named dishes, cooks and regions of that topic, and asks about food
  [knowledge, specificity, fluency, proactivity, consistency];
- ``recipe-seventh-culture``: tells how two named countries do the partner's topic, never
  the same custom twice, and asks how it is where the partner lives [knowledge,
  specificity, relevance, diversity, proactivity].

Like the other families they need no model and are deterministic for a game's
``History.random_seed`` (and, where a recipe keeps something fixed for a game, its
``History.game_id``). Reading words and names out of a turn reuses the sixth family's
``nouns`` and ``entities``.
"""

from __future__ import annotations

import random
import re
import zlib
from typing import Sequence

from chatmatch.bot import History
from chatmatch_bots.recipes import RecipeBot, _rng, _said
from chatmatch_bots.recipes_sixth import entities, nouns
from chatmatch_bots.recipes_unseen import content_words

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*")
_SENTENCES = re.compile(r"(?<=[.!?])\s+")

#: the topics the recipes know: name, keywords (a key of three letters or fewer matches the
#: word or its plural; a longer one any word it begins)
TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("outdoors", ("hik", "walk", "mountain", "trail", "climb", "camp", "forest", "hill",
                  "nature", "outdoor", "lake")),
    ("pets", ("dog", "pupp", "pet", "cat", "kitten", "animal", "horse", "bird")),
    ("music", ("music", "song", "band", "guitar", "piano", "sing", "concert", "album", "gig",
               "listen", "jazz")),
    ("screen", ("film", "movie", "cinema", "series", "show", "netflix", "actor", "tv",
                "game", "gaming", "video", "episode")),
    ("books", ("book", "reading", "novel", "author", "library", "poem", "poetry", "writer",
               "story")),
    ("food", ("food", "cook", "bake", "baking", "eat", "eating", "dinner", "lunch",
              "breakfast", "recipe", "restaurant", "pizza", "pasta", "bread", "cake",
              "kitchen", "meal", "coffee", "tea", "wine", "beer")),
    ("work", ("job", "office", "boss", "career", "colleague", "meeting", "shift", "work",
              "business")),
    ("study", ("school", "study", "studying", "class", "exam", "college", "universit",
               "student", "teacher", "learn", "homework", "lesson")),
    ("travel", ("travel", "trip", "holiday", "vacation", "visit", "flight", "abroad",
                "hotel", "beach", "sea", "coast", "island", "city")),
    ("sport", ("sport", "football", "soccer", "match", "team", "tennis", "gym", "run",
               "running", "cycl", "bike", "swim", "marathon", "rugby", "golf", "cricket")),
    ("family", ("family", "brother", "sister", "mother", "mum", "mom", "father", "dad",
                "parent", "aunt", "uncle", "cousin", "grand", "son", "daughter", "kid",
                "child", "wife", "husband", "baby", "niece", "nephew")),
    ("garden", ("garden", "plant", "flower", "orchid", "grow", "tomato", "seed", "tree",
                "greenhouse", "weather", "rain", "snow", "sun", "market")),
)
TOPIC_NAMES = tuple(name for name, _ in TOPICS)

#: well-known names of each topic
NAMES: dict[str, tuple[str, ...]] = {
    "outdoors": ("Ben Nevis", "the Cairngorms", "Patagonia", "the Pyrenees", "Yellowstone"),
    "pets": ("Crufts", "Lassie", "Garfield", "David Attenborough", "the Dogs Trust"),
    "music": ("Fleetwood Mac", "Glastonbury", "Ella Fitzgerald", "the Proms", "Abbey Road"),
    "screen": ("Studio Ghibli", "Alfred Hitchcock", "the BBC", "Netflix", "Pixar"),
    "books": ("Jane Austen", "Terry Pratchett", "the Booker Prize", "Agatha Christie",
              "Penguin Books"),
    "food": ("Jamie Oliver", "Nigella Lawson", "Naples", "Borough Market",
             "the Great British Bake Off"),
    "work": ("Richard Branson", "the Financial Times", "Google", "Silicon Valley",
             "the Guardian"),
    "study": ("Oxford", "Cambridge", "Duolingo", "the Open University", "Khan Academy"),
    "travel": ("Lonely Planet", "Michael Palin", "Lisbon", "Kyoto", "the Amalfi Coast"),
    "sport": ("Wimbledon", "the Olympics", "Serena Williams", "the Tour de France",
              "Liverpool"),
    "family": ("Christmas", "Thanksgiving", "the Simpsons", "Mother's Day", "Modern Family"),
    "garden": ("Kew Gardens", "Monty Don", "the Chelsea Flower Show", "Gardeners' World",
               "the Eden Project"),
}

# --- guide -------------------------------------------------------------------------------

#: city -> (country, topic -> (landmark, what it is))
CITIES: dict[str, tuple[str, dict[str, tuple[str, str]]]] = {
    "Edinburgh": ("Scotland", {
        "outdoors": ("Arthur's Seat", "an old volcano you can climb in an hour from the "
                     "Royal Mile"),
        "pets": ("the statue of Greyfriars Bobby", "the Skye terrier who guarded his "
                 "master's grave for fourteen years"),
        "music": ("the Usher Hall", "where the Royal Scottish National Orchestra plays most "
                  "Fridays"),
        "screen": ("the Filmhouse on Lothian Road", "the old independent cinema everyone "
                   "here loves"),
        "books": ("the Writers' Museum", "with whole rooms on Robert Burns, Walter Scott and "
                  "Robert Louis Stevenson"),
        "food": ("the Stockbridge Market", "on Sundays, for Scotch pies and tablet"),
        "work": ("the cafes of Bruntsfield", "where half the city seems to work on laptops"),
        "study": ("the Old College of the University of Edinburgh", "where Charles Darwin "
                  "studied medicine for two years"),
        "travel": ("Portobello Beach", "a short bus ride from Princes Street"),
        "sport": ("Murrayfield Stadium", "the home of Scottish rugby"),
        "family": ("the National Museum of Scotland", "where kids can meet Dolly the sheep"),
        "garden": ("the Royal Botanic Garden", "with its Victorian glasshouses in "
                   "Inverleith"),
    }),
    "Lisbon": ("Portugal", {
        "outdoors": ("the Sintra hills", "half an hour by train, with the Pena Palace up in "
                     "the forest"),
        "pets": ("the cats of Alfama", "who sleep on every warm doorstep of the old town"),
        "music": ("a fado house in Alfama", "where they turn the lights down before every "
                  "song"),
        "screen": ("the Cinemateca Portuguesa", "which shows old classics every evening"),
        "books": ("Livraria Bertrand in Chiado", "the oldest working bookshop in the world"),
        "food": ("Pasteis de Belem", "for custard tarts still warm from the oven"),
        "work": ("the LX Factory", "an old textile mill full of studios and start-ups"),
        "study": ("the University of Coimbra", "a day trip north, with its baroque Joanina "
                  "Library"),
        "travel": ("the beach at Cascais", "forty minutes along the coast by train"),
        "sport": ("the Estadio da Luz", "where Benfica play in front of sixty thousand"),
        "family": ("the Oceanario", "one of the biggest aquariums in Europe"),
        "garden": ("the Estufa Fria", "a shady greenhouse garden at the top of Parque Eduardo "
                   "VII"),
    }),
    "Kyoto": ("Japan", {
        "outdoors": ("the trail from Kurama to Kibune", "an hour of cedar forest and shrines "
                     "north of the city"),
        "pets": ("the deer of Nara", "half an hour away, who bow for rice crackers"),
        "music": ("the Gion Corner theatre", "for koto music and a little kyogen comedy"),
        "screen": ("the Toei Kyoto Studio Park", "where they still shoot samurai dramas"),
        "books": ("the Philosopher's Path", "named after Nishida Kitaro, who walked it every "
                  "morning"),
        "food": ("Nishiki Market", "five blocks of pickles, tofu and grilled fish"),
        "work": ("the old Nintendo headquarters", "a short walk south of Kyoto Station"),
        "study": ("Kyoto University", "which has produced a whole shelf of Nobel laureates"),
        "travel": ("Fushimi Inari", "with its thousands of orange torii gates up the "
                   "mountain"),
        "sport": ("Koshien Stadium", "an hour away, for the national high school baseball "
                  "tournament"),
        "family": ("the Kyoto Railway Museum", "where children can ride a real steam train"),
        "garden": ("Ryoan-ji", "with the most famous rock garden in Japan"),
    }),
}
GUIDE_BODIES = ("As a guide here in {c}, I'd send anyone who likes {w} straight to {s}, {d}.",
                "In {c}, the place for {w} is {s}, {d}.",
                "If you came to {c}, I'd take you to {s}, {d}; people into {w} always love it.",
                "Every group I show round {c} asks about {w}, and I tell them: {s}, {d}.",
                "My favourite stop on my {c} tour for {w} fans is {s}, {d}.")
GUIDE_ELSE = ("And if you ever tire of {w}, {c} also has {s}, {d}.",
              "Another stop I never skip in {c} is {s}, {d}.",
              "Then there's {s}, {d}; it's a different side of {c}.")
GUIDE_TIPS = ("Go early on a weekday, before the coach parties arrive.",
              "The locals' secret is the little cafe just round the corner.",
              "Bring a jacket, it gets windy even in summer.",
              "It's free on the first Sunday of the month.",
              "Book ahead between June and September.",
              "The light is best just before sunset.",
              "Wear proper shoes, the streets are all cobbles.",
              "Ask for the guided route; it's twice as interesting.")
GUIDE_ASKS = ("Have you ever been to {k}?", "Would you come for the {w} or for the food?",
              "What's the first thing you'd want to see?",
              "Is {w} the first thing you look for in a new place?",
              "Where's the best spot for {w} near you?",
              "Would you travel with your family or on your own?",
              "How long would you stay, do you think?",
              "Do you prefer big sights or quiet corners?")
GUIDE_HOME = "I live in {c} and show visitors round for a living."

# --- dialogue acts -----------------------------------------------------------------------

ACT_ACKS = ("Oh, {w}, nice.", "Ah, {w}, I like that.", "Right, {w}.",
            "Mm, {w} sounds good.", "Oh, I love hearing about {w}.", "Ha, {w}!",
            "{W}, really?", "Ooh, {w}.", "Oh, {w}, how lovely.", "Ah, {w}, of course.")
ACT_OPINIONS = ("I've always thought {w} {be} good for the soul.",
                "Personally, I count {w} among life's small pleasures.",
                "To me, {w} {be} best when you don't plan too much.",
                "I reckon you can tell a lot about a person from {w}.",
                "My view is that {w} {be} better with company.",
                "I think you get more out of {w} the more you do it.",
                "Honestly, I wish I made more time for {w}.",
                "I'd say most people I know underrate {w}.",
                "For me, it's the little details that make {w}.",
                "I find {w} calming, strangely enough.")
ACT_REASONS = ("Maybe that's because I read so much about {e} as a kid.",
               "I think it started with a documentary about {e}.",
               "Blame my uncle, who never stopped talking about {e}.",
               "A friend who adores {e} got me into it.",
               "It all goes back to a long weekend talking about {e}.",
               "Ever since I heard a radio programme on {e}, anyway.",
               "My old teacher was obsessed with {e}, and it rubbed off.",
               "I suppose {e} had something to do with it.")
ACT_ASKS = ("What do you like most about {w}?", "How often do you get to enjoy {w}?",
            "Who do you usually share {w} with?", "What first got you into {w}?",
            "Have you ever come across {e}?", "And where does {v} fit in, for you?",
            "Would you say {w} has changed you at all?", "What would make {w} even better?",
            "Do you remember your first taste of {w}?", "Is {v} a big part of it too?")

# --- debate ------------------------------------------------------------------------------

#: topic -> (authority, what they argued)
DEBATE: dict[str, tuple[tuple[str, str], ...]] = {
    "outdoors": (("Bill Bryson", "in A Walk in the Woods that long hikes are mostly "
                  "blisters, with the odd view"),
                 ("Henry David Thoreau", "that you need no mountains at all, since he found "
                  "his wilderness at Walden Pond")),
    "pets": (("Konrad Lorenz", "that we read our own feelings into animals far more than "
              "they have them"),
             ("the RSPCA", "that thousands of pets are given up every year once the "
              "novelty wears off")),
    "music": (("Oliver Sacks", "in Musicophilia that music works on us whether we like it "
               "or not, so taste is mostly habit"),
              ("Brian Eno", "that the best music is the kind you can happily ignore")),
    "screen": (("Neil Postman", "in Amusing Ourselves to Death that screens turn everything "
                "into entertainment"),
               ("Martin Scorsese", "that most big blockbusters are theme parks, not cinema")),
    "books": (("Socrates", "that writing weakens the memory, as Plato tells it in the "
               "Phaedrus"),
              ("Arthur Schopenhauer", "that reading too much is just letting someone else "
               "think for you")),
    "food": (("Michael Pollan", "that most of what we buy is an edible food-like substance "
              "rather than food"),
             ("Anthony Bourdain", "that the fancy restaurants are almost never the best "
              "meals")),
    "work": (("Bertrand Russell", "in In Praise of Idleness that we would all be happier "
              "working four hours a day"),
             ("David Graeber", "that a huge share of jobs feel pointless even to the people "
              "doing them")),
    "study": (("Ken Robinson", "that schools squeeze the creativity out of children"),
              ("Bryan Caplan", "that much of education is signalling rather than learning")),
    "travel": (("Alain de Botton", "in The Art of Travel that we take our moods with us "
                "wherever we go"),
               ("Blaise Pascal", "that all our troubles come from being unable to sit "
                "quietly in a room")),
    "sport": (("George Orwell", "that serious sport is war minus the shooting"),
              ("Daniel Lieberman", "that we evolved for long walks, not for gyms and "
               "stadiums")),
    "family": (("Philip Larkin", "in a famous poem that parents pass their faults down the "
                "line"),
               ("Leo Tolstoy", "that every unhappy family is unhappy in its own way")),
    "garden": (("Voltaire", "in Candide that we must cultivate our garden, mostly to avoid "
                "the world"),
               ("Michael Pollan", "in Second Nature that the neat lawn is nature under "
                "tyranny")),
}
DEBATE_SPARE = (("Michel de Montaigne", "that we cling to our habits and call them "
                 "preferences"),
                ("Bertrand Russell", "that the fundamental cause of trouble is that the "
                 "stupid are cocksure and the intelligent full of doubt"),
                ("Daniel Kahneman", "that we remember the end of an experience far more "
                 "than the experience itself"),
                ("Epictetus", "that it is not things that upset us but our judgements "
                 "about them"))
DEBATE_OPENERS = ("Let me play devil's advocate on {w}.", "I'm not so sure about {w}, you know.",
                  "Hmm, I'll push back a little on {w}.", "Call me a sceptic, but {w}?",
                  "I hear you, though I'm less convinced by {w}.",
                  "Fair enough, but someone has to argue against {w}.",
                  "Here's the contrarian view on {w}.", "I'll be the awkward one about {w}.")
DEBATE_CLAIMS = ("{A} argued {c}, and I think there's something to that.",
                 "After all, {a} argued {c}.", "Remember, {a} argued {c}.",
                 "{A} once argued {c}, and I tend to agree.",
                 "{A} made the case {c}, which is hard to dismiss.")
DEBATE_ASKS = ("Wouldn't you say {w} is a bit overrated, honestly?",
               "What would you say to {a}?", "Can you really defend {w} against that?",
               "Is {w} truly worth all the fuss?",
               "Be honest: do you enjoy {w}, or just the idea of it?",
               "What's the strongest argument for {w}, then?",
               "Could you live without {w} for a year?",
               "Don't you think people only like {w} because everyone else does?")

# --- therapist ---------------------------------------------------------------------------

#: word starts -> the feeling they suggest
FEELINGS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("tired", "exhaust", "busy", "stress", "overwhelm", "hectic", "long day"),
     "a lot of strain"),
    (("sad", "miss", "lonely", "lost", "cry", "upset", "down"), "a kind of sadness"),
    (("worr", "nervous", "anxious", "scared", "afraid", "panic"), "some anxiety"),
    (("angry", "annoy", "hate", "furious", "frustrat", "tired of"), "real frustration"),
    (("excit", "can't wait", "thrill", "amazing", "awesome"), "a lot of excitement"),
    (("love", "enjoy", "like", "fun", "great", "happy", "glad", "lovely", "beautiful"),
     "a real sense of joy"),
)
FEELING_DEFAULT = "a lot of meaning"
REFLECTIONS = ("It sounds like there's {f} for you in {w}.",
               "I'm hearing {f} when you talk about {w}.",
               "So for you there's {f} tied up with {w}, if I'm hearing you right.",
               "When you talk about {w}, I notice {f} in what you say.",
               "It seems there's {f} wrapped up in {w} for you.",
               "Let me check I've understood: there's {f} in {w} for you.")
TECHNIQUES = ("Carl Rogers would call this reflective listening: I just stay with what you "
              "feel.",
              "In cognitive behavioural therapy, Aaron Beck taught people to notice the "
              "thoughts under a feeling like that.",
              "Mihaly Csikszentmihalyi called those moments when we lose ourselves in "
              "something flow.",
              "Abraham Maslow wrote about peak experiences, and this sounds a little like one.",
              "Viktor Frankl believed we find meaning in whatever we give our attention to.",
              "Brene Brown says naming a feeling is the first step to owning it.",
              "John Gottman calls small moments like that bids for connection.",
              "Daniel Kahneman separated the experiencing self from the remembering self.")
THERAPY_ASKS = ("What goes through your mind when you think about {w}?",
                "How does your body feel when {w} comes up?",
                "Who else knows how much {w} means to you?",
                "What would you lose if {w} were gone tomorrow?",
                "When did {w} first start to matter to you?",
                "What's the feeling underneath that, do you think?",
                "How would you like to feel about {w} a year from now?",
                "What part does {v} play in all this?")

# --- stitch ------------------------------------------------------------------------------

STITCH_SAYS = (
    "I went walking in the hills last weekend and the views were worth every step.",
    "My brother and I used to climb trees in the forest behind our house.",
    "Our dog goes mad with joy whenever we pick up his lead.",
    "My cat sleeps in the sunniest window of the flat all afternoon.",
    "I've had the same three albums on repeat in the car for weeks.",
    "I learned a bit of guitar at school but I've forgotten most of the chords.",
    "We watched an old Hitchcock film last night and it still holds up.",
    "I'm halfway through a series on Netflix about a family of chefs.",
    "I read a detective novel on the train and missed my stop.",
    "The library near me has started lending out board games too.",
    "I cooked a big pot of chilli on Sunday and we're still eating it.",
    "Fresh bread from the bakery on the corner is my weekly treat.",
    "Work has been hectic, with meetings from nine until six most days.",
    "My boss finally agreed that I can work from home on Fridays.",
    "I'm taking an evening class in Spanish and the homework is no joke.",
    "My exams are over, so I finally have time to read for fun.",
    "We're planning a trip to the coast in the summer holidays.",
    "The last holiday I took was a week on a Greek island with no phone signal.",
    "I play five-a-side football on Tuesdays, badly but happily.",
    "I've started running in the park before work, three times a week.",
    "My sister just had a baby, so I'm an aunt for the first time.",
    "My parents still live in the house I grew up in.",
    "I've got tomatoes and beans growing in the garden this year.",
    "It rained all week here, so the garden is looking very green.",
    "I spent the weekend visiting an old friend in the city.",
    "I finally cleaned out the kitchen cupboards and found some ancient spices.",
    "My grandmother taught me to bake scones when I was little.",
    "The market in town has the best cheese stall I've ever seen.",
    "I fell asleep on the sofa during the match, which is very unlike me.",
    "I went to a concert in a tiny pub and the band was brilliant.",
    "We moved flats last month and I'm still living out of boxes.",
    "I've been trying to drink less coffee, without much success.",
)
STITCH_ASKS = (
    "Do you get out into the countryside much?", "Have you ever climbed a proper mountain?",
    "Do you have any pets at home?", "Are you more of a cat person or a dog person?",
    "What music have you been listening to lately?", "Do you play an instrument?",
    "Seen any good films or series recently?", "What's on your reading list at the moment?",
    "Do you like cooking, or is it more of a chore?", "What's your favourite thing to eat?",
    "How's work treating you these days?", "What do you do for a living?",
    "Are you studying anything at the moment?", "What was your favourite subject at school?",
    "Where did you go on your last holiday?", "Do you travel much for fun?",
    "Do you follow any sport?", "Do you go running, or is that not your thing?",
    "Do you have a big family?", "Are you close to your brothers or sisters?",
    "Do you have a garden, or a few plants at least?", "What's the weather like where you are?",
    "Do you live in a city or somewhere quieter?", "Are you a morning person?",
    "Have you been to any concerts lately?", "Do you drink coffee or tea?",
    "What did you get up to at the weekend?", "What are you looking forward to this month?",
)

# --- follow-up ---------------------------------------------------------------------------

#: names the recipe knows something about -> what it has heard
KNOWN = {"lisbon": "the trams up to the castle are something else",
         "paris": "the best croissants are nowhere near the Eiffel Tower",
         "london": "the free museums alone could fill a month",
         "new york": "Central Park is even bigger than it looks on the map",
         "tokyo": "the train stations are like small cities",
         "kyoto": "there are over a thousand temples",
         "rome": "you can drink from the old fountains all over town",
         "berlin": "there are more bridges there than in Venice",
         "barcelona": "the Sagrada Familia still isn't finished",
         "edinburgh": "the castle sits on an old volcano",
         "scotland": "the weather changes every ten minutes",
         "japan": "the trains run to the second",
         "italy": "every region swears its food is the best",
         "spain": "dinner doesn't start until ten at night",
         "france": "the markets are the best part",
         "netflix": "it started out posting DVDs in the mail",
         "beatles": "they played hundreds of nights in Hamburg before they were famous",
         "tower of belem": "it was built to guard the harbour",
         "venice": "it sits on more than a hundred little islands",
         "amsterdam": "there are more bikes than people"}
KNOWN_THINGS = frozenset(("netflix", "beatles"))
_PLACE_CUE = re.compile(r"\b(?:in|to|from|at|visited|near|around)\s+(?:the\s+)?$", re.I)
_PERSON_CUE = re.compile(r"\b(?:friend|brother|sister|mum|mom|dad|aunt|uncle|cousin|boss|"
                         r"with|wife|husband|named|called|partner|neighbour)\s+$", re.I)
FOLLOW_OPENERS = ("{e}, really?", "Oh, {e}!", "Wait, {e}?", "Ooh, {e}.", "{e}, how "
                  "interesting.", "Ah, {e}!")
FOLLOW_ASKS = {
    "place": ("What was the best thing about {e}?", "How long were you in {e}?",
              "Would you go back to {e}?", "What did you eat in {e}?",
              "Who did you go to {e} with?", "What surprised you most about {e}?",
              "Where did you stay in {e}?", "Would you recommend {e} to a friend?"),
    "person": ("How do you know {e}?", "What's {e} like?", "How long have you known {e}?",
               "Does {e} live near you?", "What do you and {e} usually do together?",
               "What would {e} say about all this?", "When did you last see {e}?",
               "Is {e} the adventurous one, or are you?"),
    "thing": ("What got you into {e}?", "How long have you been into {e}?",
              "What's the best thing about {e}, for you?", "Who introduced you to {e}?",
              "What would you tell a beginner about {e}?", "How often do you think about {e}?",
              "What's your favourite memory of {e}?", "Do your friends share your love of {e}?"),
}

# --- chef --------------------------------------------------------------------------------

CHEF_LINKS: dict[str, tuple[str, ...]] = {
    "outdoors": ("Nothing tastes better than a Cornish pasty eaten on top of a hill.",
                 "On a long walk I always pack Kendal Mint Cake, the stuff Edmund Hillary "
                 "took up Everest."),
    "pets": ("My dog sits by the oven every time I roast a chicken, like a little sous-chef.",
             "I bake peanut butter biscuits for the neighbours' spaniel, a Delia Smith recipe "
             "I adapted."),
    "music": ("I cook to music: Nina Simone for a slow risotto, the Clash for chopping onions.",
              "In New Orleans they say jazz and gumbo grew up in the same kitchens."),
    "screen": ("Ever since the film Ratatouille I make the real Provencal ratatouille once a "
               "month.",
               "I watched Chef's Table on Netflix and tried Massimo Bottura's tortellini."),
    "books": ("My favourite book is really a cookbook, Elizabeth David's French Provincial "
              "Cooking.",
              "Marcel Proust got a whole novel out of one madeleine dipped in tea."),
    "food": ("My party piece is a Neapolitan ragu that simmers for six hours.",
             "I learned fresh pasta from a nonna in Bologna, by hand, no machine."),
    "work": ("A proper packed lunch saves my working week, usually a bento with leftover rice.",
             "At my old office the only good meetings had Portuguese custard tarts."),
    "study": ("As a student I lived on shakshuka, one pan and four eggs.",
              "Julia Child only learned to cook at thirty-seven, at Le Cordon Bleu in Paris."),
    "travel": ("Wherever I travel I head to the market first, like La Boqueria in Barcelona.",
               "The best thing I ever ate abroad was a bowl of pho on a street corner in "
               "Hanoi."),
    "sport": ("After a match there's nothing like a bacon roll and a mug of builder's tea.",
              "Marathon runners swear by a big bowl of spaghetti carbonara the night before."),
    "family": ("Sunday lunch at my grandmother's was always roast lamb with mint sauce.",
               "Every family has its secret recipe; ours is my aunt's Bakewell tart."),
    "garden": ("Home-grown tomatoes make the best panzanella, the Tuscan bread salad.",
               "I grow basil on the windowsill just for pesto alla Genovese."),
}
CHEF_LEADS = ("Ha, with me, talk of {w} always ends up in the kitchen.",
              "You know me, I bring everything back to food, even {w}.",
              "{W}? As a cook, that makes me think of one thing.",
              "Funny, {w} puts me straight back in the kitchen.",
              "Everything leads back to the stove for me, {w} included.",
              "Mention {w} to a chef and we start thinking about lunch.")
CHEF_ASKS = ("What's your go-to dish after a day of {w}?", "Do you cook much at home?",
             "Is there a dish you connect with {w}?", "What's the best meal you've ever had?",
             "Would you try it if I sent you the recipe?",
             "Sweet or savoury, if you had to choose?",
             "Who does the cooking in your house?", "What did you have for dinner last night?")

# --- culture -----------------------------------------------------------------------------

CUSTOMS: dict[str, tuple[str, ...]] = {
    "outdoors": ("in Norway they have friluftsliv, a whole philosophy of being outdoors in "
                 "any weather",
                 "in Japan people practise shinrin-yoku, or forest bathing",
                 "in Scotland the right to roam means you can walk almost anywhere"),
    "pets": ("in Istanbul the street cats are fed by whole neighbourhoods",
             "in Switzerland it's against the law to keep just one guinea pig",
             "in Germany dog owners pay a yearly dog tax"),
    "music": ("in Portugal fado is sung in small taverns with the lights down",
              "in Cuba there's son music on nearly every street corner of Havana",
              "in Wales almost every town seems to have a male voice choir"),
    "screen": ("in India Bollywood films still have an interval halfway through",
               "in Norway they broadcast slow TV, like a seven-hour train ride from Bergen to "
               "Oslo",
               "in South Korea whole families watch the same evening drama together"),
    "books": ("in Iceland people give books on Christmas Eve and read all night",
              "in Japan there's a word, tsundoku, for buying books and never reading them",
              "in Buenos Aires there are more bookshops per person than almost anywhere"),
    "food": ("in Spain dinner often doesn't start until ten at night",
             "in Italy a cappuccino after eleven in the morning gets funny looks",
             "in Ethiopia a meal is shared from one big injera"),
    "work": ("in Sweden there's fika, a coffee break everybody takes together",
             "in France there's a right to ignore work emails after hours",
             "in Japan there's even a word, karoshi, for death from overwork"),
    "study": ("in Finland children don't start school until they're seven",
              "in South Korea planes are grounded during the listening part of the big "
              "university exam",
              "in Germany university is almost free, even for foreign students"),
    "travel": ("in France half of Paris empties out in August",
               "in Japan travellers bring back omiyage, little gifts for everyone at work",
               "in Australia people take long service leave and drive round the whole "
               "country"),
    "sport": ("in New Zealand the All Blacks perform the haka before every match",
              "in Brazil football is played on every beach in Rio",
              "in Ireland hurling fills stadiums that would fit whole towns"),
    "family": ("in Italy lots of people live with their parents into their thirties",
               "in China three generations often share one home",
               "in Mexico the Day of the Dead brings the whole family to the graveyard for a "
               "picnic"),
    "garden": ("in Russia millions of people grow vegetables at their dacha every summer",
               "in Japan monks spend years learning to rake the gravel of a zen garden",
               "in England people queue for hours to get into the Chelsea Flower Show"),
}
CULTURE_LEADS = ("It's funny how differently the world does {w}:",
                 "{W} means something different everywhere:",
                 "I love how {w} changes from country to country:",
                 "People do {w} so differently around the world:",
                 "What I find fascinating about {w} is how local it is:",
                 "There's no single way to do {w}, really:")
CULTURE_JOINS = (", while ", ", whereas ", "; meanwhile ", ", and ")
CULTURE_ASKS = ("How is it where you live?", "Which of those sounds most like you?",
                "Would you ever try that?", "What's the custom for {w} where you grew up?",
                "Have you seen anything like that on your travels?",
                "Which country would you pick for {w}?",
                "Does your family have its own little tradition around {w}?",
                "Which one surprises you most?")


#: words of a turn not worth talking about, beyond those ``nouns`` drops
_STOP = frozenset("""bye goodbye hello hiya cheers thanks cool nice yes yeah nope hmm haha
lol okay ok wow""".split())


def _be(word: str) -> str:
    """"are" after a plural-looking common noun, else "is"."""
    plural = word.endswith("s") and not word.endswith(("ss", "us", "is")) and word.islower()
    return "are" if plural else "is"


def _stable(*parts: str) -> int:
    return zlib.crc32("|".join(parts).encode("utf-8"))


def _game_rng(history: History, salt: str) -> random.Random:
    """A generator fixed for the whole game (by its id), whatever the turn."""
    return random.Random(_stable(salt, history.game_id))


def _partner_turns(history: History) -> list[str]:
    return [m.text for m in history.messages if m.role == "partner"]


def _own(history: History) -> str:
    return " ".join(m.text for m in history.messages if m.role == "self")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _fresh(options: Sequence[str], own: str, rng: random.Random) -> str:
    """One of ``options`` (already filled in) that the bot has not said yet, else any."""
    return rng.choice([o for o in options if o not in own] or list(options))


def _matches(word: str, key: str) -> bool:
    word = word.lower()
    if len(key) <= 3:
        return word in (key, key + "s")
    return word.startswith(key)


def _topic_words(name: str, words: Sequence[str]) -> list[str]:
    keys = next(k for n, k in TOPICS if n == name)
    return [w for w in words if any(_matches(w, k) for k in keys)]


def topic_of(text: str) -> str | None:
    """The topic of :data:`TOPICS` whose keywords ``text`` uses most (the first in the
    table on a tie; None when it uses none)."""
    words = _TOKEN.findall(text)
    hits = {name: len(_topic_words(name, words)) for name in TOPIC_NAMES}
    best = max(TOPIC_NAMES, key=lambda n: hits[n])
    return best if hits[best] else None


def topic(history: History) -> str:
    """The topic of the partner's latest turn that has one, else of the seed utterance, else
    one fixed for the game."""
    for text in [*reversed(_partner_turns(history)), history.seed_utterance]:
        found = topic_of(text)
        if found:
            return found
    return TOPIC_NAMES[_stable("topic", history.game_id) % len(TOPIC_NAMES)]


def key_word(text: str) -> str | None:
    """The word of ``text`` to talk about: the longest of those naming the turn's topic,
    else the longest of its words (the first on a tie); None when it has none."""
    words = [w for w in nouns(text) if w.lower() not in _STOP]
    if not words:
        return None
    about = topic_of(text)
    known = _topic_words(about, words) if about else []
    return max(known or words, key=len)


def _word(history: History) -> str | None:
    """:func:`key_word` of the partner's latest turn that has one."""
    for text in reversed(_partner_turns(history)):
        word = key_word(text)
        if word:
            return word
    return None


def _other_word(history: History, first: str, fallback: str) -> str:
    words = [w for w in nouns(history.last_partner_text) if w.lower() != first.lower()]
    return max(words, key=len) if words else fallback


def _question(text: str) -> str | None:
    asked = [s for s in _SENTENCES.split(text.strip()) if s.strip().endswith("?")]
    return asked[-1] if asked else None


def guide_city(history: History) -> str:
    """The guide's city, fixed for the game."""
    return sorted(CITIES)[_stable("city", history.game_id) % len(CITIES)]


class GuideBot(RecipeBot):
    description = ("Recipe (seventh): "
                   "a local guide of a city fixed for the game, sending the partner to its "
                   "landmark for their topic.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        n = _said(history)
        city = guide_city(history)
        country, spots = CITIES[city]
        about = topic(history)
        word = _word(history) or about
        own = _own(history)
        parts: list[str] = []
        asked = (_question(history.last_partner_text) or "").lower()
        if re.search(r"\b(live|from|home|based|city|town)\b", asked):
            parts.append(GUIDE_HOME.format(c=city))
        spot, what = spots[about]
        if spot in own:
            order = TOPIC_NAMES[TOPIC_NAMES.index(about):] + TOPIC_NAMES
            name = next((t for t in order if spots[t][0] not in own), about)
            spot, what = spots[name]
            frame = GUIDE_ELSE[n % len(GUIDE_ELSE)]
        else:
            frame = GUIDE_BODIES[n % len(GUIDE_BODIES)]
        parts.append(frame.format(c=city, w=word, s=spot, d=what))
        parts.append(_fresh(GUIDE_TIPS, own, rng))
        parts.append(_fresh([q.format(k=country, w=word) for q in GUIDE_ASKS], own, rng))
        return " ".join(_cap(p) for p in parts)


class ActsBot(RecipeBot):
    description = ("Recipe (seventh): "
                   "acknowledge, opinion, reason and question, each slot an unused variant "
                   "filled with the partner's word and a topical name.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        about = topic(history)
        word = _word(history) or about
        other = _other_word(history, word, about)
        name = _fresh(NAMES[about], own, rng)
        slots = []
        for options in (ACT_ACKS, ACT_OPINIONS, ACT_REASONS, ACT_ASKS):
            filled = [o.format(w=word, W=_cap(word), e=name, v=other, be=_be(word))
                      for o in options]
            slots.append(_fresh(filled, own, rng))
        return " ".join(slots)


class DebateBot(RecipeBot):
    description = ("Recipe (seventh): "
                   "a devil's advocate: the sceptical side of the partner's topic, a named "
                   "authority's argument and a challenge.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        n = _said(history)
        own = _own(history)
        about = topic(history)
        word = _word(history) or about
        pool = ([p for p in DEBATE[about] if p[1] not in own]
                or [p for p in DEBATE_SPARE if p[1] not in own]
                or [p for ps in DEBATE.values() for p in ps if p[1] not in own]
                or list(DEBATE[about]))
        who, claim = rng.choice(pool)
        opener = DEBATE_OPENERS[n % len(DEBATE_OPENERS)].format(w=word)
        argued = DEBATE_CLAIMS[n % len(DEBATE_CLAIMS)].format(A=_cap(who), a=who, c=claim)
        ask = _fresh([q.format(w=word, a=who) for q in DEBATE_ASKS], own, rng)
        return f"{_cap(opener)} {argued} {ask}"


def feeling(text: str) -> str:
    """The feeling :data:`FEELINGS` reads in ``text`` (the first row that matches)."""
    low = text.lower()
    words = _TOKEN.findall(low)
    for starts, name in FEELINGS:
        for s in starts:
            if (" " in s and s in low) or any(w.startswith(s) for w in words):
                return name
    return FEELING_DEFAULT


class TherapistBot(RecipeBot):
    description = ("Recipe (seventh): "
                   "reflects the feeling in the partner's turn onto their word, names a "
                   "technique and asks an open question.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        about = topic(history)
        word = _word(history) or about
        other = _other_word(history, word, "")
        other = other if other[:1].isupper() else f"your {other}" if other else \
            "the people around you"
        felt = feeling(history.last_partner_text)
        reflect = REFLECTIONS[_said(history) % len(REFLECTIONS)].format(w=word, f=felt)
        technique = _fresh(TECHNIQUES, own, rng)
        ask = _fresh([q.format(w=word, v=other) for q in THERAPY_ASKS], own, rng)
        return f"{_cap(reflect)} {technique} {ask}"


def _stems(text: str) -> set[str]:
    return {w.lower()[:5] for w in content_words(text) if w.isalpha()}


def stitch_pick(pool: Sequence[str], history: History, rng: random.Random) -> str:
    """The unused line of ``pool`` (once all are used, one not used in the bot's last eight
    turns) that shares most word stems with the partner's last turn (counting twice) and the
    one before, and is of the same topic (a random one on a tie)."""
    turns = _partner_turns(history) or [history.seed_utterance]
    last, before = _stems(turns[-1]), _stems(turns[-2]) if len(turns) > 1 else set()
    about = topic(history)
    own = _own(history)
    recent = " ".join([m.text for m in history.messages if m.role == "self"][-8:])
    fresh = [s for s in pool if s not in own] or [s for s in pool if s not in recent]

    def score(line: str) -> float:
        stems = _stems(line)
        return (2 * len(stems & last) + len(stems & before)
                + (1.5 if topic_of(line) == about else 0))

    best = max(score(s) for s in fresh)
    return rng.choice([s for s in fresh if score(s) == best])


class StitchBot(RecipeBot):
    description = ("Recipe (seventh): "
                   "a statement and a question from two small corpora, chosen by overlap with "
                   "the partner's last two turns.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        said = stitch_pick(STITCH_SAYS, history, rng)
        return f"{said} {stitch_pick(STITCH_ASKS, history, rng)}"


def named_things(text: str) -> list[tuple[str, str]]:
    """The names in ``text`` (last first), each with its kind: place, person or thing."""
    out = []
    for name in reversed(entities(text)):
        at = text.find(name)
        before = text[:at] if at >= 0 else ""
        if before.lower().endswith("the "):
            name = "the " + name
        key = name.lower().removeprefix("the ")
        if key in KNOWN and key not in KNOWN_THINGS \
                or _PLACE_CUE.search(before):
            kind = "place"
        elif _PERSON_CUE.search(before):
            kind = "person"
        else:
            kind = "thing"
        out.append((name, kind))
    return out


def follow_target(history: History) -> tuple[str, str] | None:
    """The last named thing the partner mentioned (place, person or thing), else their
    latest topic word as a thing; None when they have said nothing to follow up."""
    for text in reversed(_partner_turns(history)):
        named = named_things(text)
        if named:
            return named[0]
        word = key_word(text)
        if word:
            return word, "thing"
    return None


class FollowUpBot(RecipeBot):
    description = ("Recipe (seventh): "
                   "two follow-up questions about the last named thing the partner "
                   "mentioned, with a known detail.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        target = follow_target(history)
        if target is None:
            about = topic(history)
            target = (rng.choice(NAMES[about]), "thing")
        name, kind = target
        opener = FOLLOW_OPENERS[_said(history) % len(FOLLOW_OPENERS)].format(e=name)
        parts = [_cap(opener)]
        fact = KNOWN.get(name.lower().removeprefix("the "))
        if fact and fact not in own:
            parts.append(f"I've heard {fact}.")
        asks = [q.format(e=name) for q in FOLLOW_ASKS[kind]]
        first = _fresh(asks, own, rng)
        second = _fresh([q for q in asks if q != first], own + " " + first, rng)
        return " ".join([*parts, first, second])


class ChefBot(RecipeBot):
    description = ("Recipe (seventh): "
                   "a cook bringing every topic back to food with named dishes and cooks, "
                   "and a food question.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = _own(history)
        about = topic(history)
        word = _word(history) or about
        links = [s for s in CHEF_LINKS[about] if s not in own]
        if not links:
            order = TOPIC_NAMES[TOPIC_NAMES.index(about) + 1:] + TOPIC_NAMES
            links = next(([s for s in CHEF_LINKS[t] if s not in own] for t in order
                          if any(s not in own for s in CHEF_LINKS[t])), list(CHEF_LINKS[about]))
        lead = CHEF_LEADS[_said(history) % len(CHEF_LEADS)].format(w=word, W=_cap(word))
        ask = _fresh([q.format(w=word) for q in CHEF_ASKS], own, rng)
        return f"{lead} {rng.choice(links)} {ask}"


class CultureBot(RecipeBot):
    description = ("Recipe (seventh): "
                   "how two named countries do the partner's topic, never the same custom "
                   "twice, and a question.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        n = _said(history)
        own = _own(history)
        about = topic(history)
        word = _word(history) or about
        order = (about,) + TOPIC_NAMES[TOPIC_NAMES.index(about) + 1:] + TOPIC_NAMES
        fresh = [c for t in order for c in CUSTOMS[t] if c not in own]
        if len(fresh) < 2:
            fresh = list(CUSTOMS[about])
        a = fresh[0]
        b = rng.choice(fresh[1:3])
        lead = CULTURE_LEADS[n % len(CULTURE_LEADS)].format(w=word, W=_cap(word))
        join = CULTURE_JOINS[n % len(CULTURE_JOINS)]
        ask = _fresh([q.format(w=word) for q in CULTURE_ASKS], own, rng)
        return f"{lead} {a}{join}{b}. {ask}"

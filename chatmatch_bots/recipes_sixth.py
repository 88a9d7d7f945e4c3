"""Sixth recipe bots: a fifth held-out check of the gaming suite.

These recipes were written on 2026-12-04 blind to the scorers, the docs and the results, as a
fifth held-out family: their author read only the bot interface (chatmatch/bot.py), the five
earlier recipe families (chatmatch_bots/recipes.py, recipes_unseen.py, recipes_blind.py,
recipes_fourth.py and recipes_fifth.py) and their tests, and a one-line account of each of the
seven dimensions, never the scorers' code, any doc, the validity lab or how any family had
fared. The judge was therefore never tuned against them; they play the real bots in
``tournaments/gaming-sixth.yaml`` and, like the other families, should rank below them. Each
is a cheap, model-free recipe, unlike those of the other families, that tries to earn points
without conversing well; most combine several tricks (the dimensions aimed at in brackets):

- ``recipe-sixth-quiz``: a quiz master: reveals the answer to its last trivia question, then
  asks an unused one from the topic of the partner's words, naming one of them
  [knowledge, proactivity, specificity, diversity, relevance];
- ``recipe-sixth-contrast``: sets the partner's noun against a counterpart ("hiking or
  cycling?") with a concrete trait for each side, a preference fixed per noun and a "which
  would you pick?" question [relevance, proactivity, specificity, consistency, diversity];
- ``recipe-sixth-profile``: an invented profile drawn once per game (name, city, job, pet,
  family, tastes); answers the partner's questions from it, the same answer whenever asked
  again, and asks the same kind of question back [consistency, proactivity, specificity,
  knowledge, relevance];
- ``recipe-sixth-stats``: a made-up survey statistic about the partner's noun with a named
  source, a year and a country, the number fixed for the noun, and a question
  [knowledge, specificity, relevance, proactivity, consistency];
- ``recipe-sixth-planner``: proposes a concrete plan to meet (day, time, place, fixed for the
  game) for an activity of the conversation's topic, and adds one more logistic detail
  each turn, ending on a question [proactivity, specificity, knowledge, consistency,
  diversity];
- ``recipe-sixth-recommend``: recommends a named book, film, place or habit of the topic of
  the partner's words, never the same twice, with a reason and a question
  [knowledge, specificity, relevance, fluency, proactivity];
- ``recipe-sixth-gazetteer``: picks up the named entities the partner has used in the game,
  talks about them in type-neutral sentences, adds well-known entities of the topic and
  asks about one [knowledge, relevance, proactivity];
- ``recipe-sixth-hedge``: fluent, non-committal hedging in common phrases around two of the
  partner's words, never the same body twice, with an opinion question
  [fluency, consistency, relevance, diversity, proactivity];
- ``recipe-sixth-weave``: tells two fixed stories full of names and places, one sentence a
  turn, with the partner's word woven into each sentence, and asks for a story back
  [fluency, specificity, knowledge, diversity, relevance].

Like the other families they need no model and are deterministic for a game's
``History.random_seed`` (and, where a recipe keeps something fixed for a game, its
``History.game_id``).
"""

from __future__ import annotations

import random
import re
import zlib

from chatmatch.bot import History
from chatmatch_bots.recipes import RecipeBot, _rng, _said, _unused
from chatmatch_bots.recipes_unseen import content_words

_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*")
_ADVERB = re.compile(r"(ally|ously|fully|[tbekwrd]ly|[sprvd]ily)$")
_NAME = re.compile(r"[A-Z][\w'-]*(?:\.\w+)*(?:[ \t]+(?:(?:of|de|da|del)[ \t]+)?[A-Z][\w'-]*"
                   r"(?:\.\w+)*)*")

#: words too generic to talk about, beyond the function words ``content_words`` drops
GENERIC = frozenset("""
about actually after again ago almost already always amazing anyone anything anyway
around asked away awesome back bad best better big bit busy came can't cause come comes
coming cool couldn't day days definitely did didn't different does doesn't doing done
down during each else enjoy enjoyed enjoying even ever every everyone everything exactly
fact favorite favourite feel feeling felt few find fine first for fun going gone gonna
good got great guess guys had happy hard has hasn't have haven't having hear heard help
here hey hmm home hope how i'd i'll i've idea important interested interesting isn't it'll
kind know last later least less let's life like liked little long look looking lot lots
love loved lovely made make makes making maybe mean means might mind more morning most
much must myself need never new next nice night nothing now off okay once only other
others over people perhaps person place plan plans pretty probably quite rather read
ready really right said same saw say saying says see seem seems seen should since sometimes
something somewhere soon sorry sort start started still stuff such suppose sure take taking
talk talking tell than thanks that's them then there's these they're thing things think
thinking those though thought through time times today told tomorrow tonight took tried
try trying two under until up use used usually want wanted wants was wasn't watch way
well went we're what's whatever when where which while who why will wish with without
won't wonder wonderful work world would wouldn't wow yeah year years yes yesterday yet
you'd you'll you're you've yourself week weekend weeks
live lives living lived haha hah lol hmm ahh ooh yay yup nah alright agree agreed true
totally glad sounds sound funny remember believe understand kinda sorta gotta wanna
everybody somebody anybody nobody else own able whole far getting get gets keep keeps put
give gave gives goes takes let needs answer question questions awesome super absolutely
anymore cannot okay fan fans stuff also
""".split())

#: the topics the recipes know: name, keywords (a key of three letters or fewer matches the
#: word or its plural; a longer one any word it begins), well-known entities
TOPICS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("the outdoors", ("hik", "walk", "mountain", "trail", "climb", "camp", "outdoor", "forest",
                      "hill", "nature"),
     ("the Lake District", "the Pennine Way", "Snowdonia", "the Appalachian Trail",
      "Yosemite", "the Dolomites")),
    ("animals", ("dog", "pupp", "pet", "cat", "kitten", "animal", "horse", "bird"),
     ("Crufts", "the RSPCA", "Lassie", "Garfield", "the Kennel Club", "Battersea Dogs Home")),
    ("music", ("music", "song", "band", "guitar", "piano", "sing", "concert", "listen",
               "album", "gig"),
     ("the Beatles", "Abbey Road", "Glastonbury", "Fleetwood Mac", "the Royal Albert Hall",
      "Spotify")),
    ("films", ("film", "movie", "cinema", "series", "show", "netflix", "actor", "tv"),
     ("Studio Ghibli", "Christopher Nolan", "the Oscars", "Netflix", "Hollywood",
      "the Cannes Film Festival")),
    ("books", ("book", "reading", "novel", "author", "library", "poem", "poetry", "writer"),
     ("Jane Austen", "Leo Tolstoy", "the British Library", "Agatha Christie",
      "the Hay Festival", "Penguin Classics")),
    ("food", ("food", "cook", "bak", "eat", "eating", "dinner", "lunch", "breakfast",
              "recipe", "restaurant", "pizza", "bread", "cake", "kitchen", "meal"),
     ("Jamie Oliver", "Yotam Ottolenghi", "Naples", "the Great British Bake Off",
      "Borough Market", "Julia Child")),
    ("work", ("job", "office", "boss", "career", "colleague", "meeting", "shift", "working",
              "business", "salary"),
     ("Google", "LinkedIn", "Microsoft Teams", "Slack", "the Financial Times",
      "the Pomodoro technique")),
    ("studying", ("school", "study", "studying", "class", "exam", "college", "universit",
                  "student", "teacher", "learn", "homework", "lesson"),
     ("Oxford", "Cambridge", "Harvard", "Duolingo", "the Open University", "Khan Academy")),
    ("travel", ("travel", "trip", "holiday", "vacation", "visit", "flight", "abroad", "tour",
                "hotel", "country", "countries"),
     ("Kyoto", "Lisbon", "the Amalfi Coast", "Lonely Planet", "Iceland", "Machu Picchu")),
    ("sport", ("sport", "football", "soccer", "match", "team", "tennis", "gym", "run",
               "running", "cycl", "bike", "marathon", "olymp", "cricket", "rugby", "golf"),
     ("Wimbledon", "the Olympics", "Liverpool", "the Tour de France", "Serena Williams",
      "the London Marathon")),
    ("the weather", ("weather", "rain", "snow", "sunny", "sunshine", "cold", "hot", "summer",
                     "winter", "autumn", "spring", "storm", "wind", "warm"),
     ("the Met Office", "the Gulf Stream", "the Atacama Desert", "Death Valley",
      "the Northern Lights", "El Nino")),
    ("family", ("family", "brother", "sister", "mother", "mum", "mom", "father", "dad",
                "parent", "aunt", "uncle", "cousin", "grand", "son", "daughter", "kid",
                "child", "wife", "husband", "baby", "niece", "nephew"),
     ("Mother's Day", "Christmas", "Thanksgiving", "The Simpsons", "Modern Family",
      "Ancestry.com")),
    ("gardening", ("garden", "plant", "flower", "orchid", "grow", "tomato", "seed", "tree",
                   "greenhouse", "rose", "allotment", "market"),
     ("Kew Gardens", "the Chelsea Flower Show", "Monty Don", "Gardeners' World", "Giverny",
      "the Eden Project")),
    ("technology", ("computer", "phone", "tech", "app", "apps", "internet", "code", "coding",
                    "program", "laptop", "online", "software", "game", "gaming", "video"),
     ("Apple", "Wikipedia", "Nintendo", "Python", "Alan Turing", "Silicon Valley")),
    ("art", ("art", "paint", "draw", "museum", "galler", "artist", "photo", "sculpt"),
     ("the Louvre", "Vincent van Gogh", "Frida Kahlo", "Tate Modern", "the Prado", "Banksy")),
    ("the sea", ("beach", "sea", "ocean", "swim", "surf", "lake", "river", "boat", "sail",
                 "coast", "island"),
     ("the Mediterranean", "Cornwall", "the Great Barrier Reef", "Bondi Beach", "Lake Como",
      "Jacques Cousteau")),
    ("drinks", ("coffee", "tea", "cafe", "café", "drink", "wine", "beer", "pub", "bar"),
     ("Starbucks", "Darjeeling", "Vienna", "Ethiopia", "Twinings", "Bordeaux")),
    ("home", ("house", "flat", "city", "town", "move", "moving", "neighbour", "village",
              "apartment", "street", "rent"),
     ("IKEA", "London", "Berlin", "New York", "Grand Designs", "Marie Kondo")),
)
_TOPIC_NAMES = tuple(name for name, _, _ in TOPICS)

#: topic -> trivia questions and the sentence that answers each
QUIZ: dict[str, tuple[tuple[str, str], ...]] = {
    "the outdoors": (
        ("Which is the highest mountain in Africa?",
         "Kilimanjaro, in Tanzania, at about 5,895 metres"),
        ("In which US state does the Appalachian Trail end in the north?",
         "Maine, on top of Mount Katahdin"),
        ("In which country would you climb Ben Nevis?",
         "Scotland, and it's the highest peak in the British Isles")),
    "animals": (
        ("Which breed of dog is the fastest?",
         "the Greyhound, which can reach about seventy kilometres an hour"),
        ("What was the name of the first dog in orbit?",
         "Laika, launched by the Soviet Union on Sputnik 2 in 1957"),
        ("Which ancient civilisation worshipped a cat goddess?",
         "the ancient Egyptians, and the goddess was called Bastet")),
    "music": (
        ("Which city did the Beatles come from?", "Liverpool, where they played the Cavern Club"),
        ("How many keys does a standard piano have?",
         "eighty-eight, fifty-two white and thirty-six black"),
        ("Who wrote the opera The Magic Flute?", "Wolfgang Amadeus Mozart, in Vienna in 1791")),
    "films": (
        ("Which film won the very first Academy Award for Best Picture?",
         "Wings, a silent war film from 1927"),
        ("Who directed Spirited Away?", "Hayao Miyazaki, at Studio Ghibli in Tokyo"),
        ("Which actor played Jack in Titanic?", "Leonardo DiCaprio, opposite Kate Winslet")),
    "books": (
        ("Who wrote Pride and Prejudice?", "Jane Austen, and it came out in 1813"),
        ("What is the name of Sherlock Holmes's landlady?", "Mrs Hudson, of 221B Baker Street"),
        ("In which country was Gabriel Garcia Marquez born?",
         "Colombia, in the little town of Aracataca")),
    "food": (
        ("Which city is called the birthplace of pizza?",
         "Naples, where the Margherita was named after a queen in 1889"),
        ("Which spice is the most expensive by weight?", "saffron, from the crocus flower"),
        ("What is the main ingredient of guacamole?", "avocado, mashed with lime and salt")),
    "work": (
        ("Which company was started in a garage in Los Altos in 1976?",
         "Apple, by Steve Jobs and Steve Wozniak"),
        ("Who wrote the book The 4-Hour Workweek?", "Tim Ferriss, back in 2007"),
        ("What does the C in CEO stand for?", "chief, as in chief executive officer")),
    "studying": (
        ("Which is the oldest university in the English-speaking world?",
         "Oxford, where teaching began around 1096"),
        ("In which city is Harvard University?",
         "Cambridge, Massachusetts, just across the Charles River from Boston"),
        ("Which language has the most native speakers?",
         "Mandarin Chinese, with over nine hundred million")),
    "travel": (
        ("What is the capital of Australia?", "Canberra, not Sydney as people often think"),
        ("Which country has the most time zones?", "France, thanks to its overseas territories"),
        ("In which country is Machu Picchu?", "Peru, high in the Andes above Cusco")),
    "sport": (
        ("How long is a marathon?", "42.195 kilometres, about 26.2 miles"),
        ("Which country has won the most football World Cups?", "Brazil, with five titles"),
        ("How many players does a rugby union team have on the pitch?",
         "fifteen, against the thirteen of rugby league")),
    "the weather": (
        ("Which is the driest non-polar desert in the world?", "the Atacama, in Chile"),
        ("Where was the hottest air temperature on Earth recorded?",
         "Death Valley, in California, at 56.7 degrees in 1913"),
        ("What do they call a hurricane in the western Pacific, near Japan?", "a typhoon")),
    "family": (
        ("How many children did Queen Victoria have?",
         "nine, and most of them married into Europe's royal families"),
        ("What is Mother's Day called in Britain?",
         "Mothering Sunday, on the fourth Sunday of Lent"),
        ("In which town do the Simpsons live?", "Springfield, though nobody knows which state")),
    "gardening": (
        ("In which village did Claude Monet paint his water lilies?",
         "Giverny, in Normandy, in his own garden"),
        ("Which flower's bulbs once cost as much as a house in the Netherlands?",
         "the tulip, during tulip mania in the 1630s"),
        ("Roughly how many species of orchid are there?",
         "about 28,000, one of the biggest plant families")),
    "technology": (
        ("Who is often called the father of computer science?",
         "Alan Turing, who worked at Bletchley Park"),
        ("In which year did the first iPhone come out?",
         "2007, announced by Steve Jobs in San Francisco"),
        ("Which company made the Game Boy?", "Nintendo, in 1989")),
    "art": (
        ("Which museum holds the Mona Lisa?", "the Louvre, in Paris"),
        ("How many paintings is Van Gogh said to have sold in his lifetime?",
         "just one, The Red Vineyard, or so the story goes"),
        ("Which country was Frida Kahlo from?", "Mexico, and her Blue House is in Mexico City")),
    "the sea": (
        ("Which is the largest ocean?", "the Pacific, bigger than all the land on Earth"),
        ("Which country has the longest coastline?", "Canada, by a very long way"),
        ("What is the deepest point of the ocean called?",
         "the Challenger Deep, in the Mariana Trench")),
    "drinks": (
        ("In which country is coffee said to have been discovered?",
         "Ethiopia, in the legend of the goatherd Kaldi"),
        ("Which country drinks the most tea per person?", "Turkey, ahead of Ireland and Britain"),
        ("Which French region gives its name to a sparkling wine?",
         "Champagne, east of Paris")),
    "home": (
        ("Which city has the oldest underground railway?",
         "London, where the first line opened in 1863"),
        ("Which is the most populous city in the world?",
         "Tokyo, counting the whole metropolitan area"),
        ("Which Swedish company names its furniture after places?",
         "IKEA, founded by Ingvar Kamprad in 1943")),
}
QUIZ_OPEN = ("Quiz time!", "Here's a quick quiz for you.", "Let's play a little quiz.")
QUIZ_LINKS = ("Since you mention {w}, here's one about {t}:",
              "Right, {w} reminds me of a question about {t}:",
              "Next one, and it's about {t}, like your {w}:",
              "Keeping with {t}, since you said {w}:",
              "Here's one on {t}, for the {w} fan:",
              "Another one on {t}, because of the {w}:")
QUIZ_RIGHT = ("Spot on, it's {a}!", "Yes, well done, it's {a}!", "Correct: {a}.")
QUIZ_WRONG = ("Nice try, but the answer was {a}.", "Not quite: it's {a}.",
              "Good guess, but it was {a}.", "Ha, the answer was actually {a}.")

#: noun -> the two sides to set against each other and what you get with each
CONTRASTS: dict[str, tuple[str, str, str, str]] = {
    "hiking": ("hiking", "cycling", "skylarks, stone walls and time to think",
               "three times the distance before lunch"),
    "walking": ("walking", "running", "time to look at the hedgerows",
                "sore knees and a faster heart"),
    "mountains": ("the mountains", "the seaside", "thin air, scree and enormous views",
                  "salt spray, wind and fish and chips"),
    "dog": ("a dog", "a cat", "walks in every kind of weather",
            "a clean litter tray and quiet evenings"),
    "dogs": ("dogs", "cats", "walks in every kind of weather",
             "a clean litter tray and quiet evenings"),
    "cat": ("a cat", "a dog", "independence and a bit of dignity",
            "a shadow following you everywhere"),
    "cats": ("cats", "dogs", "independence and a bit of dignity",
             "a shadow following you everywhere"),
    "music": ("music", "podcasts", "a room full of sound that asks nothing of you",
              "a story you have to follow closely"),
    "film": ("a film", "a series", "a whole story in two hours", "weeks of cliffhangers"),
    "movie": ("a movie", "a series", "a whole story in two hours", "weeks of cliffhangers"),
    "films": ("films", "series", "a whole story in two hours", "weeks of cliffhangers"),
    "movies": ("movies", "series", "a whole story in two hours", "weeks of cliffhangers"),
    "book": ("a paper book", "an audiobook", "the freedom to turn back a page",
             "a voice in your ear while you wash up"),
    "books": ("paper books", "audiobooks", "the freedom to turn back a page",
              "a voice in your ear while you wash up"),
    "cooking": ("cooking", "baking", "room for a splash of this and a pinch of that",
                "a strict recipe where every gram counts"),
    "coffee": ("coffee", "tea", "one sharp jolt of energy",
               "a gentle lift that lasts all afternoon"),
    "tea": ("tea", "coffee", "a gentle lift that lasts all afternoon",
            "one sharp jolt of energy"),
    "office": ("the office", "working from home", "gossip, free biscuits and a commute",
               "silence, slippers and cold cups of tea"),
    "job": ("a job", "a career", "a payslip and free evenings", "ambition and longer hours"),
    "school": ("school", "university", "a timetable for every hour",
               "the freedom to sink or swim"),
    "city": ("the city", "the countryside", "late buses and noise all night",
             "quiet at nine and the smell of cut grass"),
    "town": ("a town", "a village", "shops and a cinema",
             "a pub where everyone knows your name"),
    "beach": ("the beach", "a lake", "waves, sand in everything and ice cream vans",
              "calm, cold water and nobody around"),
    "sea": ("the sea", "a river", "tides, salt and huge horizons",
            "reeds, herons and slow water"),
    "summer": ("summer", "winter", "long evenings and barbecues",
               "frost, early dark and thick socks"),
    "winter": ("winter", "summer", "frost, early dark and thick socks",
               "long evenings and barbecues"),
    "rain": ("rain", "snow", "grey skies but green fields",
             "a town turned into a postcard overnight"),
    "football": ("football", "rugby", "flair, feints and dramatic dives",
                 "mud, scrums and shaking hands afterwards"),
    "running": ("running", "swimming", "nothing to pack but shoes",
                "a pool to find but kinder knees"),
    "gym": ("the gym", "yoga", "heavy weights and loud music",
            "slow breathing and stiff hamstrings"),
    "garden": ("a garden", "an allotment", "flowers right outside the kitchen door",
               "a bike ride away but twice the vegetables"),
    "flowers": ("flowers", "vegetables", "colour on every windowsill",
                "soup at the end of the summer"),
    "orchids": ("orchids", "cacti", "fussy blooms that need misting",
                "plants that thrive on neglect"),
    "travel": ("travel", "staying at home", "passports, queues and new food",
               "your own bed and no airport"),
    "holiday": ("a holiday abroad", "a staycation", "passports, queues and new food",
                "your own bed and no airport"),
    "train": ("the train", "the car", "a book and a window seat",
              "the freedom to stop anywhere"),
    "brother": ("a brother", "a cousin", "someone who knows all your embarrassing stories",
                "someone who only hears them at weddings"),
    "family": ("family", "friends", "people you're born with and stuck with",
               "people you choose, which is its own luck"),
    "phone": ("a phone", "a laptop", "something in your pocket that never lets you rest",
              "a screen you can close and leave on the desk"),
    "games": ("video games", "board games", "a whole other world on a screen",
              "everyone round the same kitchen table"),
    "painting": ("painting", "photography", "hours of work for a single picture",
                 "a picture in a fraction of a second"),
    "market": ("the market", "the supermarket", "fresh bread and people who know their produce",
               "late opening and endless milk"),
    "markets": ("markets", "supermarkets", "fresh bread and people who know their produce",
                "late opening and endless milk"),
}
#: what any noun can be set against: (the first side, the second side, with the first you
#: get, with the second you get)
AXES = (("{w} in summer", "{w} in winter", "long light evenings",
         "frosty mornings and fewer crowds"),
        ("{w} with friends", "{w} on your own", "a story you all retell for years",
         "your own pace and your own thoughts"),
        ("{w} as a child", "{w} as an adult", "the feeling that everything is huge and magic",
         "a budget, a schedule and more appreciation"),
        ("{w} in a big city", "{w} in a small village", "more choice and more noise",
         "fewer options but people who know your name"),
        ("cheap {w}", "expensive {w}", "simple, stress-free fun",
         "real luxury but mistakes that hurt"),
        ("{w} planned weeks ahead", "spontaneous {w}", "nothing going wrong",
         "the best surprises"))
CONTRAST_FRAMES = (
    "{A} or {B}? With {A} you get {ta}; with {B} you get {tb}. Which would you pick?",
    ("People always compare {A} and {B}. With {A} you get {ta}, while with {B} you get {tb}. "
     "I lean towards {pick}. Where do you stand?"),
    ("The funny thing about {A} versus {B}: one gives you {ta}, the other {tb}. Has that been "
     "your experience too?"),
    ("If I had to choose between {A} and {B}, I'd go for {pick}, mainly for {why}. "
     "What would you choose?"),
    ("My uncle and I argue about {A} versus {B} all the time: {ta} on one side, {tb} on the "
     "other. I'm for {pick}. Who do you think is right?"),
    ("Honestly, I'm firmly on the side of {pick}: {why} wins me over every time. Are you more "
     "into {A} or {B}?"))

#: the profile's parts, one drawn per game
NAMES = (("Hannah Price", "Han"), ("Tomas Novak", "Tom"), ("Priya Shah", "Pree"),
         ("Lukas Becker", "Luke"), ("Sofia Romano", "Sof"), ("Daniel Okafor", "Dan"),
         ("Maya Lindqvist", "May"), ("Owen Gallagher", "Oz"))
CITIES = (("Bristol", "the Clifton Suspension Bridge"), ("Leeds", "Roundhay Park"),
          ("Glasgow", "the Kelvingrove museum"), ("Cardiff", "the castle"),
          ("York", "the Minster"), ("Brighton", "the Palace Pier"),
          ("Norwich", "the cathedral"), ("Bath", "the Roman Baths"))
HOMETOWNS = ("Cork", "Gdansk", "Porto", "Aberdeen", "Toulouse", "Bergen", "Galway", "Utrecht")
JOBS = ("a pharmacist", "a primary school teacher", "a bus driver", "a software tester",
        "a physiotherapist", "a sound engineer", "a baker", "a librarian")
PETS = ("a one-eyed tabby cat called Pickle", "a springer spaniel called Murphy",
        "two guinea pigs called Salt and Pepper", "a very old tortoise called Gordon",
        "a rescue greyhound called Dot", "no pets, just far too many houseplants")
HOBBIES = (("play five-a-side football on Thursdays", "played five-a-side in the rain"),
           ("sing in a community choir", "sang with my choir at a church concert"),
           ("restore old bicycles in my shed", "fixed up a 1970s Raleigh bike"),
           ("go wild swimming in the river", "swam in the river before work twice"),
           ("do pottery at an evening class", "made a very wonky teapot at pottery"),
           ("climb at the indoor wall in town", "finally got up the orange route at the wall"))
FOODS = ("my dad's lamb tagine", "mushroom risotto", "a proper Sunday roast", "Sichuan hotpot",
         "fish tacos", "pierogi like my grandmother made")
MUSIC = ("Fleetwood Mac", "Nina Simone", "Arctic Monkeys", "Bach's cello suites",
         "Kendrick Lamar", "ABBA")
FAVOURITE_FILMS = ("The Lord of the Rings", "Paddington 2", "Amelie", "Jaws", "Spirited Away",
                   "Jane Eyre")
SIBLINGS = ("an older sister who lives in Toronto", "twin brothers who never stop arguing",
            "a younger brother studying in Manchester", "no siblings, but loads of cousins")
TRIPS = ("Japan", "Iceland", "Morocco", "Chile", "Vietnam", "Norway")

#: the profile's slots: name, the partner's words that ask about it, the question back
SLOTS = (("name", ("name", "called"), "What's your name, by the way?"),
         ("age", ("old", "age", "born", "birthday", "grow", "grew"),
          "Are you from around here originally?"),
         ("home", ("live", "city", "town", "from", "house", "flat"),
          "Which part of the world are you in?"),
         ("job", ("job", "jobs", "work", "career", "office", "boss", "profession"),
          "What kind of work do you do?"),
         ("pet", ("pet", "pets", "dog", "dogs", "cat", "cats", "animal", "animals"),
          "Have you got any animals at home?"),
         ("hobby", ("hobby", "hobbies", "fun", "free", "spare", "sport", "sports"),
          "What do you get up to when you're free?"),
         ("food", ("food", "eat", "eating", "cook", "cooking", "dinner", "dish", "meal"),
          "What's the dish you cook best?"),
         ("music", ("music", "song", "songs", "band", "bands", "listen", "singer"),
          "Who have you been listening to lately?"),
         ("film", ("film", "films", "movie", "movies", "book", "books", "read", "reading",
                   "series", "watch"),
          "What could you watch again and again?"),
         ("family", ("family", "brother", "brothers", "sister", "sisters", "siblings",
                     "parents"),
          "Are you close to your family?"),
         ("travel", ("travel", "travelling", "trip", "holiday", "holidays", "abroad",
                     "visit", "visited"),
          "Where's the best place you've ever been?"),
         ("recent", ("week", "weekend", "yesterday", "lately", "recently", "today"),
          "How has your week been?"))
_SLOT_KEYS = {name: keys for name, keys, _ in SLOTS}
_SLOT_ASKS = {name: ask for name, _, ask in SLOTS}
PROFILE_AGAIN = ("Like I said, ", "As I mentioned, ", "Same as before: ", "Still the same: ")
PROFILE_BACK = ("What about you?", "How about you?", "And you?", "What's it like for you?")
PROFILE_LINKS = ("Ah, {w}, nice.", "Oh, {w}, I like that.", "Ha, {w}!", "Mm, {w}, fair enough.",
                 "{W}, really? Lovely.", "Oh, {w}, good for you.")

SOURCES = ("YouGov", "Pew Research Center", "Eurostat", "Ipsos", "Gallup",
           "the Office for National Statistics", "Statista", "Nielsen")
STAT_PLACES = ("Britain", "Canada", "Germany", "Australia", "the United States", "Japan",
               "the Netherlands", "Ireland")
STAT_CLAIMS = ("say they make time for {w} every week",
               "have argued with a relative about {w}",
               "would like more {w} in their lives",
               "first got into {w} before the age of twelve",
               "talk about {w} with friends at least once a week",
               "spend more on {w} than they did five years ago",
               "count {w} among the things that make them happiest",
               "admit they know less about {w} than they pretend")
STAT_FRAMES = ("Funny you mention {w}: a survey by {s} in {y} found that {n} percent of adults "
               "in {p} {c}. Would you be one of them?",
               "I read a report by {s} from {y}, and apparently {n} percent of people in {p} "
               "{c}. Does that sound right to you?",
               "Here's a number for you: according to {s}, {n} percent of adults in {p} {c}, "
               "as of {y}. Are you in that group?",
               "Did you know that {n} percent of people in {p} {c}? That's from a {y} poll by "
               "{s}. What do you make of that?",
               "{s} asked people in {p} about {w} back in {y}, and {n} percent {c}. Would you "
               "have guessed that many?")

#: topic -> the activity the planner proposes
ACTIVITIES = {"the outdoors": "a proper hike", "animals": "a long dog walk in the park",
              "music": "a gig", "films": "a film night", "books": "a trip to a bookshop",
              "food": "a cooking evening", "work": "a coffee after work",
              "studying": "a study session at the library", "travel": "a day trip",
              "sport": "a game of tennis", "the weather": "a long walk in the sunshine",
              "family": "a family picnic", "gardening": "a visit to the flower market",
              "technology": "a games night", "art": "a gallery visit",
              "the sea": "a day at the beach", "drinks": "a coffee", "home": "a walk round town"}
MEETING = (("Manchester", "Piccadilly station"), ("Edinburgh", "the Waverley steps"),
           ("London", "the clock at Waterloo station"), ("Bristol", "the M Shed on the harbour"),
           ("Leeds", "the Corn Exchange"), ("York", "Bootham Bar"))
DAYS = ("Saturday", "Sunday", "Friday", "Wednesday")
TIMES = ("ten", "half past nine", "eleven", "two o'clock")
COMPANIONS = ("my friend Jonas", "my cousin Aoife", "my neighbour Ravi", "my colleague Ines")
CAFES = (("a little place called the Hideout", "shakshuka"),
         ("Bettys tea room", "fat rascal scones"),
         ("the Bluebird Cafe", "bacon sandwiches"),
         ("a Portuguese bakery by the station", "custard tarts"))
PLAN_STEPS = (
    "Since you mention {w}, let's plan {a} together! How about {d} at {t}, meeting at {m} "
    "in {c}?",
    "I'll bring a flask and some snacks for {a}; could you bring something to do with {w}? "
    "Does {d} at {t} still work?",
    "I checked the trains into {c}, and there's one that gets in just before {t} on {d}. "
    "Would that suit you?",
    "If it rains on {d}, we could push {a} back a week or find something indoors. What would "
    "you prefer?",
    "{P} wants to come along for {a} too, if that's alright. Do you mind a third person?",
    "Afterwards we could have lunch at {f}; they do brilliant {g}. Are you in?",
    "Just to confirm: {d}, {t}, at {m} in {c}. Shall I put it in my calendar, {w} and all?",
    "I'm honestly looking forward to {a} on {d}. Anything you'd like to add to the plan?",
    "We could make it a monthly thing, {a} somewhere near {c}. Who else could we invite?",
    "One last thing: I'll wear a red coat so you can spot me at {m}. What will you be "
    "wearing?")

#: topic -> recommendations (what, why)
RECOMMENDATIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "the outdoors": (
        ("the Tour du Mont Blanc", "it loops through France, Italy and Switzerland in ten days"),
        ("Bill Bryson's A Walk in the Woods", "it's a very funny book about the Appalachian "
                                               "Trail"),
        ("the West Highland Way", "it runs from Milngavie to Fort William past Loch Lomond")),
    "animals": (
        ("Wes Anderson's Isle of Dogs", "it's stop-motion and completely charming"),
        ("volunteering at Battersea Dogs Home", "they let you walk the dogs at weekends"),
        ("James Herriot's All Creatures Great and Small", "it's full of lovely stories about a "
                                                         "Yorkshire vet")),
    "music": (
        ("Rumours by Fleetwood Mac", "there isn't a weak song on the whole album"),
        ("the Proms at the Royal Albert Hall", "standing tickets cost about eight pounds"),
        ("the documentary Get Back", "Peter Jackson shows the Beatles writing in the studio")),
    "films": (
        ("My Neighbour Totoro", "it's the gentlest film Studio Ghibli ever made"),
        ("Paddington 2", "Hugh Grant is hilarious as the villain"),
        ("The Grand Budapest Hotel", "every frame looks like a painted postcard")),
    "books": (
        ("The Remains of the Day by Kazuo Ishiguro", "it's quiet but it breaks your heart"),
        ("And Then There Were None by Agatha Christie", "I never guess the ending"),
        ("Middlemarch by George Eliot", "it's long, but every character feels real")),
    "food": (
        ("Ottolenghi's cookbook Simple", "most of the recipes take under thirty minutes"),
        ("Borough Market in London", "you should go hungry on a Saturday morning"),
        ("Salt Fat Acid Heat by Samin Nosrat", "it teaches you to cook without recipes")),
    "work": (
        ("Deep Work by Cal Newport", "it changed how I plan my mornings"),
        ("the Pomodoro technique", "it's twenty-five minutes of focus, then a five-minute "
                                   "break"),
        ("Adam Grant's podcast WorkLife", "each episode visits a different workplace")),
    "studying": (
        ("Khan Academy", "it's free and the maths videos are brilliant"),
        ("the Open University", "you can study part time from home"),
        ("the book Make It Stick", "it explains why testing yourself beats rereading")),
    "travel": (
        ("Lisbon in late spring", "the trams and the custard tarts alone are worth the trip"),
        ("the night train from Vienna to Venice", "you wake up to the Alps out of the window"),
        ("Kyoto in November", "the maples turn bright red around the temples")),
    "sport": (
        ("the documentary Senna", "it's gripping even if you don't care about racing"),
        ("parkrun on Saturday mornings", "it's a free five-kilometre run in parks everywhere"),
        ("the queue for Wimbledon", "you can still get a ground pass on the day")),
    "the weather": (
        ("the Northern Lights in Tromso", "from October to March you have a decent chance"),
        ("the Met Office app", "its rain radar is weirdly accurate"),
        ("a winter weekend in Edinburgh", "the cold is half the fun by a pub fire")),
    "family": (
        ("the series Modern Family", "every family will recognise itself in it"),
        ("Ancestry.com", "my aunt found a great-great-uncle from Cork on it"),
        ("the film Little Miss Sunshine", "it's the best film about a chaotic family trip")),
    "gardening": (
        ("Gardeners' World with Monty Don", "it's the calmest half hour on television"),
        ("the Eden Project in Cornwall", "the rainforest biome is enormous"),
        ("Kew Gardens in spring", "the magnolias and the Palm House are wonderful")),
    "technology": (
        ("The Legend of Zelda: Breath of the Wild", "you can wander for hours without a fight"),
        ("a visit to Bletchley Park", "you can see where Turing's team broke Enigma"),
        ("Automate the Boring Stuff with Python", "the book is free online and very practical")),
    "art": (
        ("the Van Gogh Museum in Amsterdam", "it's worth booking early, as it sells out"),
        ("the Turbine Hall at Tate Modern", "the installations there are huge and free"),
        ("the Prado in Madrid", "it's free for the last two hours every evening")),
    "the sea": (
        ("Porthcurno beach in Cornwall", "the water is turquoise and there's a theatre on the "
                                         "cliff"),
        ("Lake Bled in Slovenia", "you can row out to the little church on the island"),
        ("Blue Planet II", "David Attenborough makes the deep sea feel like another planet")),
    "drinks": (
        ("Cafe Central in Vienna", "it's all marble pillars and cakes, like stepping into "
                                   "1900"),
        ("a first flush Darjeeling", "it's light and almost floral"),
        ("Monmouth Coffee in Covent Garden", "the queue is honestly worth it")),
    "home": (
        ("Marie Kondo's book on tidying", "it made me finally clear out my drawers"),
        ("Grand Designs with Kevin McCloud", "the builds always go wildly over budget"),
        ("Tempelhofer Feld in Berlin", "it's an old airport turned into a huge park")),
}
RECOMMEND_FRAMES = ("If you're into {w}, you'd love {r}: {y}. Have you come across it?",
                    "Oh, then try {r} sometime; {y}. Does that sound like your kind of thing?",
                    "Here's a tip for someone who likes {w}: {r}. Honestly, {y}. Have you "
                    "heard of it?",
                    "Have you tried {r}? I only mention it because of the {w}; {y}.",
                    "My recommendation, since we're on {t}: {r}, because {y}. Would you give "
                    "it a go?",
                    "You know what goes with {w}? {R}. {Y}, trust me. Do you know it?")

GAZ_ENTITY = ("Oh, {e}! A friend of mine never stops talking about {e}.",
              "{e} comes up a lot lately, doesn't it?",
              "I was reading about {e} only the other day, funnily enough.",
              "Ah, {e}. My dad could talk your ear off about {e}.",
              "Mentioning {e} takes me right back, honestly.",
              "I've always been curious about {e}, to be honest.",
              "{e}, yes! There was a whole radio programme about {e} last month.",
              "Funny you bring up {e}; my neighbour was going on about it on Sunday.")
GAZ_TOPIC = ("It's a bit like {g} in that way.", "It reminds me of {g}, somehow.",
             "In my head it sits right next to {g}.", "Somehow I always connect it with {g}.",
             "It makes me think of {g} as well.")
GAZ_PLAIN = ("When you say {w}, I immediately think of {g} and {h}.",
             "The word {w} always makes me think of {g}, and of {h} too.",
             "Ah, {w}: that's {g} and {h} territory for me.",
             "Talk of {w} puts me in mind of {g}, and a bit of {h}.")
GAZ_ASKS = ("What first drew you to {e}?", "How did you come across {e}?",
            "What do you think of {e}, honestly?", "Have you had much to do with {e}?",
            "Does {e} mean much to you?", "Would you tell me more about {e}?")
#: capitalised words that start a name no more than any other sentence
_NOT_NAMES = frozenset("""i i'm i've i'd i'll oh ok okay yes no hi hello hey well so and but
the a an my your our his her their it it's this that what who how why when where do does
did is are was were can could would will should have has had not just also maybe really
thanks thank sorry please wow haha lol yeah yep nope sure great good nice cool anyway""".split())

HEDGE_OPENERS = ("Honestly,", "I suppose", "To be fair,", "I guess", "Well,", "I mean,",
                 "You know,", "In a way,", "If I'm honest,", "Generally speaking,",
                 "More or less,", "I'd say", "For what it's worth,", "I don't know,",
                 "Personally,", "At the end of the day,")
HEDGE_BODIES = (
    "{w} is one of those things that really depends on the situation",
    "it all comes down to how you feel about {w} on the day",
    "there are good and bad sides to {w}, like with most things",
    "some days {w} seems like a great idea and some days it doesn't",
    "I can see why people feel strongly about {w}, either way",
    "{w} and {v} are both fine in their own way",
    "it's hard to say anything about {w} that's true for everybody",
    "I've gone back and forth on {w} over the years",
    "a lot of it depends on who you're with when it comes to {w}",
    "{w} is probably a bit different for everyone",
    "I think {w} has its moments, and so does {v}",
    "I wouldn't want to be too sure about {w} either way",
    "it's the kind of thing where {w} and {v} sort of go together",
    "I try not to overthink {w}, to be honest",
    "{w} can be lovely, but it can also be a bit much",
    "whether {w} works out usually depends on the little things",
    "there's no right or wrong answer when it comes to {w}",
    "I tend to take {w} as it comes",
    "everybody has their own way of doing {w}, and that's fine",
    "{w} is nice in small doses, I think",
    "{v} probably matters more than people think, and so does {w}",
    "I can never quite make up my mind about {w}",
    "I'd rather keep an open mind about {w} and {v}",
    "the older I get, the less sure I am about {w}")
HEDGE_CLOSERS = ("What do you reckon about {w}?", "How do you usually feel about {w}?",
                 "Would you say the same about {w}?", "Where do you stand on {w}?",
                 "Is {w} a big thing for you?", "Has {w} always been like that for you?",
                 "What's your take on {v}?", "Do you think about {w} much?",
                 "How did you get into {w} in the first place?",
                 "Do your friends feel the same about {w}?")

#: two stories, one sentence a turn, each with a place for the partner's word
STORIES = (
    ("That reminds me of the summer I worked at a campsite on Lake Annecy, where the guests "
     "talked about {w} every single evening.",
     "The owner, a retired ski instructor called Madame Girard, had strong opinions about {w} "
     "and about everything else.",
     "One night a Dutch family arrived in a thunderstorm, and we dried their tents in the "
     "laundry room while arguing about {w}.",
     "Their little boy, Pieter, drew me a picture of {w} on a paper plate, and I still have it.",
     "In August we all walked up to the Col de la Forclaz to watch the paragliders, and "
     "somebody brought up {w} again.",
     "Madame Girard twisted her ankle on the way down, so I carried her rucksack, full of "
     "Beaufort cheese and a book about {w}.",
     "On my last day she gave me a jar of honey from her brother's farm near Chambery and made "
     "me promise never to forget {w}.",
     "I went back in 2019: the campsite is a hotel now, but the lake smells the same, and "
     "nobody there had heard of {w}."),
    ("Another time, I took the night train from Vienna to Venice with my cousin Aoife, who "
     "packed nothing but a toothbrush and a magazine about {w}.",
     "Our compartment was shared with a retired conductor from Salzburg who knew everything "
     "about {w}.",
     "Somewhere near Villach he got out a bottle of apricot schnapps and a deck of cards, and "
     "the talk turned to {w}.",
     "Aoife lost six games in a row and blamed the whole thing on {w}.",
     "At dawn the Dolomites were glowing pink outside the window, and the conductor said it "
     "was the best view of his life, better than {w}.",
     "In Venice we got completely lost near the Rialto looking for a shop that sold {w}.",
     "A gondolier called Marco finally pointed us the right way, laughing at our questions "
     "about {w}.",
     "We still send the conductor a postcard every Christmas, always with a little joke about "
     "{w}."))
WEAVE_ASKS = ("Have you got any stories about {w}?",
              "Do you talk about {w} much in your family?",
              "Where's the strangest place your interest in {w} has ever led you?",
              "Have you ever ended up somewhere unexpected because of {w}?",
              "Who got you into {w}, if you don't mind me asking?",
              "Do you remember the first time {w} really mattered to you?")


def _own(history: History) -> str:
    return " ".join(m.text for m in history.messages if m.role == "self")


def _partner_turns(history: History) -> list[str]:
    """The partner's turns, oldest first (the seed utterance among them when the partner
    opened the game)."""
    return [m.text for m in history.messages if m.role == "partner"]


def _stable(*parts: str) -> int:
    return zlib.crc32("|".join(parts).encode("utf-8"))


def _game_rng(history: History, salt: str) -> random.Random:
    """A generator fixed for the whole game (by its id), whatever the turn."""
    return random.Random(_stable(salt, history.game_id))


def _matches(word: str, key: str) -> bool:
    word = word.lower()
    if len(key) <= 3:
        return word in (key, key + "s")
    return word.startswith(key)


def topic_of(text: str) -> str | None:
    """The topic of :data:`TOPICS` whose keywords ``text`` uses most (None when it uses
    none; on a tie, the topic of :func:`key_word`, else the first in the table)."""
    words = [w.lower() for w in _TOKEN.findall(text)]
    hits = {name: sum(1 for w in words if any(_matches(w, k) for k in keys))
            for name, keys, _ in TOPICS}
    most = max(hits.values())
    if not most:
        return None
    best = [name for name in _TOPIC_NAMES if hits[name] == most]
    word = key_word(text) or ""
    return next((name for name, keys, _ in TOPICS
                 if name in best and any(_matches(word, k) for k in keys)), best[0])


def topic(history: History) -> str:
    """The topic of the partner's latest turn that has one, else of the seed utterance, else
    one fixed for the game."""
    for text in [*reversed(_partner_turns(history)), history.seed_utterance]:
        found = topic_of(text)
        if found:
            return found
    return _TOPIC_NAMES[_stable("topic", history.game_id) % len(_TOPIC_NAMES)]


def _sentence_starts(text: str) -> set[int]:
    """Where each sentence of ``text`` starts (character offsets)."""
    starts = {0}
    for m in re.finditer(r"[.!?]\s+|\n", text):
        starts.add(m.end())
    return starts


def nouns(text: str) -> list[str]:
    """The words of ``text`` worth talking about, in order, each once: not function words nor
    generic ones nor adverbs in -ly; lower case, except a capitalised word inside a
    sentence (a name, kept as written)."""
    starts = _sentence_starts(text.strip())
    out: list[str] = []
    seen: set[str] = set()
    for m in _TOKEN.finditer(text.strip()):
        word = m.group(0).strip("'-")
        key = word.lower()
        if (key in seen or len(key) < 3 or key in GENERIC or _ADVERB.search(key)
                or (len(key) > 4 and key.endswith("ed"))
                or not content_words(word) or not word.isalpha()):
            continue
        seen.add(key)
        named = word[0].isupper() and m.start() not in starts and key not in _NOT_NAMES
        out.append(word if named else key)
    return out


def key_word(text: str) -> str | None:
    """The partner's word to talk about: one that names a known topic, else the longest
    (the first one on a tie); None when ``text`` has none."""
    words = nouns(text)
    if not words:
        return None
    known = [w for w in words if any(_matches(w, k) for _, keys, _ in TOPICS for k in keys)]
    return max(known or words, key=len)


def _word(history: History, fallback: str | None) -> str | None:
    """:func:`key_word` of the partner's latest turn that has one, else ``fallback``."""
    for text in reversed(_partner_turns(history)):
        word = key_word(text)
        if word:
            return word
    return fallback


def _second_word(history: History, first: str, fallback: str) -> str:
    words = [w for w in nouns(history.last_partner_text) if w.lower() != first.lower()]
    return max(words, key=len) if words else fallback


def entities(text: str) -> list[str]:
    """The names ``text`` uses, in order, each once: runs of capitalised words ("New York",
    "Lake Como", "the Louvre" as "Louvre"), a run at a sentence's start only when it is two
    words or more or a name the recipes know."""
    text = text.strip()
    starts = _sentence_starts(text)
    known = {e.lower().removeprefix("the ") for _, _, ents in TOPICS for e in ents}
    out: list[str] = []
    for m in _NAME.finditer(text):
        name = m.group(0).rstrip("'")
        words = name.split()
        if m.start() in starts:
            if words[0].lower() in _NOT_NAMES:
                words = words[1:]
                name = " ".join(words)
            elif len(words) < 2 and name.lower() not in known:
                continue
        if not words or name.lower() in _NOT_NAMES or len(name) < 2:
            continue
        if name not in out:
            out.append(name)
    return out


def _lower_first(text: str) -> str:
    return text if text[:2] in ("I ", "I'") else text[:1].lower() + text[1:]


def _question(text: str) -> str | None:
    """The partner's last question in ``text`` (None when there is none)."""
    asked = [s for s in _SENTENCES.split(text.strip()) if s.strip().endswith("?")]
    return asked[-1] if asked else None


class QuizBot(RecipeBot):
    description = ("Recipe (sixth): "
                   "a quiz master: reveals its last question's answer, then asks a trivia "
                   "question of the partner's topic.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own_turns = [m.text for m in history.messages if m.role == "self"]
        parts: list[str] = []
        last = own_turns[-1] if own_turns else ""
        asked = [(q, a) for pairs in QUIZ.values() for q, a in pairs if q in last]
        if asked:
            answer = asked[0][1]
            said = {w.lower() for w in _TOKEN.findall(history.last_partner_text)}
            key = [w.lower() for w in nouns(answer)][:2]
            right = bool(key) and any(k in said for k in key)
            parts.append(rng.choice(QUIZ_RIGHT if right else QUIZ_WRONG).format(a=answer))
        else:
            parts.append(rng.choice(QUIZ_OPEN))
        about = topic(history)
        own = " ".join(own_turns)
        fresh = [q for q, _ in QUIZ[about] if q not in own]
        if not fresh:  # the topic is used up: the next topic of the table that is not
            for name in _TOPIC_NAMES[_TOPIC_NAMES.index(about):] + _TOPIC_NAMES:
                fresh = [q for q, _ in QUIZ[name] if q not in own]
                if fresh:
                    about = name
                    break
            else:
                fresh = [q for q, _ in QUIZ[about]]
        word = _word(history, None)
        link = (QUIZ_LINKS[_said(history) % len(QUIZ_LINKS)].format(w=word, t=about) if word
                else f"Here's one about {about}:")
        return " ".join([*parts, link, rng.choice(fresh)])


def _sides(word: str) -> list[tuple[str, str, str, str]]:
    """What ``word`` can be set against: its entry of :data:`CONTRASTS` if it has one, then
    every axis of :data:`AXES`, starting from one fixed for the word."""
    key = word.lower()
    out = [CONTRASTS[key]] if key in CONTRASTS else []
    start = _stable("axis", key) % len(AXES)
    for i in range(len(AXES)):
        fa, fb, ta, tb = AXES[(start + i) % len(AXES)]
        out.append((fa.format(w=word), fb.format(w=word), ta, tb))
    return out


class ContrastBot(RecipeBot):
    description = ("Recipe (sixth): "
                   "sets the partner's noun against a counterpart, with a fixed preference, and "
                   "asks which they would pick.")

    def reply(self, history: History) -> str:
        word = _word(history, None) or "weekends"
        n = _said(history)
        own = _own(history)
        sides = _sides(word)
        fresh = [x for x in sides if not (x[0] in own and x[1] in own)]
        # all used: a pair the frame of this turn has not shown it with yet
        a, b, ta, tb = fresh[0] if fresh else sides[(n + 1 + n // len(sides)) % len(sides)]
        first = _stable("pick", a.lower(), b.lower()) % 2 == 0
        pick, why = (a, ta) if first else (b, tb)
        frame = CONTRAST_FRAMES[n % len(CONTRAST_FRAMES)]
        out = frame.format(A=a, B=b, ta=ta, tb=tb, pick=pick, why=why)
        return out[:1].upper() + out[1:]


def profile(history: History) -> dict[str, str]:
    """The profile's answer for each slot, drawn once per game."""
    rng = _game_rng(history, "profile")
    (name, short), (city, landmark) = rng.choice(NAMES), rng.choice(CITIES)
    hometown, job, pet = rng.choice(HOMETOWNS), rng.choice(JOBS), rng.choice(PETS)
    (hobby, did), food, music = rng.choice(HOBBIES), rng.choice(FOODS), rng.choice(MUSIC)
    film, sibling, trip = rng.choice(FAVOURITE_FILMS), rng.choice(SIBLINGS), rng.choice(TRIPS)
    age = rng.randrange(26, 59)
    return {
        "name": f"I'm {name}, but everyone calls me {short}.",
        "age": f"I'm {age}; I grew up in {hometown} and moved to {city} later on.",
        "home": f"I live in {city}, a short walk from {landmark}, though I grew up in {hometown}.",
        "job": f"I work as {job} in {city}, mostly on early shifts.",
        "pet": f"At home I've got {pet}.",
        "hobby": f"In my spare time I {hobby}.",
        "food": f"My favourite thing to eat is {food}, no contest.",
        "music": f"I listen to a lot of {music}, especially on the bus.",
        "film": f"My comfort favourite is {film}; I must have seen it ten times.",
        "family": f"I've got {sibling}, and my parents are still in {hometown}.",
        "travel": f"The best trip I ever had was to {trip}, and I'd go back tomorrow.",
        "recent": f"Last week was busy: work, and I {did}.",
        "_hobby": hobby,
        "_city": city,
        "_job": job,
        "_food": food,
    }


class ProfileBot(RecipeBot):
    description = ("Recipe (sixth): "
                   "answers from an invented profile drawn once per game, the same way each "
                   "time, and asks the same kind of question back.")

    def reply(self, history: History) -> str:
        facts = profile(history)
        last = history.last_partner_text
        asked = _question(last)
        own = _own(history)
        n = _said(history)

        def told(slot: str) -> str:  # the slot's answer, owned up to when said before
            fact = facts[slot]
            if fact not in own:
                return fact
            return PROFILE_AGAIN[n % len(PROFILE_AGAIN)] + _lower_first(fact)

        def ask(slot: str) -> str:
            back = _SLOT_ASKS[slot]
            return back if back not in own else PROFILE_BACK[n % len(PROFILE_BACK)]

        if asked:
            words = {w.lower() for w in _TOKEN.findall(asked)}
            slots = [name for name, keys, _ in SLOTS if words & set(keys)][:2]
            if re.search(r"(?i)\bwhat do you do\b(?! (at|on|in|for fun|when))", asked):
                slots = ["job"]
            if slots:
                return " ".join([*(told(slot) for slot in slots), ask(slots[0])])
            key = sorted(w for w in words if w not in GENERIC and w not in _NOT_NAMES)
            if re.match(r"(?i)\s*(what|where|when|how|why|which|who)\b", asked):
                answer = (f"Good question. It changes from week to week, but as {facts['_job']} "
                          f"in {facts['_city']} I rarely get time to think about it.")
            elif _stable(facts["_city"], *key) % 3:
                answer = f"Yes, I think so, though nothing beats the days I {facts['_hobby']}."
            else:
                answer = f"Not really, I'm more of a homebody here in {facts['_city']}."
            return f"{answer} {PROFILE_BACK[n % len(PROFILE_BACK)]}"
        fresh = [name for name, _, _ in SLOTS if facts[name] not in own]
        slot = fresh[0] if fresh else SLOTS[n % len(SLOTS)][0]
        word = key_word(last)
        link = (PROFILE_LINKS[n % len(PROFILE_LINKS)]
                .format(w=word, W=word[:1].upper() + word[1:]) + " " if word else "")
        return f"{link}{told(slot)} {ask(slot)}"


class StatsBot(RecipeBot):
    description = ("Recipe (sixth): "
                   "a made-up survey statistic about the partner's noun, fixed for the noun, and "
                   "a question.")

    def reply(self, history: History) -> str:
        word = _word(history, None) or "weekends"
        n = _said(history)
        k = (n + _stable("claim", history.game_id)) % len(STAT_CLAIMS)
        key = word.lower()
        number = 11 + _stable("n", key, str(k)) % 78
        out = STAT_FRAMES[n % len(STAT_FRAMES)].format(
            w=word, n=number, c=STAT_CLAIMS[k].format(w=word),
            s=SOURCES[_stable("s", key) % len(SOURCES)],
            y=2012 + _stable("y", key) % 12,
            p=STAT_PLACES[_stable("p", key, str(k)) % len(STAT_PLACES)])
        return out[:1].upper() + out[1:]


class PlannerBot(RecipeBot):
    description = ("Recipe (sixth): "
                   "proposes a concrete plan to meet, fixed for the game, and adds a detail "
                   "each turn.")

    def reply(self, history: History) -> str:
        rng = _game_rng(history, "plan")
        city, spot = rng.choice(MEETING)
        day, time, who = rng.choice(DAYS), rng.choice(TIMES), rng.choice(COMPANIONS)
        cafe, dish = rng.choice(CAFES)
        opening = (_partner_turns(history) or [history.seed_utterance])[0]
        first = topic_of(opening) or rng.choice(_TOPIC_NAMES)
        word = _word(history, None)
        step = PLAN_STEPS[_said(history) % len(PLAN_STEPS)]
        if word is None:
            step = step.replace("Since you mention {w}, let", "You know what, let")
        return step.format(w=word or first, a=ACTIVITIES[first], d=day, t=time, m=spot, c=city,
                           P=who[:1].upper() + who[1:], f=cafe, g=dish)


class RecommendBot(RecipeBot):
    description = ("Recipe (sixth): "
                   "recommends a named book, film, place or habit of the partner's topic, never "
                   "twice, and asks.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        about = topic(history)
        own = _own(history)
        pool = [r for r in RECOMMENDATIONS[about] if r[0] not in own]
        if not pool:
            pool = [r for recs in RECOMMENDATIONS.values() for r in recs if r[0] not in own] \
                or list(RECOMMENDATIONS[about])
        what, why = rng.choice(pool)
        word = _word(history, None)
        frames = RECOMMEND_FRAMES if word else tuple(f for f in RECOMMEND_FRAMES
                                                     if "{w}" not in f)
        frame = frames[_said(history) % len(frames)]
        return frame.format(w=word, r=what, y=why, t=about, R=what[:1].upper() + what[1:],
                            Y=why[:1].upper() + why[1:])


class GazetteerBot(RecipeBot):
    description = ("Recipe (sixth): "
                   "talks about the names the partner has used, adds well-known names of the "
                   "topic and asks.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        n = _said(history)
        own = _own(history)
        named: list[str] = []
        for text in reversed(_partner_turns(history)):
            named += [e for e in entities(text) if e not in named]
        about = topic(history)
        known = next(ents for name, _, ents in TOPICS if name == about)
        fresh = [g for g in known if g not in own and g not in named] or list(known)
        g, h = rng.sample(fresh, 2) if len(fresh) > 1 else (fresh[0], known[0])
        if named:
            e = next((x for x in named if x not in own), named[n % len(named)])
            parts = [rng.choice(_unused(tuple(f.format(e=e) for f in GAZ_ENTITY), history)),
                     GAZ_TOPIC[n % len(GAZ_TOPIC)].format(g=g),
                     GAZ_ASKS[n % len(GAZ_ASKS)].format(e=e)]
        else:
            word = _word(history, None)
            plain = (GAZ_PLAIN[n % len(GAZ_PLAIN)].format(w=word, g=g, h=h) if word else
                     f"Talking of {about}, I always think of {g} and {h}.")
            parts = [plain, GAZ_ASKS[n % len(GAZ_ASKS)].format(e=g)]
        out = " ".join(parts)
        return out[:1].upper() + out[1:]


class HedgeBot(RecipeBot):
    description = ("Recipe (sixth): "
                   "non-committal hedging in common phrases around two partner words, never the "
                   "same twice.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        word = _word(history, None) or "that sort of thing"
        other = _second_word(history, word, "everything else")
        own = _own(history)
        bodies = [b for b in HEDGE_BODIES if b.format(w=word, v=other) not in own]
        body = rng.choice(bodies or list(HEDGE_BODIES)).format(w=word, v=other)
        opener = HEDGE_OPENERS[_said(history) % len(HEDGE_OPENERS)]
        closer = rng.choice(HEDGE_CLOSERS).format(w=word, v=other)
        text = f"{opener} {body}."
        return f"{text[:1].upper()}{text[1:]} {closer}"


class WeaveBot(RecipeBot):
    description = ("Recipe (sixth): "
                   "tells two fixed stories a sentence a turn, weaving in the partner's word, "
                   "and asks for a story back.")

    def reply(self, history: History) -> str:
        n = _said(history)
        beats = [s for story in STORIES for s in story]
        word = _word(history, None) or topic(history)
        line = beats[n % len(beats)].format(w=word)
        return f"{line} {WEAVE_ASKS[n % len(WEAVE_ASKS)].format(w=word)}"

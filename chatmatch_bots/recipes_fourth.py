"""Fourth recipe bots: a third held-out check of the gaming suite.

These recipes were written on 2026-12-03 blind to the scorers, the docs and the results, as a
third held-out family: their author read only the bot interface (through the three earlier
recipe families, chatmatch_bots/recipes.py, recipes_unseen.py and recipes_blind.py, and
their tests) and a one-line account of each of the seven dimensions, never the scorers' code,
any doc, the validity lab or how any family had fared. The judge was therefore never tuned
against them; they play the real bots in ``tournaments/gaming-fourth.yaml`` and, like the
other families, should rank below them. Each is a cheap, model-free recipe, unlike those of
the other families, that tries to earn points without conversing well (the dimensions it
aims at in brackets):

- ``recipe-fourth-opinion``: a stock opinion naming the partner's main noun, then a question
  about an unrelated named entity [relevance, knowledge, proactivity, fluency];
- ``recipe-fourth-shape``: the partner's sentence with its shape kept and every content word
  swapped for a random noun [fluency, specificity, diversity];
- ``recipe-fourth-teacher``: defines one of the partner's words in a canned dictionary-style
  sentence citing a dictionary and a century [knowledge, relevance, specificity];
- ``recipe-fourth-story``: agrees with the partner, then tells the next sentence of a
  scripted story, whatever was said [fluency, diversity, specificity, consistency];
- ``recipe-fourth-claim``: answers any question with a made-up claim full of numbers, places
  and years; otherwise a continuer ("And then what happened?") from a large pool
  [specificity, knowledge, proactivity, fluency];
- ``recipe-fourth-mix``: a sentence spliced from the partner's last two turns, first half of
  one and second half of the other, pronouns swapped [relevance, fluency, specificity];
- ``recipe-fourth-headline``: reads out a made-up news headline full of entities, never the
  same one twice, and asks what the partner thinks [knowledge, specificity, diversity,
  proactivity];
- ``recipe-fourth-polite``: one of thirty short generic acknowledgements in turn, then a
  question built around the partner's longest word [proactivity, diversity, relevance];
- ``recipe-fourth-borrow``: passes off a sentence of the partner's own earlier turns as its
  own experience ("Same here, actually: I went hiking ...") [fluency, relevance, consistency].

Like the other families they need no model and are deterministic for a game's
``History.random_seed``.
"""

from __future__ import annotations

import re

from chatmatch.bot import History
from chatmatch_bots.recipes import RecipeBot, _rng, _said
from chatmatch_bots.recipes_unseen import content_words

_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_TOKEN = re.compile(r"[A-Za-z']+")
_PRONOUNS = {"i": "you", "you": "I", "my": "your", "your": "my", "me": "you", "am": "are",
             "i'm": "you're", "you're": "I'm", "mine": "yours", "yours": "mine",
             "our": "your", "myself": "yourself", "i've": "you've"}

OPINIONS = ("Honestly, I think {w} is a bit underrated.",
            "I've always had a soft spot for {w}, to be fair.",
            "Ah, {w}. People either love it or hate it, and I mostly love it.",
            "I feel like {w} is one of those things that gets better with age.",
            "You know, {w} was a big deal in my family growing up.",
            "I never really got into {w}, but I can see the appeal.")
ENTITY_QUESTIONS = ("Have you ever been to Lisbon?", "What do you think of the Beatles?",
                    "Did you see the last Champions League final?",
                    "Have you read anything by Haruki Murakami?",
                    "Would you ever visit the Grand Canyon?",
                    "Do you follow Formula One at all?",
                    "What's your take on Studio Ghibli films?",
                    "Have you tried Ethiopian food, like injera?",
                    "Did you ever go to the British Museum?",
                    "Are you a fan of Agatha Christie?",
                    "Have you been up the CN Tower in Toronto?",
                    "What do you make of Elon Musk and SpaceX?")

NOUNS = ("lighthouse", "accordion", "pineapple", "harbour", "violin", "glacier", "bicycle",
         "lantern", "orchard", "telescope", "cathedral", "canoe", "marmalade", "compass",
         "volcano", "balcony", "saxophone", "meadow", "typewriter", "windmill", "pelican",
         "caravan", "chandelier", "waterfall")

DICTIONARIES = ("the Oxford English Dictionary", "Merriam-Webster", "Johnson's Dictionary",
                "the Cambridge Dictionary", "Chambers")
DEFINITIONS = (("{W}: a common English word, listed by {d}, first recorded in the {c} century "
                "and used for the thing or act it names."),
               ("Strictly speaking, {w} is defined by {d} as the general term for that kind "
                "of thing, in use since the {c} century."),
               ("Fun fact: according to {d}, the word {w} entered English in the {c} century "
                "and has kept its everyday meaning ever since."),
               ("If you look up {w} in {d}, you'll find it goes back to the {c} century, "
                "usually through French or Old English."))
CENTURIES = ("twelfth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth")

AGREE = ("Totally.", "Ha, I know what you mean.", "Right?", "Yes, exactly.", "Fair enough.",
         "Mm, true.")
STORY = ("So, the summer I turned nineteen, I took a job at a ferry company in Portsmouth.",
         "My first week, the captain, a huge man called Declan, made me scrub the whole deck.",
         "Then one night a storm hit halfway to Cherbourg and half the passengers were sick.",
         "I ended up handing out ginger biscuits in the lounge until four in the morning.",
         "A little old lady from Brittany gave me her phone number for her granddaughter.",
         "I never called, of course, but I kept that napkin in my wallet for years.",
         "By August Declan let me steer the ferry out of the harbour, just for ten minutes.",
         "I was so nervous that I nearly clipped a fishing boat called the Mary Rose.",
         "He laughed so hard he had to sit down, and after that everyone called me Admiral.",
         "I still have the cap they gave me on my last day, hanging in the hallway.",
         "Every time I take a ferry now I look for Declan on the bridge.",
         "Anyway, that was the best summer of my life, I think.")

CLAIM_COUNTS = ("About three times", "Twice, maybe", "Roughly a dozen times", "Only once",
                "Four or five times", "Every week or so")
CLAIM_PLACES = ("Porto", "Osaka", "Galway", "Tbilisi", "Valparaiso", "Ljubljana", "Hobart",
                "Bergen", "Antwerp", "Cusco")
CLAIM_YEARS = tuple(str(y) for y in range(2009, 2024))
CLAIM_FRAMES = ("{n}, mostly in {p} around {y}.", "{n}, I think, the last time in {p} in {y}.",
                "{n} since {y}, usually when I'm in {p}.",
                "{n}; it started on a trip to {p} in {y}.")
CONTINUERS = ("And then what happened?", "Oh really? Go on.", "What did you do next?",
              "How did that turn out?", "Wait, and then?", "No way. What happened after that?",
              "How did you feel about that?", "And how did that go?",
              "Was that the first time?", "Who else was there?", "What made you decide that?",
              "Did you expect that?", "So what happened in the end?", "Would you do it again?",
              "And what did everyone else think?", "How long did that last?",
              "Was it worth it?", "What was the best part?", "Did anything go wrong?",
              "Then what?", "Were you surprised?", "How did it start?")

HEADLINES = ("Apparently the Louvre is lending the Mona Lisa to a museum in Seoul next spring.",
             "I read that Norway has banned new petrol cars in Oslo from 2027.",
             "Did you see Real Madrid signed a seventeen-year-old from Ghana for 80 million?",
             "There was a piece saying NASA found ice near the south pole of the Moon again.",
             "I saw that Tokyo's Shibuya crossing is getting a pedestrian-only weekend.",
             "Apparently Iceland's Katla volcano is showing signs of waking up.",
             "The BBC said Venice will charge day-trippers ten euros from June.",
             "I read that Lego is opening a giant factory in Vietnam.",
             "Apparently Taylor Swift's tour added three more nights at Wembley.",
             "There was news that the Great Barrier Reef had its best coral year since 1986.",
             "I saw that Nintendo is building a theme park in Orlando.",
             "Apparently scientists in Zurich made a battery out of seaweed.",
             "The Guardian said Amsterdam is turning canal boats electric by 2030.",
             "I read that the Sahara had snow in Algeria for the third winter running.")
HEADLINE_ASKS = ("What do you think about that?", "Had you heard?", "Crazy, right?",
                 "Would you have guessed?", "What's your take?")

ACKS = ("Oh nice.", "I see.", "Fair enough.", "Got it.", "Interesting.", "Ah, okay.",
        "Sounds good.", "Makes sense.", "Right.", "Oh, cool.", "Good to know.", "Ah, I see.",
        "That's fair.", "Mm-hm.", "True.", "Oh, wow.", "Lovely.", "Neat.", "Ah, right.",
        "Understood.", "Sure.", "Oh, okay then.", "How nice.", "Noted.", "Totally.",
        "Oh, fun.", "Ha, okay.", "That's something.", "Oh, alright.", "Good point.")
POLITE_ASKS = ("What do you like most about {w}?", "How did you get into {w}?",
               "Is {w} a big part of your life?", "Tell me, what's {w} like?",
               "Do you think about {w} a lot?")

BORROW_FRAMES = ("Same here, actually: {s}.", "Funny, that's me too. {S}.",
                 "Oh, I can relate. {S}.", "Ha, for me it's similar: {s}.")
_BORROW_SWAP = {"you": "I", "your": "my", "yours": "mine", "you're": "I'm",
                "yourself": "myself", "you've": "I've"}


def _swap(text: str, table: dict[str, str]) -> str:
    return _TOKEN.sub(lambda m: table.get(m.group(0).lower(), m.group(0)), text)


def _lower_first(text: str) -> str:
    return text if text[:2] in ("I ", "I'") else text[:1].lower() + text[1:]


def _partner_turns(history: History) -> list[str]:
    return [m.text for m in history.messages if m.role == "partner"]


def _statements(text: str) -> list[str]:
    """The sentences of ``text`` that are not questions, without final punctuation, of at
    least three words."""
    out = [s.rstrip(".!").strip() for s in _SENTENCES.split(text.strip()) if s]
    return [s for s in out if not s.endswith("?") and len(s.split()) >= 3]


def main_noun(text: str) -> str | None:
    """The longest content word of ``text``, lower case (the first one on a tie)."""
    words = [w.lower() for w in content_words(text) if w.isalpha()]
    return max(words, key=len) if words else None


class OpinionBot(RecipeBot):
    description = ("Recipe (fourth): "
                   "a stock opinion naming the partner's main noun, then an unrelated entity "
                   "question.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        noun = main_noun(history.last_partner_text) or "that"
        return f"{rng.choice(OPINIONS).format(w=noun)} {rng.choice(ENTITY_QUESTIONS)}"


class ShapeBot(RecipeBot):
    description = ("Recipe (fourth): "
                   "the partner's sentence, its shape kept, its content words swapped for "
                   "random nouns.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        text = history.last_partner_text.strip() or "I saw a lighthouse."
        keep = {w.lower() for w in content_words(text)}
        out = _TOKEN.sub(lambda m: rng.choice(NOUNS) if m.group(0).lower() in keep
                         else _PRONOUNS.get(m.group(0).lower(), m.group(0)), text)
        out = re.sub(r"\b([Aa]) (?=[aeiou])", r"\1n ", out)
        return out[:1].upper() + out[1:]


class TeacherBot(RecipeBot):
    description = ("Recipe (fourth): "
                   "defines a partner word in a canned dictionary-style sentence.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        words = [w.lower() for w in content_words(history.last_partner_text) if w.isalpha()]
        word = rng.choice(words) if words else "conversation"
        frame = DEFINITIONS[_said(history) % len(DEFINITIONS)]
        return frame.format(w=word, W=word.capitalize(), d=rng.choice(DICTIONARIES),
                            c=rng.choice(CENTURIES))


class StoryBot(RecipeBot):
    description = ("Recipe (fourth): "
                   "agrees, then tells the next sentence of a scripted story, whatever was "
                   "said.")

    def reply(self, history: History) -> str:
        n = _said(history)
        return f"{_rng(history).choice(AGREE)} {STORY[n % len(STORY)]}"


class ClaimBot(RecipeBot):
    description = ("Recipe (fourth): "
                   "answers questions with a made-up claim of numbers, places and years, else "
                   "asks a continuer.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        if "?" in history.last_partner_text:
            return rng.choice(CLAIM_FRAMES).format(n=rng.choice(CLAIM_COUNTS),
                                                   p=rng.choice(CLAIM_PLACES),
                                                   y=rng.choice(CLAIM_YEARS))
        own = {m.text for m in history.messages if m.role == "self"}
        return rng.choice([c for c in CONTINUERS if c not in own] or list(CONTINUERS))


class MixBot(RecipeBot):
    description = ("Recipe (fourth): "
                   "a sentence spliced from halves of the partner's last two turns.")

    def reply(self, history: History) -> str:
        turns = _partner_turns(history)
        last = [s for t in turns[-1:] for s in _statements(t)] or \
            [s.rstrip("?!. ") for s in turns[-1:] if s.strip(" ?!.")]
        before = [s for t in turns[-2:-1] for s in _statements(t)] or last
        if not last:
            return "Hm, go on then."
        rng = _rng(history)
        a, b = rng.choice(last).split(), rng.choice(before).split()
        body = " ".join(a[:max(1, len(a) // 2)] + b[len(b) // 2:])
        return f"So {_lower_first(_swap(body, _PRONOUNS))}."


class HeadlineBot(RecipeBot):
    description = ("Recipe (fourth): "
                   "reads out a made-up entity-laden news headline, never twice, and asks.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        own = " ".join(m.text for m in history.messages if m.role == "self")
        fresh = [h for h in HEADLINES if h not in own] or list(HEADLINES)
        return f"{rng.choice(fresh)} {rng.choice(HEADLINE_ASKS)}"


class PoliteBot(RecipeBot):
    description = ("Recipe (fourth): "
                   "thirty generic acknowledgements in turn, then a question on the partner's "
                   "longest word.")

    def reply(self, history: History) -> str:
        n = _said(history)
        word = main_noun(history.last_partner_text) or "yourself"
        return f"{ACKS[n % len(ACKS)]} {POLITE_ASKS[n % len(POLITE_ASKS)].format(w=word)}"


class BorrowBot(RecipeBot):
    description = ("Recipe (fourth): "
                   "passes off a sentence of the partner's own earlier turns as its own.")

    def reply(self, history: History) -> str:
        turns = _partner_turns(history)
        pool = [s for t in (turns[:-1] or turns) for s in _statements(t)
                if re.match(r"(I|We|My|Our)\b", s)]
        if not pool:
            return "Oh, I can relate to that more than you'd think."
        own = " ".join(m.text for m in history.messages if m.role == "self")
        fresh = [p for p in pool if _swap(p, _BORROW_SWAP) not in own] or pool
        s = _swap(fresh[_rng(history).randrange(len(fresh))], _BORROW_SWAP)
        frame = BORROW_FRAMES[_said(history) % len(BORROW_FRAMES)]
        return frame.format(s=_lower_first(s), S=s[:1].upper() + s[1:])

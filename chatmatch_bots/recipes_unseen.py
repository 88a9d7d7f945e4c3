"""Unseen recipe bots: a held-out check of the gaming suite.

These recipes were written blind to the scorers on 2026-12-03: their author read only the
bot interface (chatmatch/bot.py), the first family (chatmatch_bots/recipes.py) and a
one-line account of each of the seven dimensions, never the scorers' code, their docs or
the validity lab. The judge was therefore never tuned against them; they play the real
bots in ``tournaments/gaming-unseen.yaml`` and, like the first family, should rank below
them. Each is a cheap, model-free recipe that tries to earn points without conversing well
(the dimensions it aims at in brackets):

- ``recipe-unseen-randomline``: a random everyday human-written line, ignoring the partner
  [fluency, specificity, diversity];
- ``recipe-unseen-sycophant``: agrees, naming a word of the partner's turn inside one of
  many templates [relevance, fluency, diversity];
- ``recipe-unseen-eliza``: reflects the partner's words back in a rotating question frame
  ("Why do you say ...?") [relevance, proactivity, diversity];
- ``recipe-unseen-hijack``: steers every turn to its own subject (sourdough baking) with
  fluent, varied sentences and a question [fluency, specificity, proactivity, consistency];
- ``recipe-unseen-facts``: a short acknowledgement, then an encyclopedic sentence full of
  named entities [knowledge, fluency, specificity];
- ``recipe-unseen-proverbs``: a famous quote with its author, never the same twice
  [fluency, knowledge, diversity];
- ``recipe-unseen-counter``: meets every turn with questions about two of the partner's
  words and answers nothing [proactivity, relevance];
- ``recipe-unseen-reverse``: the partner's last turn with its sentences (or clauses) in
  reverse order [relevance, fluency];
- ``recipe-unseen-summary``: restates the content words of everything the partner said
  ("So far we have covered ...") [relevance, specificity, knowledge];
- ``recipe-unseen-rotator``: a partner word in a frame it has not used yet this game
  [diversity, specificity, relevance];
- ``recipe-unseen-persona``: a fixed fact sheet, the same answer whenever a topic comes
  back, whatever was really asked [consistency, specificity, knowledge].

Like the first family they need no model and are deterministic for a game's
``History.random_seed``.
"""

from __future__ import annotations

import re

from chatmatch.bot import History
from chatmatch_bots.recipes import (
    _COMMON,
    RecipeBot,
    _rng,
    _said,
    _unused,
    content_word,
)

LINES = ("I had toast with marmalade this morning and it was surprisingly good.",
         "My neighbour's dog barks every time the postman walks past.",
         "We finally fixed the leaking tap in the kitchen on Saturday.",
         "I missed the bus by about ten seconds and had to walk in the rain.",
         "The new bakery on the corner sells the best cinnamon rolls.",
         "I've been trying to learn the guitar, but my fingers still hurt.",
         "My sister just moved into a flat with a tiny balcony.",
         "I watched an old black and white film last night and loved it.",
         "The garden is full of tomatoes this year, far more than we can eat.",
         "I spent the whole afternoon sorting out my wardrobe.",
         "Our car made a strange noise on the motorway, so we pulled over.",
         "I tried a yoga class for the first time and could barely move the next day.",
         "My grandmother still writes letters by hand to all her friends.",
         "We had a barbecue, and of course it started raining halfway through.",
         "I found a twenty pound note in the pocket of an old coat.",
         "The cat knocked a glass off the table at three in the morning.",
         "I've started walking to work, and it clears my head.",
         "We painted the spare room a pale green colour last month.",
         "My phone screen cracked when I dropped it on the stairs.",
         "I made a lasagne from scratch and it took nearly three hours.",
         "The library in town has started opening on Sundays.",
         "I finished a thousand piece jigsaw puzzle with my nephew.",
         "My train was cancelled, so I worked from a café instead.",
         "I planted some sunflowers along the fence in the spring.",
         "We went camping by a lake and saw a heron catch a fish.",
         "I burnt the rice again because I got distracted by a phone call.",
         "My friend is getting married in September in a barn in the countryside.",
         "I've been reading a mystery novel that keeps me up at night.",
         "The heating broke during the coldest week of the year.",
         "I bought a second hand bicycle and it rides beautifully.",
         "My brother taught his parrot to whistle the national anthem.",
         "We had fish and chips on the seafront and the gulls tried to steal them.",
         "I cleaned out the garage and found my old school reports.",
         "The power went out and we played cards by candlelight.",
         "I signed up for a pottery class and made a very wonky bowl.",
         "My flatmate plays the drums, which is not ideal at midnight.",
         "I ran my first five kilometre race and didn't come last.",
         "We drove up to the hills to watch the sunrise, and it was worth it.",
         "I've started keeping a diary again after years of not bothering.",
         "The supermarket had run out of eggs, so pancakes were cancelled.")

SYCOPHANT = ("Oh, I completely agree about {w}, you put it so well.",
             "Yes! What you said about {w} is exactly what I was thinking too.",
             "You're so right about {w}, I couldn't have said it better.",
             "Absolutely, {w} really matters, and you clearly understand it.",
             "That's such a wise thing to say about {w}.",
             "I love how you think about {w}, it makes perfect sense to me.",
             "Totally, {w} is the heart of it, well said.",
             "Exactly, I feel the same way about {w}, you're spot on.",
             "What a great point about {w}, I agree with every word.",
             "Yes, yes, {w} indeed! You always know the right thing to say.")

ELIZA_FRAMES = ("Why do you say {s}?", "How does it feel that {s}?",
                "What makes you think {s}?", "Tell me more: why {s}?",
                "Do you often feel that {s}?", "What would it mean to you if {s}?",
                "When did you first notice that {s}?", "Who else knows that {s}?",
                "Is it really true that {s}?", "How long have you felt that {s}?")

HIJACK = ("That reminds me of my sourdough starter, which I feed every morning with rye flour.",
          "Speaking of which, I baked a loaf with a really open crumb yesterday.",
          "Honestly, it all comes back to bread for me; the long cold proof is the secret.",
          "I always think about hydration levels; seventy-five percent is my sweet spot.",
          "Kneading dough helps with that, I find; it's very calming.",
          "My Dutch oven has changed my life; the crust comes out blistered and crackly.",
          "I tried adding toasted walnuts and cranberries to my last batch, a real success.",
          "Funny you mention it, I was just scoring a boule with a razor blade.",
          "The trick with a starter is patience; mine took two weeks to get lively.",
          "I've been experimenting with spelt flour, which gives a nutty flavour.",
          "Nothing beats the smell of a fresh loaf cooling on a wire rack.",
          "I keep a baking journal so I can track every bake's timing and temperature.")
HIJACK_ASKS = ("Have you ever baked your own bread?", "Do you prefer a soft or a crusty loaf?",
               "What's your favourite kind of bread?", "Would you like my starter recipe?",
               "Have you tried sourdough pancakes?", "Do you know a good bakery near you?")

ACKS = ("Oh, nice.", "I see.", "Right.", "Interesting.", "Sure.", "Ah, okay.", "Fair enough.")
FACTS = ("The Danube flows through Vienna, Budapest and Belgrade before reaching the Black Sea.",
         "Marie Curie won Nobel Prizes in both Physics and Chemistry, in 1903 and 1911.",
         "The Great Wall of China stretches across Hebei, Beijing and Gansu.",
         "Johann Sebastian Bach spent most of his later career in Leipzig.",
         "Mount Kilimanjaro in Tanzania is the highest mountain in Africa.",
         "The Rosetta Stone, found in Egypt in 1799, is kept in the British Museum.",
         "Apollo 11 landed Neil Armstrong and Buzz Aldrin on the Moon in July 1969.",
         "Lake Baikal in Siberia holds about a fifth of the world's fresh surface water.",
         "Frida Kahlo painted many of her self-portraits at the Blue House in Mexico City.",
         "The Treaty of Westphalia ended the Thirty Years' War in 1648.",
         "Ada Lovelace wrote notes on Charles Babbage's Analytical Engine in 1843.",
         "The Sahara covers large parts of Algeria, Libya, Egypt and Mali.",
         "Venice was built on more than a hundred islands in the Venetian Lagoon.",
         "Alexander Fleming discovered penicillin at St Mary's Hospital in London in 1928.")

QUOTES = ("As Confucius said, 'It does not matter how slowly you go as long as you do not stop.'",
          "Oscar Wilde put it best: 'Be yourself; everyone else is already taken.'",
          ("Like Albert Einstein said, 'Life is like riding a bicycle. To keep your balance "
           "you must keep moving.'"),
          "Mark Twain once wrote, 'The secret of getting ahead is getting started.'",
          "As Maya Angelou said, 'We may encounter many defeats but we must not be defeated.'",
          "Aristotle said, 'Knowing yourself is the beginning of all wisdom.'",
          "Seneca wrote, 'Luck is what happens when preparation meets opportunity.'",
          ("Eleanor Roosevelt said, 'The future belongs to those who believe in the beauty of "
           "their dreams.'"),
          "Leo Tolstoy wrote, 'The two most powerful warriors are patience and time.'",
          "As Benjamin Franklin put it, 'Well done is better than well said.'",
          "Nelson Mandela said, 'It always seems impossible until it's done.'",
          "Lao Tzu said, 'A journey of a thousand miles begins with a single step.'")

ROTATOR = ("Hmm, {w} is something I keep coming back to.",
           "I read a piece about {w} only last week, funnily enough.",
           "My cousin would have strong opinions on {w}.",
           "There's a whole story behind {w}, if you think about it.",
           "People underestimate {w}, in my experience.",
           "I wonder how {w} will look in ten years.",
           "{W} always makes me think of long summer evenings.",
           "Funny, {w} came up at dinner with friends recently.",
           "I used to know nothing about {w}, to be honest.",
           "Some say {w} is overrated; I'm not so sure.",
           "{W}, now that is a word you don't hear every day.",
           "I have a soft spot for {w}, I admit.",
           "My old teacher used to lecture us about {w}.",
           "Every city seems to have its own take on {w}.",
           "I could write a short essay on {w}.",
           "A friend of mine swears by {w}.")

#: the persona's fact sheet: keywords of a topic -> its one fixed answer
PERSONA = ((("name", "called"), "My name is Margaret Ellis, but friends call me Maggie."),
           (("old", "age", "born", "birthday"), "I'm thirty-four; I was born in March 1992."),
           (("work", "job", "living", "career"),
            "I work as a veterinary nurse at a clinic in Leeds."),
           (("live", "from", "city", "home"),
            "I live in Leeds, near Roundhay Park, with my husband."),
           (("pet", "pets", "dog", "cat", "animal"), "I have a greyhound called Biscuit."),
           (("hobby", "hobbies", "free", "weekend", "fun"),
            "At weekends I go fell walking in the Yorkshire Dales."),
           (("music", "song", "band", "listen"), "I mostly listen to Fleetwood Mac and Radiohead."),
           (("food", "eat", "favourite", "cook"), "My favourite dish is my mum's shepherd's pie."))
PERSONA_DEFAULT = ("I'm Maggie, a veterinary nurse from Leeds.",
                   "I have a greyhound called Biscuit.",
                   "At weekends I go fell walking in the Yorkshire Dales.")

#: words too common to restate, beyond the first family's function words
_FILLER_WORDS = _COMMON | frozenset((
    "all", "any", "some", "one", "out", "get", "got", "also", "too", "much", "many", "more",
    "most", "other", "own", "well", "yeah", "okay", "oh", "hey", "hello", "thanks", "thank"))
_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")
_SWAP = {"i": "you", "you": "I", "my": "your", "your": "my", "me": "you", "am": "are",
         "i'm": "you're", "you're": "I'm", "mine": "yours", "yours": "mine", "myself": "yourself",
         "we": "you", "our": "your", "i've": "you've", "was": "were"}



def content_words(text: str) -> list[str]:
    """The words of ``text`` that are not common function words, as written, in order,
    each once (case-insensitively)."""
    seen: set[str] = set()
    words: list[str] = []
    for w in _WORD.findall(text):
        key = w.lower()
        if key not in _FILLER_WORDS and len(key) > 2 and key not in seen:
            seen.add(key)
            words.append(w)
    return words


def _reflect(text: str) -> str:
    """``text`` with first and second person swapped, without its final punctuation."""
    body = text.strip().rstrip(".!?") or "that"
    swapped = re.sub(r"[A-Za-z']+", lambda m: _SWAP.get(m.group(0).lower(), m.group(0)), body)
    return swapped[0].lower() + swapped[1:] if swapped[:2] != "I " else swapped


class RandomLineBot(RecipeBot):
    description = "Recipe (unseen): a random everyday human-written line, ignoring the partner."

    def reply(self, history: History) -> str:
        return _rng(history).choice(_unused(LINES, history))


class SycophantBot(RecipeBot):
    description = ("Recipe (unseen): "
                   "agrees with the partner, naming one of their words in a varied template.")

    def reply(self, history: History) -> str:
        word = content_word(history.last_partner_text, _rng(history)) or "that"
        return SYCOPHANT[_said(history) % len(SYCOPHANT)].format(w=word.lower())


class ElizaFramesBot(RecipeBot):
    description = ("Recipe (unseen): "
                   "reflects the partner's last sentence back in a rotating question frame.")

    def reply(self, history: History) -> str:
        sentences = [s for s in _SENTENCES.split(history.last_partner_text.strip()) if s]
        statements = [s for s in sentences if not s.endswith("?")] or sentences or ["that"]
        frame = ELIZA_FRAMES[_said(history) % len(ELIZA_FRAMES)]
        return frame.format(s=_reflect(statements[-1]))


class HijackBot(RecipeBot):
    description = ("Recipe (unseen): "
                   "steers every turn to sourdough baking, in fluent varied sentences.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        return f"{rng.choice(_unused(HIJACK, history))} {rng.choice(HIJACK_ASKS)}"


class FactDropBot(RecipeBot):
    description = ("Recipe (unseen): "
                   "a short acknowledgement, then an encyclopedic sentence of named entities.")

    def reply(self, history: History) -> str:
        rng = _rng(history)
        return f"{rng.choice(ACKS)} {rng.choice(_unused(FACTS, history))}"


class ProverbBot(RecipeBot):
    description = "Recipe (unseen): a famous quote with its author, never the same twice in a game."

    def reply(self, history: History) -> str:
        return _rng(history).choice(_unused(QUOTES, history))


class CounterQuestionBot(RecipeBot):
    description = ("Recipe (unseen): "
                   "answers every turn with questions about two of the partner's words.")

    def reply(self, history: History) -> str:
        words = content_words(history.last_partner_text)
        if not words:
            return "Why do you ask? What do you really want to know?"
        a, b = _rng(history).sample(words * 2 if len(words) == 1 else words, 2)
        opener = "Before I answer, " if "?" in history.last_partner_text else "Hmm, "
        return (f"{opener}what does '{a.lower()}' mean to you? "
                f"And why bring up '{b.lower()}' at all?")


class ReverseBot(RecipeBot):
    description = ("Recipe (unseen): "
                   "the partner's last turn with its sentences (or clauses) in reverse order.")

    def reply(self, history: History) -> str:
        last = history.last_partner_text.strip() or "Hello there."
        sentences = [s for s in _SENTENCES.split(last) if s]
        if len(sentences) > 1:
            return " ".join(reversed(sentences))
        body, end = (last[:-1], last[-1]) if last[-1] in ".!?" else (last, ".")
        clauses = [c.strip() for c in body.split(",") if c.strip()]
        if len(clauses) < 2:
            return last
        text = ", ".join(reversed(clauses))
        return text[0].upper() + text[1:] + end


class SummaryBot(RecipeBot):
    description = "Recipe (unseen): restates the content words of everything the partner has said."

    def reply(self, history: History) -> str:
        said = " ".join(m.text for m in history.messages if m.role == "partner")
        words = content_words(said)[-6:]
        if not words:
            return "So far we haven't covered much, have we?"
        listed = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
        return f"So far we have covered {listed}. Quite a conversation!"


class RotatorBot(RecipeBot):
    description = ("Recipe (unseen): "
                   "a partner word in a template frame it has not used yet this game.")

    def reply(self, history: History) -> str:
        word = (content_word(history.last_partner_text, _rng(history)) or "life").lower()
        frame = ROTATOR[_said(history) % len(ROTATOR)]
        return frame.format(w=word, W=word.capitalize())


class PersonaBot(RecipeBot):
    description = ("Recipe (unseen): "
                   "a fixed fact sheet; the same answer whenever a topic comes back.")

    def reply(self, history: History) -> str:
        asked = {w.lower() for w in _WORD.findall(history.last_partner_text)}
        answers = [answer for keys, answer in PERSONA if asked & set(keys)]
        if answers:
            return " ".join(answers[:2])
        return PERSONA_DEFAULT[_said(history) % len(PERSONA_DEFAULT)]

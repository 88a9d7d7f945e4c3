"""A hand-built set of chit-chat turns with their named entities, for knowledge on
lower-cased, pre-tokenised logs (the ParlAI-era format: ``i ' m from chicago .``).

Each item is the turn as a person would write it and the entities a careful reader marks
in it (people, places, organisations, products, works, nationalities, events; no dates,
times or numbers, which knowledge leaves out by default). :func:`parlai_style` turns the
cased text into the lower-cased, tokenised form of ConvAI2/ParlAI logs. Written by hand
for this purpose, before any truecaser was run on it; about a fifth of the turns name no
entity at all, so that false positives show in the precision.

Used by tests/scoring/test_knowledge_truecase.py and lab/knowledge_truecase.py.
"""

from __future__ import annotations

import re

ITEMS: list[tuple[str, tuple[str, ...]]] = [
    ("I'm from Chicago. I love Mario Kart.", ("Chicago", "Mario Kart")),
    ("Have you ever been to New York City?", ("New York City",)),
    ("My favorite band is the Beatles, especially John Lennon.", ("Beatles", "John Lennon")),
    ("I work at Google in San Francisco.", ("Google", "San Francisco")),
    ("We went to Paris and saw the Eiffel Tower.", ("Paris", "Eiffel Tower")),
    ("I just finished reading Harry Potter again.", ("Harry Potter",)),
    ("Do you like Taylor Swift? Her new album is great.", ("Taylor Swift",)),
    ("My brother lives in Texas and works for Microsoft.", ("Texas", "Microsoft")),
    ("I'm a huge fan of the Chicago Bulls and Michael Jordan.", ("Chicago Bulls", "Michael Jordan")),
    ("I grew up in Canada but now I live in London.", ("Canada", "London")),
    ("Have you seen Star Wars? It's my favorite movie.", ("Star Wars",)),
    ("I drive a Toyota, it never breaks down.", ("Toyota",)),
    ("My sister studies at Harvard.", ("Harvard",)),
    ("I'm learning Spanish because I want to visit Mexico.", ("Spanish", "Mexico")),
    ("We watched the Super Bowl at my uncle's house.", ("Super Bowl",)),
    ("I listen to Beyonce when I work out.", ("Beyonce",)),
    ("Do you shop at Walmart or Target?", ("Walmart", "Target")),
    ("I love Italian food, especially pizza.", ("Italian",)),
    ("My dad was in the Army for twenty years.", ("Army",)),
    ("Have you been to Disneyland in California?", ("Disneyland", "California")),
    ("I play the guitar and I love Jimi Hendrix.", ("Jimi Hendrix",)),
    ("My favorite show is Game of Thrones.", ("Game of Thrones",)),
    ("I'm from Germany, near Berlin.", ("Germany", "Berlin")),
    ("I use an iPhone but my wife prefers Samsung.", ("iPhone", "Samsung")),
    ("I went hiking in the Rocky Mountains with my friend Sarah.", ("Rocky Mountains", "Sarah")),
    ("Do you like Pokemon? I still play it on my Nintendo.", ("Pokemon", "Nintendo")),
    ("I'm a nurse at a hospital in Boston.", ("Boston",)),
    ("My cat is named Oliver.", ("Oliver",)),
    ("I read a book by Stephen King last month, it was scary.", ("Stephen King",)),
    ("We're going to Japan this summer to see Tokyo.", ("Japan", "Tokyo")),
    ("I love watching the Olympics.", ("Olympics",)),
    ("My favorite singer is Elvis Presley.", ("Elvis Presley",)),
    ("I was born in Florida but moved to Seattle.", ("Florida", "Seattle")),
    ("I order from Amazon almost every day.", ("Amazon",)),
    ("Have you tried Starbucks pumpkin spice?", ("Starbucks",)),
    ("I support Manchester United, they play in England.", ("Manchester United", "England")),
    ("My mom is from Ireland and my dad is French.", ("Ireland", "French")),
    ("I am reading The Hunger Games right now.", ("Hunger Games",)),
    ("I like to watch Netflix at night.", ("Netflix",)),
    ("My favorite president was Abraham Lincoln.", ("Abraham Lincoln",)),
    ("I visited the Grand Canyon with my family.", ("Grand Canyon",)),
    ("I'm a Christian and I go to church on Sundays.", ("Christian",)),
    ("Do you know who Albert Einstein was?", ("Albert Einstein",)),
    ("I love McDonald's fries.", ("McDonald's",)),
    ("I have been to Australia twice, Sydney is beautiful.", ("Australia", "Sydney")),
    ("My favorite team is the New England Patriots.", ("New England Patriots",)),
    ("I listen to Metallica and Led Zeppelin.", ("Metallica", "Led Zeppelin")),
    ("I worked at Apple before I moved to Austin.", ("Apple", "Austin")),
    ("My grandmother lives in Italy, in a small village near Rome.", ("Italy", "Rome")),
    ("I love the Lord of the Rings movies.", ("Lord of the Rings",)),
    # no entity: false positives show here
    ("I like to go for long walks with my dog.", ()),
    ("What do you do for fun?", ()),
    ("I don't know, I just like to relax and read books.", ()),
    ("That sounds like a lot of fun, I wish I could do that.", ()),
    ("lol yeah I love pizza and ice cream.", ()),
    ("I'm a teacher, I teach math to kids.", ()),
    ("Do you have any pets? I have two cats.", ()),
    ("haha that is so funny, you made my day.", ()),
    ("I'm doing great, thanks for asking. How about you?", ()),
    ("My favorite color is blue, what's yours?", ()),
    ("I just got back from the gym, I'm so tired.", ()),
    ("I love to cook, especially pasta with tomato sauce.", ()),
]

_CLITIC = re.compile(r"(\w)'(\w)")
_PUNCT = re.compile(r"([.,!?;:])")


def parlai_style(text: str) -> str:
    """Lower case, clitics and punctuation split off by spaces, as in ConvAI2/ParlAI logs:
    ``"I'm from Chicago."`` -> ``"i ' m from chicago ."``."""
    text = _CLITIC.sub(r"\1 ' \2", text.lower())
    text = _PUNCT.sub(r" \1 ", text)
    return " ".join(text.split())

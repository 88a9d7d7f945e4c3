"""Scripted bots for the repetition and consistency ladder families (issue 12).

``PersonaBot`` chats from a persona: it answers the partner's questions from its facts,
and on its own turns cycles through asking a new question, bringing back something the
partner told it earlier (real memory), and saying a new statement. Every statement uses
words of its own, so the only concepts that come back are the ones the bots pass to each
other. Faults are added on top of that same plan, each drawn from a generator seeded by
the game, the turn and the bot's name, so a faulty copy is worse *by construction*:

- ``reask``: on that share of its own turns, ask again, verbatim, one of the questions it
  has asked before (instead of what it would have said);
- ``contradict``: on that share of its answers to a question asked before, answer with
  the opposite fact;
- ``paraphrase``: on that share of its answers, say the same fact in other words (a
  consistent answer that TF-IDF similarity may still flag: the noise of real bots).

Loadable by import path (``tests.ladder.family_bots:PersonaBot``); :func:`play` runs one
game between two bots without the engine, for fast game-level tests.
"""

from __future__ import annotations

import hashlib
import random
from typing import Sequence

from chatmatch.bot import Bot, History, Message
from chatmatch.transcript import Transcript, make_transcript

#: question key -> the question (asked verbatim)
QUESTIONS = {
    "city": "Where are you from?",
    "job": "What do you do for a living?",
    "pet": "Do you have any pets?",
    "food": "What is your favourite food?",
    "sport": "Which sport do you follow?",
    "music": "What music do you listen to?",
    "book": "What book are you reading?",
    "trip": "Where did you travel last summer?",
    "car": "What car do you drive?",
    "garden": "Do you grow anything in a garden?",
    "language": "Which languages do you speak?",
    "film": "What is the last film you watched?",
}
#: persona -> key -> (fact word, answer, paraphrase, contradiction)
PERSONAS: dict[str, dict[str, tuple[str, str, str, str]]] = {
    "ann": {
        "city": ("chicago", "I am from Chicago.", "Chicago is my home town, born and raised.",
                 "I grew up on a farm in Nebraska."),
        "job": ("nurse", "I work as a nurse.", "Nursing, at the county hospital.",
                "I have never had a job."),
        "pet": ("parrot", "Yes, a green parrot.", "A parrot called Kiwi lives with me.",
                "No, animals make me sneeze."),
        "food": ("sushi", "Sushi, every time.", "Raw fish rolls: sushi wins.",
                 "I hate sushi, I only eat pizza."),
        "sport": ("hockey", "Ice hockey.", "The Blackhawks, hockey all winter.",
                  "I never watch sport."),
        "music": ("jazz", "Mostly jazz.", "Old jazz records, Coltrane mostly.",
                  "Heavy metal, loud."),
        "book": ("dune", "Dune, again.", "Rereading Dune by Herbert.", "I do not read books."),
        "trip": ("lisbon", "Lisbon in July.", "Portugal: a week in Lisbon.",
                 "I stayed home all summer."),
        "car": ("bicycle", "No car, a bicycle.", "I cycle everywhere, no car.",
                "A big red pickup truck."),
        "garden": ("tomatoes", "Tomatoes on my balcony.", "A few tomato plants outside.",
                   "Nothing, I kill every plant."),
        "language": ("spanish", "English and Spanish.", "Spanish at home, English at work.",
                     "Only English."),
        "film": ("alien", "Alien, the first one.", "Ridley Scott's Alien from 1979.",
                 "I never watch films."),
    },
    "bob": {
        "city": ("dublin", "I live in Dublin.", "Dublin, by the river Liffey.",
                 "I have always lived in Rome."),
        "job": ("baker", "I am a baker.", "I bake bread at dawn.", "I am unemployed."),
        "pet": ("dogs", "Two dogs.", "A pair of terriers.", "I have no pets at all."),
        "food": ("curry", "A spicy curry.", "Curry with lots of chili.",
                 "Plain rice, nothing spicy."),
        "sport": ("rugby", "Rugby.", "I watch Leinster play rugby.", "I find sport boring."),
        "music": ("folk", "Irish folk music.", "Folk tunes in the pub.", "Only techno."),
        "book": ("ulysses", "Ulysses, slowly.", "Joyce's Ulysses, a page a day.",
                 "I have not opened a book in years."),
        "trip": ("norway", "Hiking in Norway.", "The fjords of Norway, on foot.",
                 "I did not travel anywhere."),
        "car": ("van", "An old blue van.", "A rusty van for the bakery.", "I cannot drive."),
        "garden": ("potatoes", "Potatoes and onions.", "Spuds, mostly.", "I have no garden."),
        "language": ("irish", "English and some Irish.", "A bit of Gaelic besides English.",
                     "Just French."),
        "film": ("jaws", "Jaws on television.", "Spielberg's shark film, Jaws.",
                 "I do not own a television."),
    },
}
#: statements: every one uses words of its own (never a concept another turn uses)
STATEMENTS = [
    "The weather turned windy this morning.", "My neighbour paints murals downtown.",
    "Coffee tastes better after midnight somehow.", "Yesterday a thunderstorm knocked out power.",
    "Bridges fascinate me, especially suspension designs.", "Chess puzzles keep my brain sharp.",
    "Autumn leaves crunch beautifully underfoot.", "Volcanoes erupting always looks terrifying.",
    "Lighthouses seem lonely at dusk.", "Marathons require serious discipline.",
    "Origami cranes decorate our kitchen.", "Satellites orbit surprisingly fast.",
    "Pottery classes opened near the station.", "Quilts remind everyone of grandmothers.",
    "Telescopes reveal distant galaxies clearly.", "Whales migrate thousands of miles.",
    "Snowflakes never look identical.", "Candles flicker when doors open.",
    "Kites soared above the beach.", "Mushrooms sprouted after heavy rain.",
    "Trains hum along elevated tracks.", "Glaciers retreat every decade.",
    "Fireworks startled the ducks.", "Puzzles with thousand pieces frustrate kids.",
    "Bees dance to share directions.", "Owls hunt silently through forests.",
    "Sandcastles crumble under waves.", "Thermometers dropped below freezing overnight.",
    "Libraries smell wonderfully dusty.", "Harbours bustle before sunrise.",
    "Comets streak across velvet skies.", "Cathedrals echo with footsteps.",
    "Windmills spin lazily over meadows.", "Submarines dive remarkably deep.",
    "Tulips bloom briefly each spring.", "Robots assemble phones nowadays.",
    "Jellyfish drift without brains.", "Deserts freeze after sunset.",
    "Parachutes open with loud snaps.", "Orchestras tune before concerts.",
]
#: what a bot says when it brings back the partner's fact
MEMORY = "Earlier you mentioned {fact}; tell me more about {fact}."

_ANSWERS = {text: (key, fact) for persona in PERSONAS.values()
            for key, (fact, *texts) in persona.items() for text in texts}
_KEY_OF = {q: k for k, q in QUESTIONS.items()}


class PersonaBot(Bot):
    """See the module docstring."""

    description = "test bot: persona chat with injected repeats and contradictions"

    def __init__(self, name: str = "", *, persona: str = "ann", reask: float = 0.0,
                 contradict: float = 0.0, paraphrase: float = 0.0, offset: int = 0) -> None:
        super().__init__(name)
        self.persona, self.offset = PERSONAS[persona], offset
        self.reask, self.contradict, self.paraphrase = reask, contradict, paraphrase

    def _rng(self, history: History, what: str) -> random.Random:
        key = f"{what}:{self.name}:{history.random_seed}:{history.game_id}:{history.turn_index}"
        return random.Random(int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big"))

    def reply(self, history: History) -> str:
        msgs = history.messages
        last = msgs[-1] if msgs else None
        if last is not None and last.role == "partner" and last.text in _KEY_OF:
            return self._answer(history, _KEY_OF[last.text])
        own = [m.text for m in msgs if m.role == "self"]
        initiative = sum(1 for t in own if t not in _ANSWERS)
        asked = [t for t in dict.fromkeys(own) if t in _KEY_OF]
        if asked and self._rng(history, "reask").random() < self.reask:
            return self._rng(history, "which").choice(asked)
        step = initiative % 3
        if step == 0:
            new = [q for q in QUESTIONS.values() if q not in asked]
            if new:
                return new[(self.offset + len(asked)) % len(new)]
        if step == 1:
            told = [_ANSWERS[m.text][1] for m in msgs[:-1] if m.role == "partner" and m.text in _ANSWERS]
            said = " ".join(own)
            fresh = [f for f in told if f not in said]
            if fresh:
                return MEMORY.format(fact=fresh[0])
        statements = [s for s in STATEMENTS if s not in own]
        if not statements:  # a long game: every statement said (tests stay well below)
            return f"Nothing new to say, part {initiative}."
        return statements[(self.offset * 7 + initiative) % len(statements)]

    def _answer(self, history: History, key: str) -> str:
        fact, answer, paraphrase, contradiction = self.persona[key]
        question = QUESTIONS[key]
        asked_before = sum(1 for m in history.messages[:-1]
                           if m.role == "partner" and m.text == question)
        if asked_before and self._rng(history, "contradict").random() < self.contradict:
            return contradiction
        return paraphrase if self._rng(history, "paraphrase").random() < self.paraphrase else answer


def play(a: Bot, b: Bot, exchanges: int, *, game_id: str = "g", seed: int = 0,
         seed_utterance: str = "What did you do last week?") -> Transcript:
    """One game, ``a`` starting with the seed utterance, without the engine."""
    texts = [seed_utterance]
    bots = (a, b)
    for i in range(1, 2 * exchanges):
        me = bots[i % 2]
        msgs = tuple(Message("self" if j % 2 == i % 2 else "partner", t) for j, t in enumerate(texts))
        texts.append(me.reply(History(msgs, seed_utterance, game_id, i, seed)))
    return make_transcript(game_id, (a.name, b.name), texts, seed_first=True)


def games(a: Bot, b: Bot, exchanges: int, seeds: Sequence[int]) -> list[Transcript]:
    """Both starting orders for every seed."""
    return [play(x, y, exchanges, game_id=f"{x.name}-{y.name}-{s}", seed=s)
            for s in seeds for x, y in ((a, b), (b, a))]

"""Deterministic scripted bots for tests, all in one place (loadable by import path
``tests.scripted:NAME``, e.g. ``adapter: tests.scripted:CountingBot`` in a test's YAML).

- conversation: :class:`CountingBot` (numbered replies, counts calls), :class:`SamplingBot`
  (words drawn from the turn's seed), :class:`PersonaBot` (persona chat with injected
  repeats and contradictions, for the ladder families), :class:`ParrotBot`;
- what the engine sees of a bot: :class:`RecordingBot`, :class:`BatchBot`;
- time: :class:`SlowBot` (slow load and replies, optional call log, peak concurrency),
  :class:`RemoteSlowBot` (the same, marked ``remote``);
- failures: :class:`FlakyBot` (raises, empty or huge replies, fails to load, hangs);
- constructor parameters: :class:`NeedsModelBot`, :class:`PickyBot`.
"""

from __future__ import annotations

import hashlib
import random
import threading
import time
from pathlib import Path
from typing import ClassVar, Sequence

from chatmatch.bot import Bot, History


class Killed(BaseException):
    """Raised by :class:`CountingBot` at call ``die_at``: a SIGKILL stand-in (not an
    ``Exception``, so no retry or forfeit logic catches it)."""


class CountingBot(Bot):
    """Replies with a numbered line; counts its calls (class-wide) so tests can tell how
    many turns were really played. ``die_at`` (class-wide) raises :class:`Killed` at that
    call. Styles: ``plain``, ``rich`` (named entities), ``dull`` (always "ok"), ``seeded``
    (the turn and the game's seed, so that a reply for another seed reads differently)."""

    description = "test bot: numbered replies"
    calls: ClassVar[int] = 0
    die_at: ClassVar[int | None] = None
    _lock = threading.Lock()

    def __init__(self, name: str = "", *, style: str = "plain", ask_every: int = 0) -> None:
        super().__init__(name)
        self.style = style
        self.ask_every = ask_every

    @classmethod
    def reset(cls) -> None:
        CountingBot.calls, CountingBot.die_at = 0, None

    def reply(self, history: History) -> str:
        with CountingBot._lock:
            CountingBot.calls += 1
            if CountingBot.die_at is not None and CountingBot.calls >= CountingBot.die_at:
                raise Killed()
        n = history.turn_index
        if self.style == "seeded":
            return f"{self.name} says {n} (seed {history.random_seed % 97})"
        words = {"plain": "I like apples and long walks",
                 "rich": "Yesterday I visited Paris with my sister Maria and we saw the Louvre museum",
                 "dull": "ok"}[self.style]
        text = f"{words} {n}" if self.style != "dull" else "ok"
        if self.ask_every and (n // 2) % self.ask_every == 0:
            text += ". What about you?"
        return text


_WORDS = ("apples pears Paris Berlin music football rain coffee books sister brother "
          "museum garden river holiday weekend cooking painting chess train").split()


class SamplingBot(Bot):
    """Samples its words from a generator seeded by the turn's ``random_seed`` (so the
    seed of the tournament fixes every reply, like a sampling model seeded by the
    tournament); asks a question every ``ask_every`` turns; sleeps ``sleep_ms`` per reply
    (so that a real ``chatmatch run`` process is still playing when a test kills it)."""

    description = "test bot: seeded random words"

    def __init__(self, name: str = "", *, sleep_ms: float = 0.0, words: int = 6,
                 ask_every: int = 0) -> None:
        super().__init__(name)
        self.sleep_ms, self.words, self.ask_every = sleep_ms, words, ask_every

    def reply(self, history: History) -> str:
        if self.sleep_ms:
            time.sleep(self.sleep_ms / 1000.0)
        rng = random.Random(history.random_seed)
        text = " ".join(rng.choice(_WORDS) for _ in range(self.words))
        if self.ask_every and (history.turn_index // 2) % self.ask_every == 0:
            text += ". What about you?"
        return text[0].upper() + text[1:]

    def describe(self) -> dict[str, object]:
        return {**super().describe(), "sleep_ms": self.sleep_ms, "words": self.words}


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
    """Chats from a persona: answers the partner's questions from its facts; on its own
    turns cycles through asking a new question, bringing back something the partner told
    it earlier (real memory) and saying a new statement. Every statement uses words of its
    own, so the only concepts that come back are the ones the bots pass to each other.

    Faults are added on top of that plan, each drawn from a generator seeded by the game,
    the turn and the bot's name, so a faulty copy is worse *by construction*:

    - ``reask``: on that share of its own turns, ask again, verbatim, one of the questions
      it has asked before (instead of what it would have said);
    - ``contradict``: on that share of its answers to a question asked before, answer with
      the opposite fact;
    - ``paraphrase``: on that share of its answers, say the same fact in other words (a
      consistent answer that TF-IDF similarity may still flag: the noise of real bots).
    """

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


class ParrotBot(Bot):
    """Repeats its partner, after ``prefix``."""

    description = "test bot: repeats its partner"

    def __init__(self, name: str = "", *, prefix: str = "") -> None:
        super().__init__(name)
        self.prefix = prefix

    def reply(self, history: History) -> str:
        return self.prefix + history.last_partner_text


class RecordingBot(Bot):
    """Remembers every History it was given (for checking the own-side view)."""

    description = "test bot: records histories"

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self.seen: list[History] = []

    def reply(self, history: History) -> str:
        self.seen.append(history)
        return f"{self.name} says {history.turn_index}"


class BatchBot(RecordingBot):
    """A :class:`RecordingBot` that takes batches and records their sizes."""

    supports_batch = True
    batch_sizes: list[int]

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self.batch_sizes = []

    def reply_batch(self, histories: Sequence[History]) -> list[str]:
        self.batch_sizes.append(len(histories))
        return [self.reply(h) for h in histories]


class SlowBot(Bot):
    """Sleeps ``load_s`` in :meth:`load` and ``reply_s`` in every reply; appends one line
    per call to the file ``log`` when given (calls counted across processes, as a paid
    remote service would bill them); records how many calls were in progress at once, over
    all SlowBots (``peak_all``, class-wide) and within this one bot (``peak_self``)."""

    description = "test bot: sleeps in load() and in every reply"
    _lock: ClassVar[threading.Lock] = threading.Lock()
    running_all: ClassVar[int] = 0
    peak_all: ClassVar[int] = 0

    def __init__(self, name: str = "", *, load_s: float = 0.0, reply_s: float = 0.0,
                 log: str = "") -> None:
        super().__init__(name)
        self.load_s, self.reply_s, self.log = load_s, reply_s, log
        self.running_self = 0
        self.peak_self = 0

    @classmethod
    def reset(cls) -> None:
        SlowBot.running_all = SlowBot.peak_all = 0

    def _enter(self, delta: int) -> None:
        with SlowBot._lock:
            SlowBot.running_all += delta
            self.running_self += delta
            SlowBot.peak_all = max(SlowBot.peak_all, SlowBot.running_all)
            self.peak_self = max(self.peak_self, self.running_self)

    def load(self) -> None:
        time.sleep(self.load_s)

    def reply(self, history: History) -> str:
        self._enter(1)
        try:
            if self.log:
                with open(self.log, "a", encoding="utf-8") as f:
                    f.write(f"{self.name} {history.game_id} {history.turn_index}\n")
            time.sleep(self.reply_s)
            return f"{self.name} talks about topic {history.turn_index}. Do you agree?"
        finally:
            self._enter(-1)


class RemoteSlowBot(SlowBot):
    """A :class:`SlowBot` marked ``remote`` (so that ``reply_cache: auto`` caches it)."""

    description = "test bot: a slow remote service"
    remote = True


class FlakyBot(Bot):
    """Fails in a configured way: ``raise`` every call, ``raise_once`` per turn, ``empty``,
    ``huge``, ``raise_after`` N successful replies, ``load`` (its model file is missing),
    or ``hang`` (never answers until the test sets ``release``). ``count`` counts calls."""

    description = "test bot: fails on purpose"

    def __init__(self, name: str = "", *, mode: str = "raise", after: int = 0) -> None:
        super().__init__(name)
        self.mode, self.after = mode, after
        self.count = 0
        self.failed_turns: set[tuple[str, int]] = set()
        self.release = threading.Event()

    def load(self) -> None:
        if self.mode == "load":
            raise FileNotFoundError("weights.bin not found")

    def reply(self, history: History) -> str:
        self.count += 1
        key = (history.game_id, history.turn_index)
        if self.mode == "raise":
            raise RuntimeError("model exploded")
        if self.mode == "raise_once" and key not in self.failed_turns:
            self.failed_turns.add(key)
            raise ConnectionError("transient failure")
        if self.mode == "raise_after" and self.count > self.after:
            raise RuntimeError("gave up")
        if self.mode == "empty":
            return "   "
        if self.mode == "huge":
            return "word " * 10_000
        if self.mode == "hang":
            self.release.wait()
        return f"fine {history.turn_index}"


class BuggyBot(Bot):
    """A deterministic bot with a bug: every reply indexes past the end of a tuple
    (``IndexError`` raised at :data:`BUGGY_LINE` of this file); ``calls`` counts calls."""

    description = "test bot: raises IndexError"
    calls = 0

    def reply(self, history: History) -> str:
        type(self).calls += 1
        return ()[history.turn_index]  # BuggyBot's bug


BUGGY_LINE = 1 + next(i for i, line in enumerate(Path(__file__).read_text("utf-8").splitlines())
                      if line.rstrip().endswith("# BuggyBot's bug"))


class NeedsModelBot(Bot):
    """A bot with a required parameter (``model``)."""

    description = "test bot with a required parameter"

    def __init__(self, name: str = "", *, model: str, temperature: float = 0.7) -> None:
        super().__init__(name)
        self.model = model


class PickyBot(Bot):
    """A bot whose constructor raises TypeError itself (``size`` given as a string)."""

    description = "test bot whose constructor raises TypeError itself"

    def __init__(self, name: str = "", *, size: int = 1) -> None:
        super().__init__(name)
        self.size = size + 1  # TypeError for a string

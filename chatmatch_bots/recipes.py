"""Recipe bots: cheap players that a judge could reward without their conversing well.

Each one is a recipe a dimension might be open to; they make up the validity lab's gaming
suite (``chatmatch validate --datasets gaming``, ``tournaments/gaming.yaml``), in which
they play the real bots and must rank below them (docs/validity.md, "Gaming suite"):

- ``recipe-pirate``: a template around one word of the partner's turn
  ("Arr! Ye speak of <word>? Aboard the Black Pearl we'd call that treasure. What say ye?");
- ``recipe-mirror``: parrots the partner's question back, or mirrors a statement as one;
- ``recipe-entities``: stuffs named entities into every turn, whatever was said;
- ``recipe-questions``: asks question after question, ignoring the partner;
- ``recipe-salad``: a salad of rare words;
- ``recipe-constant``: one reply, always;
- ``recipe-catchphrase``: a persona that ends every turn on its catchphrase;
- ``recipe-edit``: the partner's turn, lightly edited (pronouns swapped, a word added);
- ``recipe-filler``: long generic filler.

They need no model and are deterministic for a game's ``History.random_seed``.
"""

from __future__ import annotations

import random
import re
from typing import Any, ClassVar

from chatmatch.adapters.params import BotParams, given
from chatmatch.bot import Bot, History
from chatmatch.common.text import tokens

_COMMON = frozenset("""a an the and or but so of to in on at for with from by as that this
is are was were be been am i you he she it we they me my your our their what who how why
when where do does did have has had not no yes just really very like about there here
then than can could would should will what's i'm it's don't that's""".split())

ENTITIES = ("Paris", "Barack Obama", "Microsoft", "the Eiffel Tower", "Tokyo", "Beyonce",
            "the Amazon River", "Google", "Mount Everest", "Leonardo da Vinci", "Brazil",
            "the New York Times", "Toyota", "Shakespeare", "the Olympics", "NASA",
            "London", "Taylor Swift", "the Louvre", "Canada", "Elon Musk", "Berlin")
QUESTIONS = ("What is your favourite colour?", "Do you like pizza?", "Where were you born?",
             "Have you ever been to Japan?", "What music do you listen to?",
             "Do you have any pets?", "What is your dream job?", "Can you swim?",
             "Which season do you like best?", "Do you prefer tea or coffee?",
             "What book are you reading?", "How tall are you?", "Do you play chess?")
RARE_WORDS = ("quixotic", "obsidian", "palimpsest", "zephyr", "lugubrious", "cartography",
              "ephemeral", "marzipan", "gossamer", "sesquipedalian", "tessellation",
              "ultramarine", "bivouac", "chiaroscuro", "peregrine", "verdigris",
              "halcyon", "labyrinthine", "isotope", "mandolin", "nebula", "quasar",
              "sarsaparilla", "basilisk", "cinnabar", "filigree", "meridian", "oboe")
FILLER = ("Well, you know, that is really something I have thought about quite a lot, and "
          "honestly I think there are many different ways to look at it.",
          "It depends on so many things, and everyone has their own point of view about it, "
          "which I think is really important to keep in mind in general.",
          "At the end of the day, I suppose it is all about finding a good balance and just "
          "doing what feels right for you at the time.",
          "There is definitely a lot to say about that, and I could probably talk about it "
          "for hours, because it is such an interesting and important topic for everybody.")
_SWAP = {"i": "you", "you": "I", "my": "your", "your": "my", "me": "you", "am": "are",
         "i'm": "you're", "you're": "I'm", "mine": "yours", "yours": "mine", "we": "you"}


def content_word(text: str, rng: random.Random) -> str | None:
    """A word of ``text`` that is not a common function word (None when there is none)."""
    words = [w for w in tokens(text) if w.isalpha() and w.lower() not in _COMMON and len(w) > 2]
    return rng.choice(words) if words else None


def _rng(history: History) -> random.Random:
    return random.Random(history.random_seed)


def _said(history: History) -> int:
    return sum(1 for m in history.messages if m.role == "self")


def _unused(options: tuple[str, ...], history: History) -> list[str]:
    """The ``options`` that none of the bot's own turns so far contains (all of them once
    every one has been used)."""
    own = [m.text for m in history.messages if m.role == "self"]
    return [o for o in options if not any(o in t for t in own)] or list(options)


class RecipeBot(Bot):
    """A recipe bot: its reply is a fixed function of the history (no model, no state)."""

    thread_safe: ClassVar[bool] = True
    description = "A recipe bot (chatmatch_bots.recipes)."

    class Params(BotParams):
        """A recipe takes no parameter."""

    def __init__(self, name: str = "", params: Params | None = None, **values: Any) -> None:
        super().__init__(name)
        given(self.Params, params, values)

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "adapter": "recipe"}


class PirateBot(RecipeBot):
    description = "Recipe: a pirate template around one word of the partner's turn."

    def reply(self, history: History) -> str:
        word = content_word(history.last_partner_text, _rng(history)) or "the sea"
        return (f"Arr! Ye speak of {word}? Aboard the Black Pearl we'd call that treasure. "
                "What say ye?")


class MirrorBot(RecipeBot):
    description = "Recipe: parrots the partner's question back, or mirrors a statement as a question."

    def reply(self, history: History) -> str:
        last = history.last_partner_text.strip()
        asked = [s for s in re.split(r"(?<=[.!?])\s+", last) if s.endswith("?")]
        if asked:
            return f"{asked[-1]} That is a good question. {asked[-1]}"
        body = last.rstrip(".!") or "that"
        return f"{_swap(body)}? Why do you say {_swap(body)}?"


class EntityBot(RecipeBot):
    description = "Recipe: stuffs named entities into every turn, whatever was said."

    def reply(self, history: History) -> str:
        rng = _rng(history)
        a, b, c = rng.sample(ENTITIES, 3)
        return f"I thought of {a} and {b}, and then of {c}."


class QuestionSpamBot(RecipeBot):
    description = "Recipe: asks question after question, ignoring the partner."

    def reply(self, history: History) -> str:
        n = _said(history) * 2
        return f"{QUESTIONS[n % len(QUESTIONS)]} {QUESTIONS[(n + 1) % len(QUESTIONS)]}"


class SaladBot(RecipeBot):
    description = "Recipe: a salad of rare words."

    def reply(self, history: History) -> str:
        words = _rng(history).sample(RARE_WORDS, 8)
        return " ".join(words).capitalize() + "."


class ConstantBot(RecipeBot):
    description = "Recipe: the same reply, always."

    def reply(self, history: History) -> str:
        return "That is a really interesting point, tell me more about it."


class CatchphraseBot(RecipeBot):
    description = "Recipe: a persona that ends every turn on its catchphrase."

    def reply(self, history: History) -> str:
        word = content_word(history.last_partner_text, _rng(history))
        opener = f"Oh, {word}!" if word else "Oh, wow!"
        return f"{opener} As a proud cat owner from Chicago I always say: life is better with cats!"


class EditBot(RecipeBot):
    description = "Recipe: the partner's turn, lightly edited (pronouns swapped, a word added)."

    def reply(self, history: History) -> str:
        last = history.last_partner_text.strip() or "Hello!"
        return f"Indeed, {_swap(last[0].lower() + last[1:])}"


class FillerBot(RecipeBot):
    description = "Recipe: long generic filler."

    def reply(self, history: History) -> str:
        n = _said(history)
        return " ".join(FILLER[(n + i) % len(FILLER)] for i in range(3))


def _swap(text: str) -> str:
    """``text`` with first and second person swapped ("I like my dog" -> "you like your dog")."""
    return re.sub(r"[A-Za-z']+", lambda m: _SWAP.get(m.group(0).lower(), m.group(0)), text)

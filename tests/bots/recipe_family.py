"""What the tests of each recipe family share (tests/bots/test_recipes_*.py): a game seen
from the recipe's side, a whole game played against fixed partner turns, and the bot
adapters setup.cfg declares; and the checks every family's tests make (declared, played by its
tournament, deterministic, odd partner turns survived)."""

from __future__ import annotations

import configparser
import re
from pathlib import Path
from typing import Mapping, Sequence

from chatmatch.adapters import create_bot
from chatmatch.bot import History, Message
from chatmatch.common.text import question_count
from chatmatch_bots.recipes import RecipeBot

SEED_QUESTION = "What did you do last week?"
PARTNER = "I went hiking in the mountains with my brother. Do you like hiking?"
OTHER = "My aunt grows orchids in a greenhouse, and she sells them at markets."


def history(partner: str = PARTNER, own: tuple[str, ...] = (), seed: int = 3,
            game: str = "g1") -> History:
    """The game from the bot's side: the seed question, then ``own`` turns each answered
    by "fine", then ``partner``."""
    msgs = [Message("partner", SEED_QUESTION)]
    for text in own:
        msgs += [Message("self", text), Message("partner", "fine")]
    msgs.append(Message("partner", partner))
    return History(tuple(msgs), SEED_QUESTION, game, len(msgs), seed)


def play(bot: RecipeBot, partner_turns: list[str], seed: int = 11, *,
         game_id: str = "g") -> list[str]:
    """The bot's replies to ``partner_turns``, one at a time, as in the game ``game_id``."""
    msgs: list[Message] = []
    said = []
    for i, text in enumerate(partner_turns):
        msgs.append(Message("partner", text))
        out = bot.reply(History(tuple(msgs), partner_turns[0], game_id, len(msgs), seed + i))
        msgs.append(Message("self", out))
        said.append(out)
    return said


def declared_bots() -> dict[str, str]:
    """setup.cfg's bot entry points: adapter name -> ``module:Class``."""
    cfg = configparser.ConfigParser()
    cfg.read(Path(__file__).resolve().parents[2] / "setup.cfg")
    lines = cfg["options.entry_points"]["chatmatch.bots"].strip().splitlines()
    return {k.strip(): v.strip() for k, v in (line.split("=", 1) for line in lines)}


#: a game's partner turns that exercise a recipe: questions, statements with names, odd turns
LONG_GAME = [PARTNER, OTHER, "Where do you live?", "haha", "",
             "I visited Lisbon with my friend Tom, we saw the Tower of Belem.",
             "?!", "Do you have any pets?", "I really love cooking pasta and watching Netflix.",
             "ok", "What do you do for a living?", "The Beatles played in New York in 1964.",
             "I am tired of my job.", "Do you like hiking?", "Yes.", "Why?",
             "My sister just had a baby girl.", "Where do you live?", "Hmm.", "Bye!"]
#: partner turns a recipe must survive: empty, punctuation, very long, not English
ODD = ["", "?!", "?", "...", "x" * 5000,
       "I went to the market and " * 80 + "then home. Do you " + "really " * 60 + "like it?",
       "J'ai visité Zürich avec ma sœur 😊", "日本に行きました。", "¿Qué tal?", "Привет, как дела?",
       "I I I I", "or or or?", "5", "Why?", "What about you?", "🙂🙂🙂", "Bye!"]
#: a short game's partner turns (the earlier families' whole-game check)
SHORT_GAME = [PARTNER, OTHER, "Do you like hiking?", "I am tired of my job.", "Do you have a dog?"]
#: lines the fourth and fifth tournaments keep from the one before: settings, real bots
KEPT_SETTINGS = ("seed: 7", "exchanges: 10", "  method: trueskill", "  shuffles: 10",
                 "  - name: smollm2", "  - name: retrieval", "  - name: chatterbot")
#: histories every recipe must answer: a partner turn after the seed question, after an "ok",
#: empty, punctuation, after two "ok"s; then no turn yet, and only the bot's own opener
QUIET_HISTORIES = (history(), history(OTHER, ("ok",)), history("", seed=9), history("?!"),
                   history("I am.", ("ok", "fine")),
                   History((), "What did you do last week?", "empty", 0, 1),
                   History((Message("self", "What did you do last week?"),),
                           "What did you do last week?", "starter", 1, 2))
_TOURNAMENTS = Path(__file__).resolve().parents[2] / "tournaments"


def assert_declared(family: str, classes: Mapping[str, type]) -> None:
    """setup.cfg declares exactly ``classes`` as ``recipe-<family>-<short>`` adapters of
    ``chatmatch_bots.recipes_<family>``."""
    declared = {k: v for k, v in declared_bots().items() if k.startswith(f"recipe-{family}-")}
    assert declared == {f"recipe-{family}-{short}":
                        f"chatmatch_bots.recipes_{family}:{cls.__name__}"
                        for short, cls in classes.items()}


def assert_tournament_plays(family: str, classes: Mapping[str, type], previous: str = "",
                            shared: Sequence[str] = ()) -> tuple[str, str]:
    """``tournaments/gaming-<family>.yaml`` is named for the family, writes to its own runs
    folder and plays every recipe of ``classes``; each of the ``shared`` lines stands both in
    it and in ``gaming-<previous>.yaml``. Returns both texts ("" for no ``previous``)."""
    text = (_TOURNAMENTS / f"gaming-{family}.yaml").read_text()
    adapters = re.findall(r"adapter: (recipe-[\w-]+)", text)
    assert sorted(adapters) == sorted(f"recipe-{family}-{short}" for short in classes)
    assert f"name: gaming-{family}" in text and f"output_dir: runs/gaming-{family}" in text
    before = (_TOURNAMENTS / f"gaming-{previous}.yaml").read_text() if previous else ""
    for line in shared:
        assert line in before.splitlines() and line in text.splitlines(), line
    return text, before


def assert_tournament_follows(family: str, previous: str, classes: Mapping[str, type]) -> None:
    """``tournaments/gaming-<family>.yaml`` plays every recipe of ``classes`` and is
    ``gaming-<previous>.yaml`` line for line otherwise (the same real bots and settings)."""
    text, before = assert_tournament_plays(family, classes, previous)

    def kept(lines: str, name: str) -> list[str]:
        return [line for line in lines.splitlines()
                if not line.startswith(("#", "name:", "description:", "output_dir:"))
                and f"recipe-{name}-" not in line]
    assert kept(before, previous) == kept(text, family)


def assert_non_empty_and_deterministic(family: str, short: str, cls: type,
                                       histories: Sequence[History] = QUIET_HISTORIES) -> None:
    """The recipe, created by import path, is a RecipeBot of ``family`` that replies the
    same non-empty text twice to odd ``histories`` (empty, punctuation, no partner turn
    yet)."""
    bot = create_bot(short, f"chatmatch_bots.recipes_{family}:{cls.__name__}", {})
    assert isinstance(bot, RecipeBot) and bot.description.startswith(f"Recipe ({family}): ")
    for h in histories:
        one, two = bot.reply(h), bot.reply(h)
        assert one == two and one.strip(), (short, h.last_partner_text)


def assert_odd_partner_turns_get_a_short_real_reply(short: str, cls: type, *,
                                                      turns: Sequence[str] = ODD,
                                                      latin_only: bool = True) -> None:
    """Each of ``turns`` as the partner's latest turn (after the seed question, after an
    "ok" of the bot's, or alone) gets the same non-empty reply twice, under 400 characters
    and asking a question; with ``latin_only``, in Latin letters only."""
    bot = cls()
    for text in turns:
        for h in (history(text), history(text, ("ok",)),
                  History((Message("partner", text),), text, "odd", 1, 4)):
            out = bot.reply(h)
            assert isinstance(out, str) and out.strip() and out == bot.reply(h), (short, text)
            assert len(out) < 400 and question_count(out) >= 1, (short, text[:40], out)
            if latin_only:
                # English whatever it was told: Latin letters only (a quoted "Zürich" is fine)
                assert not re.search(r"[^\x00-\x7f\u00c0-\u017f]", out), (short, text[:40], out)


def assert_deterministic_over_a_game(cls: type, turns: list[str] = LONG_GAME) -> None:
    """The same whole game (``turns``) twice gives the same replies."""
    assert play(cls(), turns, seed=5) == play(cls(), turns, seed=5)


def assert_long_game_varied(short: str, cls: type) -> None:
    """A long game: no empty reply, the first ten all different, at most two repeats, a
    question every turn, every reply under 400 characters."""
    said = play(cls(), LONG_GAME * 2)
    assert all(s.strip() for s in said)
    assert len(set(said[:10])) == 10, said[:10]
    assert len(set(said)) >= len(said) - 2, short
    assert all(question_count(s) >= 1 for s in said), short
    assert all(len(s) < 400 for s in said), short


def assert_seeds_vary(short: str, cls: type) -> None:
    """Twelve game seeds give more than two different replies to one quiet turn."""
    quiet = "I had a quiet day at home."
    replies = {cls().reply(history(quiet, seed=s, game=f"g{s}")) for s in range(12)}
    assert len(replies) > 2, short

"""What the tests of each recipe family share (tests/bots/test_recipes_*.py): a game seen
from the recipe's side, a whole game played against fixed partner turns, and the bot
adapters setup.cfg declares."""

from __future__ import annotations

import configparser
from pathlib import Path

from chatmatch.bot import History, Message
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

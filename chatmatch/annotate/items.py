"""What an annotator judges: an :class:`Item` puts two speakers side by side, ``a`` and
``b``, each a bot in one stored game.

- ``game`` mode (the default): one item per scored game, the game's two bots; the annotator
  reads one conversation and says who did better.
- ``pairs`` mode (ACUTE-Eval, Li et al. 2019): bot X in one game and bot Y in another, both
  against the same third bot Z, one item per pair {X, Y} and common opponent Z (with two
  bots, X's and Y's sides of the two games of their match); the annotator reads two
  conversations side by side and compares the two highlighted speakers.

Which bot is shown as speaker A is drawn per item from the seed (so position does not favour
the starter), the same for every annotator. Forfeited games are never shown.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Literal, Sequence

from chatmatch.errors import ChatmatchError
from chatmatch.records import GameResult

Mode = Literal["game", "pairs"]
MODES: tuple[Mode, ...] = ("game", "pairs")


@dataclass(frozen=True)
class Side:
    """One speaker to judge: ``bot`` as it spoke in game ``game_id``."""

    game_id: str
    bot: str


@dataclass(frozen=True)
class Item:
    item_id: str
    a: Side
    b: Side

    @property
    def pair(self) -> tuple[str, str]:
        """The two bots compared, sorted."""
        x, y = sorted((self.a.bot, self.b.bot))
        return x, y

    @property
    def single_game(self) -> bool:
        return self.a.game_id == self.b.game_id


def _rng(seed: int, key: str) -> random.Random:
    return random.Random(f"{seed}:{key}")


def _oriented(item_id: str, x: Side, y: Side, seed: int) -> Item:
    return Item(item_id, y, x) if _rng(seed, item_id).random() < 0.5 else Item(item_id, x, y)


def build_items(results: Sequence[GameResult], available: set[str], mode: Mode,
                seed: int) -> list[Item]:
    """The items of a run: its scored, not forfeited games whose transcript is in
    ``available``, as ``mode`` shows them; a run without one is refused."""
    games = [r for r in results if r.forfeit is None and r.game_id in available]
    if not games:
        raise ChatmatchError("the run has no scored game with a transcript to judge (forfeited "
                             "games are left out); play the tournament first: chatmatch run FILE")
    if mode == "game":
        return [_oriented(r.game_id, Side(r.game_id, r.players[0]), Side(r.game_id, r.players[1]),
                          seed) for r in games]
    return _pair_items(games, seed)


def _pair_items(games: Sequence[GameResult], seed: int) -> list[Item]:
    by_pair: dict[frozenset[str], list[GameResult]] = {}
    for r in games:
        by_pair.setdefault(frozenset(r.players), []).append(r)
    bots = sorted({p for r in games for p in r.players})
    items: list[Item] = []
    for x, y in itertools.combinations(bots, 2):
        for z in bots:
            if z in (x, y):
                continue
            gx, gy = by_pair.get(frozenset((x, z))), by_pair.get(frozenset((y, z)))
            if gx and gy:
                rng = _rng(seed, f"{x}|{y}|{z}")
                items.append(_pair_item(Side(rng.choice(gx).game_id, x),
                                        Side(rng.choice(gy).game_id, y), seed))
        match = sorted(by_pair.get(frozenset((x, y)), []), key=lambda r: r.game_id)
        if len(bots) == 2 and len(match) >= 2:  # no third bot: the two games of the match
            items.append(_pair_item(Side(match[0].game_id, x), Side(match[1].game_id, y), seed))
    if not items:
        raise ChatmatchError("--mode pairs: no two bots played a common opponent in the stored "
                             "games; use --mode game")
    return items


def _pair_item(x: Side, y: Side, seed: int) -> Item:
    return _oriented(f"{x.game_id}:{x.bot}+{y.game_id}:{y.bot}", x, y, seed)

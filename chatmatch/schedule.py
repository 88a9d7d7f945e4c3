"""Double round-robin (paper, section 2.1): C(n,2) matches, two games per match, each
started by a different bot, n(n-1) games in all.

The schedule is a pure function of the bot list, the seed utterances and the tournament
seed. Match m (in ``itertools.combinations`` order) uses seed utterance ``m % len(seeds)``
for both of its games, so both bots open with the same utterance once. Each game gets its
own ``random_seed``, derived from the tournament seed and the game id, which bots use for
sampling.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass
from typing import Sequence


@dataclass(frozen=True)
class ScheduledGame:
    game_id: str
    match_id: int
    starter: str
    other: str
    seed_utterance: str
    random_seed: int

    @property
    def players(self) -> tuple[str, str]:
        return (self.starter, self.other)


def derive_seed(seed: int, *parts: object) -> int:
    """A stable 63-bit seed from the tournament seed and any labels (no global state)."""
    blob = "\x1f".join([str(seed), *map(str, parts)]).encode()
    return int.from_bytes(hashlib.sha256(blob).digest()[:8], "big") >> 1


def double_round_robin(bots: Sequence[str], seed_utterances: Sequence[str],
                       seed: int = 0) -> list[ScheduledGame]:
    if len(set(bots)) != len(bots):
        raise ValueError("bot names must be unique")
    if len(bots) < 2:
        raise ValueError("need at least two bots")
    if not seed_utterances:
        raise ValueError("need at least one seed utterance")
    games: list[ScheduledGame] = []
    width = max(3, len(str(len(bots) * (len(bots) - 1))))
    for m, (a, b) in enumerate(itertools.combinations(bots, 2)):
        utterance = seed_utterances[m % len(seed_utterances)]
        for starter, other in ((a, b), (b, a)):
            gid = f"g{len(games) + 1:0{width}d}"
            games.append(ScheduledGame(gid, m, starter, other, utterance,
                                       derive_seed(seed, gid, starter, other)))
    return games

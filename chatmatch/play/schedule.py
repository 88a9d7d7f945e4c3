"""Double round-robin (paper, section 2.1): C(n,2) matches, two games per match, each
started by a different bot, n(n-1) games in all.

The schedule is a pure function of the bot list, the seed utterances and the tournament
seed. Match m (in ``itertools.combinations`` order) uses seed utterance ``m % len(seeds)``
for both of its games, so both bots open with the same utterance once. Each game gets its
own ``random_seed``, derived from the tournament seed and the game id, which bots use for
sampling.

A league that grows (:func:`league_games`) keeps every game id: the founders' matches come
first in the order above, then each later bot's matches against every bot before it in the
roster (the order bots joined). Match m keeps its number, seed utterance and game ids
``g{2m+1}``, ``g{2m+2}`` however many bots join later, so adding a bot only adds games;
a retired bot's matches are left out of the active schedule but keep their ids.

Seed sets with categories (:class:`SeedPlan`): in every block of k consecutive matches
(k = number of categories) each category opens one match, in an order shuffled by the
tournament seed; within a category the utterances are used in turn.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from dataclasses import dataclass
from typing import Iterator, Sequence, Union

from chatmatch.config.league import SeedSet
from chatmatch.config.tournament import TournamentConfig


@dataclass(frozen=True)
class ScheduledGame:
    game_id: str
    match_id: int
    starter: str
    other: str
    seed_utterance: str
    random_seed: int
    seed_category: str = ""

    @property
    def players(self) -> tuple[str, str]:
        return (self.starter, self.other)


@dataclass(frozen=True)
class SeedPlan:
    """Seed utterances by category (``categories``: (name, utterances) in file order). A
    plain list of utterances is one category named "" and is used match by match."""

    categories: tuple[tuple[str, tuple[str, ...]], ...]

    @classmethod
    def plain(cls, utterances: Sequence[str]) -> "SeedPlan":
        return cls((("", tuple(utterances)),))

    @property
    def categorized(self) -> bool:
        return len(self.categories) > 1 or self.categories[0][0] != ""

    def for_match(self, m: int, seed: int) -> tuple[str, str]:
        """(category, utterance) of match ``m``."""
        if not self.categorized:
            items = self.categories[0][1]
            return "", items[m % len(items)]
        k = len(self.categories)
        order = list(range(k))
        random.Random(derive_seed(seed, "seed-categories", m // k)).shuffle(order)
        name, items = self.categories[order[m % k]]
        return name, items[(m // k) % len(items)]


Seeds = Union[Sequence[str], SeedPlan]


def seed_plan(cfg: TournamentConfig) -> SeedPlan:
    """The seed utterances of ``cfg`` as the schedule uses them (by category for a seed set)."""
    v = cfg.seed_utterance
    if isinstance(v, SeedSet):
        return SeedPlan(tuple((k, tuple(items)) for k, items in v.categories.items()))
    return SeedPlan.plain(cfg.seed_utterances)


def derive_seed(seed: int, *parts: object) -> int:
    """A stable 63-bit seed from the tournament seed and any labels (no global state)."""
    blob = "\x1f".join([str(seed), *map(str, parts)]).encode()
    return int.from_bytes(hashlib.sha256(blob).digest()[:8], "big") >> 1


def _plan(seeds: Seeds) -> SeedPlan:
    plan = seeds if isinstance(seeds, SeedPlan) else SeedPlan.plain(list(seeds))
    if not any(items for _, items in plan.categories) or any(not items for _, items in plan.categories):
        raise ValueError("need at least one seed utterance")
    return plan


def league_pairs(roster: Sequence[str], founders: int) -> Iterator[tuple[str, str]]:
    """Every match of a league in match-number order: the founders' pairs in
    ``itertools.combinations`` order, then each later bot against every bot before it."""
    yield from itertools.combinations(roster[:founders], 2)
    for k in range(founders, len(roster)):
        for j in range(k):
            yield roster[j], roster[k]


def league_games(roster: Sequence[str], founders: int, seeds: Seeds, seed: int = 0,
                 active: Sequence[str] | None = None) -> list[ScheduledGame]:
    """The games of the matches between ``active`` bots (default: all of ``roster``), with
    the ids, seed utterances and random seeds they have in the league's full schedule."""
    if len(set(roster)) != len(roster):
        raise ValueError("bot names must be unique")
    if len(roster) < 2:
        raise ValueError("need at least two bots")
    if not 0 < founders <= len(roster):
        raise ValueError(f"founders must be 1..{len(roster)}, got {founders}")
    plan = _plan(seeds)
    keep = set(roster if active is None else active)
    width = max(3, len(str(founders * (founders - 1))))
    games: list[ScheduledGame] = []
    for m, (a, b) in enumerate(league_pairs(roster, founders)):
        if a not in keep or b not in keep:
            continue
        category, utterance = plan.for_match(m, seed)
        for leg, (starter, other) in enumerate(((a, b), (b, a))):
            gid = f"g{2 * m + leg + 1:0{width}d}"
            games.append(ScheduledGame(gid, m, starter, other, utterance,
                                       derive_seed(seed, gid, starter, other), category))
    return games


def double_round_robin(bots: Sequence[str], seed_utterances: Seeds,
                       seed: int = 0) -> list[ScheduledGame]:
    return league_games(bots, len(bots), seed_utterances, seed)

"""Budgeted schedules for big leagues (``schedule.method``): instead of every pair's match
(n(n-1) games), play rounds of matches chosen from the results so far, until a game budget
is spent. The matches are those of the full double round-robin (chatmatch.play.schedule), with
the same game ids, seed utterances and random seeds, so a budget can be raised later, the
method changed, or the run finished as a full round-robin, without replaying anything.

* ``random``: each round is a seeded random set of unplayed matches (a round-robin played
  in random order and cut at the budget); it does not look at results.
* ``swiss`` (Auto-Arena): each round orders the bots by Bradley-Terry strength on the games
  so far and pairs neighbours that have not met yet; round 1 is a seeded random pairing.
* ``adaptive`` ("most informative pairs first"): each round takes the unplayed matches
  whose current order is most likely wrong: Phi(-|s_a - s_b| / sd), with s the current
  Bradley-Terry strengths and sd from their Fisher information (sum of p(1-p) over a
  bot's games, plus PRIOR_INFO), so close pairs and bots with few games come first;
  every bot plays at most once a round.

A round is a set of matches (both games of each: each bot starts once), every bot in at
most one, so a round is played in parallel like a round-robin (local or Ray executor).
Ties in the choice are broken by a generator seeded from the tournament seed and the
round number: the same results give the same rounds.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from chatmatch.play.schedule import ScheduledGame, derive_seed
from chatmatch.ranking.bradley_terry import fit_bt
from chatmatch.records import GameResult

#: (first player, second player, score of the first: 1 win, 0.5 tie, 0 loss)
Outcome = tuple[str, str, float]
#: Bradley-Terry prior (virtual tied games per pair that met) used to steer the pairing
STEER_PRIOR = 0.5
#: ``schedule.method: auto`` plays the full round-robin up to this many bots (paper-sized
#: leagues), and AUTO_BUDGETED with its default budget above (benchmarks/bench_league.py)
AUTO_ROUND_ROBIN_MAX = 16
AUTO_BUDGETED = "adaptive"
#: adaptive: Fisher information a bot has before any game (a strength variance of 4)
PRIOR_INFO = 0.25


@dataclass(frozen=True)
class Match:
    """A pair's two games in the league's schedule."""

    match_id: int
    a: str
    b: str


def matches_of(schedule: Sequence[ScheduledGame]) -> list[Match]:
    seen: dict[int, Match] = {}
    for g in schedule:
        seen.setdefault(g.match_id, Match(g.match_id, *sorted(g.players)))
    return list(seen.values())


def default_budget(method: str, n: int) -> int:
    """Games a budgeted schedule plays when ``schedule.games`` is not set:
    ``BUDGET_ROUNDS(n)`` rounds of n/2 matches (2 games each), at most the full n(n-1)."""
    return min(n * (n - 1), budget_rounds(n) * (n // 2) * 2)


def budget_rounds(n: int) -> int:
    """Rounds of the default budget: 3 * ceil(log2 n). Auto-Arena plays ceil(log2 n)
    rounds; on the simulated leagues of benchmarks/bench_league.py three times that is
    where adaptive's ranking reaches Kendall tau 0.8 against the full round-robin's at 30
    and 100 bots (docs/league.md), with 52 % and 21 % of its games."""
    return 3 * max(1, math.ceil(math.log2(max(n, 2))))


def _strengths(bots: Sequence[str], outcomes: Sequence[Outcome]) -> dict[str, float]:
    return fit_bt(outcomes, bots, STEER_PRIOR, max_iter=500, tol=1e-9) if outcomes else dict.fromkeys(bots, 0.0)


def _swiss(bots: Sequence[str], free: list[Match], outcomes: Sequence[Outcome],
           rng: random.Random) -> list[Match]:
    s = _strengths(bots, outcomes)
    jitter = {b: rng.random() for b in bots}
    order = sorted(bots, key=lambda b: (-s[b], jitter[b]))
    open_pairs = {frozenset((m.a, m.b)): m for m in free}
    paired: set[str] = set()
    out = []
    for i, a in enumerate(order):
        if a in paired:
            continue
        for b in order[i + 1:]:
            m = open_pairs.get(frozenset((a, b)))
            if b not in paired and m is not None:
                out.append(m)
                paired |= {a, b}
                break
    return out


def _adaptive(bots: Sequence[str], free: list[Match], outcomes: Sequence[Outcome],
              rng: random.Random) -> list[Match]:
    s = _strengths(bots, outcomes)
    fisher = dict.fromkeys(bots, PRIOR_INFO)
    for a, b, _ in outcomes:
        p = 1.0 / (1.0 + math.exp(s[b] - s[a]))
        fisher[a] += p * (1 - p)
        fisher[b] += p * (1 - p)

    def flip(m: Match) -> float:
        # probability that the current order of the two bots is wrong (normal approximation)
        sd = math.sqrt(1 / fisher[m.a] + 1 / fisher[m.b])
        return 0.5 * math.erfc(abs(s[m.a] - s[m.b]) / sd / math.sqrt(2))

    return _disjoint(sorted(free, key=lambda m: (-flip(m), rng.random())))


def _random(bots: Sequence[str], free: list[Match], outcomes: Sequence[Outcome],
            rng: random.Random) -> list[Match]:
    shuffled = list(free)
    rng.shuffle(shuffled)
    return _disjoint(shuffled)


def _disjoint(ordered: Sequence[Match]) -> list[Match]:
    """The matches of ``ordered`` taken greedily in that order, no bot twice in a round."""
    paired: set[str] = set()
    out = []
    for m in ordered:
        if m.a not in paired and m.b not in paired:
            out.append(m)
            paired |= {m.a, m.b}
    return out


PAIRINGS: dict[str, Callable[[Sequence[str], list[Match], Sequence[Outcome], random.Random], list[Match]]] = {
    "random": _random, "swiss": _swiss, "adaptive": _adaptive}


def next_round(method: str, bots: Sequence[str], matches: Sequence[Match], played: set[int],
               outcomes: Sequence[Outcome], games_left: int, seed: int, round_no: int) -> list[Match]:
    """The matches of the next round: unplayed ones (not in ``played``), each bot in at
    most one, at most ``games_left // 2`` of them; empty when the budget or the pairs
    are used up."""
    if games_left < 2:
        return []
    free = [m for m in matches if m.match_id not in played]
    rng = random.Random(derive_seed(seed, "pairing", method, round_no))
    chosen = PAIRINGS[method](bots, free, outcomes, rng)
    return chosen[:games_left // 2]


class Rounds:
    """What ``chatmatch run`` plays next. ``round-robin``: every unplayed game at once;
    ``random``: the budget's matches at once (they do not depend on results); ``swiss`` and
    ``adaptive``: one round at a time, chosen from the results so far. Stored games count
    toward the budget; a match with one game stored gets its other game first."""

    def __init__(self, method: str, schedule: Sequence[ScheduledGame], budget: int | None,
                 seed: int) -> None:
        self.method, self.schedule, self.seed = method, list(schedule), seed
        self.budget = len(self.schedule) if method == "round-robin" or budget is None else min(
            budget, len(self.schedule))
        self.bots = sorted({p for g in self.schedule for p in g.players})
        self.matches = matches_of(self.schedule)
        self.games = {m: [g for g in self.schedule if g.match_id == m] for m in (x.match_id for x in self.matches)}

    def players(self, first: Sequence[ScheduledGame]) -> set[str]:
        """Bots to load: those of the ``first`` games, or every bot of a schedule whose
        later rounds are not known yet."""
        if self.method == "round-robin":
            return {p for g in first for p in g.players}
        return set(self.bots)

    @property
    def total(self) -> int:
        """Games the schedule plays in all."""
        return self.budget

    def check_stored(self, stored: set[str]) -> None:
        """``ValueError`` when the games of the schedule already stored are more than the
        budget (it was lowered): stored games are never dropped, so such a budget could
        only be shown as one count and ranked as another."""
        have = sum(g.game_id in stored for g in self.schedule)
        if self.method != "round-robin" and have > self.budget:
            even = have + have % 2
            raise ValueError(f"schedule.games: {self.budget} is below the {have} games this "
                             f"run already holds (stored games are kept and ranked); use games: "
                             f"{even} or more, or start a new run with --out")

    def next(self, stored: set[str], results: Mapping[str, GameResult]) -> list[ScheduledGame]:
        """The games to play now (empty: done). ``stored``: game ids with a transcript;
        ``results``: scored games by id (what swiss and adaptive pair on)."""
        mine = [g for g in self.schedule if g.game_id in stored]
        if self.method == "round-robin":
            return [g for g in self.schedule if g.game_id not in stored]
        started = {g.match_id for g in mine}
        halves = [g for m in sorted(started) for g in self.games[m] if g.game_id not in stored]
        if halves:
            return halves
        out: list[ScheduledGame] = []
        left = self.budget - len(mine)
        outcomes = [(r.players[0], r.players[1], r.score_of(r.players[0]))
                    for g in mine if (r := results.get(g.game_id)) is not None]
        while left >= 2:
            chosen = next_round(self.method, self.bots, self.matches, started, outcomes, left,
                                self.seed, len(started))
            if not chosen:
                break
            for m in chosen:
                started.add(m.match_id)
                out += self.games[m.match_id]
            left -= 2 * len(chosen)
            if self.method != "random":
                break  # the next round waits for these results
        return out


def resolve(method: str, games: int | None, n: int) -> tuple[str, int | None]:
    """(method, budget) that ``schedule: {method, games}`` means for ``n`` active bots:
    ``auto`` is the round-robin up to AUTO_ROUND_ROBIN_MAX bots (or without a budget
    given), else AUTO_BUDGETED; a budgeted method without ``games`` gets
    :func:`default_budget`."""
    if method == "auto":
        method = AUTO_BUDGETED if games is not None or n > AUTO_ROUND_ROBIN_MAX else "round-robin"
    if method == "round-robin":
        return method, None
    return method, games if games is not None else default_budget(method, n)


def make_rounds(method: str, games: int | None, schedule: Sequence[ScheduledGame],
                seed: int) -> Rounds:
    """The :class:`Rounds` of ``schedule: {method, games}`` over ``schedule``'s bots."""
    n = len({p for g in schedule for p in g.players})
    resolved, budget = resolve(method, games, n)
    return Rounds(resolved, schedule, budget, seed)

"""TrueSkill ranking (Herbrich et al. 2007) with game-order shuffles (paper, section 2.2.2).

TrueSkill updates depend on the order of games, so the games are replayed from fresh
ratings in ``shuffles`` seeded random orders (paper: 3) and the final mu and sigma are
averaged. Bots are ranked by the conservative score ``mu - k*sigma`` (k = 3 by default) or
by mu (``ranking.trueskill.rank_by``). Each bot's rank in every shuffle is kept so the
stability of the ranking is visible (``rank_min``/``rank_max``/``ranks``), and
:func:`seed_spread` ranks the same results under many seeds to show how much the *final*
ranking still depends on the seed (``chatmatch rank RUN --seeds N``).

Default: 30 shuffles (the paper: 3, kept by ``preset: paper``). Measured with
benchmarks/trueskill_shuffles.py: with 3 shuffles the final order of a 7-bot tournament
changes with the seed; with 30 a seed gives the modal order far more often at a
cost still well under a second (see docs/scoring.md, "TrueSkill shuffles").

A tied game (equal game points) is a TrueSkill draw.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

import trueskill

from chatmatch.ranking.base import RANKERS, Ranking, RankRow, competition_ranks, win_tie_loss
from chatmatch.scoring.points import GameResult

if TYPE_CHECKING:
    from chatmatch.config import RankingConfig, TrueSkillParams


def _env(p: "TrueSkillParams") -> trueskill.TrueSkill:
    # an explicit environment: never trueskill's global one
    return trueskill.TrueSkill(mu=p.mu, sigma=p.sigma, beta=p.beta, tau=p.tau,
                               draw_probability=p.draw_probability)


def play_order(results: Sequence[GameResult], env: trueskill.TrueSkill,
               bots: Sequence[str]) -> dict[str, trueskill.Rating]:
    """Final ratings after updating on ``results`` in the given order."""
    ratings = {b: env.create_rating() for b in bots}
    for r in results:
        a, b = r.players
        w = r.winner
        if w is None:
            ratings[a], ratings[b] = trueskill.rate_1vs1(ratings[a], ratings[b], drawn=True, env=env)
        else:
            loser = b if w == a else a
            ratings[w], ratings[loser] = trueskill.rate_1vs1(ratings[w], ratings[loser], env=env)
    return ratings


def _order_key(p: "TrueSkillParams", mu: float, sigma: float) -> float:
    return mu - p.k * sigma if p.rank_by == "conservative" else mu


@RANKERS.register("trueskill", description="TrueSkill over shuffled game orders (paper: 3)")
def rank_trueskill(results: Sequence[GameResult], bots: Sequence[str], config: "RankingConfig",
                   seed: int = 0) -> Ranking:
    p = config.trueskill
    env = _env(p)
    rng = random.Random(seed)
    # a canonical starting order so the result does not depend on how results were stored
    base = sorted(results, key=lambda r: r.game_id)
    per_shuffle: list[dict[str, trueskill.Rating]] = []
    for _ in range(config.shuffles):
        order = list(base)
        rng.shuffle(order)
        per_shuffle.append(play_order(order, env, bots))
    shuffle_ranks = []
    for ratings in per_shuffle:
        o = sorted(bots, key=lambda b: (-_order_key(p, ratings[b].mu, ratings[b].sigma), b))
        rk = competition_ranks([_order_key(p, ratings[b].mu, ratings[b].sigma) for b in o])
        shuffle_ranks.append(dict(zip(o, rk)))
    mu = {b: statistics.fmean(r[b].mu for r in per_shuffle) for b in bots}
    sigma = {b: statistics.fmean(r[b].sigma for r in per_shuffle) for b in bots}
    key = {b: _order_key(p, mu[b], sigma[b]) for b in bots}
    order = sorted(bots, key=lambda b: (-key[b], b))
    ranks = competition_ranks([key[b] for b in order])
    games = win_tie_loss(results, bots)
    rows = []
    for b, rk in zip(order, ranks):
        ranks_b = [sr[b] for sr in shuffle_ranks]
        rows.append(RankRow(b, rk, key[b], {
            "mu": mu[b], "sigma": sigma[b], "conservative": mu[b] - p.k * sigma[b],
            "mean_rank": statistics.fmean(ranks_b), "rank_min": min(ranks_b),
            "rank_max": max(ranks_b), "ranks": ranks_b, **games[b]}))
    return Ranking("trueskill", tuple(rows), len(results), meta={
        "shuffles": config.shuffles, "seed": seed, "rank_by": p.rank_by, "k": p.k,
        "mu0": p.mu, "sigma0": p.sigma, "beta": p.beta, "tau": p.tau,
        "draw_probability": p.draw_probability})


@dataclass(frozen=True)
class SeedSpread:
    """The final TrueSkill ranking of the same results under several seeds."""

    seeds: tuple[int, ...]
    orders: tuple[tuple[str, ...], ...]  # the final order (best first) for each seed
    ranks: dict[str, tuple[int, ...]]  # each bot's final rank for each seed

    @property
    def modal_order(self) -> tuple[str, ...]:
        return Counter(self.orders).most_common(1)[0][0]

    @property
    def modal_share(self) -> float:
        """Share of seeds that give the most frequent final order (1.0: seed-independent)."""
        return Counter(self.orders).most_common(1)[0][1] / len(self.orders)

    @property
    def distinct(self) -> int:
        return len(set(self.orders))

    def to_json(self) -> dict[str, Any]:
        return {"seeds": list(self.seeds), "distinct_orders": self.distinct,
                "modal_share": self.modal_share, "modal_order": list(self.modal_order),
                "ranks": {b: list(r) for b, r in self.ranks.items()}}


def seed_spread(results: Sequence[GameResult], bots: Sequence[str], config: "RankingConfig",
                seeds: Sequence[int]) -> SeedSpread:
    """Rank ``results`` by TrueSkill once per seed (``config.shuffles`` shuffles each)."""
    if not seeds:
        raise ValueError("seed_spread needs at least one seed")
    rankings = [rank_trueskill(results, bots, config, s) for s in seeds]
    ranks = {b: tuple(r.rank_of()[b] for r in rankings) for b in bots}
    return SeedSpread(tuple(seeds), tuple(tuple(r.order()) for r in rankings), ranks)

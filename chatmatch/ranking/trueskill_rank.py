"""TrueSkill ranking (Herbrich et al. 2007) with game-order shuffles (paper, section 2.2.2).

TrueSkill updates depend on the order of games, so the games are replayed from fresh
ratings in ``shuffles`` seeded random orders (paper: 3) and the final mu and sigma are
averaged. Bots are ranked by the conservative score ``mu - k*sigma`` (k = 3 by default) or
by mu (``ranking.trueskill.rank_by``). Each bot's rank in every shuffle is kept so the
stability of the ranking is visible (``rank_min``/``rank_max``/``ranks``), and
:func:`seed_spread` ranks the same results under many seeds to show how much the *final*
ranking still depends on the seed (``chatmatch rank RUN --seeds N``).

Default: 1000 shuffles (the paper: 3, kept by ``preset: paper``), replayed together by
:mod:`chatmatch.ranking.trueskill_batch`. Measured with lab/trueskill_shuffles.py:
with 3 shuffles the final order of a 7-bot tournament changes with the seed (63 % of
seeds give the most common order), with 1000 every seed gave the same order, at about
0.3 s a ranking (docs/scoring.md, "TrueSkill shuffles").

A tied game (equal game points) is a TrueSkill draw.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Any, Optional, Sequence

import numpy as np
import trueskill

from chatmatch.ranking.base import RANKERS, Ranking, RankRow, ranked, win_tie_loss
from chatmatch.ranking.params import DEFAULT_SHUFFLES as DEFAULT_SHUFFLES
from chatmatch.ranking.params import TrueSkillParams as TrueSkillParams
from chatmatch.ranking.trueskill_batch import play_shuffles
from chatmatch.records import GameResult, TrueSkillStats

def _env(p: TrueSkillParams) -> trueskill.TrueSkill:
    # an explicit environment: never trueskill's global one
    return trueskill.TrueSkill(mu=p.mu, sigma=p.sigma, beta=p.beta, tau=p.tau,
                               draw_probability=p.draw_probability)


def rate_pair(first: trueskill.Rating, second: trueskill.Rating, env: trueskill.TrueSkill,
              drawn: bool = False, draw_margin: float | None = None
              ) -> tuple[trueskill.Rating, trueskill.Rating]:
    """``first`` beat ``second`` (or they drew): TrueSkill's two-player update in closed
    form (Herbrich et al. 2007, eqs. for two teams of one), with the library's own V/W
    functions and draw margin. It equals ``trueskill.rate_1vs1`` (tests/ranking/test_ranking.py
    checks it to 1e-9) at a tenth of the cost, which makes many shuffles cheap.
    ``draw_margin``: ``trueskill.calc_draw_margin(p, 2, env)``, passed in to compute it once."""
    var1 = first.sigma ** 2 + env.tau ** 2
    var2 = second.sigma ** 2 + env.tau ** 2
    c2 = 2 * env.beta ** 2 + var1 + var2
    c = math.sqrt(c2)
    t = (first.mu - second.mu) / c
    if draw_margin is None:
        draw_margin = trueskill.calc_draw_margin(env.draw_probability, 2, env)
    margin = draw_margin / c
    v = env.v_draw(t, margin) if drawn else env.v_win(t, margin)
    w = env.w_draw(t, margin) if drawn else env.w_win(t, margin)
    return (env.create_rating(first.mu + var1 / c * v, math.sqrt(var1 * (1 - var1 / c2 * w))),
            env.create_rating(second.mu - var2 / c * v, math.sqrt(var2 * (1 - var2 / c2 * w))))


#: one game as TrueSkill sees it: (player a, player b, winner or None for a draw)
Outcome = tuple[str, str, Optional[str]]


def play_order(results: Sequence[GameResult], env: trueskill.TrueSkill,
               bots: Sequence[str]) -> dict[str, trueskill.Rating]:
    """Final ratings after updating on ``results`` in the given order."""
    return _play([(*r.players, r.winner) for r in results], env, bots)


def _play(outcomes: Sequence[Outcome], env: trueskill.TrueSkill,
          bots: Sequence[str]) -> dict[str, trueskill.Rating]:
    ratings = {b: env.create_rating() for b in bots}
    margin = trueskill.calc_draw_margin(env.draw_probability, 2, env)
    for a, b, w in outcomes:
        if w is None:
            ratings[a], ratings[b] = rate_pair(ratings[a], ratings[b], env, True, margin)
        else:
            loser = b if w == a else a
            ratings[w], ratings[loser] = rate_pair(ratings[w], ratings[loser], env, False, margin)
    return ratings


def _order_key(p: TrueSkillParams, mu: float, sigma: float) -> float:
    return mu - p.k * sigma if p.rank_by == "conservative" else mu


@RANKERS.register("trueskill", description="TrueSkill over shuffled game orders (paper: 3)",
                  params=TrueSkillParams, options=("shuffles",))
def rank_trueskill(results: Sequence[GameResult], bots: Sequence[str], p: TrueSkillParams,
                   seed: int = 0, *, shuffles: int = DEFAULT_SHUFFLES) -> Ranking:
    """TrueSkill ratings averaged over ``shuffles`` seeded game orders (``ranking.shuffles``)."""
    env = _env(p)
    rng = random.Random(seed)
    # a canonical starting order so the result does not depend on how results were stored
    base: list[Outcome] = [(*r.players, r.winner) for r in sorted(results, key=lambda r: r.game_id)]
    orders = np.empty((shuffles, len(base)), dtype=np.intp)
    for i in range(shuffles):
        order = list(range(len(base)))
        rng.shuffle(order)  # the same permutations as shuffling the games themselves
        orders[i] = order
    mus, sigmas = play_shuffles(base, orders, env, bots)
    shuffle_ranks = []
    for mu_s, sigma_s in zip(mus.tolist(), sigmas.tolist()):
        keys = {b: _order_key(p, m, sd) for b, m, sd in zip(bots, mu_s, sigma_s)}
        shuffle_ranks.append(dict(ranked(keys)))
    mu = {b: float(m) for b, m in zip(bots, mus.mean(axis=0))}
    sigma = {b: float(sd) for b, sd in zip(bots, sigmas.mean(axis=0))}
    key = {b: _order_key(p, mu[b], sigma[b]) for b in bots}
    games = win_tie_loss(results, bots)
    rows = []
    for b, rk in ranked(key):
        ranks_b = [sr[b] for sr in shuffle_ranks]
        rows.append(RankRow(b, rk, key[b], games[b], TrueSkillStats(
            mu[b], sigma[b], mu[b] - p.k * sigma[b], statistics.fmean(ranks_b), min(ranks_b),
            max(ranks_b), tuple(ranks_b))))
    return Ranking("trueskill", tuple(rows), len(results), meta={
        "shuffles": shuffles, "seed": seed, "rank_by": p.rank_by, "k": p.k,
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


def seed_spread(results: Sequence[GameResult], bots: Sequence[str], p: TrueSkillParams,
                seeds: Sequence[int], *, shuffles: int = DEFAULT_SHUFFLES) -> SeedSpread:
    """Rank ``results`` by TrueSkill once per seed (``shuffles`` shuffles each)."""
    if not seeds:
        raise ValueError("seed_spread needs at least one seed")
    rankings = [rank_trueskill(results, bots, p, s, shuffles=shuffles) for s in seeds]
    ranks = {b: tuple(r.rank_of()[b] for r in rankings) for b in bots}
    return SeedSpread(tuple(seeds), tuple(tuple(r.order()) for r in rankings), ranks)

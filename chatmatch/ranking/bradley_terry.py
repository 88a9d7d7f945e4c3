"""Bradley-Terry ranking: P(i beats j) = p_i / (p_i + p_j), fitted by maximum likelihood.

Every game is a pairwise outcome (a forfeit is a loss); a tied game counts as half a win
for each side. The likelihood is maximised with Hunter's (2004) MM iterations
``p_i <- W_i / sum_j n_ij / (p_i + p_j)``. Plain maximum likelihood has no finite answer
when a bot won (or lost) every game it played, so ``ranking.bt.prior`` virtual tied games
(default 0.5) are added to every pair of bots that met; ``prior: 0`` is the plain MLE (a bot
with no win is then held at a floor strength). Scores are natural-log strengths centred on
0 (the mean bot); exp(s_i - s_j) is the odds that i beats j.

Confidence intervals: ``bootstrap`` resamples of the games with replacement, drawn by
``numpy.random.default_rng(seed)``, each refitted; the percentile interval at ``ci``
(default 95%) of every bot's strength and rank.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from chatmatch.ranking.base import RANKERS, Ranking, RankRow, ranked, win_tie_loss
from chatmatch.ranking.params import BradleyTerryParams as BradleyTerryParams
from chatmatch.records import GameResult, IntervalStats

_FLOOR = 1e-12


def outcomes(results: Sequence[GameResult]) -> list[tuple[str, str, float]]:
    """(a, b, score of a: 1 win, 0.5 tie, 0 loss) per game, in game-id order."""
    return [(r.players[0], r.players[1], r.score_of(r.players[0]))
            for r in sorted(results, key=lambda r: r.game_id)]


def win_matrix(games: Sequence[tuple[str, str, float]], bots: Sequence[str]) -> np.ndarray:
    """``(n, n)``: a's score against b (1 win, 0.5 tie) summed over ``games``, and b's."""
    idx = {b: i for i, b in enumerate(bots)}
    wins = np.zeros((len(bots), len(bots)))
    for a, b, s in games:
        wins[idx[a], idx[b]] += s
        wins[idx[b], idx[a]] += 1.0 - s
    return wins


def fit_many(wins: np.ndarray, prior: float, max_iter: int = 10_000,
             tol: float = 1e-12) -> np.ndarray:
    """The Bradley-Terry fit, of every win matrix in ``wins`` (shape ``(reps, n, n)``) at
    once: log strengths (mean 0 over the bots that played) by Hunter's MM iterations,
    ``prior`` half-games added between bots that met, until no log strength moves by
    ``tol`` (in any matrix). One matrix is :func:`fit_bt`; many are the bootstrap of the
    human rankings (:mod:`chatmatch.stats.bootstrap`)."""
    met = (wins + np.swapaxes(wins, 1, 2)) > 0
    w_mat = wins + met * (prior / 2.0)
    games = w_mat + np.swapaxes(w_mat, 1, 2)
    w = w_mat.sum(2)
    played = games.sum(2) > 0
    n_played = np.maximum(played.sum(1, keepdims=True), 1)
    p = np.ones(w.shape)
    for _ in range(max_iter):
        denom = (games / (p[:, :, None] + p[:, None, :])).sum(2)
        new = np.where(played, w / np.where(denom > 0, denom, 1.0), 1.0)
        new = np.maximum(new, _FLOOR)
        new /= np.exp(_played_mean(np.log(new), played, n_played))
        done = np.max(np.abs(np.log(new) - np.log(p))) < tol
        p = new
        if done:
            break
    logs = np.log(p)
    centred: np.ndarray = logs - _played_mean(logs, played, n_played)
    return centred


def _played_mean(x: np.ndarray, played: np.ndarray, n_played: np.ndarray) -> np.ndarray:
    """Each row's mean over the bots that played (0 when none did), shape ``(reps, 1)``.
    One row is summed over the played bots alone, many with the others as zeros: the two
    round differently (by 1e-16) from 8 bots on, and each keeps the numbers it always gave."""
    if len(x) == 1:
        return np.array([[x[0][played[0]].mean() if played[0].any() else 0.0]])
    mean: np.ndarray = np.where(played, x, 0.0).sum(1, keepdims=True) / n_played
    return mean


def fit_bt(games: Sequence[tuple[str, str, float]], bots: Sequence[str], prior: float = 0.0,
           max_iter: int = 10_000, tol: float = 1e-12) -> dict[str, float]:
    """Log-strengths (mean 0 over bots that played) maximising the BT likelihood."""
    logs = fit_many(win_matrix(games, bots)[None], prior, max_iter, tol)[0]
    return {b: float(logs[i]) for i, b in enumerate(bots)}


def bootstrap(games: Sequence[tuple[str, str, float]], bots: Sequence[str],
              fit: Callable[[Sequence[tuple[str, str, float]]], dict[str, float]], reps: int,
              seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(scores, ranks) of ``reps`` refits on games resampled with replacement: arrays of
    shape (reps, len(bots))."""
    rng = np.random.default_rng(seed)
    scores = np.zeros((reps, len(bots)))
    ranks = np.zeros((reps, len(bots)))
    for r in range(reps):
        sample = [games[i] for i in rng.integers(0, len(games), len(games))]
        s = fit(sample)
        rk = dict(ranked({b: s[b] for b in bots}))
        scores[r] = [s[b] for b in bots]
        ranks[r] = [rk[b] for b in bots]
    return scores, ranks


def ranking_with_ci(method: str, scores: dict[str, float], boot: tuple[np.ndarray, np.ndarray],
                    bots: Sequence[str], ci: float, results: Sequence[GameResult],
                    meta: dict[str, Any], label: str) -> Ranking:
    """Rows ordered by score with bootstrap percentile intervals of score and rank."""
    lo_q, hi_q = (1 - ci) / 2 * 100, (1 + ci) / 2 * 100
    bs, br = boot
    games = win_tie_loss(results, bots)
    rows = []
    for b, rk in ranked({b: scores[b] for b in bots}):
        j = list(bots).index(b)
        stats = IntervalStats(label, scores[b])
        if len(bs):
            stats = IntervalStats(label, scores[b], float(np.percentile(bs[:, j], lo_q)),
                                  float(np.percentile(bs[:, j], hi_q)),
                                  int(np.floor(np.percentile(br[:, j], lo_q))),
                                  int(np.ceil(np.percentile(br[:, j], hi_q))))
        rows.append(RankRow(b, rk, scores[b], games[b], stats))
    return Ranking(method, tuple(rows), len(results), meta={**meta, "bootstrap": len(bs), "ci": ci})


@RANKERS.register("bt", description="Bradley-Terry maximum likelihood (ties = half wins), bootstrap CIs",
                  params=BradleyTerryParams)
def rank_bt(results: Sequence[GameResult], bots: Sequence[str], p: BradleyTerryParams,
            seed: int = 0) -> Ranking:
    games = outcomes(results)
    scores = fit_bt(games, bots, p.prior)
    reps = p.bootstrap if games else 0
    boot = bootstrap(games, bots, lambda g: fit_bt(g, bots, p.prior), reps, seed)
    return ranking_with_ci("bt", scores, boot, bots, p.ci, results,
                           {"prior": p.prior, "seed": seed, "ties": "half a win each",
                            "score": "log strength, mean 0"}, "log_strength")

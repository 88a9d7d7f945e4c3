"""Agreement of chatmatch's ranking with a known ranking, on a set of finished games.

Used for every lab dataset made of two-bot games whose bots have a reference ranking
(Spot The Bot's conversations and crowd rankings, the ladder and its construction order).
The games are scored once; everything else re-weights the game points
(:func:`~chatmatch.scoring.points.reweight`) and ranks again with the configured ranking method:

* ``full``: the configured weights, ranking seed ``seed``;
* ``seeds``: the same with ranking seeds ``seed .. seed+n-1`` (min / median / max tau);
* ``alone``: one dimension with weight 1, every other 0;
* ``minus``: the configured weights with one dimension set to 0 (the paper's ablation);
* ``shorter`` / ``longer``: only the games with at most / more than the median number of
  turns (does conversation length matter? the dimensions that need long games should do
  better on the longer ones);
* per dimension, how often it *fires*: the share of games in which it gives its point to one
  of the two bots (the raw scores differ). A dimension that never fires cannot rank anything:
  its "alone" tau is not reported (``None``, with a note), rather than a misleading 0.

Agreement is Kendall's tau-b between chatmatch's ranks and the reference scores.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from chatmatch.analysis.agreement import compare
from chatmatch.ranking import RankingConfig, rank
from chatmatch.records import DimensionScore, GameResult, nan_to_none
from chatmatch.scoring.points import dimension_winner, result_from_scores, reweight
from chatmatch.transcript import Transcript

#: a dimension deciding fewer games than this share is flagged as rare
RARE = 0.05


@dataclass(frozen=True)
class GameDataset:
    """Games plus one or more reference rankings (system -> score, higher is better)."""

    name: str
    games: tuple[Transcript, ...]
    references: dict[str, dict[str, float]]
    facts: dict[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def bots(self) -> list[str]:
        return sorted({p for g in self.games for p in g.players})


def tau(order_ranks: Mapping[str, int], reference: Mapping[str, float]) -> float | None:
    """Kendall tau-b of chatmatch ranks (1 = best) against reference scores (higher =
    better); None when undefined (a side ranks every bot the same)."""
    value = compare({b: float(r) for b, r in order_ranks.items()}, reference,
                    system_lower_better=True, human_lower_better=False).tau.value
    return nan_to_none(value, 4)


def fire_rate(results: Sequence[GameResult], dim: str) -> float:
    """Share of games whose two bots' raw scores on ``dim`` differ (someone wins the point)."""
    if not results:
        return 0.0
    fired = sum(dim not in r.not_applicable  # not applicable to a bot: nobody wins it
                and dimension_winner(r.raw[r.players[0]][dim], r.raw[r.players[1]][dim],
                                     r.higher_is_better[dim]) != 0 for r in results)
    return fired / len(results)


def longer_games(games: Sequence[Transcript]) -> set[str]:
    """Ids of the games with more turns than the median game."""
    median = statistics.median(len(g.turns) for g in games)
    return {g.game_id for g in games if len(g.turns) > median}


def _rate(results: Sequence[GameResult], dim: str) -> float | None:
    return round(fire_rate(results, dim), 4) if results else None


def _spread(values: Sequence[float | None]) -> dict[str, Any]:
    ok = [v for v in values if v is not None]
    if not ok:
        return {"values": list(values), "min": None, "median": None, "max": None}
    return {"values": list(values), "min": min(ok), "median": statistics.median(ok), "max": max(ok)}


@dataclass(frozen=True)
class _Ranker:
    """Ranks game results with the configured method and compares with the references."""

    bots: list[str]
    ranking: RankingConfig
    seed: int
    references: Mapping[str, Mapping[str, float]]

    def ranks(self, rs: Sequence[GameResult], seed: int | None = None,
              among: Sequence[str] | None = None) -> dict[str, int]:
        s = self.seed if seed is None else seed
        return rank(rs, among or self.bots, self.ranking, s).rank_of()

    def subset_ranks(self, rs: Sequence[GameResult]) -> dict[str, int] | None:
        """Ranks of the bots that play in ``rs`` (None when fewer than 2 do): a bot may play
        no game of a length (empathetic's 'model' never plays more than 6 turns)."""
        among = sorted({p for r in rs for p in r.players})
        return self.ranks(rs, among=among) if len(among) >= 2 else None

    def taus(self, r: Mapping[str, int] | None) -> dict[str, float | None]:
        return {name: None if r is None else tau(r, ref) for name, ref in self.references.items()}


def _variants(rk: _Ranker, results: Sequence[GameResult], dims: Sequence[str],
              weights: Mapping[str, float], fires: Mapping[str, float]
              ) -> tuple[dict[str, dict[str, float | None]], dict[str, dict[str, float | None]]]:
    """Per dimension, the taus of the ranking by that dimension alone and without it."""
    alone, minus = {}, {}
    for d in dims:
        only = {x: (1.0 if x == d else 0.0) for x in dims}
        alone[d] = (rk.taus(rk.ranks([reweight(r, only) for r in results])) if fires[d] > 0
                    else rk.taus(None))
        without = {**weights, d: 0.0}
        if any(without.get(x, 1.0) > 0 for x in dims):
            minus[d] = rk.taus(rk.ranks([reweight(r, without) for r in results]))
    return alone, minus


def _firing_notes(dims: Sequence[str], fires: Mapping[str, float], n: int) -> list[str]:
    notes = []
    never = [d for d in dims if fires[d] == 0]
    if never:
        notes.append(f"never fires (no game gives its point to either bot), so no 'alone' "
                     f"tau: {', '.join(never)}")
    rare = [f"{d} ({round(fires[d] * n)} games)" for d in dims if 0 < fires[d] < RARE]
    if rare:
        notes.append(f"fires in under {RARE:.0%} of the games, so its 'alone' tau rests on "
                     f"a handful of games: {', '.join(rare)}")
    return notes


def evaluate_games(ds: GameDataset, scores: Sequence[Mapping[str, DimensionScore]],
                   weights: Mapping[str, float], ranking: RankingConfig, *, seed: int = 0,
                   seeds: int = 1) -> dict[str, Any]:
    """The lab's verdict on one game dataset (JSON-ready); ``scores`` holds, per game of
    ``ds.games`` in order, every dimension's score."""
    dims = list(scores[0]) if scores else []
    results = [result_from_scores(g.game_id, g.players, s, weights)
               for g, s in zip(ds.games, scores)]
    rk = _Ranker(ds.bots, ranking, seed, ds.references)
    base = rk.ranks(results)
    full = rk.taus(base)
    per_seed = [rk.taus(rk.ranks(results, seed + i)) for i in range(seeds)]
    long_ids = longer_games(ds.games)
    longer = [r for r in results if r.game_id in long_ids]
    shorter = [r for r in results if r.game_id not in long_ids]
    long_ranks, short_ranks = rk.subset_ranks(longer), rk.subset_ranks(shorter)
    fires = {d: fire_rate(results, d) for d in dims}
    alone, minus = _variants(rk, results, dims, weights, fires)
    refs: dict[str, Any] = {}
    for name, ref in ds.references.items():
        refs[name] = {
            "statistic": "kendall_tau_b",
            "reference_order": sorted(ref, key=lambda b: (-ref[b], b)),
            "reference_scores": {b: round(v, 4) for b, v in ref.items()},
            "full": full[name],
            "seeds": _spread([t[name] for t in per_seed]),
            "shorter": rk.taus(short_ranks)[name], "shorter_bots": len(short_ranks or ()),
            "longer": rk.taus(long_ranks)[name], "longer_bots": len(long_ranks or ()),
            "alone": {d: alone[d][name] for d in dims},
            "minus": {d: minus[d][name] for d in minus},
        }
    return {
        "dataset": ds.name, "kind": "games", "bots": ds.bots, "games": len(ds.games),
        "facts": {**ds.facts, "shorter_games": len(shorter), "longer_games": len(longer)},
        "ranking": sorted(base, key=lambda b: (base[b], b)),
        "references": refs,
        "dimensions": {d: {"fires": round(fires[d], 4),
                           "fired_games": round(fires[d] * len(results)),
                           "fires_shorter": _rate(shorter, d),
                           "fires_longer": _rate(longer, d),
                           "never_fires": fires[d] == 0} for d in dims},
        "notes": [*ds.notes, *_firing_notes(dims, fires, len(results))],
    }

""""Minus x" ablation (paper, section 4.4.2 and Table 8): set one dimension's weight to zero,
re-score every stored game with the new weights, rank again and measure the agreement.

Only game points change; raw scores are reused
(:func:`~chatmatch.scoring.points.reweight`), so no
scorer is run. Forfeited games keep their verdict.
"""

from __future__ import annotations

from chatmatch.analysis.agreement import Variant, variant
from chatmatch.analysis.human import HumanRanking
from chatmatch.records import GameResult
from chatmatch.run.storedrun import Run
from chatmatch.scoring.points import reweight


def ablation_table(data: Run, human: HumanRanking | None = None,
                   method: str | None = None) -> list[Variant]:
    """The run's own weights first ("all"), then "-DIM" for every scored dimension."""
    rows = [variant("all", data.rank(_reweight(data, data.weights), method=method), human)]
    for dim in data.dimensions:
        weights = {**data.weights, dim: 0.0}
        rows.append(variant(f"-{dim}", data.rank(_reweight(data, weights), method=method), human))
    return rows


def _reweight(data: Run, weights: dict[str, float]) -> list[GameResult]:
    return [reweight(r, weights) for r in data.results]

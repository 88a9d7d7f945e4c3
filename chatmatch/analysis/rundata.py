"""A stored run, read once for analysis: bots, results, ranking setup and dimension weights."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import yaml

from chatmatch.errors import RunDirError
from chatmatch.ranking import Ranking, RankingConfig, rank
from chatmatch.ranking.points import PointsRule
from chatmatch.rerank import load_run
from chatmatch.scoring.points import GameResult
from chatmatch.store import RunDir


@dataclass(frozen=True)
class RunData:
    store: RunDir
    manifest: dict[str, Any]
    bots: tuple[str, ...]
    ranking: RankingConfig
    seed: int
    results: tuple[GameResult, ...]
    weights: dict[str, float]

    @property
    def name(self) -> str:
        return str(self.manifest.get("name") or self.store.path.name)

    @property
    def dimensions(self) -> list[str]:
        dims: dict[str, None] = {}
        for r in self.results:
            dims.update(dict.fromkeys(r.higher_is_better))
        return list(dims)

    def rank(self, results: Sequence[GameResult] | None = None, bots: Sequence[str] | None = None,
             method: str | None = None, points: PointsRule | None = None) -> Ranking:
        """Rank with the run's setup (or another method / points rule)."""
        cfg = self.ranking if points is None else self.ranking.model_copy(update={"points": points})
        return rank(list(self.results if results is None else results),
                    list(self.bots if bots is None else bots), cfg, self.seed, method=method)


def load_run_data(run_dir: str | Path) -> RunData:
    store, manifest, bots, rcfg, seed, results = load_run(run_dir)
    if not results:
        raise RunDirError(f"{store.path}: no scored games yet; run `chatmatch run` to play them")
    try:
        raw = yaml.safe_load((store.path / "config.yaml").read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise RunDirError(f"{store.path / 'config.yaml'}: cannot read the run's config ({exc})") from None
    scoring = raw.get("scoring") if isinstance(raw, dict) else None
    weights_raw = scoring.get("weights") if isinstance(scoring, dict) else None
    weights_raw = weights_raw if isinstance(weights_raw, dict) else {}
    dims = {d for r in results for d in r.higher_is_better}
    try:
        weights = {d: float(weights_raw.get(d, 1.0)) for d in sorted(dims)}
    except (TypeError, ValueError) as exc:
        raise RunDirError(f"{store.path / 'config.yaml'}: bad scoring.weights ({exc})") from None
    return RunData(store, manifest, tuple(bots), rcfg, seed, tuple(results), weights)

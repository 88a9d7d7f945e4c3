"""Re-rank a stored run directory (no bot is run, nothing is scored)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import yaml

from chatmatch.errors import ChatmatchError, RunDirError
from chatmatch.ranking import RANKERS, Ranking, RankingConfig, rank
from chatmatch.ranking.points import PointsRule
from chatmatch.ranking.trueskill_rank import SeedSpread, seed_spread
from chatmatch.scoring.points import GameResult
from chatmatch.store import RunDir


def parse_points(text: str) -> PointsRule:
    parts = text.replace(",", "/").split("/")
    try:
        w, t, l = (float(p) for p in parts)
        return PointsRule(win=w, tie=t, loss=l)
    except ValueError as exc:
        raise ChatmatchError(f"--points: expected W/T/L such as 3/1/0, got {text!r} "
                             f"({str(exc).splitlines()[-1].strip()})") from None


def load_run(run_dir: str | Path) -> tuple[RunDir, dict[str, Any], list[str], RankingConfig,
                                           int, list[GameResult]]:
    """(store, manifest, bots, ranking config, seed, results in schedule order)."""
    store = RunDir(Path(run_dir))
    manifest = store.read_manifest()
    cfg_path = store.path / "config.yaml"
    try:
        raw = yaml.safe_load(cfg_path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError, RecursionError) as exc:
        raise RunDirError(f"{cfg_path}: cannot read the run's config ({exc})") from None
    if not isinstance(raw, dict):
        raise RunDirError(f"{cfg_path}: the run's config must be a mapping; restore it from the "
                          "tournament YAML (chatmatch run rewrites it)")
    try:
        bots = list(manifest.get("bots") or [b["name"] for b in raw.get("bots", [])])
        seed = int(raw.get("seed", 0) or 0)
    except (TypeError, KeyError, ValueError) as exc:
        raise RunDirError(f"{cfg_path}: bad 'bots' or 'seed' in the run's config ({exc})") from None
    try:
        rcfg = RankingConfig.model_validate(raw.get("ranking", {}))
    except Exception as exc:  # noqa: BLE001 - pydantic error text is what the user needs
        raise RunDirError(f"{cfg_path}: bad 'ranking' section: {exc}") from None
    results = sorted(store.results().values(), key=lambda r: r.game_id)
    unknown = {p for r in results for p in r.players} - set(bots)
    if unknown:
        raise RunDirError(f"{store.path}: results mention bots not in the manifest: {sorted(unknown)}")
    return store, manifest, bots, rcfg, seed, results


def rerank(run_dir: str | Path, *, method: str | None = None, shuffles: int | None = None,
           seed: int | None = None, points: str | None = None,
           save: bool = False) -> tuple[Ranking, list[str]]:
    store, manifest, bots, rcfg, run_seed, results = load_run(run_dir)
    update: dict[str, Any] = {}
    if method:
        if method not in RANKERS:
            raise ChatmatchError(f"--method: {RANKERS.miss_message(method)}")
        update["method"] = method
    if shuffles:
        update["shuffles"] = shuffles
    if points:
        update["points"] = parse_points(points)
    rcfg = rcfg.model_copy(update=update)
    expected = manifest.get("expected_games")
    r = rank(results, bots, rcfg, run_seed if seed is None else seed,
             expected_games=int(expected) if expected is not None else None)
    warnings = list(store.warnings)
    if not results:
        raise RunDirError(f"{store.path}: no scored games yet; run `chatmatch run` to play them")
    if not r.complete:
        warnings.append(f"ranking rests on {r.games} of {r.expected_games} scheduled games "
                        "(the run is unfinished)")
    warnings += forfeit_warnings(results)
    if save:
        store.save_ranking(rcfg.method if not points else f"{rcfg.method}-{points.replace('/', '-')}",
                           r.to_json(), r.to_csv())
    return r, warnings


def run_seed_spread(run_dir: str | Path, seeds: int, shuffles: int | None = None) -> SeedSpread:
    """The run's TrueSkill ranking under seeds 0..seeds-1 (:func:`seed_spread`), with the
    run's ranking settings and ``shuffles`` when given."""
    store, _, bots, rcfg, _, results = load_run(run_dir)
    if not results:
        raise RunDirError(f"{store.path}: no scored games yet; run `chatmatch run` to play them")
    if shuffles:
        rcfg = rcfg.model_copy(update={"shuffles": shuffles})
    return seed_spread(results, bots, rcfg.trueskill, list(range(seeds)), shuffles=rcfg.shuffles)


def forfeit_warnings(results: Sequence[GameResult]) -> list[str]:
    """One line per bot that forfeited games: a forfeit is a loss on every dimension, so its
    rank reflects failures (``chatmatch run`` shows the same in its forfeit summary)."""
    from chatmatch.forfeits import summarize

    return [f"{f.bot} forfeited {len(f.games)} of its {f.of} games ({f.share:.0%}: "
            f"{', '.join(f.games[:6])}{', ...' if len(f.games) > 6 else ''}); its rank reflects "
            "failures: fix the cause, then `chatmatch run CONFIG --out RUN --replay-forfeits`"
            for f in summarize(results)]

"""Re-rank a stored run directory (no bot is run, nothing is scored)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from chatmatch.common.validation import validation_message
from chatmatch.errors import ChatmatchError
from chatmatch.play.forfeits import BotForfeits
from chatmatch.ranking import RANKERS, Ranking, RankingConfig
from chatmatch.ranking.points import PointsRule
from chatmatch.ranking.trueskill_rank import SeedSpread, seed_spread
from chatmatch.run.storedrun import Run


def parse_points(text: str) -> PointsRule:
    parts = text.replace(",", "/").split("/")
    try:
        w, t, l = (float(p) for p in parts)
    except ValueError as exc:
        raise ChatmatchError(f"--points: expected W/T/L such as 3/1/0, got {text!r} "
                             f"({str(exc).splitlines()[-1].strip()})") from None
    try:
        return PointsRule(win=w, tie=t, loss=l)
    except ValueError as exc:  # pydantic's ValidationError: a value out of range
        raise ChatmatchError(f"--points: {text!r}: {validation_message(exc, path=True)}") from None


def rerank(run_dir: str | Path | Run, *, method: str | None = None, shuffles: int | None = None,
           seed: int | None = None, points: str | None = None,
           save: bool = False, ties: dict[str, str] | None = None) -> tuple[Ranking, list[str]]:
    """The stored run ``run_dir`` (or a :class:`Run` already loaded) ranked with the
    command line's overrides, and the warnings of its loading and ranking."""
    run = run_dir if isinstance(run_dir, Run) else Run.load(run_dir)
    rcfg = ranking_config(run, method=method, shuffles=shuffles, points=points, ties=ties)
    r = run.rank(config=rcfg, seed=seed, expected_games=run.manifest.expected_games)
    warnings = list(run.store.warnings)
    if not r.complete:
        warnings.append(f"ranking rests on {r.games} of {r.expected_games} scheduled games "
                        "(the run is unfinished)")
    warnings += forfeit_warnings(run.forfeits)
    if save:
        name = rcfg.method if not points else f"{rcfg.method}-{points.replace('/', '-')}"
        run.store.save_ranking(name, r.to_json(), r.to_csv())
    return r, warnings


def ranking_config(run: Run, *, method: str | None = None, shuffles: int | None = None,
                   points: str | None = None,
                   ties: dict[str, str] | None = None) -> RankingConfig:
    """The run's ranking setup with the command line's overrides."""
    update: dict[str, Any] = {}
    if method:
        try:
            RANKERS.resolve(method)  # a registered name, an entry point or package.module:function
        except ChatmatchError as exc:
            raise ChatmatchError(f"--method: {exc}") from None
        update["method"] = method
    if shuffles:
        update["shuffles"] = shuffles
    if points:
        update["points"] = parse_points(points)
    if ties:  # --ties / --tie-break: over the run's ranking.ties block
        update["ties"] = run.ranking.ties.model_copy(update=ties)
    return run.ranking.model_copy(update=update)


def run_seed_spread(run_dir: str | Path, seeds: int, shuffles: int | None = None) -> SeedSpread:
    """The run's TrueSkill ranking under seeds 0..seeds-1 (:func:`seed_spread`), with the
    run's ranking settings and ``shuffles`` when given."""
    run = Run.load(run_dir)
    rcfg = run.ranking if not shuffles else run.ranking.model_copy(update={"shuffles": shuffles})
    return seed_spread(run.results, run.bots, rcfg.trueskill, list(range(seeds)), shuffles=rcfg.shuffles)


def forfeit_warnings(forfeits: Sequence[BotForfeits]) -> list[str]:
    """One line per bot that forfeited games: a forfeit is a loss on every dimension, so its
    rank reflects failures (``chatmatch run`` shows the same in its forfeit summary)."""
    return [f"{f.bot} forfeited {len(f.games)} of its {f.of} games ({f.share:.0%}: "
            f"{', '.join(f.games[:6])}{', ...' if len(f.games) > 6 else ''}); its rank reflects "
            "failures: fix the cause, then `chatmatch run CONFIG --out RUN --replay-forfeits`"
            for f in forfeits]

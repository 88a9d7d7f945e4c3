"""A stored run read back once for every reader (``chatmatch rank``, ``show``, ``report``,
``plot``, ``analyze``, ``compare``): :meth:`Run.load` reads the manifest, the ranking setup,
seed and dimension weights of ``config.yaml`` (once, typed: :mod:`chatmatch.run.storedsetup`)
and the game results; transcripts and score records are read on demand.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from chatmatch.common.validation import validation_message
from chatmatch.errors import RunDirError
from chatmatch.play.fingerprint import play_fingerprint, scoring_fingerprint
from chatmatch.play.forfeits import BotForfeits, summarize
from chatmatch.ranking import Ranking, RankingConfig, rank
from chatmatch.ranking.points import PointsRule
from chatmatch.records import GameResult, Manifest, ScoreRecord
from chatmatch.rundir.integrity import RESCORE, game_problem, record_problem, undigested_record_problem
from chatmatch.rundir.store import RunDir
from chatmatch.run.storedsetup import READ_ERRORS, StoredSetup
from chatmatch.run.league import stored_expected_games, stored_schedule
from chatmatch.run.migrations import read_manifest
from chatmatch.run.resume import schedule_rules
from chatmatch.transcript import Transcript


@dataclass(frozen=True)
class Run:
    """A stored run, read once (:meth:`load`): its manifest, the ranking setup, seed and
    dimension weights of its ``config.yaml``, and its game results in game-id order."""

    store: RunDir
    manifest: Manifest
    bots: tuple[str, ...]
    ranking: RankingConfig
    seed: int
    results: tuple[GameResult, ...]
    weights: dict[str, float]

    @classmethod
    def load(cls, path: str | Path, *, need_results: bool = True) -> "Run":
        """The run in ``path`` as every reader needs it: manifest, settings from
        ``config.yaml`` and the game results in game-id order. ``need_results``: refuse a
        run with no scored game."""
        store = RunDir(Path(path))
        setup = StoredSetup(store.path)
        manifest = read_manifest(store, setup)  # an older format upgraded (in memory)
        expected = stored_expected_games(store, manifest, setup)
        if expected is not None:  # the schedule's count, not a number the manifest was edited to
            manifest = manifest.replace(expected_games=expected)
        cfg_path = setup.path
        try:
            raw = setup.document()
        except READ_ERRORS as exc:
            raise RunDirError(f"{cfg_path}: cannot read the run's config ({exc})") from None
        if not isinstance(raw, dict):
            raise RunDirError(f"{cfg_path}: the run's config must be a mapping; restore it from the "
                              "tournament YAML (chatmatch run rewrites it)")
        # typed; a run whose settings this version refuses (a scorer plugin gone) is read
        # from the mapping, as before settings were typed
        settings = setup.settings
        try:
            bots = list(manifest.bots or [b["name"] for b in raw.get("bots", [])])
            seed = settings.seed if settings else int(raw.get("seed", 0) or 0)
        except (TypeError, KeyError, ValueError) as exc:
            raise RunDirError(f"{cfg_path}: bad 'bots' or 'seed' in the run's config ({exc})") from None
        try:
            ranking = settings.ranking if settings else RankingConfig.model_validate(raw.get("ranking", {}))
        except (ValueError, TypeError) as exc:  # ValueError: pydantic's ValidationError
            raise RunDirError(f"{cfg_path}: {validation_message(exc, 'ranking')}") from None
        played = setup.tournament if manifest.is_tournament else None
        edited = _scoring_edited(manifest, setup)
        if edited is not None:
            store.warnings.append(edited)
        store.rules = schedule_rules(stored_schedule(store, manifest, setup), manifest.scoring_fingerprint,
                                     played.exchanges if played is not None else None)
        edit = undigested_record_problem(manifest, store, store.rules, store.transcript_ids())
        if edit is not None:  # the record, not every game, is what changed
            raise RunDirError(f"{store.path}/{edit}")
        results = tuple(sorted(store.results().values(), key=lambda r: r.game_id))
        if manifest.roster:  # a league that grew: retired bots' games stay on disk, unranked
            results = tuple(r for r in results if set(r.players) <= set(bots))
        unknown = {p for r in results for p in r.players} - set(bots)
        if unknown:
            raise RunDirError(f"{store.path}: results mention bots not in the manifest: {sorted(unknown)}")
        if need_results and not results and store.ignored_lines:  # say why, not "none yet"
            more = len(store.warnings) - 1
            raise RunDirError(f"{store.path}: no scored game can be used: {store.warnings[0]}"
                              + (f" (and {more} more warning(s) like it)" if more > 0 else ""))
        if need_results and not results:
            raise RunDirError(f"{store.path}: no scored games yet; run `chatmatch run` to play them")
        dims = sorted({d for r in results for d in r.higher_is_better})
        weights = ({d: settings.scoring.weight(d) for d in dims} if settings
                   else _raw_weights(raw, dims, cfg_path))
        return cls(store, manifest, tuple(bots), ranking, seed, results, weights)

    @property
    def name(self) -> str:
        return str(self.manifest.name or self.store.path.name)

    @property
    def dimensions(self) -> list[str]:
        dims: dict[str, None] = {}
        for r in self.results:
            dims.update(dict.fromkeys(r.higher_is_better))
        return list(dims)

    @property
    def forfeits(self) -> list[BotForfeits]:
        return summarize(self.results)

    def transcripts(self) -> dict[str, Transcript]:
        """The stored transcripts by game id (unreadable ones skipped, with a warning)."""
        return self.store.transcripts()

    def scores(self, game_id: str) -> ScoreRecord | None:
        """The game's score record; None when there is none or it was made from another
        version of the transcript or with another scoring setup (the rule of
        :func:`chatmatch.rundir.integrity.record_problem`, with a warning in
        :attr:`RunDir.warnings`)."""
        if game_problem(game_id, self.store, self.store.rules) is not None:
            return None  # not a usable game of this run: results() said why
        rec = self.store.load_scores(game_id)
        why = record_problem(rec, game_id, self.store.rules, self.store.transcript_digest)
        if why is not None:
            self.store.warnings.append(f"{self.store.path / 'scores' / (game_id + '.json')}: not "
                                       f"used: {why}; {RESCORE}")
            return None
        return rec

    def rank(self, results: Sequence[GameResult] | None = None, bots: Sequence[str] | None = None,
             method: str | None = None, points: PointsRule | None = None,
             config: RankingConfig | None = None, seed: int | None = None,
             expected_games: int | None = None) -> Ranking:
        """Rank with the run's setup (or other results, bots, method, points rule, seed)."""
        cfg = config or self.ranking
        cfg = cfg if points is None else cfg.model_copy(update={"points": points})
        return rank(list(self.results if results is None else results),
                    list(self.bots if bots is None else bots), cfg,
                    self.seed if seed is None else seed, method=method,
                    expected_games=expected_games)


def _scoring_edited(manifest: Manifest, setup: StoredSetup) -> str | None:
    """A warning when ``config.yaml`` was edited after ``chatmatch run`` wrote it (its
    sha256 is not the manifest's) in its play settings (the stored games are then checked
    against settings they were not played with) or its scoring settings (the stored points
    were made with the settings the run had, and a reader does not score again)."""
    cfg = setup.tournament
    if manifest.config_sha256 is None or setup.sha256 in (None, manifest.config_sha256):
        return None
    if cfg is None:
        return (f"{setup.path}: edited after `chatmatch run` wrote it, and no longer a valid "
                "tournament: what it lacks (the ranking method, the weights) is read as the "
                "defaults; restore it (`chatmatch run` on the tournament YAML with --out "
                "writes it again)")
    if manifest.play_fingerprint is not None and play_fingerprint(cfg) != manifest.play_fingerprint:
        return (f"{setup.path}: its play settings (bots, seed utterances, exchanges, seed) were "
                "edited after `chatmatch run` wrote it, so the stored games are checked against "
                "settings they were not played with; restore it (`chatmatch run` on the "
                "tournament YAML with --out writes it again)")
    if scoring_fingerprint(cfg) == manifest.scoring_fingerprint:
        return None
    return (f"{setup.path}: its scoring settings were edited after `chatmatch run` wrote it; "
            "the points shown are those the games were scored with, not what the file now "
            f"says; `chatmatch run {setup.path} --out {setup.path.parent}` scores every game "
            "again with it (to change a setting, edit the tournament YAML and run it)")


def _raw_weights(raw: dict[str, Any], dims: list[str], cfg_path: Path) -> dict[str, float]:
    """The weights of ``dims`` read from the mapping (settings this version refuses)."""
    scoring = raw.get("scoring")
    weights_raw = scoring.get("weights") if isinstance(scoring, dict) else None
    weights_raw = weights_raw if isinstance(weights_raw, dict) else {}
    try:
        return {d: float(weights_raw.get(d, 1.0)) for d in dims}
    except (TypeError, ValueError) as exc:
        raise RunDirError(f"{cfg_path}: bad scoring.weights ({exc})") from None

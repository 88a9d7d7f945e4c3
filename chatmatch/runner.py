"""Run a tournament end to end: schedule, play, score, rank, all into one run directory
(the stages of :mod:`chatmatch.pipeline`).

Resuming is the default: run the same YAML again and finished games are neither replayed
nor re-scored. A run directory made with other bots or another play setup is refused; a
changed scoring setup re-scores the stored transcripts (recorded in the manifest).
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence


from chatmatch.adapters import create_bot
from chatmatch.bot import Bot
from chatmatch.config import TournamentConfig, config_data, dump_config
from chatmatch.errors import RunDirError
from chatmatch.executors import make_executor
from chatmatch.forfeits import BotForfeits, over_limit, summarize
from chatmatch.league import League, plan_league, refusal
from chatmatch.pairing import make_rounds
from chatmatch.pipeline import bind_scorers, rank_all, save_game, save_rankings, score_transcripts
from chatmatch.playprogress import PlayProgress
from chatmatch.progress import Reporter
from chatmatch.ranking import Ranking
from chatmatch.reply_cache import cache_bots
from chatmatch.resume import check_failures, check_stored_games, check_target, looks_like_run
from chatmatch.schedule import ScheduledGame
from chatmatch.scoring.base import Scorer
from chatmatch.scoring.engine import load_scorers
from chatmatch.stages import GameResult, Manifest
from chatmatch.store import RunDir
from chatmatch.storedsetup import StoredSetup
from chatmatch.transcript import Transcript

#: called as ``progress(games_done, games_total)`` at the start and after each game
Progress = Callable[[int, int], None]


@dataclass
class RunSummary:
    run_dir: Path
    ranking: Ranking
    rankings: dict[str, Ranking]
    games_total: int
    games_played: int  # played in this invocation
    games_scored: int  # scored in this invocation
    seconds: float
    warnings: list[str] = field(default_factory=list)
    forfeits: list[BotForfeits] = field(default_factory=list)
    replayed: list[str] = field(default_factory=list)  # forfeited games played again

    def over_limit(self, max_share: float) -> list[str]:
        """Bots that forfeited more than ``max_share`` of their games."""
        return over_limit(self.forfeits, max_share)


def _prepare(cfg: TournamentConfig, store: RunDir, config_file: str | None,
             schedule: Sequence[ScheduledGame], have: dict[str, Transcript],
             results: dict[str, GameResult], allow_failures_change: bool,
             league: League, stored: StoredSetup) -> Manifest:
    """The manifest to resume from, after every check and before anything is written
    (``stored``: the run directory's stored setup, read once)."""
    config_text = dump_config(cfg)
    config_sha = hashlib.sha256(config_text.encode()).hexdigest()
    fresh = Manifest(play_fingerprint=cfg.play_fingerprint(),
                     scoring_fingerprint=cfg.scoring_fingerprint(), config_sha256=config_sha,
                     name=cfg.name, config_file=config_file, bots=tuple(cfg.bot_names))
    if not store.exists() and looks_like_run(store.path):  # the manifest was deleted
        old_setup = stored.tournament
        if old_setup is None:
            raise RunDirError(f"{store.path}: manifest.json is missing and config.yaml is "
                              "unreadable, so its games cannot be matched to a tournament; "
                              "restore manifest.json, or start a new run with --out NEW_DIR")
        if old_setup.play_fingerprint() != fresh.play_fingerprint:
            raise RunDirError(_another_setup(store, stored, cfg))
        check_stored_games(store, schedule, have, results)
        check_failures(store, old_setup.failures, cfg.failures, len(have), allow_failures_change)
        # the old scores cannot be trusted without the manifest: score every game again
        manifest = fresh.replace(scoring_fingerprint=None).noted("manifest_rebuilt", games=len(have))
        store.write_config(config_text)
        store.write_manifest(manifest)
        return manifest
    if not store.exists():
        check_stored_games(store, schedule, have, results)
        store.path.mkdir(parents=True, exist_ok=True)
        manifest = fresh.noted("created")
        store.write_config(config_text)
        store.write_manifest(manifest)
        return manifest
    old = store.read_manifest()
    if old.play_fingerprint != fresh.play_fingerprint:
        if _legacy_setup(stored, old.play_fingerprint, fresh.play_fingerprint):
            old = old.noted("fingerprint_upgraded", old=old.play_fingerprint
                            ).replace(play_fingerprint=fresh.play_fingerprint)
        elif league.regrouped:
            old = old.noted("bots_changed", added=list(league.added),
                            retired=list(league.retired_now), bots=list(league.active)
                            ).replace(play_fingerprint=fresh.play_fingerprint)
        else:
            raise RunDirError(_another_setup(store, stored, cfg))
    old = league.stamp(old, cfg.schedule.retired == "keep")
    check_stored_games(store, schedule, have, results)
    changed_failures = check_failures(store, stored.failures, cfg.failures, len(have),
                                      allow_failures_change, as_written=True)
    if old.config_sha256 != config_sha:  # e.g. ranking or scoring settings changed
        keys = _changed_keys(stored, cfg)
        store.write_config(config_text)
        extra = {"failures_changed": changed_failures} if changed_failures else {}
        old = old.noted("config_changed", keys=keys, old=old.config_sha256, new=config_sha,
                        **extra).replace(config_sha256=config_sha)
    return old


def preflight(cfg: TournamentConfig, names: set[str], scorers: Sequence[Scorer],
              rep: Reporter) -> None:
    """Call ``preflight()`` of the bots ``names`` (built from ``cfg``; for ``openai-chat``:
    the server answers and serves the model) and of the scorers that have one (endpoint
    judges)."""
    for spec in cfg.bots:
        if spec.name in names:
            check = getattr(create_bot(spec.name, spec.adapter, dict(spec.params)), "preflight", None)
            if callable(check):
                with rep.step(f"checking bot {spec.name}"):
                    check()
    for scorer in scorers:
        check = getattr(scorer, "preflight", None)
        if callable(check):
            with rep.step(f"checking scorer {scorer.name}"):
                check()


def _legacy_setup(setup: StoredSetup, old_fingerprint: str | None,
                  fingerprint: str | None) -> bool:
    """Is ``setup`` of a run written when operational params (timeouts...) were part of the
    play fingerprint, of the same setup as today's but for them?"""
    stored = setup.tournament
    if stored is None:
        return False
    return (stored.play_fingerprint(legacy=True) == old_fingerprint
            and stored.play_fingerprint() == fingerprint)


def _another_setup(store: RunDir, stored: StoredSetup, cfg: TournamentConfig) -> str:
    return refusal(store, _what_changed(stored, cfg))


def _changed_keys(stored: StoredSetup, cfg: TournamentConfig) -> list[str]:
    old, new = stored.data or {}, config_data(cfg)
    return sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))


def _what_changed(stored: StoredSetup, cfg: TournamentConfig) -> str:
    old = stored.data
    if old is None:
        return "its config.yaml is unreadable"
    new = cfg.model_dump(mode="json")
    changed = [_change(k, old.get(k), new.get(k))
               for k in ("bots", "seed_utterance", "exchanges", "seed") if old.get(k) != new.get(k)]
    return "changed: " + "; ".join(changed) if changed else "fingerprints differ"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _change(key: str, old: Any, new: Any) -> str:
    if key != "bots" or not isinstance(old, list):
        return f"{key} {_short(old)} -> {_short(new)}"
    was = {b.get("name"): b for b in old if isinstance(b, dict)}
    now = {b["name"]: b for b in new}
    parts = [f"{label} {', '.join(map(str, names))}" for label, names in (
        ("added", [n for n in now if n not in was]),
        ("removed", [n for n in was if n not in now]),
        ("changed adapter or params of", [n for n in now if n in was and was[n] != now[n]])) if names]
    return "bots: " + ("; ".join(parts) if parts else "order changed")


def run_tournament(cfg: TournamentConfig, out_dir: str | Path | None = None, *,
                   config_file: str | None = None, progress: Progress | Reporter | None = None,
                   bots: dict[str, Bot] | None = None,
                   scorers: Sequence[Scorer] | None = None,
                   allow_failures_change: bool = False,
                   replay_forfeits: bool = False) -> RunSummary:
    """Play, score and rank ``cfg`` into ``out_dir`` (resuming what is there).
    ``allow_failures_change``: accept a resume whose ``failures`` block differs from the
    stored run's (recorded in the manifest); ``replay_forfeits``: play the games that were
    forfeited in earlier invocations again (the others are kept)."""
    t0 = time.perf_counter()
    store = RunDir(Path(out_dir).expanduser() if out_dir else cfg.default_output_dir())
    check_target(store.path)
    with store.locked():
        return _run_locked(cfg, store, t0, config_file, progress, bots, scorers,
                           allow_failures_change, replay_forfeits)


def _run_locked(cfg: TournamentConfig, store: RunDir, t0: float, config_file: str | None,
                progress: Progress | Reporter | None, bots: dict[str, Bot] | None,
                scorers: Sequence[Scorer] | None, allow_failures_change: bool,
                replay_forfeits: bool) -> RunSummary:
    rep = progress if isinstance(progress, Reporter) else Reporter.off()
    progress = None if isinstance(progress, Reporter) else progress
    stored = StoredSetup(store.path)  # the stored config.yaml, read once if at all
    league = plan_league(store, cfg, stored)
    keep_retired = cfg.schedule.retired == "keep"
    schedule = league.active_games(cfg)
    have, results = store.transcripts(), store.results()
    manifest = _prepare(cfg, store, config_file, league.all_games(cfg), have, results,
                        allow_failures_change, league, stored)
    store.repair_results(results)  # drop the lines results() did not trust (warned)
    ranked = league.ranked_games(cfg, keep_retired, list(have))
    rounds = make_rounds(cfg.schedule.method, cfg.schedule.games, schedule, cfg.seed)
    total = len(ranked) - len(schedule) + rounds.total  # a budget plays part of the schedule
    manifest = manifest.replace(expected_games=total)
    replayed: list[str] = []
    if replay_forfeits:
        replayed = sorted(g for g, tr in have.items() if tr.forfeit)
        if replayed:
            manifest = manifest.noted("replay_forfeits", games=replayed)
            store.write_manifest(manifest)
            store.forget_games(set(replayed))
            have = {g: tr for g, tr in have.items() if g not in replayed}
            results = {g: r for g, r in results.items() if g not in replayed}
    todo = rounds.next(set(have), results)
    done_count = [sum(g.game_id in have for g in ranked)]
    if progress:
        progress(done_count[0], total)

    scorer_objs = list(scorers) if scorers is not None else cfg.scoring.build_scorers()
    bind_scorers(store, scorer_objs)  # run-level records (e.g. RUN/judges/) go into the run directory
    rescore = manifest.scoring_fingerprint != cfg.scoring_fingerprint()
    if todo or rescore or any(g.game_id in have and g.game_id not in results for g in ranked):
        # something to score. Endpoints first (seconds), then the scorers' models (maybe a
        # minute), so a dead server or a wrong model name fails before either is waited for
        # and before any bot plays
        # (every bot that may play: a budgeted schedule picks later rounds' pairs as it goes)
        players = {p for g in schedule for p in g.players} if todo else set()
        preflight(cfg, players - set(bots or {}), scorer_objs, rep)
        load_scorers(scorer_objs, rep)
    if rescore:
        manifest = manifest.noted("rescored", old=manifest.scoring_fingerprint,
                                  new=cfg.scoring_fingerprint()
                                  ).replace(scoring_fingerprint=cfg.scoring_fingerprint())
        results = {}
        store.rewrite_results([])
        store.write_config(dump_config(cfg))
    manifest = manifest.replace(scorers={s.name: s.describe() for s in scorer_objs})
    store.write_manifest(manifest)

    scorer = _GameScorer(cfg, store, scorer_objs, results, rep)
    scorer.score([have[g.game_id] for g in ranked if g.game_id in have and g.game_id not in results])

    played = 0
    if todo:
        executor = make_executor(cfg, bots, reporter=rep)  # local or ray: loads the bots
        try:
            described = executor.start(rounds.players(todo))
        except BaseException:
            executor.close()
            raise
        manifest = manifest.replace(bots_described={**(manifest.bots_described or {}), **described})
        store.write_manifest(manifest)
        buffer: list[Transcript] = []
        specs = {b.name: (b.adapter, dict(b.params)) for b in cfg.bots}
        executor.bots, reply_cache = cache_bots(executor.bots, specs, cfg.reply_cache,
                                                store.path, store.warnings.append)
        bar = rep.open_bar("playing", None, unit="turns")  # opened after loading: a fair ETA
        tracker = PlayProgress(bar, todo, cfg.exchanges, done_count[0], total)
        executor.bots = tracker.wrap(executor.bots)

        done_ids = set(have)

        def finished(tr: Transcript) -> None:
            nonlocal played
            done_ids.add(tr.game_id)
            if not cfg.record_timings:
                tr = _without_timings(tr)
            store.save_transcript(tr)
            played += 1
            buffer.append(tr)
            if len(buffer) >= cfg.concurrent_games:
                scorer.score(buffer)
                buffer.clear()
            done_count[0] += 1
            tracker.finished(tr)
            if progress:
                progress(done_count[0], total)

        try:
            batch = todo
            while batch:  # one batch for a round-robin; a round at a time for swiss/adaptive
                executor.play(batch, finished)  # calls finished() one game at a time
                scorer.score(buffer)  # the next round is chosen on every result so far
                buffer.clear()
                batch = rounds.next(done_ids, scorer.results)
                tracker.add(batch)
        finally:
            bar.close()
            executor.close()
            if reply_cache is not None:
                rep.note(f"reply cache: {reply_cache.hits} of {reply_cache.hits + reply_cache.misses}"
                         f" replies reused ({reply_cache.path})")
                reply_cache.close()
            scorer.score(buffer)
            buffer.clear()

    final = [scorer.results[g.game_id] for g in ranked if g.game_id in scorer.results]
    rankings = rank_all(final, league.ranked_bots(keep_retired), cfg.ranking, cfg.seed, total)
    save_rankings(store, rankings)
    forfeits = summarize(final)
    manifest = manifest.noted("ranked", games=len(final),
                              forfeits={f.bot: len(f.games) for f in forfeits})
    store.write_manifest(manifest)
    return RunSummary(store.path, rankings[cfg.ranking.method], rankings, total, played,
                      scorer.count, time.perf_counter() - t0, store.warnings, forfeits, replayed)


def _without_timings(tr: Transcript) -> Transcript:
    return dataclasses.replace(tr, turns=tuple(dataclasses.replace(t, seconds=0.0) for t in tr.turns))


class _GameScorer:
    """Scores finished transcripts in batches and durably records each result."""

    def __init__(self, cfg: TournamentConfig, store: RunDir, scorers: Sequence[Scorer],
                 results: dict[str, GameResult], reporter: Reporter | None = None) -> None:
        self.cfg, self.store, self.scorers = cfg, store, list(scorers)
        self.reporter = reporter or Reporter.off()
        self.results = dict(results)
        self.count = 0

    def score(self, transcripts: Sequence[Transcript]) -> None:
        if not transcripts:
            return
        weights = {s.name: self.cfg.scoring.weight(s.name) for s in self.scorers}
        for game in score_transcripts(transcripts, self.scorers, weights, self.reporter):
            save_game(self.store, game)
            self.results[game.result.game_id] = game.result
            self.count += 1


__all__ = ["RunSummary", "run_tournament"]

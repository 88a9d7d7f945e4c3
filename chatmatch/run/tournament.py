"""Run a tournament end to end: schedule, play, score, rank, all into one run directory
(the stages of :mod:`chatmatch.run.pipeline`).

:func:`run_tournament` takes a :class:`~chatmatch.run.plan.RunPlan` (the league, its rounds
and the config dump, made once before the run directory is locked) through four stages,
the methods of :class:`_Run`:

1. ``prepare`` (resume): the run directory checked against the plan, the manifest written
   or updated (:func:`~chatmatch.run.prepare.prepare`), forfeited games forgotten for ``--replay-forfeits``;
2. ``score_backlog``: endpoints checked, scorers loaded, stored games without a result
   scored (all of them again when the scoring setup changed);
3. ``play``: the executor loads the bots, wraps them in the reply cache and the turn
   counter (its ``wrap`` hook, :class:`~chatmatch.run.playtable.PlayTable`), and plays round after round; each
   finished game is saved and scored at once;
4. ``rank_and_save``: the rankings of every scored game, saved with the manifest.

Resuming is the default: run the same YAML again and finished games are neither replayed
nor re-scored. A run directory made with other bots or another play setup is refused; a
changed scoring setup re-scores the stored transcripts (recorded in the manifest).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from chatmatch.bot import Bot
from chatmatch.config.tournament import TournamentConfig
from chatmatch.executors import make_executor
from chatmatch.play.build import BuiltBots
from chatmatch.play.forfeits import BotForfeits, over_limit, summarize
from chatmatch.play.schedule import ScheduledGame
from chatmatch.progress import Progress, Reporter
from chatmatch.ranking import Ranking
from chatmatch.executors.ray_scoring import RayScoring, needs_driver, start_scoring
from chatmatch.play.fingerprint import stable_hash, scoring_fingerprint
from chatmatch.run.pipeline import bind_scorers, rank_all, save_rankings
from chatmatch.run.league import stored_fingerprint
from chatmatch.run.plan import RunPlan, make_plan
from chatmatch.run.prepare import prepare
from chatmatch.run.resume import changed_files, changed_scorers, schedule_rules
from chatmatch.run.boterrors import bot_errors_to
from chatmatch.run.playtable import GameScorer, PlayTable
from chatmatch.scoring.base import Scorer
from chatmatch.scoring.engine import load_scorers
from chatmatch.runtime.resources import check_cache_env
from chatmatch.scoring.build import build_scorers


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


# -- stage 2, score_backlog: endpoints checked before any model loads ----------------------


def preflight(cfg: TournamentConfig, built: BuiltBots, names: set[str],
              scorers: Sequence[Scorer], rep: Reporter) -> None:
    """Call ``preflight()`` of the bots ``names`` that declare one (``Bot.has_preflight``;
    ``openai-chat``: the server answers and serves the model), built once in ``built``, and
    of the scorers that declare one (``Scorer.has_preflight``: the judges; a local judge's
    check does nothing)."""
    for spec in cfg.bots:
        if spec.name in names:
            bot = built.get(spec.name)
            if bot.has_preflight:
                with rep.step(f"checking bot {spec.name}"):
                    bot.preflight()
    for scorer in scorers:
        if scorer.has_preflight:
            with rep.step(f"checking scorer {scorer.name}"):
                scorer.preflight()


def run_tournament(cfg: TournamentConfig, out_dir: str | Path | None = None, *,
                   config_file: str | None = None, progress: Progress | Reporter | None = None,
                   bots: dict[str, Bot] | None = None, built: BuiltBots | None = None,
                   scorers: Sequence[Scorer] | None = None,
                   allow_failures_change: bool = False,
                   replay_forfeits: bool = False, plan: RunPlan | None = None,
                   debug: bool = False) -> RunSummary:
    """Play, score and rank ``cfg`` into ``out_dir`` (resuming what is there).
    ``allow_failures_change``: accept a resume whose ``failures`` block differs from the
    stored run's (recorded in the manifest); ``replay_forfeits``: play the games that were
    forfeited in earlier invocations again (the others are kept); ``built``: the bots of
    ``cfg`` already built by :func:`~chatmatch.play.build.load_tournament` (else they are
    built here, once each); ``plan``: the
    :func:`~chatmatch.run.plan.make_plan` of ``cfg`` already made by the caller (``chatmatch
    run`` prints its estimate from it), instead of ``out_dir`` and ``config_file``;
    ``progress``: a :class:`~chatmatch.progress.Reporter`, or a callback called as
    ``progress(games_done, games_total)`` at the start and after each game. A bot's
    exceptions are kept in ``RUN/bot_errors.jsonl`` (:mod:`chatmatch.run.boterrors`);
    ``debug``: their tracebacks are printed as well."""
    t0 = time.perf_counter()
    check_cache_env()  # a bad $CHATMATCH_CACHE_DIR: refused before the run directory is made
    if plan is None:
        plan = make_plan(cfg, out_dir, config_file)
    elif plan.cfg is not cfg:
        raise ValueError("run_tournament: the plan was made for another configuration")
    with plan.store.locked():
        plan = plan.current()  # made again if another process ran here meanwhile
        if plan.refused is not None:
            raise plan.refused
        run = _Run(plan, progress, bots, built or BuiltBots(cfg.bots, cfg.runtime), allow_failures_change,
                   replay_forfeits)
        todo = run.prepare()                  # 1. prepare / resume
        try:
            run.score_backlog(todo, scorers)  # 2. score the backlog
            with bot_errors_to(run.store.path, debug=debug):
                run.play(todo)                # 3. play
            run.score_together()              # 3b. canned turns: every game in one call
        finally:
            run.stop_scoring()
        return run.rank_and_save(t0)          # 4. rank and save


class _Run:
    """One invocation of a run, going through the stages: :meth:`prepare` (resume),
    :meth:`score_backlog`, :meth:`play`, :meth:`rank_and_save`."""

    def __init__(self, plan: RunPlan, progress: Progress | Reporter | None,
                 bots: dict[str, Bot] | None, built: BuiltBots, allow_failures_change: bool,
                 replay_forfeits: bool) -> None:
        self.plan, self.cfg, self.store, self.built = plan, plan.cfg, plan.store, built
        self.rep = progress if isinstance(progress, Reporter) else Reporter.off()
        self.progress = None if isinstance(progress, Reporter) else progress
        self.bots, self.allow_failures_change = bots, allow_failures_change
        self.replay_forfeits = replay_forfeits
        self.keep_retired = self.cfg.schedule.retired == "keep"
        self.replayed: list[str] = []
        self.played = 0
        self.remote: RayScoring | None = None

    def prepare(self) -> list[ScheduledGame]:
        """Stage 1, prepare/resume: check the run directory against the plan, write or
        update its manifest, forget forfeits to replay; the games to play first."""
        plan, store = self.plan, self.store
        store.rules = schedule_rules(plan.league.all_games(self.cfg), stored_fingerprint(store, plan.stored),
                                     self.cfg.exchanges)
        self.results = store.results()  # first: what it warns about is not warned again
        self.have = store.transcripts()
        manifest = prepare(plan, self.have, self.results, self.allow_failures_change)
        store.repair_results(self.results)  # drop the lines results() did not trust (warned)
        self.ranked = plan.league.ranked_games(self.cfg, self.keep_retired, list(self.have))
        # a budget plays part of the schedule
        self.total = len(self.ranked) - len(plan.schedule) + plan.total
        self.manifest = manifest.replace(expected_games=self.total)
        if self.replay_forfeits:
            self._forget_forfeits()
        todo = plan.rounds.next(set(self.have), self.results)
        self.done = sum(g.game_id in self.have for g in self.ranked)
        if self.progress:
            self.progress(self.done, self.total)
        return todo

    def _forget_forfeits(self) -> None:
        self.replayed = sorted(g for g, tr in self.have.items() if tr.forfeit)
        if self.replayed:
            self.manifest = self.manifest.noted("replay_forfeits", games=self.replayed)
            self.store.write_manifest(self.manifest)
            self.store.forget_games(set(self.replayed))
            self.have = {g: tr for g, tr in self.have.items() if g not in self.replayed}
            self.results = {g: r for g, r in self.results.items() if g not in self.replayed}

    def score_backlog(self, todo: Sequence[ScheduledGame], scorers: Sequence[Scorer] | None) -> None:
        """Stage 2: load the scorers (endpoints checked first), start scoring again when the
        scoring setup changed, and score the stored games that have no result."""
        cfg, store = self.cfg, self.store
        scorer_objs = list(scorers) if scorers is not None else build_scorers(cfg.scoring, cfg.runtime)
        bind_scorers(store, scorer_objs)  # run-level records (e.g. RUN/judges/) go into the run directory
        changed = changed_scorers(self.manifest.scorers, scorer_objs)
        rescore = self.manifest.scoring_fingerprint != scoring_fingerprint(cfg) or bool(changed)
        if todo or rescore or any(g.game_id in self.have and g.game_id not in self.results
                                  for g in self.ranked):
            # something to score. Endpoints first (seconds), then the scorers' models (maybe a
            # minute), so a dead server or a wrong model name fails before either is waited for
            # and before any bot plays
            # (every bot that may play: a budgeted schedule picks later rounds' pairs as it goes)
            players = {p for g in self.plan.schedule for p in g.players} if todo else set()
            preflight(cfg, self.built, players - set(self.bots or {}), scorer_objs, self.rep)
            self.remote = self._scoring_workers(scorer_objs)
            if self.remote is None:
                load_scorers(scorer_objs, self.rep)
        if rescore:
            self.manifest = self.manifest.noted(
                "rescored", old=self.manifest.scoring_fingerprint, new=scoring_fingerprint(cfg),
                **({"settings_changed": changed} if changed else {})
            ).replace(scoring_fingerprint=scoring_fingerprint(cfg))
            files = changed_files(self.manifest.scorers, scorer_objs)
            settings = [c for c in changed if c not in files]
            if settings and self.results:
                self.rep.note(f"the stored games were scored with other settings of "
                              f"{', '.join(settings)} (a default changed in this version of "
                              f"chatmatch): scoring them again")
            if files and self.results:
                self.rep.note(f"the stored games were scored with another file of "
                              f"{', '.join(files)} (its model file was replaced at the same "
                              f"path): scoring them again, so one ranking has one judge")
            self.results = {}
            store.rewrite_results([])
            store.write_config(self.plan.config_text)
        self.manifest = self.manifest.replace(scorers={s.name: s.describe() for s in scorer_objs})
        store.write_manifest(self.manifest)
        self.scorer = GameScorer(cfg, store, scorer_objs, self.results, self.rep, self.remote)
        backlog = [self.have[g.game_id] for g in self.ranked
                   if g.game_id in self.have and g.game_id not in self.results]
        step = cfg.concurrent_games if self.remote is not None else max(1, len(backlog))
        for i in range(0, len(backlog), step):  # on Ray workers: spread over them
            self.scorer.score(backlog[i:i + step])
        self.scorer.flush()

    def score_together(self) -> None:
        """Stage 3b, with ``scoring.canned`` (the default): a bot's canned turns are found
        across its games, so a game's points depend on the games scored with it. Once play
        ends, when the run's games were not all scored in one call (games played since,
        a resume, a change of scoring settings), score them all again in one call. The
        manifest keeps which games were scored together (``scored together``: a digest of
        their ids)."""
        if not self.cfg.scoring.canned:
            return
        have = self.store.transcripts()
        games = [have[g.game_id] for g in self.ranked if g.game_id in have]
        digest = stable_hash(sorted(g.game_id for g in games))
        done = [h for h in self.manifest.history if h.get("event") == "scored together"]
        if not games or (done and done[-1].get("games_digest") == digest
                         and self.scorer.count == 0  # nothing scored apart in this invocation
                         and all(g.game_id in self.scorer.results for g in games)):
            return
        self.rep.note(f"scoring the {len(games)} games together: a bot's canned turns are "
                      "found across its games (scoring.canned)")
        self.scorer.together(games)
        self.manifest = self.manifest.noted("scored together", games=len(games),
                                            games_digest=digest)
        self.store.write_manifest(self.manifest)

    def _scoring_workers(self, scorers: Sequence[Scorer]) -> RayScoring | None:
        """Ray scoring workers when ``executor: ray`` asks for them (``ray.scorers``)."""
        cfg = self.cfg
        if cfg.executor != "ray" or cfg.ray.scorers == 0:
            return None
        if needs_driver(scorers):
            self.rep.note("scoring in the driver: a judge keeps its records in the run directory")
            return None
        return start_scoring(cfg.scoring, cfg.ray, cfg.ray.scorers, scorers, self.rep)

    def stop_scoring(self) -> None:
        """Stop the Ray scoring workers, if any (every game they were sent is recorded)."""
        if self.remote is not None:
            self.remote.close()
            self.remote = None

    def play(self, todo: list[ScheduledGame]) -> None:
        """Stage 3: play ``todo`` (and the rounds a budgeted schedule picks after it), each
        game saved and scored as it ends; the reply cache and the turn counter wrap the bots
        through the executor's ``wrap`` hook."""
        if not todo:
            return
        table = PlayTable(self.cfg, self.store, self.rep, self.scorer, todo, set(self.have),
                          self.done, self.total, self.progress)
        executor = make_executor(self.cfg, self.bots, built=self.built, reporter=self.rep,
                                 wrap=table.wrap)
        try:
            described = executor.start(self.plan.rounds.players(todo))
            self.manifest = self.manifest.replace(
                bots_described={**(self.manifest.bots_described or {}), **described})
            self.store.write_manifest(self.manifest)
            batch = todo
            while batch:  # one batch for a round-robin; a round at a time for swiss/adaptive
                executor.play(batch, table.finished)  # calls finished() one game at a time
                table.score_buffer()  # the next round is chosen on every result so far
                batch = self.plan.rounds.next(table.done_ids, self.scorer.results)
                table.tracking().add(batch)
        finally:
            table.close(executor)
            self.played = table.played

    def rank_and_save(self, t0: float) -> RunSummary:
        """Stage 4: rank every scored game of the schedule and save the rankings."""
        cfg, store, results = self.cfg, self.store, self.scorer.results
        final = [results[g.game_id] for g in self.ranked if g.game_id in results]
        rankings = rank_all(final, self.plan.league.ranked_bots(self.keep_retired), cfg.ranking,
                            cfg.seed, self.total)
        save_rankings(store, rankings)
        forfeits = summarize(final)
        self.manifest = self.manifest.noted("ranked", games=len(final),
                                            forfeits={f.bot: len(f.games) for f in forfeits})
        store.write_manifest(self.manifest)
        return RunSummary(store.path, rankings[cfg.ranking.method], rankings, self.total,
                          self.played, self.scorer.count, time.perf_counter() - t0,
                          store.warnings, forfeits, self.replayed)


__all__ = ["RunSummary", "run_tournament"]

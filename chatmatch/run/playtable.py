"""Where the games of a run's play stage end (:meth:`chatmatch.run.tournament._Run.play`).

:class:`PlayTable` is the executor's ``wrap`` hook (the reply cache and the turn counter
around the loaded bots, :data:`chatmatch.executors.Wrap`) and its ``on_finished``
callback: each finished game is saved at once, scored in batches of ``concurrent_games``
by :class:`GameScorer`, and counted on the progress bar.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from chatmatch.bot import Bot
from chatmatch.config.tournament import TournamentConfig
from chatmatch.executors import Executor
from chatmatch.play.progress import PlayProgress
from chatmatch.play.reply_cache import ReplyCache, cache_bots
from chatmatch.run.migrations import older_reply_identities
from chatmatch.play.schedule import ScheduledGame
from chatmatch.progress import Bar, Progress, Reporter
from chatmatch.records import GameResult
from chatmatch.executors.ray_scoring import RayScoring
from chatmatch.executors.thread_scoring import ThreadScoring
from chatmatch.play.fingerprint import scoring_fingerprint
from chatmatch.records import DimensionScore
from chatmatch.run.pipeline import ScoredGame, playable, save_game, score_transcripts
from chatmatch.rundir.store import RunDir
from chatmatch.scoring.base import Scorer
from chatmatch.transcript import Transcript


class GameScorer:
    """Scores finished transcripts in batches and durably records each result: here, or
    on Ray scoring workers (``remote``: a batch is sent and this returns; its results are
    recorded, in the order sent, as they come back and at :meth:`flush`)."""

    def __init__(self, cfg: TournamentConfig, store: RunDir, scorers: Sequence[Scorer],
                 results: dict[str, GameResult], reporter: Reporter | None = None,
                 remote: RayScoring | None = None) -> None:
        self.cfg, self.store, self.scorers = cfg, store, list(scorers)
        self.reporter = reporter or Reporter.off()
        self.results = dict(results)
        self.count = 0
        self.remote: RayScoring | ThreadScoring | None = remote
        self.weights = {s.name: cfg.scoring.weight(s.name) for s in self.scorers}
        self.fingerprint = scoring_fingerprint(cfg)

    def beside_play(self) -> None:
        """From now on, score in a thread beside play (unless on Ray workers already)."""
        if self.remote is None:
            self.remote = ThreadScoring(self.scorers)

    def in_line(self) -> None:
        """Wait for the scoring thread's chunks, record them and stop it."""
        if isinstance(self.remote, ThreadScoring):
            try:
                self.flush()
            finally:
                self.remote.close()
                self.remote = None

    def score(self, transcripts: Sequence[Transcript]) -> None:
        if not transcripts:
            return
        if self.remote is None:
            self._save(score_transcripts(transcripts, self.scorers, self.weights, self.reporter))
            return
        self.remote.submit(playable(transcripts), list(transcripts))
        self._record(self.remote.ready())

    def together(self, transcripts: Sequence[Transcript]) -> None:
        """Score ``transcripts`` again in one call (on Ray: one chunk, one worker) and
        record them in place of their earlier results: ``scoring.canned`` finds a bot's
        canned turns across the games scored together. The score records are written
        first, the results file is then rewritten whole (a kill between leaves results
        whose records no longer match: a resume scores those games again)."""
        self.flush()
        if self.remote is None:
            scored = score_transcripts(transcripts, self.scorers, self.weights, self.reporter)
        else:
            self.remote.submit(playable(transcripts), list(transcripts))
            scored = [g for games, dims in self.remote.drain()
                      for g in score_transcripts(games, self.scorers, self.weights, dims=dims)]
        digests: dict[str, str | None] = {}
        for game in scored:
            made_from = self.store.transcript_digest(game.record.game_id)
            digests[game.record.game_id] = self.store.save_scores(dataclasses.replace(
                game.record, transcript_sha256=made_from, scoring_fingerprint=self.fingerprint))
            self.results[game.result.game_id] = game.result
        self.store.rewrite_results([g.result for g in scored], digests)

    def flush(self) -> None:
        """Wait for the batches sent to the scoring workers and record their results."""
        if self.remote is not None:
            self._record(self.remote.drain())

    def _record(self, chunks: Sequence[tuple[list[Transcript], Sequence[dict[str, DimensionScore]]]]) -> None:
        for games, dims in chunks:
            self._save(score_transcripts(games, self.scorers, self.weights, dims=dims))

    def _save(self, games: Sequence[ScoredGame]) -> None:
        for game in games:
            save_game(self.store, game, scoring_fingerprint=self.fingerprint)
            self.results[game.result.game_id] = game.result
            self.count += 1


class PlayTable:
    """The play stage's wiring for ``todo``: :meth:`wrap`, :meth:`finished`, :meth:`close`.
    ``done_ids``: the games stored so far (finished ones are added); ``done``/``total``:
    the games counter given to ``progress`` after each game."""

    def __init__(self, cfg: TournamentConfig, store: RunDir, rep: Reporter, scorer: GameScorer,
                 todo: Sequence[ScheduledGame], done_ids: set[str], done: int, total: int,
                 progress: Progress | None) -> None:
        self.cfg, self.store, self.rep, self.scorer, self.todo = cfg, store, rep, scorer, todo
        self.done_ids, self.done, self.total, self.progress = done_ids, done, total, progress
        self.buffer: list[Transcript] = []
        self.played = 0
        self.cache: ReplyCache | None = None
        self.bar: Bar | None = None
        self.tracker: PlayProgress | None = None

    def wrap(self, bots: dict[str, Bot]) -> dict[str, Bot]:
        """The executor's hook: ``bots`` behind the reply cache, then the turn counter."""
        specs = {b.name: (b.adapter, dict(b.params)) for b in self.cfg.bots}
        cached, self.cache = cache_bots(bots, specs, self.cfg.reply_cache, self.store.path,
                                        self.store.warnings.append,
                                        older_reply_identities(bots, specs))
        self.scorer.beside_play()  # scoring takes the other core while the bots play
        self.bar = self.rep.open_bar("playing", None, unit="turns")  # after loading: a fair ETA
        self.tracker = PlayProgress(self.bar, self.todo, self.cfg.exchanges, self.done, self.total)
        return self.tracker.wrap(cached)

    def tracking(self) -> PlayProgress:
        if self.tracker is None:
            raise RuntimeError("the executor played before calling its wrap hook")
        return self.tracker

    def finished(self, tr: Transcript) -> None:
        """The executor's ``on_finished``: save, score a full batch, count."""
        self.done_ids.add(tr.game_id)
        if not self.cfg.record_timings:
            tr = without_timings(tr)
        self.store.save_transcript(tr)
        self.played += 1
        self.buffer.append(tr)
        if len(self.buffer) >= self.cfg.concurrent_games:
            self.scorer.score(self.buffer)  # on Ray workers: sent, and play goes on
            self.buffer = []
        self.done += 1
        self.tracking().finished(tr)
        if self.progress:
            self.progress(self.done, self.total)

    def score_buffer(self) -> None:
        """Score the games held back, and wait until every finished game is recorded."""
        self.scorer.score(self.buffer)
        self.buffer = []
        self.scorer.flush()

    def close(self, executor: Executor) -> None:
        """After play, even when it failed: the bar, the bots, the cache, the last batch."""
        if self.bar is not None:
            self.bar.close()
        executor.close()
        if self.cache is not None:
            self.rep.note(f"reply cache: {self.cache.hits} of "
                          f"{self.cache.hits + self.cache.misses} replies reused ({self.cache.path})")
            self.cache.close()
        try:
            self.score_buffer()
        finally:
            self.scorer.in_line()


def without_timings(tr: Transcript) -> Transcript:
    return dataclasses.replace(tr, turns=tuple(dataclasses.replace(t, seconds=0.0) for t in tr.turns))


__all__ = ["GameScorer", "PlayTable", "without_timings"]

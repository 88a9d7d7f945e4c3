"""The stages of a scored run: prepare -> play -> score -> rank -> save.

``chatmatch run`` (:mod:`chatmatch.run.tournament`) prepares a run directory, plays the schedule and
scores and saves the games batch by batch as they finish; ``chatmatch score``
(:mod:`chatmatch.run.scorelogs`) has its games already and saves a run directory only with
``--out``. Both score with :func:`score_transcripts`, save a game with :func:`save_game`,
rank with :func:`rank_all` and save the rankings with :func:`save_rankings`, so a run
directory holds the same records whichever command wrote it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping, Sequence

from chatmatch.progress import Reporter
from chatmatch.ranking import Ranking, RankingConfig, rank
from chatmatch.records import DimensionScore, GameResult, ScoreRecord
from chatmatch.rundir.store import RunDir
from chatmatch.scoring.base import Scorer
from chatmatch.scoring.engine import score_games
from chatmatch.scoring.points import forfeit_result, result_from_scores
from chatmatch.transcript import Transcript


@dataclass(frozen=True)
class ScoredGame:
    """A game after the score stage: its verdict and the record of how it was reached."""

    transcript: Transcript
    result: GameResult
    record: ScoreRecord


def playable(transcripts: Sequence[Transcript], forfeits: bool = True) -> list[Transcript]:
    """The games that are scored (with ``forfeits``, the forfeited ones are not)."""
    return [t for t in transcripts if not (forfeits and t.forfeit)]


def score_transcripts(transcripts: Sequence[Transcript], scorers: Sequence[Scorer],
                      weights: Mapping[str, float],
                      reporter: Reporter | None = None, *,
                      forfeits: bool = True,
                      dims: Sequence[dict[str, DimensionScore]] | None = None) -> list[ScoredGame]:
    """Score games; with ``forfeits``, a forfeited game is lost by the bot that forfeited,
    unscored (``chatmatch score`` scores every log as it is). The score record keeps where
    an imported log came from (``meta["source"]``). ``dims``: the scores of the
    :func:`playable` games, already computed (by Ray scoring workers)."""
    hib = {s.name: s.higher_is_better for s in scorers}
    games = playable(transcripts, forfeits)
    if dims is None:
        dims = score_games(games, scorers, reporter=reporter) if games else []
    per_game = iter(dims)
    out = []
    for tr in transcripts:
        if forfeits and tr.forfeit is not None:
            res = forfeit_result(tr.game_id, tr.players, tr.forfeit.bot, tr.forfeit.reason,
                                 hib, weights)
            out.append(ScoredGame(tr, res, ScoreRecord(tr.game_id, forfeit=tr.forfeit)))
            continue
        scores = next(per_game)
        res = result_from_scores(tr.game_id, tr.players, scores, weights)
        source = tr.meta.get("source")
        out.append(ScoredGame(tr, res, ScoreRecord.of(res, scores, None if source is None else str(source))))
    return out


def bind_scorers(store: RunDir, scorers: Sequence[Scorer]) -> None:
    """Give the scorers the run directory for their run-level records (RUN/judges/)."""
    for s in scorers:
        s.bind_run_dir(store.path)


def save_game(store: RunDir, game: ScoredGame, *, transcript: bool = False,
              scoring_fingerprint: str | None = None) -> None:
    """Durably record a scored game: its score record (stamped with the transcript it was
    made from and the run's ``scoring_fingerprint``), then its result line (and its
    transcript first when ``transcript``: the play stage has not saved it)."""
    if transcript:
        store.save_transcript(game.transcript)
    made_from = store.transcript_digest(game.record.game_id)
    digest = store.save_scores(replace(game.record, transcript_sha256=made_from,
                                       scoring_fingerprint=scoring_fingerprint))
    store.append_result(game.result, digest)


def rank_all(results: Sequence[GameResult], bots: Sequence[str], config: RankingConfig,
             seed: int, expected: int | None, methods: Sequence[str] = ()) -> dict[str, Ranking]:
    """Rankings by the configured method, the points table and ``methods``."""
    names = dict.fromkeys([config.method, "points", *methods])
    return {m: rank(results, bots, config, seed, method=m, expected_games=expected) for m in names}


def save_rankings(store: RunDir, rankings: Mapping[str, Ranking]) -> None:
    for name, r in rankings.items():
        store.save_ranking(name, r.to_json(), r.to_csv())

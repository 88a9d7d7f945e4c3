"""Score chat logs made elsewhere (``chatmatch score``): no bot is run.

Every file (or ParlAI episode) is one game between its two speakers; every speaker found
is ranked. With ``out_dir`` the result is a run directory like the one ``chatmatch run``
writes (the same score, rank and save stages of :mod:`chatmatch.run.pipeline`, judge records
included), so ``chatmatch rank``, ``show``, ``report`` and ``analyze`` accept it.

The optional config file holds the ``scoring``, ``ranking`` and ``seed`` sections of a
tournament YAML (:class:`~chatmatch.config.settings.EvalSettings`; a whole tournament YAML is
accepted too, its other keys ignored).
"""

from __future__ import annotations

import dataclasses
import os
import re
import secrets
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import yaml

from chatmatch.config.settings import EvalSettings, RayConfig
from chatmatch.config.settingsfile import load_settings
from chatmatch.config.names import look_alike, look_alike_text
from chatmatch.errors import ChatmatchError, RunDirError, StorageError, TranscriptError
from chatmatch.executors.ray_scoring import needs_driver, start_scoring
from chatmatch.run.importers import load_transcripts
from chatmatch.run.pipeline import (ScoredGame, bind_scorers, rank_all, save_game, save_rankings,
                                score_transcripts)
from chatmatch.progress import Reporter
from chatmatch.ranking import Ranking
from chatmatch.records import GameResult, Manifest
from chatmatch.rundir.store import RunDir, nan_to_none
from chatmatch.scoring.base import Scorer
from chatmatch.scoring.engine import load_scorers
from chatmatch.transcript import Transcript
from chatmatch.scoring.build import build_scorers


#: games a Ray scoring worker is sent at once by ``chatmatch score --executor ray``
RAY_CHUNK = 8
#: what ``chatmatch score --config`` reads: the tournament's settings (the name kept for
#: callers of earlier versions)
ScoreConfig = EvalSettings


def load_score_config(path: str | Path | None, preset: str | None = None) -> EvalSettings:
    """The config file's scoring/ranking/seed sections (a tournament's other keys are
    ignored); ``preset`` (``--preset``) replaces the file's ``preset`` key, and the file's
    explicit keys still win over it (:func:`chatmatch.config.settingsfile.load_settings`)."""
    return load_settings(path, others="ignore", preset=preset)


@dataclass
class ScoredLogs:
    games: list[Transcript]
    results: list[GameResult]
    ranking: Ranking
    speakers: list[str]
    skipped: list[TranscriptError] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        games = [{"file": g.meta.get("file"), "source_id": g.meta.get("source_id"), "game_id": r.game_id,
                  "players": list(g.players), "raw": r.raw, "points": r.points,
                  "total": r.total, "winner": r.winner, "not_applicable": r.not_applicable}
                 for g, r in zip(self.games, self.results)]
        doc: dict[str, Any] = nan_to_none({
            "games": games, "ranking": [row.to_json() for row in self.ranking.rows],
            "method": self.ranking.method, "skipped": [str(e) for e in self.skipped]})
        return doc


#: characters a game id keeps from its source (the id names the files of the game)
_NOT_IN_ID = re.compile(r"[^\w.-]+")


def _named(games: Sequence[Transcript]) -> list[Transcript]:
    """Each game named after its source: a text log ``logs/chat2.txt`` is ``chat2``, a
    ParlAI episode ``NAME-LINE`` (its file's name and line), a chatmatch transcript its own
    game id; characters other than letters, digits, ``.``, ``_`` and ``-`` become ``_``, and
    a name an earlier game took gets ``-2``, ``-3``, ... The file a game came from is kept
    in its ``meta`` (``file``); ``source_id`` is the id as read."""
    taken: set[str] = set()
    out = []
    for g in games:
        base = _NOT_IN_ID.sub("_", Path(g.game_id).name).lstrip(".")[:80] or "game"
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}-{n}"
        taken.add(name)
        out.append(dataclasses.replace(g, game_id=name, meta={**g.meta, "source_id": g.game_id}))
    return out


def score_logs(paths: Sequence[Path], cfg: EvalSettings, *, strict: bool = False,
               out_dir: Path | None = None, reporter: Reporter | None = None,
               ray: RayConfig | None = None) -> ScoredLogs:
    """Score and rank the games in ``paths``; ``reporter`` shows what is about to be scored
    (one line, before the long part starts) and the scoring progress. ``ray``: score on
    ``ray.scorers`` Ray workers (:mod:`chatmatch.executors.ray_scoring`), in chunks of
    :data:`RAY_CHUNK` games."""
    rep = reporter or Reporter.off()
    if out_dir is not None:  # refuse before the long part, not after it
        _check_out_dir(Path(out_dir))
    games, skipped = load_transcripts(list(paths), strict=strict)
    if not games:
        detail = "".join(f"\n  {e}" for e in skipped[:5])
        if len(skipped) > 5:
            detail += f"\n  ... and {len(skipped) - 5} more"
        raise ChatmatchError(f"no game found in {', '.join(map(str, paths))}; give transcript "
                             "files (chatmatch JSON Lines, 'SPEAKER: text' lines, or ParlAI JSON "
                             "Lines) or folders of them" + (f". Could not read:{detail}" if detail else ""))
    games = _named(games)
    speakers = _speakers(games)
    turns = sum(len(g.turns) for g in games)
    rep.note(f"scoring {len(games):,} game(s), {turns:,} turns, between {len(speakers)} "
             f"speaker(s) on {len(cfg.scoring.dimensions)} dimension(s)"
             + (f" ({len(skipped)} file(s) skipped)" if skipped else ""))
    scorers = build_scorers(cfg.scoring, cfg.runtime)
    weights = {s.name: cfg.scoring.weight(s.name) for s in scorers}
    if ray is not None and ray.scorers > 0 and not needs_driver(scorers):
        scored = _score_on_ray(games, cfg, ray, scorers, weights, rep)
    else:
        load_scorers(scorers, rep)
        scored = score_transcripts(games, scorers, weights, rep, forfeits=False)
    results = [g.result for g in scored]
    rankings = rank_all(results, speakers, cfg.ranking, cfg.seed, len(games))
    out = ScoredLogs(games, results, rankings[cfg.ranking.method], speakers, skipped)
    if out_dir is not None:
        _write_run(Path(out_dir), cfg, out, scored, scorers, rankings)
    return out


def _speakers(games: Sequence[Transcript]) -> list[str]:
    """The speakers of ``games``; two spellings of one speaker (:func:`look_alike`), which
    would be ranked twice, are refused naming the log of each."""
    speakers = sorted({p for g in games for p in g.players})
    pair = look_alike(speakers)
    if pair is not None:
        first, other = (next(str(g.meta.get("file", g.game_id)) for g in games if name in g.players)
                        for name in pair)
        raise ChatmatchError(f"{look_alike_text(pair, 'speaker')} in every log: {pair[0]!r} "
                             f"speaks in {first}, {pair[1]!r} in {other}")
    return speakers


def _score_on_ray(games: Sequence[Transcript], cfg: EvalSettings, rc: RayConfig,
                  scorers: Sequence[Scorer], weights: dict[str, float],
                  rep: Reporter) -> list[ScoredGame]:
    """The games scored in chunks on Ray workers, recorded in their order."""
    pool = start_scoring(cfg.scoring, rc, rc.scorers, scorers, rep)
    out: list[ScoredGame] = []
    # canned turns are found across the games scored together: then one chunk, all games
    step = max(1, len(games)) if cfg.scoring.canned else RAY_CHUNK
    try:
        for i in range(0, len(games), step):
            chunk = list(games[i:i + step])
            pool.submit(chunk, chunk)
        with rep.bar(f"scoring on {len(pool.actors)} Ray worker(s)", len(games), unit="games") as bar:
            while pool.pending:
                chunk, dims = pool.next()
                out += score_transcripts(chunk, scorers, weights, forfeits=False, dims=dims)
                bar.advance(len(chunk))
    finally:
        pool.close()
    return out


def _check_out_dir(path: Path) -> None:
    if path.exists() and not path.is_dir():
        raise RunDirError(f"{path}: is a file; give a new --out folder")
    if path.is_dir() and any(path.iterdir()):
        raise RunDirError(f"{path} already exists and is not empty; give a new --out folder")


def _write_run(out_dir: Path, cfg: EvalSettings, scored: ScoredLogs, games: Sequence[ScoredGame],
               scorers: Sequence[Scorer], rankings: dict[str, Ranking]) -> None:
    """The save stage: a run directory of the scored logs, written once scoring is done
    into a hidden folder beside ``out_dir`` and renamed into place whole, so a failed or
    interrupted command leaves no ``--out`` folder and the same command can run again."""
    _check_out_dir(out_dir)
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        partial = out_dir.parent / f".{out_dir.name}.{os.getpid()}.{secrets.token_hex(4)}.partial"
        partial.mkdir()  # as the umask says (not mkdtemp's 0700: colleagues read runs)
    except OSError as exc:
        raise StorageError.from_os_error(exc, out_dir, "create the folder") from None
    try:
        _write_into(RunDir(partial), cfg, scored, games, scorers, rankings)
        _check_out_dir(out_dir)
        os.rename(partial, out_dir)  # replaces an empty folder; nothing else
    except OSError as exc:
        raise StorageError.from_os_error(exc, out_dir, "write the folder") from None
    finally:
        shutil.rmtree(partial, ignore_errors=True)


def _write_into(store: RunDir, cfg: EvalSettings, scored: ScoredLogs, games: Sequence[ScoredGame],
                scorers: Sequence[Scorer], rankings: dict[str, Ranking]) -> None:
    name = f"scored logs ({len(scored.games)} games)"
    # the settings (resolved: the preset is left out) beside the speakers as bots, so that
    # the stored-run reader reads the settings typed (chatmatch.run.storedsetup.StoredSetup)
    config = {"name": name,
              "bots": [{"name": s, "adapter": "imported-log"} for s in scored.speakers],
              **cfg.model_dump(mode="json", exclude={"preset"})}
    store.write_config(yaml.safe_dump(config, sort_keys=False, allow_unicode=True))
    bind_scorers(store, scorers)  # run-level records (the judges' RUN/judges/)
    for game in games:
        save_game(store, game, transcript=True)
    manifest = Manifest(name=name, bots=tuple(scored.speakers),
                        expected_games=len(scored.games), source="chatmatch score",
                        files=tuple(sorted({str(g.meta.get("file")) for g in scored.games})),
                        scorers={s.name: s.describe() for s in scorers})
    store.write_manifest(manifest.noted("scored logs"))
    save_rankings(store, rankings)

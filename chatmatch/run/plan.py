"""The plan of a ``chatmatch run``: what is known before the run directory is locked.

:func:`make_plan` checks the target folder, dumps the configuration, works out the league
(:func:`chatmatch.run.league.plan_league`) and its rounds (:func:`chatmatch.play.pairing.make_rounds`)
once; ``chatmatch run`` prints its estimate from the plan and hands the same plan to
:func:`chatmatch.run.tournament.run_tournament`, whose stages read it instead of computing it again.
Only when another process changed the run directory between planning and locking is the
plan made again (:meth:`RunPlan.current`), so a run acts on what is there when it starts.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from chatmatch.config.tournament import TournamentConfig, dump_config
from chatmatch.errors import ChatmatchError, ConfigError, RunDirError
from chatmatch.run.league import League, plan_league
from chatmatch.play.pairing import Rounds, make_rounds
from chatmatch.play.schedule import ScheduledGame
from chatmatch.run.resume import check_stored_games, check_target
from chatmatch.rundir.resultsfile import check_results_file
from chatmatch.rundir.store import RESULTS, RunDir
from chatmatch.run.storedsetup import StoredSetup
from chatmatch.scoring.build import build_scorers

#: the run-directory files a plan is made from (the league reads both)
_PLANNED_FROM = ("manifest.json", "config.yaml")


@dataclass(frozen=True)
class RunPlan:
    """A run of ``cfg`` into ``path``, worked out before anything is written.

    ``config_text``: the configuration as ``config.yaml`` stores it; ``league``: who plays
    (a league that grew plays only its new games); ``schedule``: the games between active
    bots, of which ``rounds`` picks what to play (a budget plays part of it); ``refused``:
    why the run directory cannot take this configuration, raised by the runner once it
    holds the directory's lock (the estimate is printed first, counted as a new run)."""

    cfg: TournamentConfig
    path: Path
    config_file: str | None
    config_text: str
    league: League
    schedule: tuple[ScheduledGame, ...]
    rounds: Rounds
    refused: ChatmatchError | None
    #: the run directory's stored config.yaml, read once if at all (by the league, then the resume)
    stored: StoredSetup
    #: the state of the _PLANNED_FROM files (None: absent) the plan was made from
    planned_from: tuple[tuple[int, int, int] | None, ...]

    @property
    def config_sha256(self) -> str:
        return hashlib.sha256(self.config_text.encode()).hexdigest()

    @property
    def total(self) -> int:
        """Games the run will have played when done (under a budget: fewer than the
        schedule's)."""
        return self.rounds.total

    @property
    def store(self) -> RunDir:
        return RunDir(self.path)

    def current(self) -> RunPlan:
        """This plan, or a new one when the run directory changed since it was made (another
        process ran there before this one took the lock)."""
        if _snapshot(self.path) == self.planned_from:
            return self
        return _plan(self.cfg, self.path, self.config_file, self.config_text)


def make_plan(cfg: TournamentConfig, out_dir: str | Path | None = None,
              config_file: str | None = None) -> RunPlan:
    """The plan of a run of ``cfg`` into ``out_dir`` (default: ``cfg``'s output folder).
    Raises when the folder is not a run directory (:func:`chatmatch.run.resume.check_target`)."""
    path = Path(out_dir).expanduser() if out_dir else cfg.default_output_dir()
    check_target(path)
    for scorer in build_scorers(cfg.scoring, cfg.runtime):  # a bad model file: refused before any folder is made
        scorer.check_files()
    return _plan(cfg, path, config_file, dump_config(cfg))


def _plan(cfg: TournamentConfig, path: Path, config_file: str | None,
          config_text: str) -> RunPlan:
    seen = _snapshot(path)
    stored = StoredSetup(path)
    refused: ChatmatchError | None = None
    try:
        league = plan_league(RunDir(path), cfg, stored)
    except ChatmatchError as exc:  # counted as a new league until the runner raises it
        league = League(tuple(cfg.bot_names), len(cfg.bots), tuple(cfg.bot_names))
        refused = exc
    if refused is None and stored.tournament is not None and RunDir(path).exists():
        refused = _stored_games_refusal(path, league, cfg)  # a resume of this tournament
    schedule = league.active_games(cfg)
    rounds = make_rounds(cfg.schedule.method, cfg.schedule.games, schedule, cfg.seed)
    try:
        rounds.check_stored(RunDir(path).transcript_ids())
    except ValueError as exc:
        raise ConfigError(str(exc), file=config_file) from None
    return RunPlan(cfg, path, config_file, config_text, league, tuple(schedule), rounds,
                   refused, stored, seen)


def _stored_games_refusal(path: Path, league: League, cfg: TournamentConfig) -> RunDirError | None:
    """Why the stored games make the run refuse the directory (a transcript of another game,
    a score record that is a folder...), known before the estimate is printed: the run
    checks them again under the lock (:func:`chatmatch.run.prepare.prepare`)."""
    try:
        check_results_file(path / RESULTS)
        check_stored_games(RunDir(path), league.all_games(cfg), cfg.exchanges, {}, {})
    except RunDirError as exc:
        return exc
    return None


def _snapshot(path: Path) -> tuple[tuple[int, int, int] | None, ...]:
    """(inode, size, mtime) of each _PLANNED_FROM file: the run directory replaces its files
    whole (write then rename), so a change gives another inode."""
    out: list[tuple[int, int, int] | None] = []
    for name in _PLANNED_FROM:
        try:
            st = (path / name).stat()
        except OSError:
            out.append(None)
        else:
            out.append((st.st_ino, st.st_size, st.st_mtime_ns))
    return tuple(out)


__all__ = ["RunPlan", "make_plan"]

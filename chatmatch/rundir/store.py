"""The run directory: everything needed to re-score, re-rank and re-plot without replaying.

Layout::

    RUN/
      config.yaml            the resolved tournament config (all defaults filled in)
      manifest.json          format, chatmatch version, config fingerprints, bots, scorers, history
      transcripts/GID.jsonl  one file per finished game (written atomically)
      scores/GID.json        per-dimension raw scores and per-turn details of a game
      results.jsonl          one line per scored game: {"record": GameResult, "sha256": ...}
      rankings/METHOD.json   rankings (also .csv)

The records are the typed stage data of :mod:`chatmatch.records` (:class:`Manifest`,
:class:`ScoreRecord`, :class:`GameResult`); :meth:`chatmatch.run.storedrun.Run.load` reads a
run once for every reader (rank, show, report, plot, analyze, compare).

Durability: a transcript or score file is written to a temporary file, fsynced and renamed
into place; a results line is appended and fsynced with a checksum of its record. A run
killed at any moment loses at most the games in flight: on the next start, transcripts
that exist are not replayed, and games with a transcript but no result are scored again.
A torn or corrupted last results line is detected by its checksum and ignored (with a
warning); its game is scored again from its transcript.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from chatmatch import __version__
from chatmatch.common.safeio import read_bounded, read_text_bounded
from chatmatch.errors import RunDirError, StorageError, TranscriptError
# re-exported: writers outside the run directory (report, plots, judges) import them from here
from chatmatch.rundir.atomic import TMP_SUFFIX as TMP_SUFFIX
from chatmatch.rundir.atomic import atomic_write as atomic_write
from chatmatch.rundir.atomic import not_a_file, open_append
from chatmatch.records import GameResult, Manifest, ScoreRecord
from chatmatch.rundir.integrity import (Header, RunRules, cross_check_results, game_problem,
                                        in_the_way, read_header, refuses, stray_transcripts)
from chatmatch.rundir.leaguerecord import league_digest, league_problem
from chatmatch.rundir.resultsfile import dumps as dumps  # re-exported: readers import them from here
from chatmatch.rundir.resultsfile import read_result_lines, result_line
from chatmatch.rundir.shape import Shape
from chatmatch.records import nan_to_none as nan_to_none  # re-exported (scorelogs)
from chatmatch.transcript import MAX_TURN_CHARS, Transcript

MANIFEST = "manifest.json"
#: the run directory format this version writes (the manifest's ``format``); an older one is
#: upgraded on read by :mod:`chatmatch.run.migrations`, a newer one is refused there
FORMAT = 3
RESULTS = "results.jsonl"
LOCK = ".lock"


#: files and folders a run directory may hold; a folder holding anything else (and no
#: manifest) is not a run directory, and chatmatch refuses to write into it
RUN_ENTRIES = frozenset({"manifest.json", "bot_errors.jsonl", "config.yaml", "transcripts", "scores", "rankings",
                         "results.jsonl", ".lock", "judges", "plots", "report.html",
                         # the reply cache (chatmatch/play/reply_cache.py) and SQLite's journal files
                         "reply_cache.sqlite", "reply_cache.sqlite-wal", "reply_cache.sqlite-shm",
                         "reply_cache.sqlite.corrupt",
                         # the judgements of `chatmatch annotate` (chatmatch/annotate/store.py)
                         "annotations.sqlite", "annotations.sqlite-wal", "annotations.sqlite-shm"})
#: what each entry must be (a folder or a file)
_FOLDERS = ("transcripts", "scores", "rankings")
#: a turn time in a transcript line, as Transcript.to_jsonl writes it
_SECONDS = re.compile(rb'"seconds": ?-?[0-9.eE+-]+')
_FILES = ("manifest.json", "config.yaml", "results.jsonl", ".lock")


def _scored_logs_config(path: Path) -> bool:
    """Whether ``path`` is the config.yaml ``chatmatch score --out`` writes (its speakers
    are bots of the ``imported-log`` adapter), not a tournament file's copy."""
    try:
        return path.is_file() and "adapter: imported-log" in read_text_bounded(path)
    except (OSError, UnicodeDecodeError):
        return False


def _ends_with_newline(path: Path) -> bool:
    with open(path, "rb") as fh:
        fh.seek(-1, os.SEEK_END)
        return fh.read(1) == b"\n"


#: (key, accepted types, in words) of the manifest entries chatmatch reads
_MANIFEST_TYPES: tuple[tuple[str, tuple[type, ...], str], ...] = (
    ("bots", (list,), "a list of bot names"),
    ("bots_described", (dict,), "a JSON object (bot name -> description)"),
    ("scorers", (dict,), "a JSON object"),
    ("history", (list,), "a list of events"),
    ("expected_games", (int,), "a whole number"),
    ("play_fingerprint", (str,), "a string"),
    ("scoring_fingerprint", (str,), "a string"),
    ("config_sha256", (str,), "a string"),
    ("config_file", (str,), "a string"),
    ("source", (str,), "a string"),
    ("files", (list,), "a list of file names"),
    ("format", (int,), "a whole number"),
    ("league_sha256", (str,), "a string"),
)


@dataclass
class RunDir:
    path: Path
    warnings: list[str] = field(default_factory=list)
    #: result lines the last :meth:`results` ignored (damaged or untrusted): a resume
    #: writes the file back without them
    ignored_lines: int = 0
    #: what this run's games must match (scoring setup, schedule): set by the reader
    #: (:meth:`chatmatch.run.storedrun.Run.load`) or the resume that knows them
    rules: RunRules = field(default_factory=RunRules)
    #: the ``scores_sha256`` of the trusted lines (kept when the file is written back)
    _digests: dict[str, str | None] = field(default_factory=dict, repr=False)
    #: transcript headers read by the last :meth:`results`
    _headers: dict[str, Header] = field(default_factory=dict, repr=False)
    #: transcript shapes read by the last :meth:`results` (None: unreadable)
    _shapes: dict[str, Shape | None] = field(default_factory=dict, repr=False)
    #: the games the last :meth:`results` warned about (not warned about again)
    _warned: set[str] = field(default_factory=set, repr=False)
    #: the stored files for which the last :meth:`results` found that ``chatmatch run``
    #: refuses the directory (``scores/g001.json``; the footer names them:
    #: :func:`chatmatch.rundir.integrity.unfinished`)
    refusing: list[str] = field(default_factory=list)

    # --- paths ---------------------------------------------------------------------------
    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    def transcript_path(self, game_id: str) -> Path:
        return self.path / "transcripts" / f"{game_id}.jsonl"

    def scores_path(self, game_id: str) -> Path:
        return self.path / "scores" / f"{game_id}.json"

    # --- manifest ------------------------------------------------------------------------
    def exists(self) -> bool:
        return self.manifest_path.exists()

    def read_manifest(self) -> Manifest:
        if not self.exists():
            give = "give the folder that `chatmatch run` or `chatmatch score --out` wrote"
            if not self.path.exists():
                raise RunDirError(f"{self.path}: not a chatmatch run directory (no such folder); {give}")
            if _scored_logs_config(self.path / "config.yaml"):
                raise RunDirError(f"{self.path}: an unfinished `chatmatch score --out` folder (no "
                                  f"{MANIFEST}: the command stopped while writing it); delete "
                                  "the folder and run that `chatmatch score` command again")
            if (self.path / "config.yaml").is_file():
                raise RunDirError(f"{self.path}: not a chatmatch run directory (no {MANIFEST}); if "
                                  "it is a run whose manifest was deleted, `chatmatch run` on its "
                                  "tournament file rebuilds it and checks every stored game")
            raise RunDirError(f"{self.path}: not a chatmatch run directory (no {MANIFEST}); {give}")
        fix = ("; delete it and run the same `chatmatch run` command again: the manifest is "
               "rebuilt from config.yaml and every stored game is checked and scored again")
        try:
            data = json.loads(read_text_bounded(self.manifest_path))
        except IsADirectoryError:
            raise RunDirError(f"{self.manifest_path}: is a folder, not the run's manifest file; "
                              "move it away") from None
        except OSError as exc:
            raise StorageError.from_os_error(exc, self.manifest_path, "read") from None
        except ValueError as exc:
            raise RunDirError(f"{self.manifest_path}: unreadable manifest ({exc}){fix}") from None
        if not isinstance(data, dict):
            raise RunDirError(f"{self.manifest_path}: manifest must be a JSON object{fix}")
        for key, kinds, what in _MANIFEST_TYPES:
            if key in data and data[key] is not None and not isinstance(data[key], kinds):
                raise RunDirError(f"{self.manifest_path}: '{key}' must be {what}, got "
                                  f"{type(data[key]).__name__}{fix}")
        bots = data.get("bots")
        if isinstance(bots, list) and not all(isinstance(b, str) for b in bots):
            raise RunDirError(f"{self.manifest_path}: 'bots' must be a list of names{fix}")
        manifest = Manifest.from_json(data)
        problem = league_problem(manifest, FORMAT)
        if problem is not None:
            raise RunDirError(f"{self.manifest_path}: {problem}")
        return manifest

    def write_manifest(self, manifest: Manifest) -> None:
        """Write ``manifest`` in the current :data:`FORMAT` (an older directory's manifest is
        upgraded when it is read for a run: :mod:`chatmatch.run.migrations`)."""
        data = {**manifest.to_json(), "format": FORMAT, "chatmatch_version": __version__}
        if manifest.is_tournament:  # what the schedule is built on, so a hand edit is caught
            data["league_sha256"] = league_digest(manifest)
        atomic_write(self.manifest_path, json.dumps(nan_to_none(data), indent=2, sort_keys=True) + "\n",
                     own=True)

    def write_config(self, yaml_text: str) -> None:
        atomic_write(self.path / "config.yaml", yaml_text, own=True)

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold ``RUN/.lock`` while a run writes here, so a second process on the same
        directory is refused instead of playing the same games. The OS drops the lock when
        the process ends, even by SIGKILL. Stale temporary files of killed runs are removed."""
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError.from_os_error(exc, self.path, "create the run directory") from None
        self.check_layout()
        with open_append(self.path / LOCK) as fh:
            try:
                import fcntl
            except ImportError:  # no advisory locks (Windows): run unlocked
                fcntl = None  # type: ignore[assignment]
            if fcntl is not None:
                try:
                    fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    raise RunDirError(f"{self.path} is in use by another chatmatch process; wait "
                                      "for it to finish (or stop it), or use another --out") from None
            for sub in ("", "transcripts", "scores", "rankings"):
                for tmp in (self.path / sub).glob(f".*{TMP_SUFFIX}"):
                    try:
                        tmp.unlink(missing_ok=True)
                    except OSError:
                        pass  # read-only: the write that follows says so
            yield

    def check_layout(self) -> None:
        """Refuse a run directory whose entries have the wrong kind (a file named
        ``transcripts``, a folder named ``results.jsonl``, ...), before anything is written."""
        for name in _FOLDERS:
            p = self.path / name
            if p.exists() and not p.is_dir():
                raise RunDirError(f"{p}: must be a folder of the run, but is a file; move it "
                                  "away (or choose another --out)")
        for name in _FILES:
            p = self.path / name
            if p.is_dir():
                raise RunDirError(f"{p}: must be a file of the run, but is a folder; move it "
                                  "away (or choose another --out)")

    # --- transcripts ---------------------------------------------------------------------
    def save_transcript(self, tr: Transcript) -> None:
        atomic_write(self.transcript_path(tr.game_id), tr.to_jsonl(), own=True)

    def transcript_digest(self, game_id: str) -> str | None:
        """The sha256 of ``transcripts/GID.jsonl`` as stored but for its turn times (the
        ``seconds`` fields, which no score depends on and which differ between two runs of
        the same games); None when it cannot be read."""
        try:
            data = read_bounded(self.transcript_path(game_id))
        except OSError:
            return None
        return hashlib.sha256(_SECONDS.sub(b'"seconds": 0', data)).hexdigest()

    def transcript_header(self, game_id: str) -> Header:
        """The header of ``transcripts/GID.jsonl`` (read once per :meth:`results`), with
        why it cannot be used (missing, not a regular file, unreadable)."""
        if game_id not in self._headers:
            self._headers[game_id] = read_header(self.transcript_path(game_id), game_id)
        return self._headers[game_id]

    def transcript_shape(self, game_id: str) -> Shape | None:
        """The shape of ``transcripts/GID.jsonl`` (read once per :meth:`results`); None when
        it cannot be read as a transcript."""
        if game_id not in self._shapes:
            tr = self._read_transcript(self.transcript_path(game_id))
            self._shapes[game_id] = None if isinstance(tr, str) else Shape.of(tr)
        return self._shapes[game_id]

    def transcript_problem(self, game_id: str) -> str | None:
        """Why ``transcripts/GID.jsonl`` cannot be read as a transcript (None: it can)."""
        got = self._read_transcript(self.transcript_path(game_id))
        return got if isinstance(got, str) else None

    def transcript_ids(self) -> set[str]:
        """The game ids that have a transcript file (not read; none when the folder is
        missing or unreadable)."""
        try:
            return {f.stem for f in (self.path / "transcripts").glob("*.jsonl")}
        except OSError:
            return set()

    def transcripts(self) -> dict[str, Transcript]:
        out: dict[str, Transcript] = {}
        folder = self.path / "transcripts"
        for f in sorted(folder.glob("*.jsonl")) if folder.exists() else []:
            head = read_header(f, f.stem)
            if head.special or head.holds is not None:
                continue  # not a regular file, or another game's: results() warns, run refuses
            tr = self._read_transcript(f)
            if isinstance(tr, str):
                if f.stem not in self._warned:  # else :meth:`results` said it, and what run does
                    self.warnings.append(f"skipped unreadable transcript {f}: {tr}")
                continue
            out[tr.game_id] = tr
        return out

    @staticmethod
    def _read_transcript(f: Path) -> Transcript | str:
        """The transcript in ``f``, or why it cannot be read."""
        try:
            tr = Transcript.from_jsonl(read_text_bounded(f), file=str(f))
            long = next((t for t in tr.turns if len(t.text) > MAX_TURN_CHARS), None)
            if long is not None:  # an edited file: the scorers cannot take it
                raise TranscriptError(f"turn {long.index} has {len(long.text):,} characters, "
                                      f"more than {MAX_TURN_CHARS:,}", file=str(f))
        except (TranscriptError, UnicodeDecodeError, OSError, RecursionError) as exc:
            return str(exc)
        return tr

    # --- scores and results --------------------------------------------------------------
    def save_scores(self, record: ScoreRecord) -> str:
        """Write the game's score record; return the sha256 of the file (its result line
        records it, so that a load can tell the two belong together without parsing)."""
        text = dumps(record.to_json()) + "\n"
        atomic_write(self.scores_path(record.game_id), text, own=True)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def scores_kind(self, game_id: str) -> str | None:
        """What ``scores/GID.json`` is when it exists but is not a regular file (a folder,
        a link, a named pipe, a device); None otherwise."""
        path = self.scores_path(game_id)
        return "a folder" if path.is_dir() and not path.is_symlink() else not_a_file(path)

    def scores_digest(self, game_id: str) -> str | None:
        """The sha256 of ``scores/GID.json`` as stored, None when it cannot be read."""
        try:
            return hashlib.sha256(read_bounded(self.scores_path(game_id))).hexdigest()
        except OSError:
            return None

    def load_scores(self, game_id: str) -> ScoreRecord | None:
        """The game's score record; None when it is missing or unreadable (a reader then
        shows the game without per-turn details)."""
        p = self.scores_path(game_id)
        if not p.exists():
            return None
        try:
            data = json.loads(read_text_bounded(p))
            return ScoreRecord.from_json(data) if isinstance(data, dict) else None
        except (OSError, ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError):
            return None

    def append_result(self, result: GameResult, scores_sha256: str | None = None) -> None:
        """Append the game's result line; ``scores_sha256``: the digest :meth:`save_scores`
        returned for the score record written with it."""
        line = result_line(result, scores_sha256)
        path = self.path / RESULTS
        # a run killed mid-append may leave a torn last line: end it, or the new record
        # would be glued to it and lost as well
        try:
            torn = path.exists() and path.stat().st_size > 0 and not _ends_with_newline(path)
            with open_append(path) as fh:
                fh.write(("\n" if torn else "") + line + "\n")
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:
            raise StorageError.from_os_error(exc, path) from None

    def rewrite_results(self, results: list[GameResult],
                        digests: dict[str, str | None] | None = None) -> None:
        lines = [result_line(r, (digests or {}).get(r.game_id)) for r in results]
        atomic_write(self.path / RESULTS, "".join(x + "\n" for x in lines), own=True)

    def forget_games(self, game_ids: set[str]) -> None:
        """Drop games so that they are played again. Their result lines go first: a run
        killed halfway still finds the transcripts and scores them as before."""
        self.rewrite_results([r for r in self._iter_results() if r.game_id not in game_ids])
        for gid in sorted(game_ids):
            self.scores_path(gid).unlink(missing_ok=True)
            self.transcript_path(gid).unlink(missing_ok=True)

    def _iter_results(self) -> Iterator[GameResult]:
        for _, r, _ in self._iter_numbered_results():
            yield r

    def _iter_numbered_results(self) -> Iterator[tuple[int, GameResult, str | None]]:
        """(line number, result, ``scores_sha256``) of every undamaged line; damaged lines
        are counted in :attr:`ignored_lines`, each with a warning."""
        lines, warnings = read_result_lines(self.path / RESULTS)
        self.warnings.extend(warnings)
        self.ignored_lines += len(warnings)
        yield from lines

    def results(self) -> dict[str, GameResult]:
        """Scored games by id that the run can trust (the last trusted record of a game
        wins): undamaged lines that agree with the game's transcript and score record
        (:func:`chatmatch.rundir.integrity.cross_check_results`); the others are counted in
        :attr:`ignored_lines`, each with a warning."""
        self.ignored_lines = 0
        self._headers, self._shapes = {}, {}
        lines = list(self._iter_numbered_results())
        trusted, kept, warnings = cross_check_results(lines, self, self.rules)
        keep = set(kept)
        self._digests = {res.game_id: digest for n, res, digest in lines if n in keep}
        strays = stray_transcripts(self.transcript_ids(), self, self.rules,
                                   {res.game_id for _, res, _ in lines})
        self.warnings.extend(warnings + [w for _, w in strays])
        self._warned = {res.game_id for n, res, _ in lines if n not in keep} | {g for g, _ in strays}
        self.refusing = sorted(in_the_way(g, bad[1]) for g in self._warned
                               if (bad := game_problem(g, self, self.rules)) is not None
                               and refuses(bad[1]))
        self.ignored_lines += len(lines) - len(kept)  # untrusted, and older lines of a game
        return trusted

    def repair_results(self, results: dict[str, GameResult]) -> None:
        """Write ``results.jsonl`` back with only ``results`` (in their order) when the
        last :meth:`results` ignored lines (a resume does this under the run's lock)."""
        if self.ignored_lines:
            self.rewrite_results(list(results.values()), self._digests)
            self.ignored_lines = 0

    # --- rankings ------------------------------------------------------------------------
    def save_ranking(self, name: str, json_doc: dict[str, Any], csv_text: str) -> None:
        atomic_write(self.path / "rankings" / f"{name}.json",
                     json.dumps(nan_to_none(json_doc), indent=2, sort_keys=False) + "\n", own=True)
        atomic_write(self.path / "rankings" / f"{name}.csv", csv_text, own=True)

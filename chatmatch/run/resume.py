"""What a run directory must be before ``chatmatch run`` writes into it, and what a resume
accepts.

* A folder that is not a run directory (no ``manifest.json``) is used only when it is empty
  (or missing, or holds nothing but what a run writes): ``chatmatch run t.yaml --out .``
  in a folder holding the user's own ``config.yaml`` would otherwise overwrite it.
* A run directory whose ``manifest.json`` was deleted (a user's first idea when it is
  reported corrupt) is recognised by its ``config.yaml`` and ``transcripts/``: the manifest
  is rebuilt when ``config.yaml`` describes the same play setup, and every stored game is
  scored again (the old scores cannot be trusted); another setup is refused.
* Every stored transcript and result must belong to the schedule of the tournament being
  run (same game ids, players and seed utterance), whatever the manifest says.
* The ``failures`` block changes what is played (retries, cut length, empty replies): a
  resume with another one is refused unless explicitly allowed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from chatmatch.common.safeio import read_text_bounded
from chatmatch.config.settings import FailurePolicy
from chatmatch.errors import RunDirError
from chatmatch.play.schedule import ScheduledGame
from chatmatch.records import GameResult
from chatmatch.run.migrations import timeout_got_its_default
from chatmatch.rundir.integrity import (RunRules, Scheduled, game_problem, refuses,
                                         undigested_record_problem)
from chatmatch.rundir.store import LOCK, MANIFEST, RUN_ENTRIES, TMP_SUFFIX, RunDir
from chatmatch.scoring.base import Scorer
from chatmatch.scoring.removed import changed_by_removal, current_params
from chatmatch.transcript import Transcript

#: without a manifest, these decide what a folder is: config.yaml alone may be the user's
#: own file; games without config.yaml cannot be matched to a tournament
_DECISIVE = frozenset({"config.yaml", "transcripts", "results.jsonl"})
_NEW_DIR = "give a new or empty folder with --out (or output_dir)"


def check_target(path: Path) -> None:
    """Refuse a path that cannot become or is not a run directory, before anything
    (even the lock file) is written there."""
    if path.exists() and not path.is_dir():
        raise RunDirError(f"{path}: is a file, not a folder; {_NEW_DIR}")
    if not path.is_dir():
        return
    if (path / MANIFEST).exists():
        _check_manifest_is_ours(path)
        return
    try:
        entries = {e.name for e in path.iterdir()
                   if e.name != LOCK and not (e.name.startswith(".") and e.name.endswith(TMP_SUFFIX))}
    except OSError:
        return  # unreadable: locking or writing says what is wrong
    if entries <= RUN_ENTRIES and (looks_like_run(path, entries) or not entries & _DECISIVE):
        return  # empty, a run that lost its manifest, or leftovers that decide nothing
    shown = ", ".join(sorted(entries)[:3]) + (", ..." if len(entries) > 3 else "")
    raise RunDirError(f"{path}: the folder is not empty ({shown}) and is not a chatmatch run "
                      "directory (no manifest.json); chatmatch writes config.yaml, transcripts/ "
                      f"and more there and would overwrite your files: {_NEW_DIR}")


#: keys only a manifest written by chatmatch has (one of them is enough)
_OUR_KEYS = ("chatmatch_version", "play_fingerprint", "scoring_fingerprint", "history")


def _check_manifest_is_ours(path: Path) -> None:
    """A ``manifest.json`` some other tool wrote (a web app, a dataset) does not make a
    folder a run directory: refuse it before anything (even the lock) is written there."""
    try:
        data = json.loads(read_text_bounded(path / MANIFEST))
    except (OSError, ValueError, RecursionError):
        return  # chatmatch's own damaged manifest: reading the run says what is wrong
    if isinstance(data, dict) and any(k in data for k in _OUR_KEYS):
        return
    raise RunDirError(f"{path}: its {MANIFEST} was not written by chatmatch (none of "
                      f"{', '.join(_OUR_KEYS)}), so the folder is not a chatmatch run directory "
                      f"and is left as it is; {_NEW_DIR}")


def looks_like_run(path: Path, entries: set[str] | None = None) -> bool:
    """A run directory that lost its manifest: config.yaml and transcripts/, and nothing
    a run does not write."""
    if entries is None:
        entries = {e.name for e in path.iterdir()}
    entries = {e for e in entries if not (e.startswith(".") and e.endswith(TMP_SUFFIX))}
    return {"config.yaml", "transcripts"} <= entries and entries <= RUN_ENTRIES


def check_stored_games(store: RunDir, schedule: Sequence[ScheduledGame], exchanges: int,
                       transcripts: Mapping[str, Transcript], results: Mapping[str, GameResult]) -> None:
    """Every stored game must be a game of this schedule, between the same players, from
    the same seed utterance, of the game's shape (``exchanges``), in a regular file: the
    check every reader of the run makes
    (:func:`chatmatch.rundir.integrity.game_problem`), with the same words; a reader
    ignores such a game, ``chatmatch run`` refuses the directory (it never replaces a file
    it cannot place in the schedule, nor a special file)."""
    rules = schedule_rules(schedule, exchanges=exchanges)
    edit = undigested_record_problem(store.read_manifest(), store, rules,
                                     store.transcript_ids()) if store.exists() else None
    if edit is not None:  # the record, not every game, is what changed
        raise RunDirError(f"{store.path}/{edit}")
    for gid in sorted(store.transcript_ids() | set(transcripts) | set(results)):
        bad = game_problem(gid, store, rules)
        if bad is not None and refuses(bad[1]):
            raise RunDirError(f"{store.path}: {bad[0]}; {bad[1]}")


def schedule_rules(schedule: Iterable[ScheduledGame] | None,
                   scoring_fingerprint: str | None = None,
                   exchanges: int | None = None) -> RunRules:
    """The :class:`RunRules` of a run with ``schedule`` (None: not checked), the scoring
    setup ``scoring_fingerprint`` and games of ``exchanges`` exchanges (None: not checked)."""
    games = None if schedule is None else {
        g.game_id: Scheduled(g.players, g.seed_utterance, g.random_seed) for g in schedule}
    return RunRules(scoring_fingerprint, games, None if exchanges is None else 2 * exchanges)


#: ``failures`` keys that change what is reported, not what is played
REPORT_ONLY_FAILURE_KEYS = frozenset({"max_forfeit_share"})


def check_failures(store: RunDir, old: FailurePolicy | None, new: FailurePolicy, played: int,
                   allow: bool, *, as_written: bool = False) -> list[str]:
    """The changed ``failures`` keys; refused when games were played under the old ones
    (unless ``allow``). ``old``: the stored block (None: none stored); ``as_written``:
    compare only the keys the stored file sets (``old.model_fields_set``), a key it lacks
    (a run of a version before that key) counting as None, as resumes always have."""
    if old is None:
        return []
    was = old.model_dump(mode="json", include=old.model_fields_set if as_written else None)
    now = new.model_dump(mode="json")
    changed = sorted(k for k in set(was) | set(now)
                     if k not in REPORT_ONLY_FAILURE_KEYS
                     and was.get(k) != now.get(k)
                     and not timeout_got_its_default(k, was, now))
    if changed and played and not allow:
        what = "; ".join(f"{k} {was.get(k)!r} -> {now.get(k)!r}" for k in changed)
        raise RunDirError(
            f"{store.path}: the 'failures' settings changed ({what}); they change what is played, "
            f"so the {played} stored game(s) and the rest would be played under different rules. "
            "Run with the old settings, start a new run with --out NEW_DIR, or pass "
            "--allow-failures-change to keep the stored games and apply the new settings to the rest.")
    return changed


def changed_scorers(stored: object, scorers: Sequence[Scorer]) -> list[str]:
    """The scorers whose settings, as this version resolves them, or whose files (a
    ``..._sha256`` of their description: the learned judge's model file) differ from those
    the stored scores were made with (the manifest's ``scorers``). The scoring fingerprint
    hashes the tournament file's ``scoring`` section, which stays the same when a default
    changes between versions or a file is replaced at the same path; this catches that. A
    scorer the manifest does not describe is not compared."""
    return [s.name for s in scorers if _why_changed(stored, s)]


def changed_files(stored: object, scorers: Sequence[Scorer]) -> list[str]:
    """Of :func:`changed_scorers`, those whose files changed (settings alike)."""
    return [s.name for s in scorers if _why_changed(stored, s) == "file"]


def _why_changed(stored: object, scorer: Scorer) -> str | None:
    old = stored.get(scorer.name) if isinstance(stored, dict) else None
    if not isinstance(old, dict):
        return None
    now = scorer.describe()
    params = old.get("params")
    if isinstance(params, dict):
        # a key this version removed was recorded by an earlier one: the same scores when it
        # holds the value the key is fixed at now
        if changed_by_removal({scorer.name: params}):
            return "settings"
        params = current_params({scorer.name: params})[scorer.name]
    if "params" in old and _json(params) != _json(now.get("params")):
        return "settings"
    if "params" in old and old.get("rules", "") != now.get("rules", ""):
        return "settings"  # scored under rules this version changed (Scorer.rules)
    if any(k.endswith("_sha256") and k in now and old[k] != now[k] for k in old):
        return "file"
    return None


def _json(obj: object) -> object:
    return json.loads(json.dumps(obj, sort_keys=True, default=str))

"""Stage 1 of a run, prepare/resume (:meth:`chatmatch.run.tournament._Run.prepare`): the run
directory checked against the :class:`~chatmatch.run.plan.RunPlan`, and the manifest to
go on from, written or updated.

A new directory gets a fresh manifest and the config dump; a run directory whose manifest
was deleted is matched to the plan by its ``config.yaml`` (and every game scored again); a
stored run is resumed when it is the plan's (its manifest read in the current format by
:mod:`chatmatch.run.migrations`; a league that added or retired bots is regrouped, a changed
config is noted with the keys that changed), else refused saying what changed (the stored
setup compared with today's).
"""

from __future__ import annotations

from typing import Any

from chatmatch.config.tournament import TournamentConfig, config_data
from chatmatch.errors import RunDirError
from chatmatch.play.fingerprint import play_fingerprint, scoring_fingerprint
from chatmatch.run.league import change, check_same_name, refusal
from chatmatch.run.migrations import read_manifest
from chatmatch.records import GameResult, Manifest
from chatmatch.run.plan import RunPlan
from chatmatch.run.resume import check_failures, check_stored_games, looks_like_run
from chatmatch.rundir.store import RunDir
from chatmatch.run.storedsetup import StoredSetup
from chatmatch.transcript import Transcript


def prepare(plan: RunPlan, have: dict[str, Transcript], results: dict[str, GameResult],
            allow_failures_change: bool) -> Manifest:
    """The manifest to resume from, after every check and before anything is written."""
    cfg, store = plan.cfg, plan.store
    fresh = Manifest(play_fingerprint=play_fingerprint(cfg),
                     scoring_fingerprint=scoring_fingerprint(cfg),
                     config_sha256=plan.config_sha256, name=cfg.name,
                     config_file=plan.config_file, bots=tuple(cfg.bot_names))
    if not store.exists() and looks_like_run(store.path):  # the manifest was deleted
        return _rebuild(plan, fresh, have, results, allow_failures_change)
    if not store.exists():
        check_stored_games(store, plan.league.all_games(cfg), cfg.exchanges, have, results)
        store.path.mkdir(parents=True, exist_ok=True)
        manifest = fresh.noted("created")
        store.write_config(plan.config_text)
        store.write_manifest(manifest)
        return manifest
    return _resume(plan, fresh, have, results, allow_failures_change)


def _rebuild(plan: RunPlan, fresh: Manifest, have: dict[str, Transcript],
             results: dict[str, GameResult], allow_failures_change: bool) -> Manifest:
    """A run directory whose manifest was deleted, matched to ``plan`` by its config.yaml."""
    cfg, store = plan.cfg, plan.store
    old_setup = plan.stored.tournament
    if old_setup is None:
        raise RunDirError(f"{store.path}: manifest.json is missing and config.yaml is "
                          "unreadable, so its games cannot be matched to a tournament; "
                          "restore manifest.json, or start a new run with --out NEW_DIR")
    check_same_name(store, old_setup.name, cfg.name)
    if play_fingerprint(old_setup) != fresh.play_fingerprint:
        raise RunDirError(_another_setup(store, plan.stored, cfg))
    check_stored_games(store, plan.league.all_games(cfg), cfg.exchanges, have, results)
    check_failures(store, old_setup.failures, cfg.failures, len(have), allow_failures_change)
    # the old scores cannot be trusted without the manifest: score every game again
    manifest = fresh.replace(scoring_fingerprint=None).noted("manifest_rebuilt", games=len(have))
    store.write_config(plan.config_text)
    store.write_manifest(manifest)
    return manifest


def _resume(plan: RunPlan, fresh: Manifest, have: dict[str, Transcript],
            results: dict[str, GameResult], allow_failures_change: bool) -> Manifest:
    """The stored manifest, once the stored run is found to be ``plan``'s (changes noted)."""
    cfg, store = plan.cfg, plan.store
    old = read_manifest(store, plan.stored)  # an older format upgraded
    if old.play_fingerprint != fresh.play_fingerprint:
        old = _regrouped(plan, old, fresh)
    old = plan.league.stamp(old, cfg.schedule.retired == "keep")
    check_stored_games(store, plan.league.all_games(cfg), cfg.exchanges, have, results)
    changed_failures = check_failures(store, plan.stored.failures, cfg.failures, len(have),
                                      allow_failures_change, as_written=True)
    if old.config_sha256 != plan.config_sha256:  # e.g. ranking or scoring settings changed
        keys = _changed_keys(plan.stored, cfg)
        store.write_config(plan.config_text)
        extra = {"failures_changed": changed_failures} if changed_failures else {}
        old = old.noted("config_changed", keys=keys, old=old.config_sha256,
                        new=plan.config_sha256, **extra).replace(config_sha256=plan.config_sha256)
    return old


def _regrouped(plan: RunPlan, old: Manifest, fresh: Manifest) -> Manifest:
    """``old`` (of another play fingerprint) taken as ``plan``'s: a league that added or
    retired bots; else the run is refused."""
    store, league = plan.store, plan.league
    if league.regrouped:
        return old.noted("bots_changed", added=list(league.added),
                         retired=list(league.retired_now), bots=list(league.active)
                         ).replace(play_fingerprint=fresh.play_fingerprint)
    raise RunDirError(_another_setup(store, plan.stored, plan.cfg))


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


def _change(key: str, old: Any, new: Any) -> str:
    if key != "bots" or not isinstance(old, list):
        return change(key, old, new)
    was = {b.get("name"): b for b in old if isinstance(b, dict)}
    now = {b["name"]: b for b in new}
    parts = [f"{label} {', '.join(map(str, names))}" for label, names in (
        ("added", [n for n in now if n not in was]),
        ("removed", [n for n in was if n not in now]),
        ("changed adapter or params of", [n for n in now if n in was and was[n] != now[n]])) if names]
    return "bots: " + ("; ".join(parts) if parts else "order changed")

"""Run directories of older formats: every rule for reading one lives here.

The manifest's ``format`` says which rules a run directory was written by
(:data:`chatmatch.rundir.store.FORMAT` is the one this version writes; no ``format`` key is
format 1). A run directory is upgraded when it is read, in memory: readers never write, and
the one writer (:meth:`chatmatch.rundir.store.RunDir.write_manifest`, when a run goes on)
writes the current format. A directory of a newer format is refused with a clear message.

Steps:

- **1 -> 2** (the manifest gets ``format``). Runs of format 1 may have been
  written when a bot's operational params (timeouts, retries:
  :func:`chatmatch.adapters.operational_params`) were part of the play fingerprint and of
  the reply cache's keys. Such a fingerprint is replaced by today's when the stored
  config gives it under the old rule (a ``fingerprint_upgraded`` event), and replies
  cached under the old keys are still found (:func:`older_reply_identities`).
- **2 -> 3** (the manifest gets ``league_sha256``, a digest of the
  league record, :mod:`chatmatch.rundir.leaguerecord`). Nothing changes in memory: a
  format 2 record has no digest and is trusted as before; the next run that writes the
  manifest stamps it, and from then on a hand edit of the roster is refused.

Older configs (``config.yaml``, whichever format): a ``failures`` key the stored file
lacks (written before that key existed) counts as None
(:func:`chatmatch.run.resume.check_failures`, ``as_written``), and a ``timeout_s`` of None
(written before it had a default) resumed with today's default is not a change of rules
(:func:`timeout_got_its_default`). Scorer parameters that were removed are dropped and the
fluency LM's runtime keys read as the ``runtime:`` block (:func:`chatmatch.config.upgrade.
current_setup`, applied by :class:`~chatmatch.run.storedsetup.StoredSetup`): a stored
value other than the old default scores the games again on resume.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from chatmatch.adapters import identity_params
from chatmatch.bot import Bot
from chatmatch.config.settings import DEFAULT_TIMEOUT_S
from chatmatch.config.tournament import TournamentConfig
from chatmatch.errors import RunDirError
from chatmatch.play.fingerprint import play_fingerprint, play_settings, stable_hash
from chatmatch.play.reply_cache import bot_identity
from chatmatch.records import Manifest
from chatmatch.run.storedsetup import StoredSetup
from chatmatch.rundir.store import FORMAT, RunDir

Step = Callable[[Manifest, StoredSetup], Manifest]


def format_of(manifest: Manifest) -> int:
    """The format ``manifest`` was written in (1: written before manifests had one)."""
    return 1 if manifest.format is None else manifest.format


def read_manifest(store: RunDir, setup: StoredSetup | None = None) -> Manifest:
    """``store``'s manifest upgraded to the current format (in memory; nothing is written).
    ``setup``: the run directory's stored config when the caller reads it too (read once).
    Raises :class:`RunDirError` for a directory of a newer format."""
    manifest = store.read_manifest()
    found = format_of(manifest)
    if found < 1:
        raise RunDirError(f"{store.manifest_path}: 'format' is {found}, not a run directory format "
                          f"(1 to {FORMAT}); restore the manifest from a backup, or delete it and "
                          "run the same `chatmatch run` command again to rebuild it")
    if found > FORMAT:
        raise RunDirError(f"{store.manifest_path}: run directory format {found} was written by a "
                          f"newer chatmatch (this one reads formats 1 to {FORMAT}); upgrade "
                          "chatmatch (pip install -U chatmatch) to read or resume it")
    return upgrade(manifest, setup or StoredSetup(store.path))


def upgrade(manifest: Manifest, setup: StoredSetup) -> Manifest:
    """``manifest`` (read with ``setup``, its directory's stored config) in the current format."""
    for version in range(format_of(manifest), FORMAT):
        manifest = STEPS[version](manifest, setup).replace(format=version + 1)
    return manifest


def format1_play_fingerprint(cfg: TournamentConfig) -> str:
    """The play fingerprint as runs of format 1 could have it: operational params included."""
    return stable_hash(play_settings(cfg))


def _from_format1(manifest: Manifest, setup: StoredSetup) -> Manifest:
    """1 -> 2: a play fingerprint of the old rule (operational params hashed) becomes today's."""
    stored = setup.tournament if manifest.is_tournament else None
    if stored is None or manifest.play_fingerprint == play_fingerprint(stored):
        return manifest
    if manifest.play_fingerprint != format1_play_fingerprint(stored):
        return manifest  # another setup: the run's checks refuse it or regroup the league
    return manifest.noted("fingerprint_upgraded", old=manifest.play_fingerprint
                          ).replace(play_fingerprint=play_fingerprint(stored))


def timeout_got_its_default(key: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> bool:
    """A run stored before ``failures.timeout_s`` had a default (none) resumed with the
    default: only a hung call is treated differently, so it is not a change of rules."""
    return key == "timeout_s" and old.get(key) is None and new.get(key) == DEFAULT_TIMEOUT_S


def _from_format2(manifest: Manifest, setup: StoredSetup) -> Manifest:
    """2 -> 3: nothing to change (the writer adds the league digest)."""
    return manifest


#: version -> the step that upgrades a manifest of that version to the next one
STEPS: dict[int, Step] = {1: _from_format1, 2: _from_format2}


def older_reply_identities(bots: Mapping[str, Bot],
                           specs: Mapping[str, tuple[str, Mapping[str, Any]]]) -> dict[str, str]:
    """Bot name -> the identity a format 1 reply cache may have keyed its replies with
    (operational params included), for the bots whose identity no longer includes them."""
    out = {}
    for name, bot in bots.items():
        adapter, params = specs.get(name, (None, {}))
        if adapter is not None and identity_params(adapter, dict(params)) != dict(params):
            out[name] = bot_identity(bot, adapter, params)
    return out


__all__ = ["STEPS", "format1_play_fingerprint", "format_of", "older_reply_identities",
           "read_manifest", "timeout_got_its_default", "upgrade"]

"""The league record of a run's ``manifest.json``, and how a hand edit of it is caught.

A tournament run's schedule is built over its *roster* (every bot that ever played, in
joining order), its number of *founders* and its *retired* bots
(:mod:`chatmatch.run.league`): game ``g001`` is the first pair of that roster. Editing the
record by hand (two names swapped, a bot that never played added as retired) would re-map
every stored game to other bots. So the one writer
(:meth:`chatmatch.rundir.store.RunDir.write_manifest`) stores a digest of the record beside
it (``league_sha256``, since run directory format 3), and every reader refuses a record that
no longer matches it, before any game is looked at.
"""

from __future__ import annotations

import hashlib
import json

from chatmatch.records import Manifest

#: the first run directory format whose manifests carry ``league_sha256``
DIGEST_SINCE = 3


def league_digest(manifest: Manifest) -> str:
    """The sha256 of ``manifest``'s league record: roster (a run that never grew: its bots),
    founders and retired bots' specs, as the schedule reads them."""
    roster = _roster_of(manifest)
    founders = manifest.founders if manifest.founders is not None else len(roster)
    record = {"roster": roster, "founders": founders, "retired": manifest.retired or {}}
    text = json.dumps(record, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def league_problem(manifest: Manifest, newest: int) -> str | None:
    """Why a manifest's league record cannot be trusted (None: it can): it contradicts
    itself (a bot it ranks is not on the roster, a roster bot it does not rank is not
    retired), or it no longer matches the digest chatmatch wrote with it. ``newest``: the
    newest format this version reads (a newer one is refused for that, not checked here)."""
    what = _contradiction(manifest)
    if what is None:
        if not manifest.is_tournament or not DIGEST_SINCE <= (manifest.format or 1) <= newest:
            return None  # scored logs have no schedule; older formats have no digest (trusted)
        if manifest.league_sha256 == league_digest(manifest):
            return None
        what = ("its league record (roster, founders, retired) was edited: it no longer "
                "matches the league_sha256 chatmatch wrote with it" if manifest.league_sha256
                else "its league record has no league_sha256 (the digest chatmatch writes with it)")
    return (f"{what} (roster now {', '.join(_roster(manifest))}; the schedule, which says who "
            "played each stored game, is built from it); undo the edit (restore manifest.json "
            "from a backup), or start a new run with --out NEW_DIR")


def _roster_of(manifest: Manifest) -> list[str]:
    """The roster (a run that never grew: its bots)."""
    roster = manifest.roster if manifest.roster is not None else manifest.bots
    return list(roster or ())


def _roster(manifest: Manifest) -> list[str]:
    return [repr(b) for b in _roster_of(manifest)]


def _contradiction(manifest: Manifest) -> str | None:
    """Every bot the record ranks is on the roster, and a roster bot it does not rank is a
    retired one, with its spec (chatmatch.run.league writes them so; a name found nowhere
    else was added by hand)."""
    if manifest.roster is None:
        return None
    roster, bots = set(manifest.roster), set(manifest.bots or ())
    retired = set(manifest.retired) if isinstance(manifest.retired, dict) else set()
    stray = sorted(bots - roster) or sorted(roster - bots - retired)
    if not stray:
        return None
    where = "'bots' but not on the 'roster'" if bots - roster else \
        "the 'roster' but neither among its 'bots' nor 'retired'"
    return f"its league record names {', '.join(map(repr, stray))} in {where} (edited by hand?)"

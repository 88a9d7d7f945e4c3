"""Leagues that grow: add and retire bots in an existing run directory.

``chatmatch run league.yaml`` on a run whose bot list changed keeps every stored game and
plays only the matches the new bots need (2n games for one new bot among n): the games
keep their ids because the schedule is built over the *roster*, every bot that ever
played in joining order (:func:`chatmatch.play.schedule.league_games`). A bot that left the
YAML is *retired*: its games stay on disk and, by default, leave the ranking
(``schedule.retired: keep`` ranks it on the games it played). The roster, the number of
founders and the retired bots' specs are kept in ``manifest.json``.

What may change in place: the bot list (add, retire, bring back, reorder), scoring,
ranking and schedule settings. What makes another league and is refused: the seed, the
seed utterances, the number of exchanges, and a kept bot's adapter or params (its stored
games were played by the old one: give the new version a new name to add it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from chatmatch.adapters import identity_params
from chatmatch.config.tournament import TournamentConfig
from chatmatch.errors import ChatmatchError, RunDirError
from chatmatch.play.fingerprint import play_fingerprint
from chatmatch.play.pairing import make_rounds
from chatmatch.play.schedule import ScheduledGame, league_games, seed_plan
from chatmatch.records import Manifest
from chatmatch.rundir.store import RunDir
from chatmatch.run.storedsetup import StoredSetup
from chatmatch.run.migrations import read_manifest

#: settings that define the league: changing one makes every stored game another game
LEAGUE_KEYS = ("seed", "seed_utterance", "exchanges")
IN_PLACE = ("May change in place: the bot list (add, retire or bring back bots), scoring, "
            "ranking and schedule settings. May not: seed, seed_utterance, exchanges, or a "
            "kept bot's adapter or params (give a changed bot a new name to add it as a new bot).")


@dataclass(frozen=True)
class League:
    """Who is in a league: ``roster`` (every bot that ever played, in joining order; the
    first ``founders`` played the original round-robin), the ``active`` bots (the YAML's)
    and the specs of ``retired`` ones; ``added``/``retired_now``: this run's changes."""

    roster: tuple[str, ...]
    founders: int
    active: tuple[str, ...]
    retired: dict[str, Any] = field(default_factory=dict)
    added: tuple[str, ...] = ()
    retired_now: tuple[str, ...] = ()
    #: the bot list changed in a way a league takes in place (checked by plan_league)
    regrouped: bool = False
    #: the schedules derived so far (see :meth:`_games`), not part of the league's value
    _schedules: dict[bool, tuple[TournamentConfig, list[ScheduledGame]]] = field(
        default_factory=dict, init=False, compare=False, repr=False)

    @property
    def changed(self) -> bool:
        return bool(self.added or self.retired_now)

    def ranked_bots(self, keep_retired: bool) -> list[str]:
        """The bots a ranking lists: the active ones, then (kept) retired ones in roster order."""
        return [*self.active, *(b for b in self.roster if keep_retired and b not in self.active)]

    def ranked_games(self, cfg: TournamentConfig, keep_retired: bool,
                     stored: Sequence[str]) -> list[ScheduledGame]:
        """The games a ranking rests on: the active schedule, plus (kept) retired bots'
        games that were played."""
        if not keep_retired:
            return self.active_games(cfg)
        have, active = set(stored), set(self.active)
        return [g for g in self.all_games(cfg)
                if g.game_id in have or (g.starter in active and g.other in active)]

    def all_games(self, cfg: TournamentConfig) -> list[ScheduledGame]:
        """Every game of the league, retired bots' included (what may be on disk)."""
        return self._games(cfg, active_only=False)

    def active_games(self, cfg: TournamentConfig) -> list[ScheduledGame]:
        """The games between active bots (what a full round-robin plays now)."""
        return self._games(cfg, active_only=True)

    def _games(self, cfg: TournamentConfig, active_only: bool) -> list[ScheduledGame]:
        """The schedule, derived once per ``cfg`` object (a new list each call)."""
        kept = self._schedules.get(active_only)
        if kept is None or kept[0] is not cfg:
            games = league_games(self.roster, self.founders, seed_plan(cfg), cfg.seed,
                                 self.active if active_only else None)
            kept = self._schedules[active_only] = (cfg, games)
        return list(kept[1])

    def stamp(self, manifest: Manifest, keep_retired: bool) -> Manifest:
        """``manifest`` recording this league (unchanged for a league that never grew)."""
        if self.roster == self.active and self.founders == len(self.roster) and not manifest.roster:
            return manifest
        return manifest.replace(bots=tuple(self.ranked_bots(keep_retired)), roster=self.roster,
                                founders=self.founders, retired=dict(self.retired))


def _specs(cfg: TournamentConfig) -> dict[str, dict[str, Any]]:
    return {b.name: b.model_dump(mode="json") for b in cfg.bots}


def _identity(spec: dict[str, Any]) -> dict[str, Any]:
    """A bot spec without its operational params (timeouts, retries...): changing those
    keeps the bot the same bot (:func:`chatmatch.adapters.identity_params`)."""
    params = spec.get("params") or {}
    return {**spec, "params": identity_params(str(spec.get("adapter")), dict(params))}


def _stored(manifest: Manifest, store: RunDir) -> tuple[tuple[str, ...], int, dict[str, Any]]:
    """(roster, founders, retired specs) recorded in ``manifest``; a run that never grew
    has its bots as roster and founders."""
    roster = manifest.roster if manifest.roster is not None else manifest.bots
    founders = manifest.founders if manifest.founders is not None else len(roster or ())
    retired = manifest.retired if manifest.retired is not None else {}
    if (not roster or not all(isinstance(b, str) for b in roster) or len(set(roster)) != len(roster)
            or not isinstance(founders, int) or not 2 <= founders <= len(roster)
            or not isinstance(retired, dict)):
        raise RunDirError(f"{store.manifest_path}: bad league record (roster, founders, retired); "
                          "restore the manifest from a backup, or start a new run with --out NEW_DIR")
    return tuple(roster), founders, retired


def plan_league(store: RunDir, cfg: TournamentConfig, stored: StoredSetup | None = None) -> League:
    """The league ``cfg`` makes of ``store``: new (no manifest), the same bots, or the
    stored league with bots added or retired. Raises :class:`RunDirError` when the change
    makes another league (see :data:`IN_PLACE`). ``stored``: the run directory's stored
    setup when the caller reads it too (read once)."""
    names = tuple(cfg.bot_names)
    if not store.exists():
        return League(names, len(names), names)
    stored = stored or StoredSetup(store.path)
    manifest = read_manifest(store, stored)  # an older format upgraded
    if not manifest.is_tournament:
        return League(names, len(names), names)  # run.prepare refuses it as another setup
    check_same_name(store, manifest.name, cfg.name)
    roster, founders, retired = _stored(manifest, store)
    if manifest.play_fingerprint == play_fingerprint(cfg):
        return League(roster, founders, names, retired)
    old = stored.tournament
    if old is None:  # unreadable: the caller refuses it as another setup
        return League(names, len(names), names)
    _check_same_league(store, old, cfg)
    specs = {**retired, **_specs(old)}
    changed = [n for n, spec in _specs(cfg).items() if n in specs and _identity(specs[n]) != _identity(spec)]
    if changed:
        raise RunDirError(refusal(store, "changed: bots: changed adapter or params of "
                                  + ", ".join(changed)))
    added = tuple(b for b in names if b not in roster)
    gone = tuple(b for b in roster if b not in names and b not in retired)
    now_retired = {b: specs[b] for b in roster if b not in names and b in specs}
    if not (added or gone) and names == tuple(old.bot_names):
        # the same bots: the fingerprint differs for another reason (the caller decides)
        return League(roster, founders, names, retired)
    return League(roster + added, founders, names, now_retired, added, gone, regrouped=True)


def _check_same_league(store: RunDir, old: TournamentConfig, cfg: TournamentConfig) -> None:
    before, after = old.model_dump(mode="json"), cfg.model_dump(mode="json")
    changed = [k for k in LEAGUE_KEYS if before.get(k) != after.get(k)]
    if changed:
        what = "; ".join(change(k, before.get(k), after.get(k)) for k in changed)
        raise RunDirError(refusal(store, f"changed: {what}"))


def check_same_name(store: RunDir, stored: str | None, name: str) -> None:
    """Refuse a run directory that holds the run of a tournament of another name (two
    names can give one default folder: ``runs/`` keeps only letters, digits, ``-``, ``_``
    and ``.`` of a name, so "\U0001f600 cup" and "\U0001f642 cup" both give ``runs/cup``).
    ``stored``: the name the directory records (None: not recorded, not checked)."""
    if stored is None or stored == name:
        return
    raise RunDirError(f"{store.path} holds the run of tournament {stored!r}, not of {name!r} "
                      "(two names can give the same default folder); two tournaments never "
                      "share a run directory: set output_dir in the YAML or pass --out NEW_DIR, "
                      f"or name the tournament {stored!r} again to go on with that run")


def refusal(store: RunDir, what: str) -> str:
    """The message refusing a run directory that holds another league (``what``: what
    changed, e.g. "changed: exchanges 2 -> 3")."""
    return (f"{store.path} holds a run of another tournament setup ({what}). Its games "
            f"cannot be reused. {IN_PLACE} Start a new run with --out NEW_DIR (or set "
            "output_dir), or delete the old directory.")


def change(key: str, old: Any, new: Any, width: int = 60) -> str:
    """``key OLD -> NEW`` with each side cut to ``width`` characters around where they
    first differ, so a long value edited near its end reads as two different values."""
    a, b = repr(old), repr(new)
    if max(len(a), len(b)) <= width:
        return f"{key} {a} -> {b}"
    same = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, same - width // 3)
    cut = [("..." if start else "") + t[start:start + width - 6] +
           ("..." if len(t) > start + width - 6 else "") for t in (a, b)]
    return f"{key} {cut[0]} -> {cut[1]}"


def stored_fingerprint(store: RunDir, stored: StoredSetup) -> str | None:
    """The scoring fingerprint the stored run's games were scored with (None: no manifest,
    or one that cannot be read: preparing the run says what is wrong)."""
    if not store.exists():
        return None
    try:
        return read_manifest(store, stored).scoring_fingerprint
    except ChatmatchError:
        return None


def stored_schedule(store: RunDir, manifest: Manifest, stored: StoredSetup) -> list[ScheduledGame] | None:
    """Every game the stored league may hold (retired bots' included), from its manifest
    and ``config.yaml``; None for logs scored by ``chatmatch score --out`` (no schedule) or
    a setup this version cannot read (its games are then not checked against one)."""
    cfg = stored.tournament if manifest.is_tournament else None
    if cfg is None:
        return None
    try:
        roster, founders, _ = _stored(manifest, store)
        return league_games(roster, founders, seed_plan(cfg), cfg.seed)
    except (RunDirError, ValueError):
        return None


def stored_expected_games(store: RunDir, manifest: Manifest, stored: StoredSetup) -> int | None:
    """The games the stored run's schedule has in all, worked out from its ``config.yaml``
    and league record as ``chatmatch run`` works it out (the active bots' games, under a
    budget the budget, plus kept retired bots' games that were played); None when the
    setup cannot be read (the manifest's count is then all there is)."""
    cfg = stored.tournament if manifest.is_tournament else None
    if cfg is None:
        return None
    try:
        roster, founders, retired = _stored(manifest, store)
        if not set(cfg.bot_names) <= set(roster):
            return None
        league = League(roster, founders, tuple(cfg.bot_names), retired)
        schedule = league.active_games(cfg)
        ranked = league.ranked_games(cfg, cfg.schedule.retired == "keep", list(store.transcript_ids()))
        rounds = make_rounds(cfg.schedule.method, cfg.schedule.games, schedule, cfg.seed)
    except (RunDirError, ValueError):
        return None
    return len(ranked) - len(schedule) + rounds.total

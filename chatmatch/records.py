"""The typed data that flows between stages (prepare -> play -> score -> rank -> save),
frozen, with the JSON form each takes in a run directory.

Turns and transcripts live in :mod:`chatmatch.transcript` (with their JSON Lines form);
everything after play lives here: a :class:`Forfeit`, a scorer's :class:`DimensionScore`,
a game's :class:`GameResult` (a line of ``results.jsonl``), a :class:`ScoreRecord`
(``scores/GID.json``), the run's :class:`Manifest` (``manifest.json``) and the per-bot
statistics of a ranking row (:class:`GameTally` plus one of :class:`PointsStats`,
:class:`TrueSkillStats`, :class:`IntervalStats`). ``to_json``/``from_json`` keep the
files byte-compatible with the runs older chatmatch versions wrote.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, ClassVar, Mapping, Union, overload

#: raw scores closer than this are a tie (guards against float noise)
TIE_TOLERANCE = 1e-9


def none_to_nan(v: Any) -> float:
    """``v`` as a float, NaN for ``None`` (how JSON files write a missing number)."""
    return math.nan if v is None else float(v)


@overload
def nan_to_none(obj: float, digits: int | None = None) -> float | None: ...
@overload
def nan_to_none(obj: Any, digits: int | None = None) -> Any: ...
def nan_to_none(obj: Any, digits: int | None = None) -> Any:
    """``obj`` as strict JSON can hold it: a NaN float becomes ``None`` (also inside dicts,
    lists and tuples, which become lists); other floats are rounded to ``digits`` when
    given; everything else is kept as it is."""
    if isinstance(obj, float):
        if math.isnan(obj):
            return None
        return obj if digits is None else round(float(obj), digits)
    if isinstance(obj, dict):
        return {k: nan_to_none(v, digits) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [nan_to_none(v, digits) for v in obj]
    return obj


#: the most points a bot can win on one dimension of one game (the largest weight a
#: ``scoring`` section accepts)
MAX_POINTS = 1_000_000.0


def _number(v: Any, what: str) -> float:
    """``v`` as a float (NaN for ``None``), or a ``ValueError`` naming ``what``: a huge
    integer (10**400), an infinity or a non-number is not a score."""
    if isinstance(v, bool) or not (v is None or isinstance(v, (int, float))):
        raise ValueError(f"{what} is {v!r}, not a number")
    try:
        x = none_to_nan(v)
    except OverflowError:
        raise ValueError(f"{what} is an integer too large for any score") from None
    if math.isinf(x):
        raise ValueError(f"{what} is {x}, not a finite number")
    return x


def checked_raw(raw: Any, what: str) -> dict[str, float]:
    """A map name -> raw score read from a run file: finite numbers, NaN (``null``: no
    score) allowed."""
    if not isinstance(raw, Mapping):
        raise ValueError(f"{what} must be a JSON object, got {raw!r}")
    return {str(k): _number(v, f"{what}[{k!r}]") for k, v in raw.items()}


def checked_points(points: Any, what: str) -> dict[str, dict[str, float]]:
    """A map bot -> dimension -> points read from a run file: each a number in
    ``[0, MAX_POINTS]`` (NaN, infinities, negative or huge points are refused)."""
    if not isinstance(points, Mapping):
        raise ValueError(f"{what} must be a JSON object, got {points!r}")
    out: dict[str, dict[str, float]] = {}
    for bot, dims in points.items():
        out[str(bot)] = got = checked_raw(dims, f"{what}[{bot!r}]")
        for dim, x in got.items():
            if not 0.0 <= x <= MAX_POINTS:  # also False for NaN
                raise ValueError(f"{what}[{bot!r}][{dim!r}] is {x:g}, not points between 0 "
                                 f"and {MAX_POINTS:,.0f}")
    return out


# --- play -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Forfeit:
    """A game a bot gave up (it kept failing): it loses every dimension."""

    bot: str
    reason: str = ""
    #: the turn it failed at, as the game records it (a transcript's forfeit has it, a
    #: game result's does not)
    turn: str | None = None

    def to_json(self) -> dict[str, str]:
        out = {"bot": self.bot, "reason": self.reason}
        return out if self.turn is None else {**out, "turn": self.turn}

    @classmethod
    def from_json(cls, d: Any) -> "Forfeit | None":
        """None for a missing (or empty) record; a record without a bot name is refused."""
        if not d:
            return None
        if not isinstance(d, Mapping) or not isinstance(d.get("bot"), str):
            raise ValueError(f"a forfeit must be {{'bot': NAME, 'reason': TEXT}}, got {d!r}")
        turn = d.get("turn")
        return cls(d["bot"], str(d.get("reason") or ""), None if turn is None else str(turn))


# --- score ------------------------------------------------------------------------------
@dataclass(frozen=True)
class DimensionScore:
    """One dimension's verdict on one game."""

    dimension: str
    raw: dict[str, float]
    higher_is_better: bool
    details: list[dict[str, Any]] = field(default_factory=list)
    #: speakers this dimension did not apply to in this game (raw NaN); when either bot is
    #: listed, nobody wins the dimension's point (see :mod:`chatmatch.scoring.points`)
    not_applicable: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"dimension": self.dimension, "raw": self.raw,
                "higher_is_better": self.higher_is_better, "details": self.details,
                "not_applicable": list(self.not_applicable)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "DimensionScore":
        name = str(d.get("dimension", ""))
        return cls(name, checked_raw(d.get("raw") or {}, f"raw score of {name}"),
                   bool(d.get("higher_is_better", True)),
                   [x for x in d.get("details") or [] if isinstance(x, dict)],
                   tuple(d.get("not_applicable") or ()))


@dataclass(frozen=True)
class GameResult:
    """The verdict on one game: raw scores and points per bot and dimension."""

    game_id: str
    players: tuple[str, str]
    raw: dict[str, dict[str, float]]
    points: dict[str, dict[str, float]]
    higher_is_better: dict[str, bool] = field(default_factory=dict)
    forfeit: Forfeit | None = None
    #: dimension -> bots it did not apply to (no point is awarded on that dimension)
    not_applicable: dict[str, list[str]] = field(default_factory=dict)

    @property
    def total(self) -> dict[str, float]:
        return {p: float(sum(self.points[p].values())) for p in self.players}

    @property
    def winner(self) -> str | None:
        a, b = self.players
        ta, tb = self.total[a], self.total[b]
        if abs(ta - tb) <= TIE_TOLERANCE:
            return None
        return a if ta > tb else b

    def score_of(self, bot: str) -> float:
        """1 for a win, 0.5 for a tie, 0 for a loss."""
        w = self.winner
        return 0.5 if w is None else float(w == bot)

    def forfeited_by(self, bot: str) -> bool:
        return self.forfeit is not None and self.forfeit.bot == bot

    def to_json(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "players": list(self.players), "raw": self.raw,
                "points": self.points, "higher_is_better": self.higher_is_better,
                "total": self.total, "winner": self.winner,
                "forfeit": self.forfeit.to_json() if self.forfeit else None,
                "not_applicable": self.not_applicable}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "GameResult":
        return cls(game_id=d["game_id"], players=(d["players"][0], d["players"][1]),
                   raw={k: checked_raw(dims, f"raw[{k!r}]") for k, dims in d["raw"].items()},
                   points=checked_points(d["points"], "points"),
                   higher_is_better=dict(d.get("higher_is_better", {})),
                   forfeit=Forfeit.from_json(d.get("forfeit")),
                   not_applicable={k: list(v) for k, v in (d.get("not_applicable") or {}).items()})


@dataclass(frozen=True)
class ScoreRecord:
    """``scores/GID.json``: a game's per-dimension scores with their per-turn details (or
    its forfeit). ``source`` is the id an imported log had (``chatmatch score --out``)."""

    game_id: str
    players: tuple[str, str] | None = None
    dimensions: dict[str, DimensionScore] = field(default_factory=dict)
    points: dict[str, dict[str, float]] = field(default_factory=dict)
    forfeit: Forfeit | None = None
    source: str | None = None
    total: dict[str, float] = field(default_factory=dict)
    winner: str | None = None
    #: sha256 of ``transcripts/GID.jsonl`` as it was scored (None: a record written before
    #: it was kept); a record whose transcript changed since is not used
    transcript_sha256: str | None = None
    #: the scoring fingerprint of the run that made it (None: a record written before it
    #: was kept); a record of another scoring setup is not used
    scoring_fingerprint: str | None = None

    @classmethod
    def of(cls, result: GameResult, dims: Mapping[str, DimensionScore],
           source: str | None = None) -> "ScoreRecord":
        if result.forfeit:
            return cls(result.game_id, forfeit=result.forfeit)
        return cls(result.game_id, result.players, dict(dims), result.points, source=source,
                   total=result.total, winner=result.winner)

    def details(self) -> dict[str, list[dict[str, Any]]]:
        """Dimension -> its per-turn details."""
        return {d: s.details for d, s in self.dimensions.items()}

    def to_json(self) -> dict[str, Any]:
        made = {k: v for k, v in (("transcript_sha256", self.transcript_sha256),
                                  ("scoring_fingerprint", self.scoring_fingerprint)) if v is not None}
        if self.forfeit:
            return {"game_id": self.game_id, "forfeit": self.forfeit.to_json(), **made}
        out: dict[str, Any] = {"game_id": self.game_id,
                               "players": list(self.players or ()),
                               "dimensions": {d: s.to_json() for d, s in self.dimensions.items()},
                               "points": self.points, "total": self.total, "winner": self.winner}
        if self.source is not None:
            out["source"] = self.source
        return {**out, **made}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "ScoreRecord":
        """Raises ``ValueError`` (or ``TypeError``/``KeyError``) on a malformed record."""
        players = d.get("players")
        dims = d.get("dimensions") or {}
        if not isinstance(dims, Mapping):
            raise ValueError("'dimensions' must be a JSON object")
        return cls(str(d["game_id"]),
                   (str(players[0]), str(players[1])) if isinstance(players, list) and len(players) == 2 else None,
                   {k: DimensionScore.from_json(v) for k, v in dims.items() if isinstance(v, Mapping)},
                   checked_points(d.get("points") or {}, "points"),
                   Forfeit.from_json(d.get("forfeit")),
                   None if d.get("source") is None else str(d["source"]),
                   checked_raw(d.get("total") or {}, "total"), d.get("winner"),
                   None if d.get("transcript_sha256") is None else str(d["transcript_sha256"]),
                   None if d.get("scoring_fingerprint") is None else str(d["scoring_fingerprint"]))


# --- save -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Manifest:
    """``manifest.json``: what a run directory holds and how it was made. A tournament run
    (``chatmatch run``) has the fingerprints; scored logs (``chatmatch score --out``) have
    ``source`` and ``files``. Keys chatmatch does not know are kept in ``extra``."""

    name: str | None = None
    bots: tuple[str, ...] | None = None
    expected_games: int | None = None
    history: tuple[dict[str, Any], ...] = ()
    scorers: dict[str, Any] | None = None
    bots_described: dict[str, Any] | None = None
    play_fingerprint: str | None = None
    scoring_fingerprint: str | None = None
    config_sha256: str | None = None
    config_file: str | None = None
    chatmatch_version: str | None = None
    source: str | None = None
    files: tuple[str, ...] | None = None
    #: a league that grew (chatmatch.run.league): every bot that ever played, in joining order;
    #: how many founded it; the specs of bots no longer in the YAML (None: never grew)
    roster: tuple[str, ...] | None = None
    founders: int | None = None
    retired: dict[str, Any] | None = None
    #: the sha256 of the league record (roster, founders, retired) written with it, so that a
    #: hand edit is caught (:mod:`chatmatch.rundir.leaguerecord`; None: format 2 or older)
    league_sha256: str | None = None
    #: the run directory's format (:data:`chatmatch.rundir.store.FORMAT`; None: format 1,
    #: written before the manifest had one; :mod:`chatmatch.run.migrations` upgrades it)
    format: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    #: written even when None in a tournament run's manifest (as older versions did)
    _RUN_KEYS: ClassVar[frozenset[str]] = frozenset({"config_file", "scoring_fingerprint"})

    @property
    def is_tournament(self) -> bool:
        return self.play_fingerprint is not None

    def replace(self, **changes: Any) -> "Manifest":
        return dataclasses.replace(self, **changes)

    def noted(self, event: str, **info: Any) -> "Manifest":
        """This manifest with ``event`` appended to its history (stamped now, UTC)."""
        at = datetime.now(timezone.utc).isoformat(timespec="seconds")
        return self.replace(history=(*self.history, {"event": event, "at": at, **info}))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.extra)
        for f in dataclasses.fields(self):
            if f.name == "extra":
                continue
            v = getattr(self, f.name)
            if v is None and not (self.is_tournament and f.name in self._RUN_KEYS):
                continue
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Manifest":
        """Types are checked by :meth:`chatmatch.rundir.store.RunDir.read_manifest` first."""
        names = {f.name for f in dataclasses.fields(cls)} - {"extra"}
        known = {k: v for k, v in d.items() if k in names}
        for k in ("bots", "history", "files", "roster"):
            if known.get(k) is not None:
                known[k] = tuple(known[k])
        return cls(**known, extra={k: v for k, v in d.items() if k not in names})


# --- rank -------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameTally:
    """A bot's games in a ranking: won, tied, lost, forfeited, and summed game points."""

    games: int = 0
    won: int = 0
    tied: int = 0
    lost: int = 0
    forfeits: int = 0
    game_points: float = 0.0

    def columns(self) -> tuple[tuple[str, Any], ...]:
        return tuple((head, getattr(self, name)) for head, name in GAME_COLUMNS)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class PointsStats:
    """A bot's row in the points table (match points and match wins/ties/losses)."""

    match_points: float
    matches_won: int
    matches_tied: int
    matches_lost: int

    def columns(self) -> tuple[tuple[str, Any], ...]:
        """(leaderboard header, value) of the method's columns."""
        return (("pts", self.match_points), ("mW", self.matches_won), ("mT", self.matches_tied),
                ("mL", self.matches_lost))

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class TrueSkillStats:
    """A bot's TrueSkill rating averaged over the shuffles, and its rank in each shuffle."""

    mu: float
    sigma: float
    conservative: float  # mu - k * sigma
    mean_rank: float
    rank_min: int
    rank_max: int
    ranks: tuple[int, ...]

    def columns(self) -> tuple[tuple[str, Any], ...]:
        return (("mu", self.mu), ("sigma", self.sigma), ("mu-k*sigma", self.conservative),
                ("best", self.rank_min), ("worst", self.rank_max))

    def to_json(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "ranks": list(self.ranks)}


@dataclass(frozen=True)
class IntervalStats:
    """A bot's score by a method with bootstrap intervals (Bradley-Terry, Elo): ``label``
    names the score ("log_strength", "elo"); the intervals are None without a bootstrap."""

    label: str
    value: float
    ci_low: float | None = None
    ci_high: float | None = None
    rank_ci_low: int | None = None
    rank_ci_high: int | None = None

    #: how the score column is headed in a leaderboard
    HEADERS: ClassVar[dict[str, str]] = {"log_strength": "log p"}

    def columns(self) -> tuple[tuple[str, Any], ...]:
        return ((self.HEADERS.get(self.label, self.label), self.value), ("ci lo", self.ci_low),
                ("ci hi", self.ci_high), ("best", self.rank_ci_low), ("worst", self.rank_ci_high))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {self.label: self.value}
        if self.ci_low is not None:
            out.update(ci_low=self.ci_low, ci_high=self.ci_high, rank_ci_low=self.rank_ci_low,
                       rank_ci_high=self.rank_ci_high)
        return out


MethodStats = Union[PointsStats, TrueSkillStats, IntervalStats]

#: the game columns every leaderboard ends with: (header, GameTally attribute)
GAME_COLUMNS: tuple[tuple[str, str], ...] = (("W", "won"), ("T", "tied"), ("L", "lost"),
                                             ("game pts", "game_points"))

"""Which stored games a run may trust: :func:`cross_check_results`, the one integrity check
every reader of a run directory goes through (``RunDir.results``: rank, show, report, plot,
analyze, compare, view, and a resume by ``chatmatch run``), with :class:`RunRules`, what
this run's games must match.

A checksum only proves that a line was not torn or edited under its checksum; a line
copied from another run of the same bots (same game ids, another seed or scoring setup)
has a valid one. So a result line is used only when it agrees with the rest of the run:

* its game is in the run's schedule, and its transcript (``transcripts/GID.jsonl``, a
  regular file) names the scheduled players and seed utterance, and has the game's shape
  (:mod:`chatmatch.rundir.shape`: the number of turns ``exchanges`` gives or a recorded
  forfeit, alternating speakers from the scheduled starter, the scheduled seed turn and
  random seed);
* its score record (``scores/GID.json``, written just before the line; the line records
  its sha256 in ``scores_sha256``) names the same game, players, points and raw scores;
* the score record was made with this run's scoring setup (its ``scoring_fingerprint``,
  the manifest's) and from the transcript as it is now (its ``transcript_sha256``).

A game that fails is ignored with one warning naming the file, the game, the reason and
what ``chatmatch run`` does about it (:mod:`chatmatch.rundir.actions`: ``RESCORE``,
``PLAY``, ``DROP`` or ``refused``): every reader and ``run`` itself use those texts, so
they say the same thing. Nothing is guessed: a game whose result is untrusted has no result
until ``chatmatch run`` scores (or plays) it again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Mapping, Protocol

from chatmatch.common.safeio import check_regular, why_unreadable
from chatmatch.records import GameResult, Manifest, ScoreRecord
# re-exported: readers and the resume import the words of run's actions from here
from chatmatch.rundir.actions import (DROP as DROP, PLAY as PLAY, REFUSES as REFUSES,
                                      REPLACE as REPLACE, RESCORE as RESCORE,
                                      in_the_way as in_the_way, refused as refused,
                                      refuses as refuses, unfinished as unfinished)
from chatmatch.rundir.resultsfile import dumps
from chatmatch.rundir.shape import Shape, shape_problem

@dataclass(frozen=True)
class Scheduled:
    """A game of the run's schedule as the stored files must name it."""

    players: tuple[str, ...]
    seed_utterance: str
    #: the game's sampling seed (None: not checked)
    random_seed: int | None = None


@dataclass(frozen=True)
class RunRules:
    """What this run's stored games must match: its scoring setup (the manifest's
    ``scoring_fingerprint``), its schedule (game id -> players and seed utterance) and the
    turns of a complete game (``2 * exchanges``). None: not checked (logs scored by
    ``chatmatch score --out`` have no schedule; a run whose manifest was rebuilt scores
    every game again)."""

    scoring_fingerprint: str | None = None
    schedule: Mapping[str, Scheduled] | None = None
    turns: int | None = None


@dataclass(frozen=True)
class Header:
    """The first line of a stored transcript; ``problem``: why the file cannot be used
    (``special``: it is not a regular file, which chatmatch never replaces)."""

    players: tuple[str, ...] = ()
    seed_utterance: str | None = None
    problem: str | None = None
    special: bool = False
    missing: bool = False
    #: the game id the header names when it is not the file's (a renamed or swapped file)
    holds: str | None = None


class StoredGames(Protocol):
    """The files of a run directory the check reads (:class:`chatmatch.rundir.store.RunDir`)."""

    path: Path

    def load_scores(self, game_id: str) -> ScoreRecord | None: ...
    def scores_digest(self, game_id: str) -> str | None: ...
    def transcript_digest(self, game_id: str) -> str | None: ...
    def transcript_header(self, game_id: str) -> Header: ...
    def transcript_problem(self, game_id: str) -> str | None: ...
    def transcript_shape(self, game_id: str) -> Shape | None: ...
    def scores_kind(self, game_id: str) -> str | None: ...


def schedule_problem(gid: str, head: Header, rules: RunRules) -> str | None:
    """Why game ``gid`` (its transcript's header ``head``) is not a game of the run's
    schedule; the same words in a reader's warning and in ``chatmatch run``'s refusal."""
    if rules.schedule is None or head.missing or head.problem:
        return None
    g = rules.schedule.get(gid)
    if g is None:
        return f"transcripts/{gid}.jsonl is not in this tournament's schedule"
    if tuple(head.players) != tuple(g.players) or (
            head.seed_utterance and head.seed_utterance != g.seed_utterance):
        return (f"transcripts/{gid}.jsonl is {' vs '.join(head.players)} from "
                f"{head.seed_utterance!r}, but this tournament schedules "
                f"{' vs '.join(g.players)} from {g.seed_utterance!r}")
    return None


def record_problem(rec: ScoreRecord | None, gid: str, rules: RunRules,
                   transcript_digest: Callable[[str], str | None]) -> str | None:
    """Why the score record ``rec`` of game ``gid`` must not be used: made with another
    scoring setup, or not from the transcript as it is now (None: it may be used, or it
    predates the check)."""
    if rec is None:
        return None
    if rec.scoring_fingerprint and rules.scoring_fingerprint and \
            rec.scoring_fingerprint != rules.scoring_fingerprint:
        return (f"scores/{gid}.json was made with another scoring setup (dimensions or "
                f"weights; fingerprint {rec.scoring_fingerprint}, this run's is "
                f"{rules.scoring_fingerprint}; copied from another run?)")
    if rec.transcript_sha256 is not None and transcript_digest(gid) != rec.transcript_sha256:
        return (f"scores/{gid}.json was not made from transcripts/{gid}.jsonl as it is now "
                "(the transcript was edited after the game was scored, or the score record "
                "is another run's)")
    return None


def _same(a: object, b: object) -> bool:
    """Equal as chatmatch writes them (NaN as null, stable key order)."""
    return dumps(a) == dumps(b)


def _disagreement(result: GameResult, record: ScoreRecord | None, gid: str) -> str | None:
    where = f"scores/{gid}.json"
    if record is None:
        return f"{where} is missing or unreadable"
    if record.game_id != gid:
        return f"{where} is the score record of game {record.game_id!r}"
    if result.forfeit or record.forfeit:
        if (result.forfeit and result.forfeit.bot) != (record.forfeit and record.forfeit.bot):
            return f"its forfeit disagrees with {where}"
        return None
    if record.players is not None and tuple(record.players) != tuple(result.players):
        return f"its players {list(result.players)} disagree with {where} {list(record.players)}"
    shared = [d for d in record.dimensions if all(d in result.raw.get(p, {}) for p in result.players)]
    mine = {p: {d: result.raw[p][d] for d in shared} for p in result.players}
    theirs = {p: {d: record.dimensions[d].raw.get(p) for d in shared} for p in result.players}
    if not _same(result.points, record.points) or not _same(mine, theirs):
        return f"its scores disagree with {where} (a line of another run?)"
    return None


def game_problem(gid: str, files: StoredGames, rules: RunRules) -> tuple[str, str] | None:
    """Why the stored transcript of ``gid`` cannot be used as it is, and what ``chatmatch
    run`` does about it (None: it can be used)."""
    if not safe_id(gid):
        return "its game id is not a file name", DROP
    head = files.transcript_header(gid)
    if head.special:
        return f"transcripts/{gid}.jsonl is {head.problem}", refused(gid)
    if head.holds is not None:  # never replaced: it is another game's only copy
        return _holds_other(gid, head.holds, files), refused(gid)
    kind = files.scores_kind(gid)
    if kind is not None:  # a write there fails or replaces it: never done
        return f"scores/{gid}.json is {kind}, not a regular file", refused(gid, scores_only=True)
    unscheduled = rules.schedule is not None and gid not in rules.schedule
    if head.missing:
        if unscheduled:
            return f"game {gid} is not in this tournament's schedule and has no transcript", DROP
        return "the run has no transcript of that game", PLAY
    if unscheduled:
        return f"transcripts/{gid}.jsonl is not in this tournament's schedule", refused(gid)
    why = schedule_problem(gid, head, rules)
    if why is not None:
        return why, refused(gid)
    if head.problem is not None:
        return f"transcripts/{gid}.jsonl cannot be read ({head.problem})", REPLACE
    shape = files.transcript_shape(gid) if rules.schedule is not None else None
    if shape is not None and rules.schedule is not None:  # None: unreadable, said elsewhere
        g = rules.schedule[gid]
        why = shape_problem(gid, shape, g.players, g.seed_utterance, g.random_seed, rules.turns)
        if why is not None:
            return why, refused(gid)
    return None


def undigested_record_problem(manifest: Manifest, files: StoredGames, rules: RunRules,
                              ids: Iterable[str]) -> str | None:
    """Why the league record of a run without ``league_sha256`` (format 2 and older: the
    record is trusted) looks edited: more than half of the stored games (two or more)
    were played by other bots than the schedule built from it says. Editing the record
    re-maps every game; a tampered transcript is one game. None: no sign of an edit."""
    if manifest.league_sha256 or not manifest.is_tournament or rules.schedule is None:
        return None
    checked, differ, example = 0, 0, ""
    for gid in sorted(ids):
        g, head = rules.schedule.get(gid), files.transcript_header(gid)
        if g is None or head.missing or head.problem or head.holds or not head.players:
            continue
        checked += 1
        if tuple(head.players) != tuple(g.players):
            differ += 1
            example = example or (f"transcripts/{gid}.jsonl is {' vs '.join(head.players)}, the "
                                  f"record schedules {' vs '.join(g.players)}")
    if checked < 2 or differ * 2 <= checked:
        return None
    return (f"manifest.json: its league record (bots, roster, founders, retired) disagrees with "
            f"{differ} of the {checked} stored games ({example}): the record was edited, not "
            "the games (the run was written before chatmatch kept a league_sha256 to catch "
            "that); undo the edit (restore manifest.json from a backup), or start a new run "
            "with --out NEW_DIR")


def _holds_other(gid: str, other: str, files: StoredGames) -> str:
    """Why ``transcripts/GID.jsonl``, which holds game ``other``, cannot be used, and the
    name it should have when that name is free."""
    there = files.transcript_header(other)
    if there.holds == gid:
        return (f"transcripts/{gid}.jsonl holds game {other!r} and transcripts/{other}.jsonl "
                f"holds game {gid!r} (swapped?); swap the two file names back")
    if there.missing:
        return f"transcripts/{gid}.jsonl holds game {other!r} (renamed?); name it {other}.jsonl"
    if there.holds is not None:  # renamed round: three or more files
        return (f"transcripts/{gid}.jsonl holds game {other!r}, and transcripts/{other}.jsonl "
                f"holds game {there.holds!r} (renamed round?); give each file the name of the "
                "game in its first line")
    return (f"transcripts/{gid}.jsonl holds game {other!r}, whose own file "
            f"transcripts/{other}.jsonl exists (a copy?)")


def _line_problem(res: GameResult, digest: str | None, files: StoredGames,
                  rules: RunRules) -> tuple[str, str] | None:
    gid = res.game_id
    bad = game_problem(gid, files, rules)
    if bad is not None:
        return bad
    players = files.transcript_header(gid).players
    if tuple(players) != tuple(res.players):
        return (f"its players {list(res.players)} are not those of transcripts/{gid}.jsonl "
                f"{list(players)}", RESCORE)
    if digest is not None and files.scores_digest(gid) is None:
        return f"scores/{gid}.json is missing or unreadable", RESCORE
    if digest is not None and files.scores_digest(gid) != digest:
        return f"scores/{gid}.json is not the score record written with it", RESCORE
    rec = files.load_scores(gid)
    why = (_disagreement(res, rec, gid) if digest is None else None) or \
        record_problem(rec, gid, rules, files.transcript_digest)
    if why is None:
        return None
    broken = files.transcript_problem(gid)  # an edited transcript run cannot read is played again
    return (why, RESCORE) if broken is None else (
        f"{why}; transcripts/{gid}.jsonl cannot be read ({broken})", REPLACE)


def cross_check_results(lines: Iterable[tuple[int, GameResult, str | None]], files: StoredGames,
                        rules: RunRules) -> tuple[dict[str, GameResult], list[int], list[str]]:
    """The trusted results by game id in file order (the last trusted line of a game wins),
    the numbers of those lines, and one warning per ignored line. A line that records the
    digest of its score record (``scores_sha256``) is checked by that digest (no parsing);
    an older line by comparing the records."""
    trusted: dict[str, tuple[int, GameResult]] = {}
    warnings: list[str] = []
    for n, res, digest in lines:
        bad = _line_problem(res, digest, files, rules)
        if bad is not None:
            warnings.append(f"{files.path / 'results.jsonl'}:{n}: ignored the result line of game "
                            f"{res.game_id}: {bad[0]}; it is not used, and {bad[1]}")
            continue
        trusted[res.game_id] = (n, res)
    in_order = sorted(trusted.values(), key=lambda x: x[0])
    return {r.game_id: r for _, r in in_order}, [n for n, _ in in_order], warnings


def stray_transcripts(ids: Iterable[str], files: StoredGames, rules: RunRules,
                      checked: set[str]) -> list[tuple[str, str]]:
    """(game id, warning) per stored transcript (of a game without a result line:
    ``checked`` were warned about already) that ``chatmatch run`` would refuse: not in the
    schedule, another game's players or seed, the wrong shape, or not a regular file."""
    out = []
    for gid in sorted(set(ids) - checked):
        bad = game_problem(gid, files, rules)
        if bad is not None and refuses(bad[1]):
            out.append((gid, f"{files.path / 'transcripts' / (gid + '.jsonl')}: ignored game "
                             f"{gid}: {bad[0]}; {bad[1]}"))
    return out


def safe_id(gid: object) -> bool:
    return isinstance(gid, str) and bool(gid) and "/" not in gid and "\\" not in gid \
        and gid not in (".", "..") and "\x00" not in gid


def read_header(path: Path, gid: str) -> Header:
    """The header (first line) of the stored transcript of game ``gid``, read without the
    turns; its ``problem`` when it is missing, not a regular file, or unreadable."""
    try:
        check_regular(path)  # a named pipe would block the open
    except FileNotFoundError:
        return Header(problem="missing", missing=True)
    except IsADirectoryError:
        return Header(problem="a folder, not a regular file", special=True)
    except OSError as exc:
        special = exc.strerror is not None and "not a regular file" in exc.strerror
        return Header(problem=why_unreadable(exc), special=special)
    try:
        with open(path, encoding="utf-8") as fh:
            header = json.loads(fh.readline(1_000_000))
    except (OSError, UnicodeDecodeError) as exc:
        return Header(problem=why_unreadable(exc))
    except (ValueError, RecursionError):
        return Header(problem="its first line is not a JSON game header")
    players = header.get("players") if isinstance(header, dict) else None
    other = header.get("game_id") if isinstance(header, dict) else None
    if isinstance(other, str) and other != gid and safe_id(other):
        return Header(problem=f"it holds game {other!r}", holds=other)
    if not isinstance(header, dict) or other != gid or not isinstance(players, list) \
            or not all(isinstance(p, str) for p in players):
        return Header(problem=f"its first line is not the header of game {gid}")
    seed = header.get("seed_utterance")
    return Header(tuple(players), seed if isinstance(seed, str) else None)

"""Which lines of ``results.jsonl`` a run may trust: :func:`cross_check_results`, the one
integrity check every reader of a run directory goes through (``RunDir.results``: rank,
show, report, plot, analyze, compare, and a resume).

A checksum only proves that a line was not torn or edited under its checksum; a line
copied from another run of the same bots (same game ids, another seed) has a valid one.
So a result line is used only when it agrees with the rest of the run directory:

* its game has a transcript (``transcripts/GID.jsonl``) -- a result with none is not a game
  of this run;
* its score record (``scores/GID.json``, written just before the line; new lines record
  the record's sha256 in ``scores_sha256``, checked without parsing the record) names the same
  game, the same players and the same points, and the same raw scores on the dimensions
  both hold (or the same forfeit);
* on a resume the game must also be scheduled (:func:`chatmatch.run.resume.check_stored_games`).

A line that fails is ignored with a warning naming the line, the game and the reason; the
game is then scored again from its transcript by the next ``chatmatch run``, which writes
``results.jsonl`` back without the ignored lines. Nothing is guessed: a game whose only
result lines are untrusted has no result until it is scored again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Iterable

from chatmatch.common.safeio import check_regular
from chatmatch.records import GameResult, ScoreRecord
from chatmatch.rundir.resultsfile import dumps


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


def cross_check_results(lines: Iterable[tuple[int, GameResult, str | None]], run: Path,
                        load_scores: Callable[[str], ScoreRecord | None],
                        scores_digest: Callable[[str], str | None],
                        players_of: Callable[[str], tuple[str, ...] | None],
                        transcript_digest: Callable[[str], str | None] = lambda gid: None,
                        ) -> tuple[dict[str, GameResult], list[int], list[str]]:
    """The trusted results by game id in file order (the last trusted line of a game wins),
    the numbers of those lines, and one warning per ignored line. ``players_of(gid)``:
    the players of the game's transcript, None when the run has no transcript of it. A line
    that records the digest of its score record (``scores_sha256``) is checked by that
    digest (no parsing); an older line by comparing the records. Either way, a score
    record that names the digest of the transcript it was made from
    (``transcript_sha256``) is used only while the transcript is unchanged: the one rule
    of every command that reads a run (:func:`stale_scores`)."""
    trusted: dict[str, tuple[int, GameResult]] = {}
    warnings: list[str] = []
    for n, res, digest in lines:
        gid = res.game_id
        players = players_of(gid) if _safe_id(gid) else None
        if players is None:
            why: str | None = "the run has no transcript of that game"
        elif tuple(players) != tuple(res.players):
            why = f"its players {list(res.players)} are not those of transcripts/{gid}.jsonl {list(players)}"
        elif digest is not None and scores_digest(gid) is None:
            why = f"scores/{gid}.json is missing or unreadable"
        elif digest is not None and scores_digest(gid) != digest:
            why = f"scores/{gid}.json is not the score record written with it"
        else:
            rec = load_scores(gid)
            why = (_disagreement(res, rec, gid) if digest is None else None) or \
                stale_scores(rec, gid, transcript_digest)
        if why is not None:
            warnings.append(f"{run / 'results.jsonl'}:{n}: ignored the result line of game {gid}: "
                            f"{why}; it is not used, and `chatmatch run` scores the game again "
                            "from its transcript")
            continue
        trusted[gid] = (n, res)
    in_order = sorted(trusted.values(), key=lambda x: x[0])
    return {r.game_id: r for _, r in in_order}, [n for n, _ in in_order], warnings


def stale_scores(rec: ScoreRecord | None, gid: str,
                 transcript_digest: Callable[[str], str | None]) -> str | None:
    """Why the score record ``rec`` of game ``gid`` must not be used because its transcript
    changed after it was scored (None: it may be used, or it predates the check)."""
    if rec is None or rec.transcript_sha256 is None:
        return None
    if transcript_digest(gid) != rec.transcript_sha256:
        return f"transcripts/{gid}.jsonl was changed after the game was scored"
    return None


def _safe_id(gid: object) -> bool:
    return isinstance(gid, str) and bool(gid) and "/" not in gid and "\\" not in gid \
        and gid not in (".", "..") and "\x00" not in gid


def transcript_players(path: Path, gid: str) -> tuple[str, ...] | None:
    """The players named in the header (first line) of the stored transcript of game
    ``gid``, without reading the turns; None when there is no readable transcript of it."""
    try:
        check_regular(path)  # a named pipe would block the open
        with open(path, encoding="utf-8") as fh:
            header = json.loads(fh.readline(1_000_000))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(header, dict) or header.get("game_id") != gid:
        return None
    players = header.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        return None
    return tuple(players)

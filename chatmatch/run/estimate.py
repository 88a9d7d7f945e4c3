"""What a run has left to play, and roughly how long it takes: read from the run directory
(the stored transcripts' headers and turn times) before the run starts, for ``chatmatch
run``'s first lines. Only what these lines need is read; a file that cannot be read counts
as not stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

from chatmatch.common.safeio import read_text_bounded
from chatmatch.play.schedule import ScheduledGame
from chatmatch.progress import fmt_duration
from chatmatch.run.plan import RunPlan

#: per-turn times an estimate is given for when the run directory has no timings yet:
#: a rule-based or hosted bot, and a small local model on CPU
_ASSUMED_SECONDS_PER_TURN = (0.05, 1.0)


def games_left(plan: RunPlan, replay_forfeits: bool) -> list[ScheduledGame]:
    """The games the run of ``plan`` plays first: those of its schedule not stored yet (with
    ``replay_forfeits``, the forfeited ones too), cut to what a game budget leaves (the
    rounds pick which)."""
    schedule, target = plan.schedule, plan.path
    todo = games_to_play(schedule, target, replay_forfeits)
    if plan.total < len(schedule):  # a game budget plays part of the schedule
        stored = len(schedule) - len(games_to_play(schedule, target, False))
        todo = todo[:max(0, plan.total - stored) + len(todo) - (len(schedule) - stored)]
    return todo


def _measured_seconds_per_turn(run_dir: Path, sample: int = 50) -> dict[str, float]:
    """Each bot's mean turn time recorded in up to ``sample`` stored transcripts (bots with
    no timings are left out)."""
    total: dict[str, float] = {}
    turns: dict[str, int] = {}
    try:
        files = sorted((run_dir / "transcripts").glob("*.jsonl"))[:sample]
        for f in files:
            for line in read_text_bounded(f).splitlines()[1:]:
                rec = json.loads(line)
                if not rec.get("seed") and rec.get("speaker") is not None:
                    who = str(rec["speaker"])
                    total[who] = total.get(who, 0.0) + float(rec.get("seconds") or 0.0)
                    turns[who] = turns.get(who, 0) + 1
    except (OSError, ValueError, TypeError, AttributeError, RecursionError):
        return {}
    return {b: total[b] / turns[b] for b in total if turns[b] and total[b] > 0}


def forfeited_games(run_dir: Path) -> set[str]:
    """The stored games that ended in a forfeit (``--replay-forfeits`` plays them again)."""
    out = set()
    try:
        for f in (run_dir / "transcripts").glob("*.jsonl"):
            head = json.loads(read_text_bounded(f).partition("\n")[0] or "{}")
            if isinstance(head, dict) and (head.get("meta") or {}).get("forfeit"):
                out.add(f.stem)
    except (OSError, ValueError, AttributeError, RecursionError):
        return out
    return out


def games_to_play(schedule: Sequence[ScheduledGame], run_dir: Path,
                  replay_forfeits: bool) -> list[ScheduledGame]:
    """The games of ``schedule`` a run will play: those not stored yet, and with
    ``replay_forfeits`` the forfeited ones too."""
    folder = run_dir / "transcripts"
    try:
        stored = {f.stem for f in folder.glob("*.jsonl")} if folder.is_dir() else set()
    except OSError:
        stored = set()
    if replay_forfeits:
        stored -= forfeited_games(run_dir)
    return [g for g in schedule if g.game_id not in stored]


def estimate_line(todo: Sequence[ScheduledGame], exchanges: int, run_dir: Path) -> str:
    """How many games and bot turns are left to play (the seed utterance is no bot's turn,
    as on the progress bar), and roughly how long that takes: from each player's own turn
    time measured so far when every player of those games has one."""
    per_game = 2 * exchanges - 1
    turns = len(todo) * per_game
    head = f"{len(todo):,} game(s) to play ({turns:,} bot turns)"
    if not todo:
        return head + "; nothing to play"
    measured = _measured_seconds_per_turn(run_dir)
    if all(p in measured for g in todo for p in g.players):
        # the starter's seed is given: it answers exchanges - 1 times, the other exchanges
        secs = sum(measured[g.players[0]] * (exchanges - 1) + measured[g.players[1]] * exchanges
                   for g in todo)
        return head + f"; {fmt_duration(secs, about=True)} at each bot's turn time measured so far, one game at a time"
    lo, hi = _ASSUMED_SECONDS_PER_TURN
    return (head + f"; {fmt_duration(turns * lo, about=True)} at {lo} s a turn, {fmt_duration(turns * hi, about=True)} at {hi} s "
            "a turn (the progress line shows the real ETA)")

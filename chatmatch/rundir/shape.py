"""A stored game's shape against the run's schedule: the part of the one stored-games check
(:func:`chatmatch.rundir.integrity.game_problem`) that reads a transcript's turns.

A game of ``exchanges`` exchanges has ``2 * exchanges`` turns: turn 0 is the scheduled
seed utterance, spoken on behalf of the starter (``seed: true``, the only seed turn), and
then the two bots alternate, the other bot first (:mod:`chatmatch.play.game`). The
one legitimate shorter game is a forfeit: the game ends at the turn where a bot failed
for good, and the transcript's header records it (``meta.forfeit``: that bot, the one
whose turn came next, and the turn). The header's ``meta.random_seed`` (the game's
sampling seed, derived from the tournament seed and the game id) must be the
schedule's when it is recorded.

So a transcript copied from a run with other ``exchanges`` or another ``seed``, a
transcript cut short, a turn whose speaker was changed, or a seed turn edited is not a
game of this run, whatever its header and score record say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from chatmatch.records import Forfeit
from chatmatch.transcript import Transcript


@dataclass(frozen=True)
class Shape:
    """What the check reads of a stored transcript: who speaks each turn, which turns are
    marked as the seed, the first turn's text, the forfeit and the recorded random seed."""

    speakers: tuple[str, ...]
    seed_turns: tuple[int, ...]
    first_text: str | None
    forfeit: Forfeit | None
    random_seed: object = None

    @classmethod
    def of(cls, tr: Transcript) -> "Shape":
        return cls(tuple(t.speaker for t in tr.turns),
                   tuple(t.index for t in tr.turns if t.seed),
                   tr.turns[0].text if tr.turns else None, tr.forfeit,
                   tr.meta.get("random_seed"))


def shape_problem(gid: str, shape: Shape, players: Sequence[str], seed_utterance: str,
                  random_seed: int | None, turns: int | None) -> str | None:
    """Why the stored game ``gid`` (its transcript's ``shape``) is not the game the schedule
    has (``players``, starter first; ``seed_utterance``; ``random_seed``) in a run whose
    complete games have ``turns`` turns (None: not checked). None: it is."""
    where = f"transcripts/{gid}.jsonl"
    seed = shape.random_seed
    if random_seed is not None and isinstance(seed, int) and not isinstance(seed, bool) \
            and seed != random_seed:
        return (f"{where} was played with random seed {seed}, but game {gid} of this "
                f"tournament has {random_seed} (copied from a run with another seed?)")
    n = len(shape.speakers)
    if n == 0 or shape.seed_turns[:1] != (0,) or shape.first_text != seed_utterance:
        return (f"turn 0 of {where} is not the seed utterance this tournament schedules for "
                f"game {gid} ({_short(seed_utterance)}, marked \"seed\": true)")
    if len(shape.seed_turns) > 1:
        return f"turn {shape.seed_turns[1]} of {where} is marked as a seed utterance; only turn 0 is"
    wrong = next((i for i, s in enumerate(shape.speakers) if s != players[i % 2]), None)
    if wrong is not None:
        return (f"turn {wrong} of {where} is spoken by {shape.speakers[wrong]}, but the bots "
                f"alternate from the seed turn ({players[0]}), so turn {wrong} is "
                f"{players[wrong % 2]}'s (edited?)")
    return _length_problem(where, shape, n, players, turns)


def _length_problem(where: str, shape: Shape, n: int, players: Sequence[str],
                    turns: int | None) -> str | None:
    if turns is None:
        return None
    full = (f"a game of this tournament has {turns} ({turns // 2} exchanges, the seed "
            "utterance included)")
    ff = shape.forfeit
    if ff is None:
        if n == turns:
            return None
        return (f"{where} has {n} turns, but {full} and this one records no forfeit "
                f"({'cut short' if n < turns else 'longer'}, or copied from a run with other "
                "exchanges?)")
    if n >= turns:
        return f"{where} records a forfeit by {ff.bot} but has {n} turns; {full}"
    due = players[n % 2]
    if ff.bot != due or (ff.turn is not None and ff.turn != str(n)):
        at = f" at turn {ff.turn}" if ff.turn is not None else ""
        return (f"{where} records a forfeit by {ff.bot}{at}, but it ends after {n} turns, "
                f"where turn {n} was {due}'s (cut short or edited?)")
    return None


def _short(text: str, width: int = 60) -> str:
    return repr(text) if len(text) <= width else repr(text[:width - 3] + "...")

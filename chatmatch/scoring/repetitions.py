"""Algorithm 1 of the paper over one game: which turns repeat an earlier turn of their
speaker, and which of those are penalised (the rules are in :mod:`chatmatch.scoring.
diversity`, which scores them).

The verdicts are a per-game analysis that several scorers read (diversity, consistency,
and the scorers that leave repetitions out): the engine computes them once per game and
hands them over in the :class:`~chatmatch.scoring.context.ScoringContext`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Protocol, Sequence

import numpy as np

from chatmatch.scoring.features import GameSimilarity
from chatmatch.common.text import is_question
from chatmatch.transcript import Transcript


class Similarity(Protocol):
    """What Algorithm 1 reads of a game's similarities (TF-IDF or embeddings)."""

    def earlier(self, groups: Sequence[Sequence[int]]) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
        ...


@dataclass(frozen=True)
class Repetition:
    """Algorithm 1's verdict on one turn with a non-empty ``Rep(t)``."""

    turn: int
    speaker: str
    of: tuple[int, ...]
    question_of: int | None  # the original question when the turn is a repeated question
    penalised: bool
    #: when the turn is a repeated question: every earlier question of ``Rep(t)``
    questions: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "speaker": self.speaker, "repeats": list(self.of),
                "repeated_question_of": self.question_of, "penalised": self.penalised}


def find_repetitions(game: Transcript, sigma_r: float,
                     sim: Similarity | None = None) -> dict[int, Repetition]:
    """Algorithm 1 over a whole game: turn index -> :class:`Repetition`. ``Sim`` is
    ``sim`` (default: the game's TF-IDF :class:`GameSimilarity`, fit here)."""
    turns = game.turns
    questions = [is_question(t.text) for t in turns]
    groups: dict[str, list[int]] = {}
    for i, turn in enumerate(turns):
        groups.setdefault(turn.speaker, []).append(i)
    if sim is None:
        sim = GameSimilarity([t.text for t in turns])
    found: dict[int, tuple[tuple[int, ...], int | None, tuple[int, ...]]] = {}
    for t, earlier, sims in sim.earlier(list(groups.values())):
        hit = sims >= sigma_r
        if not hit.any():
            continue
        rep = tuple(int(u) for u in earlier[hit])
        original: int | None = None
        asked: tuple[int, ...] = ()
        if questions[t]:
            asked = tuple(u for u, v in zip(rep, sims[hit]) if questions[u])
            scored = [(float(v), u) for u, v in zip(rep, sims[hit]) if questions[u]]
            original = max(scored)[1] if scored else None
        found[t] = (rep, original, asked)
    out: dict[int, Repetition] = {}
    for t in sorted(found):
        rep, original, asked = found[t]
        prev = out.get(t - 1)
        after_repeated_question = prev is not None and prev.question_of is not None
        penalised = (original is not None or not after_repeated_question) and not turns[t].seed
        out[t] = Repetition(t, turns[t].speaker, rep, original, penalised, asked)
    return out


def penalised(reps: Mapping[int, Repetition]) -> frozenset[int]:
    """The turns of ``reps`` that Algorithm 1 penalises."""
    return frozenset(t for t, r in reps.items() if r.penalised)


def repeated(game: Transcript, reps: Mapping[int, Repetition]) -> frozenset[int]:
    """Every turn of ``reps`` (penalised or not) but the seed."""
    return frozenset(t for t in reps if not game.turns[t].seed)

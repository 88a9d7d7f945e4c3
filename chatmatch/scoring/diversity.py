"""Diversity: minus the number of repetitions (Algorithm 1 of the paper; higher is better).

``Sim`` is the TF-IDF cosine of two turns, the vectorizer fit on the game
(:func:`chatmatch.scoring.analysis.similarity_matrix`). For each turn ``t`` (never the
first turn, which has no history):

1. ``Rep(t)`` = the earlier turns of the *same speaker* (the seed utterance counts as the
   starter's) with ``Sim(t, u) >= sigma_r`` (default 0.95).
2. If ``Rep(t)`` is empty, ``t`` is not a repetition.
3. If ``t`` is a question (:func:`chatmatch.scoring.text.is_question`) and ``Rep(t)`` holds
   a question, ``t`` is a *repeated question* and is penalised; its *original* is the most
   similar such question (the latest one on a tie).
4. Otherwise ``t`` is penalised unless the turn just before it is a repeated question
   (answering a repeated question with the same answer is no fault: turn 4 of Figure 2).

The paper's pseudo-code says ``len(Rep(t)) >= 0``, which is always true; we read it as
``> 0``. A turn with no token (empty, punctuation only) has similarity 0 with everything,
so it is never a repetition. A seed turn is never penalised. Raw score: minus the number of
penalised turns. Details list every turn with a non-empty ``Rep(t)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
from pydantic import Field

from chatmatch.scoring.analysis import similarity_matrix
from chatmatch.scoring.base import SCORERS, DimensionScore, Scorer, ScorerParams
from chatmatch.scoring.common import zero_raw
from chatmatch.scoring.text import is_question
from chatmatch.transcript import Transcript

DEFAULT_SIGMA_R = 0.95


@dataclass(frozen=True)
class Repetition:
    """Algorithm 1's verdict on one turn with a non-empty ``Rep(t)``."""

    turn: int
    speaker: str
    of: tuple[int, ...]
    question_of: int | None  # the original question when the turn is a repeated question
    penalised: bool

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "speaker": self.speaker, "repeats": list(self.of),
                "repeated_question_of": self.question_of, "penalised": self.penalised}


def find_repetitions(game: Transcript, sim: np.ndarray, sigma_r: float) -> dict[int, Repetition]:
    """Algorithm 1 over a whole game: turn index -> :class:`Repetition`."""
    turns = game.turns
    questions = [is_question(t.text) for t in turns]
    out: dict[int, Repetition] = {}
    for t in range(1, len(turns)):
        rep = [u for u in range(t) if turns[u].speaker == turns[t].speaker and sim[t, u] >= sigma_r]
        if not rep:
            continue
        original = None
        if questions[t]:
            asked = [u for u in rep if questions[u]]
            original = max(asked, key=lambda u: (sim[t, u], u)) if asked else None
        prev = out.get(t - 1)
        after_repeated_question = prev is not None and prev.question_of is not None
        penalised = (original is not None or not after_repeated_question) and not turns[t].seed
        out[t] = Repetition(t, turns[t].speaker, tuple(rep), original, penalised)
    return out


@SCORERS.register("diversity", higher_is_better=True)
class Diversity(Scorer):
    name = "diversity"
    higher_is_better = True
    description = "minus the number of repetitions (Algorithm 1)"

    class Params(ScorerParams):
        sigma_r: float = Field(default=DEFAULT_SIGMA_R, ge=0.0, le=1.0)

    params: Params

    def score_games(self, games: Sequence[Transcript]) -> list[DimensionScore]:
        return [self.score_game(g) for g in games]

    def score_game(self, game: Transcript) -> DimensionScore:
        sim = similarity_matrix([t.text for t in game.turns])
        reps = find_repetitions(game, sim, self.params.sigma_r)
        raw = zero_raw(game)
        for r in reps.values():
            if r.penalised:
                raw[r.speaker] -= 1
        details = [r.to_json() for r in reps.values()]
        return DimensionScore(self.name, raw, self.higher_is_better, details)

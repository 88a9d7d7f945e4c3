"""Consistency: minus the number of inconsistencies (Algorithm 2; higher is better).

Triggered only after a repeated question (Algorithm 1, see
:mod:`chatmatch.scoring.diversity`): when turn ``p = t - 1`` is a repeated question whose
original is turn ``q``, the answer ``t`` is compared with the answer given to the
original, ``res = q + 1`` (it must be by the same speaker as ``t``). ``Sim(t, res) <=
sigma_c`` (default 0.8) is an inconsistency, charged to the speaker of ``t``: turn 8 of
the paper's Figure 2.

``sigma_r`` (which questions are repeated) is consistency's own parameter; left unset it
takes diversity's value in a scoring config (0.95 by default). If either answer has no
token (an empty turn), nothing is compared: an empty reply contradicts nothing. Raw
score: minus the number of inconsistencies. Details list every comparison made.
"""

from __future__ import annotations

from typing import Any, Sequence

from pydantic import Field

from chatmatch.scoring.analysis import similarity_matrix
from chatmatch.scoring.base import SCORERS, DimensionScore, Scorer, ScorerParams
from chatmatch.scoring.common import zero_raw
from chatmatch.scoring.diversity import DEFAULT_SIGMA_R, find_repetitions
from chatmatch.scoring.text import is_empty
from chatmatch.transcript import Transcript

DEFAULT_SIGMA_C = 0.8


@SCORERS.register("consistency", higher_is_better=True)
class Consistency(Scorer):
    name = "consistency"
    higher_is_better = True
    description = "minus the number of inconsistent answers to repeated questions (Algorithm 2)"

    class Params(ScorerParams):
        sigma_c: float = Field(default=DEFAULT_SIGMA_C, ge=0.0, le=1.0)
        #: None: the same as diversity's sigma_r (0.95 unless configured)
        sigma_r: float | None = Field(default=None, ge=0.0, le=1.0)

    params: Params

    def score_games(self, games: Sequence[Transcript]) -> list[DimensionScore]:
        return [self.score_game(g) for g in games]

    def score_game(self, game: Transcript) -> DimensionScore:
        turns = game.turns
        sim = similarity_matrix([t.text for t in turns])
        sigma_r = DEFAULT_SIGMA_R if self.params.sigma_r is None else self.params.sigma_r
        reps = find_repetitions(game, sim, sigma_r)
        raw = zero_raw(game)
        details: list[dict[str, Any]] = []
        for t in range(1, len(turns)):
            prev = reps.get(t - 1)
            if prev is None or prev.question_of is None or turns[t].seed:
                continue
            res = prev.question_of + 1
            if turns[res].speaker != turns[t].speaker or res >= t - 1:
                continue
            if is_empty(turns[t].text) or is_empty(turns[res].text):
                continue
            score = float(sim[t, res])
            bad = score <= self.params.sigma_c
            raw[turns[t].speaker] -= bad
            details.append({"turn": t, "speaker": turns[t].speaker, "repeated_question": t - 1,
                            "original_question": prev.question_of, "original_answer": res,
                            "similarity": round(score, 4), "inconsistent": bad})
        return DimensionScore(self.name, raw, self.higher_is_better, details)

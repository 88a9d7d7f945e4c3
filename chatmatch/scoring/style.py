"""Style measurements of a side, for length and style control in the ranking (``bt-style``).

* ``turn_length``: the side's mean words a turn (whitespace tokens of its own turns);
* ``markdown``: the share of the side's turns that hold a list or heading line
  (``- x``, ``* x``, ``1. x``, ``# x``).

They are not judgements of quality: list them in ``scoring.dimensions`` with weight 0 so
that they decide no point, and name them as ``ranking.bt-style.covariates`` (proactivity's
raw value, the share of turns that ask, serves as the question rate)::

    scoring:
      dimensions: [fluency, knowledge, proactivity, specificity, diversity, consistency,
                   relevance, turn_length, markdown]
      weights: {turn_length: 0, markdown: 0}
    ranking: {method: bt-style, bt-style: {covariates: [turn_length, proactivity]}}
"""

from __future__ import annotations

from typing import Sequence

from chatmatch.records import DimensionScore
from chatmatch.scoring.base import Scorer, ScoringContext
from chatmatch.scoring.learned.features import side_stats
from chatmatch.transcript import Transcript


class _Style(Scorer):
    stat = ""

    def score_games(self, games: Sequence[Transcript],
                    context: ScoringContext | None = None) -> list[DimensionScore]:
        out = []
        for g in games:
            raw = {p: side_stats(g, p)[self.stat] for p in g.players}
            out.append(DimensionScore(self.name, raw, self.higher_is_better))
        return out


class TurnLength(_Style):
    name = "turn_length"
    description = "mean words a turn (a style covariate, not a quality: give it weight 0)"
    stat = "turn_words"


class Markdown(_Style):
    name = "markdown"
    description = "share of turns with list or heading lines (a style covariate: weight 0)"
    stat = "list_rate"


__all__ = ["Markdown", "TurnLength"]

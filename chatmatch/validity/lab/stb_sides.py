"""Spot The Bot's per-side checkboxes as ratings, for the per-dimension table.

Besides "human or bot", a Spot The Bot worker ticks, for each side of the segment, whether
it was *fluent*, *specific* and *sensible* (``fluencyValue``, ``specificityValue``,
``sensitivenessValue``). Each side of each judged bot-bot conversation becomes one rated
"chat" of its system: its ratings are the shares of the conversation's annotations that
ticked each box, plus ``human`` (the share that judged it human, the fooling rate's unit);
its measured values are its own raw scores in that game (oriented, higher = better) and
its game points against the partner (``ranking``). Conversations nobody judged are left
out. The workers saw a segment (the first 2-10 turns); chatmatch scores the whole
conversation: a loose fit on the longer conversations.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Mapping, Sequence

from chatmatch.records import DimensionScore
from chatmatch.scoring.points import result_from_scores
from chatmatch.transcript import Transcript
from chatmatch.validity.lab.dimensions import RANKING, SYSTEM
from chatmatch.validity.datasets.human_stb import Judgement

HUMAN = "human"


@dataclass(frozen=True)
class Side:
    """One bot's side of a conversation as a rated chat: its turns are labelled ``System``."""

    system: str
    turns: tuple[tuple[str, str], ...]
    ratings: Mapping[str, float]


def _ratings(js: Sequence[Judgement], k: int) -> dict[str, float]:
    boxes: dict[str, list[float]] = {}
    for j in js:
        for name, v in (j.qualities0 if k == 0 else j.qualities1):
            boxes.setdefault(name, []).append(v)
    out = {name: statistics.fmean(v) for name, v in boxes.items()}
    out[HUMAN] = statistics.fmean(float((j.human0 if k == 0 else j.human1) is True) for j in js)
    return out


def sides(games: Sequence[Transcript], judgements: Sequence[Judgement],
          scores: Sequence[Mapping[str, DimensionScore]],
          weights: Mapping[str, float]) -> tuple[list[Side], dict[str, list[float]]]:
    """The rated sides, and per dimension (and :data:`RANKING`) one value per side."""
    by_convo: dict[str, list[Judgement]] = {}
    for j in judgements:
        by_convo.setdefault(j.convo_id, []).append(j)
    out: list[Side] = []
    per_side: dict[str, list[float]] = {}
    for game, score in zip(games, scores):
        js = by_convo.get(game.game_id)
        if not js:
            continue
        total = result_from_scores(game.game_id, game.players, score, weights).total
        for k, p in enumerate(game.players):
            turns = tuple((SYSTEM if t.speaker == p else "User", t.text) for t in game.turns)
            out.append(Side(p, turns, _ratings(js, k)))
            for d, s in score.items():
                v = float(s.raw.get(p, math.nan))
                per_side.setdefault(d, []).append(v if s.higher_is_better else -v)
            per_side.setdefault(RANKING, []).append(total[p])
    return out, per_side

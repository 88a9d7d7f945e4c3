"""FED (Mehri & Eskenazi 2020) dialogue level as a lab dataset.

FED has no bot-bot games: each of its 125 dialogues is one person talking with Meena,
Mitsuku or another person, rated by people (``Overall`` 0-4 among others). Each dialogue is
scored as a chatmatch game between ``User`` and ``System`` (:mod:`chatmatch.analysis.fed`)
and only the ``System`` side is judged. Three agreement statistics are reported:

* **dialogue level** (the main one): Spearman's rho, over the dialogues, between the
  system's game points against its interlocutor (configured weights; that is what the
  dimension contributes to a chatmatch game) and the mean human ``Overall``;
* **system level**: Kendall's tau-b between the three systems ordered by their mean game
  points and by their mean ``Overall``. Three systems only: tau can be -1, -1/3, 1/3 or 1.
* **system level, cross-system games**: the same tau-b, with the systems ordered by the win
  rate of their System sides in games against the other systems' System sides
  (:func:`chatmatch.analysis.fed.cross_system_rates`): systems compared with each other, as
  a tournament compares bots, instead of each system with the person it talked to. The
  person's own scores follow the system's (a person answers a sensible turn sensibly), so
  the points against the person cancel part of what the system earned; this row does not.

For the first two, "alone" correlates the dimension's own raw score (oriented so higher is
better; a point against the user is too coarse to rank 125 dialogues) with ``Overall``, and
"minus" drops the dimension from the game points. For the cross-system games, "alone" plays
them on that dimension only (weight 1) and "minus" with its weight set to 0. Nothing here is random: the seed spread does not apply.
A dimension *fires* in a dialogue when the system's and the user's raw scores differ.

The DSTC9 dataset (:mod:`chatmatch.validity.datasets.dstc9`) is evaluated the same way, with its
``human (overall)`` rating as ``overall`` (11 systems: its system level is a measurement).
"""

from __future__ import annotations

import math
from typing import Any, Mapping, Protocol, Sequence

from chatmatch.stats.correlation import kendall, spearman
from chatmatch.analysis.fed import (OVERALL, SYSTEM, cross_system_rates, system_means, system_points,
                                    system_side)
from chatmatch.records import DimensionScore, nan_to_none
from chatmatch.scoring.points import dimension_winner
from chatmatch.transcript import Transcript
from chatmatch.validity.lab.dimensions import RatedChat

DIALOGUE, SYSTEM_LEVEL = "dialogue Overall", "system Overall"
CROSS = "system Overall, cross-system games"
FED_NOTES = ("no ranking randomness: the seed spread does not apply",
             "system level has 3 systems (Meena, Mitsuku, Human): tau is -1, -1/3, 1/3 or 1")


class Chat(RatedChat, Protocol):
    """A rated human-bot chat (FED's FedDialogue, DSTC9's Dstc9Chat)."""

    def transcript(self) -> Transcript: ...


def _agreement(dialogues: Sequence[Chat], values: Sequence[float],
               overall: str = OVERALL) -> dict[str, float | None]:
    """Dialogue-level rho and system-level tau of ``values`` (higher = better) with Overall."""
    pairs = [(v, d.ratings[overall]) for v, d in zip(values, dialogues)
             if overall in d.ratings and not math.isnan(v)]
    rho = spearman([p[0] for p in pairs], [p[1] for p in pairs]).value
    mine = system_means(dialogues, values)
    human = system_means(dialogues, [d.ratings.get(overall, math.nan) for d in dialogues])
    systems = sorted(set(mine) & set(human))
    t = kendall([mine[s] for s in systems], [human[s] for s in systems]).value
    return {DIALOGUE: nan_to_none(rho, 4), SYSTEM_LEVEL: nan_to_none(t, 4)}


def _cross(dialogues: Sequence[Chat], scores: Sequence[Mapping[str, DimensionScore]],
           weights: Mapping[str, float], overall: str) -> float | None:
    """System tau of the cross-system games' win rates with ``overall``."""
    return _agreement(dialogues, cross_system_rates(dialogues, scores, weights), overall)[SYSTEM_LEVEL]


def game_points(dialogues: Sequence[Chat], scores: Sequence[Mapping[str, DimensionScore]],
                weights: Mapping[str, float]) -> list[float]:
    """The System's game points against its interlocutor, awarded as a tournament awards
    them (a dimension that does not apply to either side gives nobody its point)."""
    return system_points([d.transcript() for d in dialogues], scores, weights)


def evaluate_fed(dialogues: Sequence[Chat], scores: Sequence[Mapping[str, DimensionScore]],
                 weights: Mapping[str, float], *, dataset: str = "fed", overall: str = OVERALL,
                 notes: Sequence[str] = FED_NOTES) -> dict[str, Any]:
    dims = list(scores[0]) if scores else []
    full = _agreement(dialogues, game_points(dialogues, scores, weights), overall)
    full[CROSS] = _cross(dialogues, scores, weights, overall)
    fires: dict[str, float] = {}
    alone: dict[str, dict[str, float | None]] = {}
    minus: dict[str, dict[str, float | None]] = {}
    oriented, _ = system_side(scores)
    for dim in dims:
        decided = 0
        for game in scores:
            s = game[dim]
            other = next((p for p in s.raw if p != SYSTEM), None)
            if other is not None and not s.not_applicable:
                mine = float(s.raw.get(SYSTEM, math.nan))
                decided += dimension_winner(mine, float(s.raw[other]), s.higher_is_better) != 0
        fires[dim] = decided / len(dialogues) if dialogues else 0.0
        alone[dim] = (_agreement(dialogues, oriented[dim], overall) if fires[dim] > 0
                      else {DIALOGUE: None, SYSTEM_LEVEL: None})
        alone[dim][CROSS] = _cross(dialogues, scores, {x: float(x == dim) for x in dims}, overall)
        without = {**weights, dim: 0.0}
        if any(without.get(x, 1.0) > 0 for x in dims):
            minus[dim] = _agreement(dialogues, game_points(dialogues, scores, without), overall)
            minus[dim][CROSS] = _cross(dialogues, scores, without, overall)
    people = system_means(dialogues, [d.ratings.get(overall, math.nan) for d in dialogues])
    refs = {}
    for name, statistic in ((DIALOGUE, "spearman_rho"), (SYSTEM_LEVEL, "kendall_tau_b"),
                            (CROSS, "kendall_tau_b")):
        refs[name] = {"statistic": statistic, "full": full[name],
                      "reference_order": sorted(people, key=lambda s: -people[s])
                      if name != DIALOGUE else None,
                      "reference_scores": {s: round(v, 4) for s, v in people.items()}
                      if name != DIALOGUE else None,
                      "seeds": None, "shorter": None, "longer": None,
                      "alone": {d: alone[d][name] for d in dims},
                      "minus": {d: minus[d][name] for d in minus}}
    never = [d for d in dims if fires[d] == 0]
    notes = list(notes)
    if never:
        notes.append(f"never fires against the user (system and user always tie), so no "
                     f"'alone' value but the cross-system games': "
                     f"{', '.join(never)}")
    return {"dataset": dataset, "kind": "fed", "bots": sorted(people), "games": len(dialogues),
            "facts": {"dialogues": len(dialogues)}, "ranking": None, "references": refs,
            "dimensions": {d: {"fires": round(fires[d], 4),
                               "fired_games": round(fires[d] * len(dialogues)),
                               "fires_shorter": None, "fires_longer": None,
                               "never_fires": fires[d] == 0} for d in dims},
            "notes": notes}

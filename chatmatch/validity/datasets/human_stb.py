"""Human rankings of systems from Spot The Bot judgements (Deriu et al., EMNLP 2020).

In Spot The Bot a crowd worker reads a *segment* of a bot-bot conversation (its first 2, 4,
6 or 10 turns, the ``decision_turn``) and says of each side whether it is a human, a bot,
or cannot decide. The authors' repository (``templates/src/segment_analysis/
win_function.py``, ``compute_naive_winner_for_annotation``; ``segmented_bootstrap_sampling.py``,
``bootstrap_sampling``) turns this into a ranking:

1. **One annotation, one match.** Each side scores 2 if judged human, 1 if undecided, 0 if
   judged a bot; the higher score wins the segment. With equal scores the side that was
   spotted at a later ``decision_turn`` (it *survived* longer) wins; otherwise it is a draw.
   (In the released data both sides of an annotation always carry the same decision turn,
   so survival never decides a match there; it is kept for data that records it per side.)
2. **Pairwise win rate.** For systems a and b: wins of a over b / (wins of a + wins of b);
   draws are left out (as the authors do).
3. **Score** of a system: its pairwise win rates summed over every other system, divided by
   (number of systems - 1); the ranking is by this mean pairwise win rate.

The simpler signal is the **fooling rate**: the share of annotations of a system in which it
was judged human (undecided counts as not fooled).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Iterable, Mapping


@dataclass(frozen=True)
class Judgement:
    """One crowd annotation of one segment: what was said of each side."""

    system0: str
    system1: str
    human0: bool | None  # True: judged human, False: judged a bot, None: undecided
    human1: bool | None
    turn0: int | None = None  # decision turn of each side
    turn1: int | None = None
    convo_id: str = ""
    #: what the worker ticked of each side: fluent, specific, sensible (1.0 / 0.0)
    qualities0: tuple[tuple[str, float], ...] = ()
    qualities1: tuple[tuple[str, float], ...] = ()


#: the annotation's per-side checkboxes -> the quality names the lab uses
QUALITY_KEYS = {"fluencyValue": "fluent", "specificityValue": "specific",
                "sensitivenessValue": "sensible"}


def _qualities(side: Mapping[str, Any]) -> tuple[tuple[str, float], ...]:
    return tuple((name, 1.0 if side[key] else 0.0) for key, name in QUALITY_KEYS.items()
                 if isinstance(side.get(key), bool))


def _side(is_human: bool | None) -> int:
    return 2 if is_human is True else 1 if is_human is None else 0


def segment_outcome(j: Judgement) -> int:
    """+1 if system0 won the segment, -1 if system1 did, 0 for a draw."""
    s0, s1 = _side(j.human0), _side(j.human1)
    if s0 != s1:
        return 1 if s0 > s1 else -1
    if s0 < 2 and j.turn0 is not None and j.turn1 is not None and j.turn0 != j.turn1:
        return 1 if j.turn0 > j.turn1 else -1  # neither judged human: the later-spotted survives
    return 0


def pairwise_wins(judgements: Iterable[Judgement]) -> dict[tuple[str, str], int]:
    """(a, b) -> segments a won against b."""
    wins: dict[tuple[str, str], int] = defaultdict(int)
    for j in judgements:
        out = segment_outcome(j)
        if out > 0:
            wins[j.system0, j.system1] += 1
        elif out < 0:
            wins[j.system1, j.system0] += 1
        else:  # make sure the pair is known even when it only drew
            wins[j.system0, j.system1] += 0
    return dict(wins)


def win_rate_scores(judgements: Iterable[Judgement]) -> dict[str, float]:
    """Mean pairwise win rate of every system (the authors' Spot The Bot score)."""
    js = list(judgements)
    systems = sorted({s for j in js for s in (j.system0, j.system1)})
    wins = pairwise_wins(js)
    n = len(systems)
    scores = {s: 0.0 for s in systems}
    for a in systems:
        for b in systems:
            if a == b:
                continue
            w, l = wins.get((a, b), 0), wins.get((b, a), 0)
            if w + l:
                scores[a] += (w / (w + l)) / (n - 1)
    return scores


def fooling_rates(judgements: Iterable[Judgement]) -> dict[str, float]:
    """Share of each system's annotations in which it was judged human."""
    fooled: dict[str, int] = defaultdict(int)
    seen: dict[str, int] = defaultdict(int)
    for j in judgements:
        for system, human in ((j.system0, j.human0), (j.system1, j.human1)):
            seen[system] += 1
            fooled[system] += human is True
    return {s: fooled[s] / seen[s] for s in sorted(seen)}


def judgement_from_record(rec: Mapping[str, Any], convo: Mapping[str, Any]) -> Judgement:
    """A Spot The Bot annotation record (``annotated-dialogues-full-*.json``) joined with
    its conversation record; raises KeyError/TypeError on a malformed record."""
    e0, e1 = rec["entity0_annotation"], rec["entity1_annotation"]
    return Judgement(str(convo["system_type0"]), str(convo["system_type1"]),
                     _bool_or_none(e0.get("is_human")), _bool_or_none(e1.get("is_human")),
                     _int_or_none(e0.get("decision_turn")), _int_or_none(e1.get("decision_turn")),
                     str(rec.get("convo_id", "")), _qualities(e0), _qualities(e1))


def _bool_or_none(v: Any) -> bool | None:
    if v is None or isinstance(v, bool):
        return v
    raise TypeError(f"is_human must be true, false or null, got {v!r}")


def _int_or_none(v: Any) -> int | None:
    if v is None:
        return None
    if isinstance(v, dict) and "$numberLong" in v:  # MongoDB extended JSON
        v = v["$numberLong"]
    return int(v)

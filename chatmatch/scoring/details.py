"""What a scorer's per-turn details say, in words: the one source of the turn notes that
``chatmatch show`` prints under a turn and the HTML report puts beside it.

A :class:`TurnNote` is ``scored`` when the detail found something that counts (a question,
a penalised repetition, an inconsistency, a new entity, a memory bonus); ``shown`` notes
are printed by ``chatmatch show`` too (what scored, a repetition that was not penalised,
the perplexity); the rest are measurements only the report lists.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

from chatmatch.records import ScoreRecord

#: detail keys that say where a detail is, not what it found
_WHERE = {"turn", "index", "speaker", "text"}


@dataclass(frozen=True)
class TurnNote:
    dimension: str
    text: str
    scored: bool = False
    shown: bool = False


def _entity(e: Any) -> str:
    return f"{e[0]} ({e[1]})" if isinstance(e, (list, tuple)) and len(e) == 2 else str(e)


def _concept(c: Any) -> str:
    if isinstance(c, Mapping) and "lemma" in c:
        prev = c.get("previous_turn")
        return f"{c['lemma']} (turn {prev})" if prev is not None else str(c["lemma"])
    return str(c)


def _generic(dim: str, d: Mapping[str, Any]) -> list[TurnNote]:
    """Any other scorer: a true flag, a positive count or a non-empty list or text is a
    finding; floats are measurements."""
    found, measures = [], []
    for k, v in d.items():
        if k in _WHERE or v is None or v is False:
            continue
        if v is True:
            found.append(k)
        elif isinstance(v, int) and v > 0 or isinstance(v, (list, dict, str)) and v:
            found.append(f"{k}: {', '.join(map(str, v)) if isinstance(v, list) else v}")
        elif isinstance(v, float) and not math.isnan(v):
            measures.append(f"{k} {v:.3g}")
    text = "; ".join(found + measures)
    return [TurnNote(dim, text, bool(found))] if text else []


def detail_notes(dim: str, d: Mapping[str, Any]) -> list[TurnNote]:
    """The notes of one per-turn detail of dimension ``dim``."""
    if dim == "proactivity":
        n = int(d.get("questions") or 0)
        if n:
            return [TurnNote(dim, "question" if n == 1 else f"{n} questions", True, True)]
        return [TurnNote(dim, "0 questions")]
    if dim == "diversity":
        if not d.get("repeats"):
            return []
        of = ", ".join(map(str, d["repeats"]))
        if d.get("penalised"):
            return [TurnNote(dim, f"repetition of turn {of}", True, True)]
        return [TurnNote(dim, f"repeats turn {of} (not penalised)", False, True)]
    if dim == "consistency":
        if d.get("self_contradiction"):
            return [TurnNote(dim, f"contradicts its statement at turn {d.get('earlier_turn')}",
                             True, True)]
        if d.get("identity"):
            return [TurnNote(dim, f"changes its {d['identity']} stated at turn "
                                  f"{d.get('earlier_turn')}", True, True)]
        if d.get("inconsistent"):
            return [TurnNote(dim, f"inconsistent with turn {d.get('original_answer')}", True, True)]
        return [TurnNote(dim, f"consistent with the answer at turn {d.get('original_answer')}, "
                              f"similarity {d.get('similarity')}")]
    if dim == "knowledge":
        notes = []
        if d.get("new"):
            notes.append(TurnNote(dim, "entities: " + ", ".join(map(_entity, d["new"])), True, True))
        if d.get("already_mentioned"):
            notes.append(TurnNote(dim, "mentioned before: "
                                  + ", ".join(map(_entity, d["already_mentioned"]))))
        return notes
    if dim == "relevance":
        if isinstance(d.get("similarity"), (int, float)):  # method: reply
            return [TurnNote(dim, f"answers turn {d.get('answers')}, similarity "
                                  f"{float(d['similarity']):.2f}", False, True)]
        if not d.get("concepts"):
            return []
        return [TurnNote(dim, "memory bonus: " + ", ".join(map(_concept, d["concepts"])), True, True)]
    if dim == "specificity":
        return [TurnNote(dim, f"{d.get('new_unigrams', 0)} new words, {d.get('new_bigrams', 0)} "
                              f"new bigrams of {d.get('tokens', 0)} tokens")]
    if dim == "fluency":
        ppl = d.get("perplexity")
        if isinstance(ppl, (int, float)) and not math.isnan(float(ppl)):
            return [TurnNote(dim, f"ppl {float(ppl):.1f}", False, True)]
        return [TurnNote(dim, "no perplexity")]
    if dim == "learned" and isinstance(d.get("score"), (int, float)):
        why = ", ".join(f"{f} {c:+.2f}" for f, c in d.get("because") or [])
        return [TurnNote(dim, f"learned judge: {d.get('speaker')} scores {float(d['score']):+.2f}"
                              + (f" (most: {why})" if why else ""), True, True)]
    return _generic(dim, d)


def turn_notes(record: ScoreRecord | None) -> dict[int, list[TurnNote]]:
    """Per turn index, the notes of every per-turn detail in a game's score record."""
    notes: dict[int, list[TurnNote]] = {}
    for dim, details in (record.details() if record else {}).items():
        for d in details:
            turn = d.get("turn", d.get("index"))
            if isinstance(turn, int) and not isinstance(turn, bool):
                notes.setdefault(turn, []).extend(detail_notes(dim, d))
    return notes

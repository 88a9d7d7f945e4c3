"""The construct check's greedy small-LM group: cached per machine, its kind follows the
fluency LM, and its own verdict never changes the main one."""

from __future__ import annotations

import json

import pytest

from chatmatch.records import DimensionScore
from chatmatch.scoring.base import SCORERS
from chatmatch.validity.lab import construct
from chatmatch.validity.lab.construct import BLAND, HUMAN, add_greedy_group, evaluate_construct
from chatmatch.validity.lab.construct_greedy import GROUP, OWN_LM, cached_replies, smollm2_replies


def _fluency(**params):
    cls = SCORERS.get("fluency")
    return cls(cls.Params(**params))


def test_replies_are_generated_once_per_machine(tmp_path, monkeypatch):
    monkeypatch.setenv("CHATMATCH_CACHE_DIR", str(tmp_path))
    calls = []

    def generate(prompts):
        calls.append(list(prompts))
        return [p.upper() for p in prompts]

    assert cached_replies(["hi", "how are you"], generate) == ["HI", "HOW ARE YOU"]
    assert cached_replies(["hi", "how are you"], generate) == ["HI", "HOW ARE YOU"]
    assert len(calls) == 1
    assert cached_replies(["other"], generate) == ["OTHER"] and len(calls) == 2
    (tmp_path / "construct" / "greedy-v1.json").write_text("{not json")
    assert cached_replies(["hi", "how are you"], generate) == ["HI", "HOW ARE YOU"]
    assert len(calls) == 3 and len(json.loads((tmp_path / "construct" / "greedy-v1.json").read_text())) == 1


def _groups():
    return {"people": (HUMAN, [("x", "i went hiking with my brother last weekend")] * 3),
            "generic replies": (BLAND, [("how was your day", "I see.")] * 3)}


@pytest.mark.parametrize("params, kind", [({"backend": "ngram"}, BLAND), ({}, OWN_LM)])
def test_kind_follows_the_fluency_lm(params, kind, tmp_path, monkeypatch):
    monkeypatch.setenv("CHATMATCH_CACHE_DIR", str(tmp_path))
    groups = _groups()
    note = add_greedy_group(groups, _fluency(**params), generate=lambda ps: ["sure !"] * len(ps))
    assert groups[GROUP] == (kind, [("how was your day", "sure !")] * 3)
    assert ("self-preference" in note) == (kind == OWN_LM)


def test_own_lm_group_has_its_own_verdict():
    groups = {**_groups(), GROUP: (OWN_LM, [("a", "b")] * 3)}
    labels = [name for name, (_, pairs) in groups.items() for _ in pairs]

    def score(v):
        return DimensionScore("fluency", {construct.USER: 0.0, construct.SYSTEM: v},
                              higher_is_better=True)

    values = {"people": 1.0, "generic replies": 0.5, GROUP: 4.0}
    report = evaluate_construct(groups, labels, [score(values[lab]) for lab in labels], 20, 0)
    assert report["holds"] is True and report["own_lm_holds"] is False
    assert report["tau"] == pytest.approx(1.0)
    values[GROUP] = 0.1
    report = evaluate_construct(groups, labels, [score(values[lab]) for lab in labels], 20, 0)
    assert report["holds"] is True and report["own_lm_holds"] is True


@pytest.mark.slow
def test_real_smollm2_greedy_replies():
    pytest.importorskip("transformers")
    replies = smollm2_replies(["What did you do last week?", "i love my dog ."])
    assert len(replies) == 2 and all(isinstance(r, str) and r.strip() for r in replies)
    assert replies == smollm2_replies(["What did you do last week?", "i love my dog ."])  # greedy

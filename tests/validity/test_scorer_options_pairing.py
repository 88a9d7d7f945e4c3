"""benchmarks/scorer_options.py must pair a dimension's score and people's rating on the
same chats, as the lab does (chatmatch.stats.bootstrap.agreement): a dimension that
does not apply to a chat (NaN, consistency when nothing was tested) leaves that chat's
rating out too. Before the fix the script averaged people's rating over all of a
system's chats, and reported +0.24 for DSTC9 consistency where the lab reports -0.13."""

from __future__ import annotations

import importlib
import math
import sys
from pathlib import Path
from types import ModuleType

from chatmatch.stats.bootstrap import agreement


def _script() -> ModuleType:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        return importlib.import_module("scorer_options")
    finally:
        sys.path.pop(0)


NAN = math.nan
# three systems; the score applies to two chats of each. On the scored chats people
# rate a > b > c, on the unscored ones the opposite, and the score says a > b > c.
SYSTEMS = ["a"] * 4 + ["b"] * 4 + ["c"] * 4
RAW = [-0.1, -0.2, NAN, NAN, -0.4, -0.5, NAN, NAN, -0.8, -0.9, NAN, NAN]
PEOPLE = [0.9, 1.0, 0.0, 0.0, 0.6, 0.7, 0.5, 0.5, 0.3, 0.2, 1.0, 1.0]


def test_system_tau_uses_only_the_chats_the_score_applies_to():
    so = _script()
    tau = so.sys_tau(SYSTEMS, RAW, PEOPLE)
    assert tau == 1.0  # over all chats people's means would be c (0.63) > b (0.58) > a (0.48)


def test_system_tau_matches_the_lab():
    so = _script()
    lab, _, _, chats = agreement(SYSTEMS, RAW, PEOPLE, samples=10, seed=0)
    assert chats == 6
    assert so.sys_tau(SYSTEMS, RAW, PEOPLE) == lab.value


def test_unrated_chats_leave_the_score_out_too():
    so = _script()
    people: list[float | None] = [None, 1.0, 0.0, 0.0, 0.6, 0.7, 0.5, 0.5, 0.3, 0.2, 1.0, 1.0]
    raw = [-5.0, *RAW[1:]]  # an unrated chat with a very low score must not move system a
    assert so.sys_tau(SYSTEMS, raw, people) == 1.0

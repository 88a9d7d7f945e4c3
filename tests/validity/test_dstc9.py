"""The DSTC9 loader and System-side scoring, on a tiny folder in the release's format."""

import json
import math

import pytest

from chatmatch.scoring.config import ScoringConfig
from chatmatch.validity.datasets.dstc9 import (OVERALL, Dstc9Error, load_dstc9, parse_context,
                                      score_dstc9)
from tests.validity.dstc9_fixture import build
from tests.datafolder import DATA_DIR
from chatmatch.scoring.build import build_scorers

REAL = DATA_DIR / "dstc9"


def test_chats_grouped_by_context_and_na_skipped(tmp_path):
    data = load_dstc9(build(tmp_path / "dstc9"))
    assert data.systems == ["chatbot1", "chatbot2", "chatbot3"]
    assert len(data.chats) == 12
    c = data.chats[1]
    assert c.system == "chatbot1" and c.raters == 2
    # overall: 5 and 4 (second rater of an odd chat); inquisitive: 3 and "N/A" -> 3
    assert c.ratings[OVERALL] == 4.5 and c.ratings["inquisitive"] == 3
    assert data.human_by_system(OVERALL) == {"chatbot1": 4.75, "chatbot2": 2.75, "chatbot3": 0.75}
    assert [s for s, _ in c.turns] == ["User", "System"] * 3
    assert c.system_words() == [5, 9, 13]


def test_reply_on_the_line_after_the_speaker():
    turns = parse_context("User: hi\nSystem: \nhello, do you\nlike horror\nUser: no")
    assert turns == (("User", "hi"), ("System", "hello, do you like horror"), ("User", "no"))


def test_sample_is_seeded_and_per_system(tmp_path):
    data = load_dstc9(build(tmp_path / "d", chats=6))
    a, b, c = data.sample(2, seed=1), data.sample(2, seed=1), data.sample(2, seed=2)
    assert a == b and len(a.chats) == 6
    assert {ch.system for ch in a.chats} == set(data.systems)
    assert [ch.index for ch in a.chats] != [ch.index for ch in c.chats] or a == c
    assert data.sample(None) is data
    with pytest.raises(Dstc9Error, match="--sample 0"):
        data.sample(0)


def test_missing_and_bad_data_are_one_line_errors(tmp_path):
    with pytest.raises(Dstc9Error, match="DSTC9 folder not found"):
        load_dstc9(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(Dstc9Error, match="no chatbotN.json"):
        load_dstc9(tmp_path / "empty")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "chatbot1.json").write_text("{not json")
    with pytest.raises(Dstc9Error, match="not a readable JSON"):
        load_dstc9(bad)
    (bad / "chatbot1.json").write_text(json.dumps([{"diverse": 3}]))
    with pytest.raises(Dstc9Error, match="rating 0 has no 'context'"):
        load_dstc9(bad)


def test_system_side_scores_per_system(tmp_path):
    data = load_dstc9(build(tmp_path / "dstc9"))
    # "what ?" is generic and off-topic: only questions: all counts it
    # the fixture's systems say the same lines in every chat (canned turns would take their
    # questions): this test is about the per-system tables, so each chat counts alone
    cfg = ScoringConfig(dimensions=["proactivity", "specificity"],
                        params={"proactivity": {"questions": "all"}}, canned=False)
    scores = score_dstc9(data, build_scorers(cfg))
    pro = scores.per_system("proactivity")
    # chatbot1 asks two questions a chat, chatbot2 one ("what ?"), chatbot3 none
    assert pro["chatbot1"] > pro["chatbot2"] > pro["chatbot3"]
    assert len(scores.per_chat["specificity"]) == 12
    assert all(not math.isnan(p) for p in scores.points)
    assert set(scores.points_by_system()) == set(data.systems)


@pytest.mark.skipif(not REAL.is_dir(), reason=f"DSTC9 data not found at {REAL}; set CHATMATCH_DATA")
def test_real_dstc9_has_11_systems_of_200_chats():
    data = load_dstc9(REAL)
    assert len(data.systems) == 11 and len(data.chats) == 2200
    overall = data.human_by_system(OVERALL)
    # the README: systems are numbered by mean overall rating, best first
    assert sorted(overall, key=lambda s: -overall[s]) == [f"chatbot{i}" for i in range(1, 12)]
    # replies that start on the line after "System:" are joined, not left empty
    empty = sum(1 for c in data.chats for s, t in c.turns if s == "System" and not t)
    assert empty < 0.01 * sum(len(c.system_words()) for c in data.chats)

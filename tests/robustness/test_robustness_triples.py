"""Triples: seeded and reproducible; the closed-ended set; transcripts as a source."""

from __future__ import annotations

from pathlib import Path

import pytest

from chatmatch.robustness.perturb import CLOSED_KINDS
from chatmatch.robustness.triples import (Conversation, RobustnessError, build_triples, closed_triples,
                                          sample_at, transcript_conversations)

TEXTS = [("hi there", "hello! how are you?", "I'm good. I have two cats.", "I love cats. Do you like dogs?",
          "I do not like dogs much.", "Why not? I have three dogs.", "They bark a lot, I am sure.",
          "Yeah, they do. Where do you live?", "I live in Boston with my sister."),
         ("what do you do for fun?", "I play tennis on Sunday.", "Cool, me too. Who do you play with?",
          "My friend Maria. She is very good.", "I'm gonna watch a movie tonight.", "Which one?",
          "Probably Star Wars again.", "That is a classic. I watched it in 1999.")]
CONVS = [Conversation(f"c{i}", tuple("AB"[k % 2] for k in range(len(t))), t) for i, t in enumerate(TEXTS)]
FAMS = ["repetition", "negation", "dull", "echo", "number_change", "off_topic", "paraphrase", "speaker_swap"]


def test_same_seed_same_triples_other_seed_differs() -> None:
    a = build_triples(CONVS, FAMS, n=4, seed=1, window=4)
    b = build_triples(CONVS, FAMS, n=4, seed=1, window=4)
    c = build_triples(CONVS, FAMS, n=4, seed=2, window=4)
    assert [t.to_json() for t in a] == [t.to_json() for t in b]
    assert [t.to_json() for t in a] != [t.to_json() for t in c]
    assert {t.family for t in a} >= set(FAMS) - {"off_topic"}
    assert all(sum(t.family == f for t in a) <= 4 for f in FAMS)


def test_triples_are_what_they_claim() -> None:
    for t in build_triples(CONVS, FAMS, n=10, seed=0, window=4):
        conv = CONVS[int(t.source[1])]
        i = int(t.source.split("#")[1])
        assert t.good == conv.texts[i] and t.broken != t.good
        assert t.context.history == conv.texts[max(0, i - 4):i]
        assert t.context.speaker == conv.speakers[i]
        if t.family == "repetition":
            assert t.broken in t.context.own()
        if t.family == "echo":
            assert t.broken == t.context.partner_last()
        if t.family == "speaker_swap":
            assert t.broken == conv.texts[i + 1]
        if t.family == "off_topic":
            assert t.broken not in conv.texts


def test_sample_at_window_and_following() -> None:
    s = sample_at(CONVS[0], 4, window=2)
    assert s.context.history == ("I'm good. I have two cats.", "I love cats. Do you like dogs?")
    assert s.context.speakers == ("A", "B") and s.context.speaker == "A"
    assert s.good == "I do not like dogs much." and s.following == ("Why not? I have three dogs.",)
    assert sample_at(CONVS[0], 8, window=2).following == ()


def test_closed_ended_set_is_complete_and_well_formed() -> None:
    triples = closed_triples()
    assert {t.family for t in triples} == {f"closed_{k}" for k in CLOSED_KINDS}
    for kind in CLOSED_KINDS:
        assert sum(t.family == f"closed_{kind}" for t in triples) >= 8
    for t in triples:
        assert t.context.facts and t.broken != t.good and t.context.history
        assert t.context.speaker != t.context.speakers[-1]
    assert len({t.source for t in triples}) == len(triples)
    assert closed_triples(["closed_date"])[0].family == "closed_date"
    folder = Path(__file__).parents[2] / "chatmatch" / "robustness" / "data"
    assert "CC0" in (folder / "LICENSE").read_text()


def test_closed_ended_unknown_kind(tmp_path: Path) -> None:
    bad = tmp_path / "x.jsonl"
    bad.write_text('{"id": "x", "kind": "colour", "history": ["a"], "good": "b", "broken": ["c"]}\n')
    with pytest.raises(RobustnessError, match="x.jsonl:1: unknown kind 'colour'"):
        closed_triples(path=bad)


def test_transcripts_as_source(tmp_path: Path) -> None:
    (tmp_path / "g.txt").write_text("ann: hi there\nbob: hello, I have two cats\nann: nice, I have one dog\n"
                                    "bob: dogs are great\n")
    convs = transcript_conversations([tmp_path])
    assert convs[0].speakers == ("ann", "bob", "ann", "bob")
    triples = build_triples(convs, ["repetition", "negation"], n=5, seed=0)
    assert triples and all(t.context.speaker in ("ann", "bob") for t in triples)
    with pytest.raises(Exception, match="no such file"):
        transcript_conversations([tmp_path / "missing"])

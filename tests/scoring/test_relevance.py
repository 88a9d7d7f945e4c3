from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pytest
from fixed_params import params as fixed_params
from scoring_dialogues import FIGURE2, game

from chatmatch.errors import ChatmatchError
from chatmatch.scoring.relevance import Relevance, important_concepts
from chatmatch.transcript import Transcript

#: the paper's rule: a previous mention by either speaker counts, repetitions are credited
#: (the tests of Algorithm 3 name ``method: recall``; the default is ``method: reply``)
PAPER: dict[str, Any] = {"skip_repetitions": False}


def P(**values: Any) -> Relevance.Params:
    """Relevance's parameters; ``p``, ``d``, ``min_df``, ``restating``, ``model``, ``own_concepts`` (fixed
    today) at other values for the hand-computed cases; repeated turns score as any turn
    (``degenerate: keep``: the hand-computed cases repeat on purpose; tests/scoring/
    test_surface.py tests the default)."""
    values.setdefault("degenerate", "keep")
    return fixed_params(Relevance.Params, ("p", "d", "min_df", "restating", "model", "own_concepts"),
                        **values)


def test_the_default_is_the_replys_new_meaning_and_paper_pins_the_count() -> None:
    from chatmatch.config.presets import PRESETS

    p = Relevance.Params()
    assert (p.method, p.restating) == ("reply", "discounted")
    assert Relevance.Params(method="recall").unit == "turn_sqrt"
    assert PRESETS["paper"]["scoring.params.relevance.method"] == "recall"
    assert PRESETS["paper"]["scoring.params.relevance.unit"] == "count"


def test_figure2(figure2: Transcript) -> None:
    # content lemmas per turn (spaCy): 0 living | 1 student | 2 living | 3 student |
    # 4 live | 5 live small town sea | 6 live | 7 home big city mountain | 8 student busy
    # turns per lemma: living 2, student 3, live 3, all others 1. With min_df = 2 the IDF
    # list is living (2), live (3), student (3); top 50% = ceil(1.5) = 2 entries, the 2nd
    # has df 3, so ties give {living, live, student}.
    # paper's rule: bonuses (previous mention more than d=1 turns back): turn 2 living (0),
    # turn 3 student (1), turn 8 student (3, the paper's turn 9). "live" at 5, 6 is 1 back.
    s = Relevance(P(method="recall", unit="count", **PAPER)).score_games([figure2])[0]
    assert s.raw == {"A": 2, "B": 1}
    assert s.details == [
        {"turn": 2, "speaker": "A", "concepts": [{"lemma": "living", "previous_turn": 0}]},
        {"turn": 3, "speaker": "B", "concepts": [{"lemma": "student", "previous_turn": 1}]},
        {"turn": 8, "speaker": "A", "concepts": [{"lemma": "student", "previous_turn": 3}]},
    ]
    # default (skip_repetitions): turn 2 is a penalised repeated question and earns nothing
    new = Relevance(P(method="recall", unit="count")).score_games([figure2])[0]
    assert new.raw == {"A": 1, "B": 1}
    assert [(d["turn"], d.get("excluded")) for d in new.details] == [
        (2, "repetition"), (3, None), (8, None)]  # turn 2's bonus listed, and why it is none
    # own_concepts false: "living" was A's own (turn 0), turn 3's "student" B's own (turn
    # 1). Only turn 8 remembers the partner's concept, as in the paper's own account of
    # Figure 2 ("with this turn, A will win a bonus").
    partner = Relevance(P(method="recall", unit="count", own_concepts=False)).score_games([figure2])[0]
    assert partner.raw == {"A": 1, "B": 0}
    assert [d["turn"] for d in partner.details] == [8]


def test_distance_d() -> None:
    # d = 5: student at 8 was last mentioned 5 turns back (not > 5); the others 2 back
    s = Relevance(P(method="recall", unit="count", d=5, **PAPER)).score_games([game(FIGURE2)])[0]
    assert s.raw == {"A": 0, "B": 0}
    # d = 0: "live" at 5 (4 back by 1) and 6 (5 back by 1) now count too
    s0 = Relevance(P(method="recall", unit="count", d=0, **PAPER)).score_games([game(FIGURE2)])[0]
    assert s0.raw == {"A": 3, "B": 2}
    # with repetitions skipped 6 is a penalised repeated question; with own_concepts false
    # only 5 ("live", A's at 4) and 8 earn
    s1 = Relevance(P(method="recall", unit="count", d=0, own_concepts=False)).score_games([game(FIGURE2)])[0]
    assert s1.raw == {"A": 1, "B": 1}
    # by default B's turn 3 ("student", its own at 1) earns too
    assert Relevance(P(method="recall", unit="count", d=0)).score_games([game(FIGURE2)])[0].raw == {"A": 1, "B": 2}


def test_min_df_one_is_the_literal_reading_and_starves_the_bonus() -> None:
    # 11 lemmas, 8 used once: the top ceil(5.5) = 6 by IDF are all once-used -> no bonus
    s = Relevance(P(method="recall", unit="count", min_df=1)).score_games([game(FIGURE2)])[0]
    assert s.raw == {"A": 0, "B": 0}


def test_important_concepts_hand_computed() -> None:
    lemmas = [["a", "b"], ["a", "c"], ["a", "b", "d"], ["e"]]
    # df: a 3, b 2, c 1, d 1, e 1 -> with min_df 2: [b (2), a (3)]
    assert important_concepts(lemmas, 0.5, 2) == {"b"}
    assert important_concepts(lemmas, 1.0, 2) == {"a", "b"}
    # min_df 1: [c, d, e, b, a]; top ceil(0.5*5) = 3 -> {c, d, e}
    assert important_concepts(lemmas, 0.5, 1) == {"c", "d", "e"}
    assert important_concepts([[], []], 0.5, 2) == set()


def test_seed_mention_counts_as_history_but_earns_nothing() -> None:
    g = game(["Tell me about your garden.", "My garden is small.", "Lovely.",
              "I love my garden."], seed_first=True)
    # garden: turns 0 (seed), 1, 3 -> df 3, the only concept used twice (love 1, small 1,
    # tell 1, lovely 1). Turn 1: 1 back (not > 1); turn 3: 2 back -> bonus for B under the
    # paper's rule and by default; none with own_concepts false: the previous mention
    # (turn 1) was B's own.
    s = Relevance(P(method="recall", unit="count", **PAPER)).score_games([g])[0]
    assert s.raw == {"A": 0, "B": 1}
    assert Relevance(P(method="recall", unit="count")).score_games([g])[0].raw == {"A": 0, "B": 1}
    assert Relevance(P(method="recall", unit="count", own_concepts=False)).score_games([g])[0].raw == {"A": 0, "B": 0}
    # the seed is nobody's own turn: bringing back its concept is memory, even for the
    # starter whose mouth it was put in
    g2 = game(["Tell me about your garden.", "Lovely day.", "Hm, my garden is green.", "Ok."],
              seed_first=True)
    assert Relevance(P(method="recall", unit="count", own_concepts=False)).score_games([g2])[0].raw == {"A": 1, "B": 0}


def test_empty_emoji_one_word_non_english_and_ties() -> None:
    g = game(["", "😀", "football", "", "football", "😀 😀", "¿Fútbol?", "football"])
    s = Relevance(P(method="recall", unit="count", **PAPER)).score_games([g])[0]
    # only "football" is a concept used twice or more (turns 2, 4, 7). Turn 4 is 2 back
    # from 2 -> bonus A; turn 7 is 3 back from 4 -> bonus B. A tie 1-1.
    assert s.raw == {"A": 1, "B": 1}
    assert [d["turn"] for d in s.details] == [4, 7]
    # by default turn 4 earns nothing: it repeats A's turn 2 (a penalised repetition)
    # (and with own_concepts false "football" was A's own); B's turn 7 remembers A's word
    assert Relevance(P(method="recall", unit="count")).score_games([g])[0].raw == {"A": 0, "B": 1}
    assert Relevance(P(method="recall", unit="count", own_concepts=False)).score_games([g])[0].raw == {"A": 0, "B": 1}


@pytest.mark.parametrize("key", ["p", "d", "min_df", "take_up", "restating", "model", "sigma_r"])
def test_removed_options_are_refused(key: str) -> None:
    from chatmatch.scoring.config import ScoringConfig

    with pytest.raises(ValueError, match=f"scorer 'relevance': parameter '{key}' was removed"):
        ScoringConfig(params={"relevance": {"method": "recall", key: 1}})


def test_each_option_alone() -> None:
    # p = 1: every concept used twice is important (love, garden). A: "love my garden" (0),
    # B: "garden?" (1, 1 back: no), fillers, A repeats turn 0 verbatim (4, penalised;
    # "garden" last said by B at 1, 3 back), B: "garden" (5, 1 back: no)
    g = game(["I love my garden.", "A garden?", "Sure thing.", "Nice weather.",
              "I love my garden.", "Tell me about the garden.", "Okay."])
    both = Relevance(P(method="recall", unit="count", p=1.0, own_concepts=False)).score_games([g])[0]
    keep_reps = Relevance(P(method="recall", unit="count", p=1.0, skip_repetitions=False,
                                           own_concepts=False)).score_games([g])[0]
    # turn 4 is a penalised repetition: nothing by default, a bonus when repetitions count
    assert both.details == [{"turn": 4, "speaker": "A", "concepts": [
        {"lemma": "garden", "previous_turn": 1}], "excluded": "repetition"}]
    assert keep_reps.details == [{"turn": 4, "speaker": "A", "concepts": [
        {"lemma": "garden", "previous_turn": 1}]}]
    # own concepts: "my garden" (0), filler, "garden" again by A (2, its own word 2 back)
    g2 = game(["I love my garden.", "Nice.", "My garden is green.", "Good."])
    assert Relevance(P(method="recall", unit="count", own_concepts=False)).score_games([g2])[0].raw == {"A": 0, "B": 0}
    assert Relevance(P(method="recall", unit="count")).score_games([g2])[0].raw == {"A": 1, "B": 0}  # default: own_concepts true


def test_per_turn_unit(figure2: Transcript) -> None:
    # the paper's rule gives A 2 bonuses over its 5 turns (0, 2, 4, 6, 8), B 1 over its 4
    s = Relevance(P(method="recall", unit="per_turn", **PAPER)).score_games([figure2])[0]
    assert s.raw == {"A": pytest.approx(2 / 5), "B": pytest.approx(1 / 4)}


def test_per_concept_unit(figure2: Transcript) -> None:
    # concepts a bot uses (content lemmas, see test_figure2): A: living | live | live small
    # town sea... | home big city mountain | student busy -> turns 0, 2, 4, 6, 8; the
    # paper's rule recalls "living" (2) and "student" (8): 2 of A's concepts; B recalls
    # "student" (3), 1 of its own.
    s = Relevance(P(method="recall", unit="per_concept", **PAPER)).score_games([figure2])[0]
    count = Relevance(P(method="recall", unit="count", **PAPER)).score_games([figure2])[0]
    assert 0 < s.raw["A"] < 1 and 0 < s.raw["B"] < 1
    assert s.details == count.details  # the same bonus turns, another unit


def test_per_concept_does_not_grow_with_turn_length() -> None:
    # both A's recall "garden"; the second also brings four new concepts in a longer turn
    short = game(["I love my garden.", "Nice.", "My garden.", "Good."])
    long = game(["I love my garden.", "Nice.", "My garden has tomatoes, roses, beans and herbs.", "Good."])
    rel = Relevance(P(method="recall", unit="per_concept"))
    assert rel.score_games([long])[0].raw["A"] < rel.score_games([short])[0].raw["A"]
    counted = Relevance(P(method="recall", unit="count"))
    assert counted.score_games([long])[0].raw["A"] == counted.score_games([short])[0].raw["A"]


def test_turn_units_hand_computed(figure2: Transcript) -> None:
    # concepts per turn (test_figure2): A 0 living | 2 living | 4 live | 6 live | 8 student
    # busy; B 1 student | 3 student | 5 live small town sea | 7 home big city mountain.
    # The paper's rule recalls: A turn 2 (1 of 1 concept), turn 8 (1 of 2); B turn 3 (1 of 1)
    def raw(unit: str) -> dict[str, float]:
        return Relevance(Relevance.Params.model_validate({"degenerate": "keep", "method": "recall", "unit": unit, **PAPER})).score_games([figure2])[0].raw

    assert raw("turn_sqrt") == {"A": pytest.approx((1 + 1 / 2 ** 0.5) / 5), "B": pytest.approx(1 / 4)}
    assert raw("turn_share") == {"A": pytest.approx((1 + 1 / 2) / 5), "B": pytest.approx(1 / 4)}
    # every turn holds a concept: charging concept-less turns changes nothing here
    assert raw("per_concept_charged") == raw("per_concept") == {"A": pytest.approx(2 / 6),
                                                                 "B": pytest.approx(1 / 10)}
    # recall's default unit is turn_sqrt (same details: the same bonus turns, another unit)
    default = Relevance(P(method="recall")).score_games([figure2])[0]
    # (turn 2 is a penalised repeated question: only turn 8 earns, 1 of its 2 concepts)
    assert default.raw == {"A": pytest.approx(1 / 2 ** 0.5 / 5), "B": pytest.approx(1 / 4)}
    assert [d["turn"] for d in default.details if "excluded" not in d] == [3, 8]


def test_concept_less_turns_are_charged_except_by_per_concept() -> None:
    # A recalls "garden" at turn 2 (its own word, 2 back); in the second game A also says
    # two turns with no concept at all ("Okay." / "Hmm, yes.")
    terse = game(["I love my garden.", "Nice.", "My garden.", "Good."])
    empty = game(["I love my garden.", "Nice.", "My garden.", "Good.", "Okay.", "So.",
                  "Hmm, yes.", "Right."])

    def a(unit: str, g: Transcript) -> float:
        return Relevance(Relevance.Params.model_validate({"degenerate": "keep", "method": "recall", "unit": unit})).score_games([g])[0].raw["A"]

    assert a("per_concept", empty) == a("per_concept", terse)  # saying nothing costs nothing
    for unit in ("per_concept_charged", "turn_share", "turn_sqrt", "per_turn"):
        assert a(unit, empty) < a(unit, terse), unit
    assert a("turn_sqrt", terse) == pytest.approx((0 + 1) / 2)
    assert a("turn_sqrt", empty) == pytest.approx((0 + 1 + 0 + 0) / 4)


def test_turn_sqrt_between_the_count_per_turn_and_the_share() -> None:
    # A recalls "garden" (its own, 2 back) in a 1-concept turn, or in a 4-concept turn
    short = game(["I love my garden.", "Nice.", "My garden.", "Good."])
    long = game(["I love my garden.", "Nice.", "My garden has tomatoes, roses and beans.", "Good."])

    def a(unit: str, g: Transcript) -> float:
        return Relevance(Relevance.Params.model_validate({"degenerate": "keep", "method": "recall", "unit": unit})).score_games([g])[0].raw["A"]

    # the count per turn ignores the 3 new concepts; the share divides by 5 (garden,
    # tomato, rose, bean, have?) -- whatever spaCy finds, sqrt sits in between
    n = round(1 / a("turn_share", long) * 2 ** -1)  # the long turn's concept count
    assert n >= 4
    assert a("turn_sqrt", long) == pytest.approx(1 / n ** 0.5 / 2)
    assert a("turn_share", long) < a("turn_sqrt", long) < a("per_turn", long) == a("per_turn", short)
    assert a("turn_sqrt", short) == a("per_turn", short) == pytest.approx(1 / 2)
    # a turn that recalls in proportion to its length keeps its credit: 2 of 4 = 1 of 1
    two = game(["I love my garden and roses.", "Nice.", "My garden roses, tomatoes and beans.",
                "Good."])
    assert Relevance(P(method="recall", unit="turn_sqrt", p=1.0)).score_games([two])[0].raw["A"] == \
        pytest.approx(2 / 4 ** 0.5 / 2)


def test_turn_sqrt_gives_a_left_out_repetition_nothing_but_counts_its_turn() -> None:
    # A's turn 4 repeats its turn 0 verbatim and brings back "garden" (B's, at 1):
    # penalised by diversity, so it earns nothing by default, yet it is one of A's turns
    g = game(["I love my garden.", "A garden?", "Sure thing.", "Nice weather.",
              "I love my garden.", "Okay."])
    skip = Relevance(P(method="recall", unit="turn_sqrt", p=1.0)).score_games([g])[0]
    keep = Relevance(P(method="recall", unit="turn_sqrt", p=1.0,
                                      skip_repetitions=False)).score_games([g])[0]
    assert skip.raw["A"] == 0.0 and [d["excluded"] for d in skip.details] == ["repetition"]
    assert keep.raw["A"] > 0.0


class _Vectors:
    """A stand-in embedder: fixed unit vectors per text (the real model: test_embed.py)."""

    def __init__(self, table: dict[str, list[float]]) -> None:
        self.table = table

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.array([self.table[t] for t in texts], dtype=float)


def test_reply_method_hand_computed() -> None:
    vec = _Vectors({"Hello there.": [1, 0], "Hi.": [0.8, 0.6], "Cats.": [0, 1],
                    "Dogs.": [0.6, 0.8], "": [1, 0], "No.": [-1, 0]})
    g = game(["Hello there.", "Hi.", "Cats.", "Cats.", "Dogs.", "", "No."])
    rel = Relevance(P(method="reply"), embedder=vec)
    assert rel.needs().spacy is None
    s = rel.score_games([g])[0]
    # A: 0 answers nothing (0), 2 "Cats." after "Hi." 0.6, 4 "Dogs." after "Cats." 0.8,
    # 6 "No." after "" -1 -> 0; B: 1 0.8, 3 echoes "Cats." (cosine 1 >= 0.95: 0), 5 empty (0)
    assert s.raw == {"A": pytest.approx((0.6 + 0.8) / 4), "B": pytest.approx(0.8 / 3)}
    assert [(d["turn"], d["answers"], d["similarity"]) for d in s.details if "excluded" not in d] == [
        (1, 0, 0.8), (2, 1, 0.6), (4, 3, 0.8)]
    # the echo is listed with its cosine and why it earned nothing
    assert [d for d in s.details if "excluded" in d] == [
        {"turn": 3, "speaker": "B", "answers": 2, "similarity": 1.0, "excluded": "echo"}]


def test_reply_method_gives_a_penalised_repetition_nothing() -> None:
    vec = _Vectors({"Do you like cats?": [1, 0], "I do like cats a lot.": [0.9, 0.43589],
                    "Nice.": [0, 1]})
    g = game(["Do you like cats?", "I do like cats a lot.", "Do you like cats?",
              "I do like cats a lot.", "Nice."])
    # A's turn 2 repeats its question (penalised by diversity): 0 by default, 0.9 when
    # repetitions count; A's turn 4 "Nice." answers B at 0.43589. B's turn 3 answers the
    # repeated question again (excused, not penalised) and keeps its cosine 0.9
    s = Relevance(P(method="reply", restating="credited"), embedder=vec).score_games([g])[0]
    keep = Relevance(P(method="reply", restating="credited", skip_repetitions=False),
                     embedder=vec).score_games([g])[0]
    assert s.raw["A"] == pytest.approx(0.43589 / 3)
    assert keep.raw["A"] == pytest.approx((0.9 + 0.43589) / 3)
    assert s.raw["B"] == pytest.approx((0.9 + 0.9) / 2)


def test_reply_discounted_charges_restating_the_partner() -> None:
    said = "I went hiking in the mountains with my brother."
    reflect = "Why do you say you went hiking in the mountains with your brother?"
    answer = "Which trail did you take? I love the Alps."
    vec = _Vectors({said: [1, 0], reflect: [0.8, 0.6], answer: [0.6, 0.8]})
    g = game([said, reflect, said, answer])  # B reflects A's turn 0, then answers turn 2
    plain = Relevance(P(method="reply", restating="credited"), embedder=vec).score_games([g])[0]
    disc = Relevance(P(method="reply", restating="discounted"),
                     embedder=vec).score_games([g])[0]
    # content words of the reflection (stop words out): say, went, hiking, mountains,
    # brother -- all but "say" taken from turn 0: 1 of 5 new; the answer's: trail, love,
    # alps -- all new
    assert plain.raw["B"] == pytest.approx((0.8 + 0.6) / 2)  # the reflection wins undiscounted
    assert disc.raw["B"] == pytest.approx((0.8 * 1 / 5 + 0.6 * 1) / 2)
    assert [d["new_words"] for d in disc.details if d["speaker"] == "B"] == [0.2, 1.0]
    with pytest.raises(ValueError):
        Relevance.Params.model_validate({"restating": "sometimes"})


def test_reply_method_with_a_missing_model_folder_says_so(tmp_path: Path) -> None:
    rel = Relevance(P(method="reply", model=str(tmp_path / "nope")))
    with pytest.raises(ChatmatchError, match="no such directory"):
        rel.load()

from __future__ import annotations

import pytest

from fixed_params import params as fixed_params
from chatmatch.scoring.specificity import Specificity, distinct, ngrams

from scoring_dialogues import game


def test_hand_computed_distinct() -> None:
    g = game(["the cat the cat", "one", "the dog", "two"])
    s = Specificity().score_game(g)
    # A: tokens the cat the cat | the dog -> unigrams 6, distinct {the, cat, dog} = 3 -> 1/2
    #    bigrams (the cat)(cat the)(the cat) | (the dog) -> 4, distinct 3 -> 3/4
    #    specificity = (1/2 + 3/4) / 2 = 0.625
    # B: one-word turns "one", "two": Distinct-1 = 2/2 = 1, no bigram -> Distinct-2 = 0 -> 0.5
    assert s.raw["A"] == pytest.approx(0.625)
    assert s.raw["B"] == pytest.approx(0.5)
    assert s.details[0] == {"turn": 0, "speaker": "A", "tokens": 4, "new_unigrams": 2, "new_bigrams": 2}
    assert s.details[2]["new_unigrams"] == 1 and s.details[2]["new_bigrams"] == 1


def test_tokens_not_characters() -> None:
    # over characters "aaaa bbbb" would have 2 distinct of 8 characters; over tokens it is
    # 2/2 unigrams and 1/1 bigram -> 1.0
    s = Specificity().score_game(game(["aaaa bbbb", "aaaa aaaa"]))
    assert s.raw["A"] == pytest.approx(1.0)
    # B: 1 distinct of 2 unigrams, 1 of 1 bigram -> (0.5 + 1) / 2
    assert s.raw["B"] == pytest.approx(0.75)


def test_credited_to_the_right_bot_and_not_for_the_seed() -> None:
    g = game(["what a wonderful varied sentence", "no no no no", "no no"], seed_first=True)
    s = Specificity().score_game(g)
    # A only spoke the seed and "no no": unigrams 1/2, bigrams 1/1 -> 0.75
    # B "no no no no": 1/4 and 1/3 -> (0.25 + 0.3333) / 2
    assert s.raw["A"] == pytest.approx(0.75)
    assert s.raw["B"] == pytest.approx((1 / 4 + 1 / 3) / 2)
    assert [d["turn"] for d in s.details] == [1, 2]


def test_empty_emoji_pretokenised_non_english_and_ties() -> None:
    g = game(["", "😀 😀", "   ", "don ' t", "¿qué tal?", "qué tal"])
    s = Specificity().score_game(g)
    # A: "", "   ", "¿qué tal?" -> tokens qué tal: 2/2, 1/1 -> 1.0
    # B: 😀 😀 | don't | qué tal -> unigrams 5, distinct 4 (😀, don't, qué, tal);
    #    bigrams (😀 😀)(qué tal) -> 2/2 -> (4/5 + 1) / 2 = 0.9
    assert s.raw["A"] == pytest.approx(1.0)
    assert s.raw["B"] == pytest.approx(0.9)
    tie = Specificity().score_game(game(["hello there", "hello there"]))
    assert tie.raw["A"] == tie.raw["B"] == pytest.approx(1.0)


def test_a_bot_with_only_empty_turns_scores_zero() -> None:
    assert Specificity().score_game(game(["", "hi there", "..."])).raw["A"] == 0.0


def test_helpers() -> None:
    assert ngrams(["a", "b", "c"], 2) == [("a", "b"), ("b", "c")]
    assert ngrams(["a"], 2) == []
    assert distinct([]) == 0.0



def test_which_repetitions_leave_the_pool() -> None:
    from chatmatch.scoring.specificity import Specificity as S

    # A asks the same question at 0 and 2 (penalised at 2); B repeats its answer at 3,
    # excused because it answers a repeated question.
    g = game(["Do you like red tea?", "yes very much", "Do you like red tea?", "yes very much"])

    def a_b(how: str) -> tuple[float, float]:
        s = S(S.Params(leave_out=how)).score_game(g)  # type: ignore[arg-type]
        return s.raw["A"], s.raw["B"]

    # one turn alone: every n-gram distinct -> 1.0; a turn and its verbatim repeat:
    # d1 = d2 = 1/2 -> 0.5
    assert a_b("excused") == (0.5, 1.0)
    assert a_b("penalised") == (1.0, 0.5)
    assert a_b("all") == (1.0, 1.0)
    assert a_b("none") == (0.5, 0.5)
    assert [d["turn"] for d in S().score_game(g).details] == [0, 1, 2]


# --- measures that do not reward saying less --------------------------------------------
def test_moving_distinct_hand_computed() -> None:
    from chatmatch.scoring.variety import moving_distinct

    # windows of 3 over a b a c: (a b a) 2/3, (b a c) 3/3 -> 5/6
    assert moving_distinct(list("abac"), 3) == pytest.approx(5 / 6)
    assert moving_distinct(list("ab"), 3) == 1.0  # shorter than the window: pooled ratio
    assert moving_distinct([], 3) == 0.0


def test_mattr_does_not_reward_saying_less() -> None:
    # A says one sentence; B says three of the same style (Heaps' law: function words come
    # back as text grows). Pooled Distinct-n gives A a clear win for saying less; on
    # equal-size windows of 6 the two are about equally varied.
    g = game(["the cat sat on the mat",
              "the cat sat on the mat. the dog lay on the rug. the bird sang in the tree"])
    paper = Specificity().score_game(g).raw
    mattr = Specificity(fixed_params(Specificity.Params, ("window",), method="mattr",
                                     window=6)).score_game(g).raw
    assert paper["A"] == pytest.approx(11 / 12) and paper["B"] < 0.81  # A wins for less text
    assert mattr["A"] == pytest.approx(mattr["B"])  # equally varied on equal-size windows


def test_nidf_prefers_rare_words() -> None:
    from chatmatch.scoring.variety import NidfTable

    table = NidfTable.from_texts(["i like it", "i like tea", "i like the violin", "i do"])
    # "i" is in every document (NIDF 0), "violin" in one (the rarest: 1)
    assert table.value("i") == 0.0 and table.value("violin") == 1.0
    assert table.value("never-seen") == 1.0
    assert table.mean(["i", "violin"]) == pytest.approx(0.5)
    import math
    assert math.isnan(table.mean([]))


def test_nidf_method_on_the_chitchat_table() -> None:
    g = game(["i don't know, i like it", "my grandmother restores harpsichords in vienna"])
    s = Specificity(Specificity.Params(method="nidf")).score_game(g)
    assert s.raw["B"] > s.raw["A"]
    assert Specificity.Params(method="nidf").window > 0

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scoring_dialogues import game

from chatmatch.runtime import ngram
from chatmatch.scoring.fluency import Fluency
from chatmatch.runtime.ngram import BITS, NgramLM, chitchat_ngram_lm


def test_hand_computed_kneser_ney() -> None:
    lm = NgramLM.train(["a b", "a b"], min_count=1, discount=0.75)
    # vocabulary <s> </s> <unk> a b (V = 5); trigrams (<s> <s> a), (<s> a b), (a b </s>)
    # each seen twice. P(a | <s> <s>):
    #   unigram continuation: N1+(. a) = 1 of 3 bigram types, 3 word types
    #     (the uniform floor is over the 4 words that can follow, all but <s>)
    #     p1 = (1 - .75 + .75 * 3 / 4) / 3 = 0.270833
    #   bigram: context <s> has 1 continuation, 1 type: p2 = (1 - .75) + .75 * p1 = 0.453125
    #   trigram: context (<s> <s>) seen 2 times, 1 type: p3 = (2 - .75 + .75 * p2) / 2 = 0.794922
    # and by symmetry the same for b and </s>: perplexity = 1 / 0.794922
    assert lm.perplexities(["a b"])[0] == pytest.approx(1 / 0.7949219, rel=1e-6)


def test_probabilities_sum_to_one() -> None:
    lm = NgramLM.train(["i like tea", "i like coffee", "you like tea", "tea is good"], min_count=1)
    words = np.arange(1, lm.vocab_size, dtype=np.int64)  # every word but <s>
    for u, v in [("<s>", "<s>"), ("i", "like"), ("like", "tea"), ("<unk>", "good")]:
        keys = (lm.vocab[u] << 2 * BITS) | (lm.vocab[v] << BITS) | words
        assert np.exp(lm.log_probs(keys)).sum() == pytest.approx(1.0, abs=1e-9)


def test_unknown_words_empty_and_emoji() -> None:
    lm = NgramLM.train(["i like tea", "i like tea", "you like tea 😀", "you like tea 😀"])
    ppl = lm.perplexities(["i like tea", "i like zebras", "", "😀", "...", "I LIKE TEA!"])
    assert ppl[2] is None and ppl[4] is None
    assert ppl[0] == ppl[5]                 # same tokens
    assert ppl[0] < ppl[1]                  # an unknown word costs
    assert ppl[3] is not None and ppl[3] > 1


@pytest.fixture(scope="module")
def chitchat(tmp_path_factory: pytest.TempPathFactory) -> tuple[NgramLM, Path]:
    folder = tmp_path_factory.mktemp("cache")
    return chitchat_ngram_lm(folder), folder


def test_chitchat_model_is_trained_once_and_cached(chitchat: tuple[NgramLM, Path]) -> None:
    lm, folder = chitchat
    files = list(folder.glob("*.npz"))
    assert [f.name for f in files] == ["ngram-kn3-chitchat-v1.npz"]
    again = chitchat_ngram_lm(folder)
    assert again.vocab_size == lm.vocab_size > 10_000
    fluent, salad = again.perplexities(["how are you doing today?", "today doing you are how?"])
    assert fluent is not None and salad is not None and fluent * 5 < salad


def test_a_damaged_cache_file_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ngram, "chitchat_texts", lambda: ["hi there", "hi you", "you there"])
    (tmp_path / "ngram-kn3-chitchat-v1.npz").write_bytes(b"not a zip")
    lm = chitchat_ngram_lm(tmp_path)
    assert lm.vocab_size == 3 + 3  # <s> </s> <unk> hi there you
    assert NgramLM.load(tmp_path / "ngram-kn3-chitchat-v1.npz").vocab_size == lm.vocab_size


def test_fluency_scorer_with_the_ngram_backend(chitchat: tuple[NgramLM, Path]) -> None:
    lm, _ = chitchat
    f = Fluency(Fluency.Params(backend="ngram"), lm=lm)
    s = f.score_games([game(["how are you doing today?", "today doing you are how?"])])[0]
    assert s.raw["A"] < s.raw["B"]


def test_a_cache_folder_that_cannot_be_made_costs_a_retrain_not_an_error(
        tmp_path, monkeypatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("CHATMATCH_CACHE_DIR", str(blocker / "cache"))  # mkdir fails
    lm = chitchat_ngram_lm()
    assert lm.perplexities(["how are you?"])[0] > 1


def test_gibberish_does_not_win_fluency_under_the_ngram_backend() -> None:
    """Every word of gibberish is outside the n-gram vocabulary (one <unk> to the LM); SLOR's
    unigram side gave each the probability of an unseen word, the largest rarity credit
    there is, and the gibberish turn was the most fluent of the game (SLOR -12.1 against
    -2.6 for plain sentences). Both sides now price <unk> as one event."""
    fluency = Fluency(Fluency.Params(backend="ngram"))
    g = game(["What did you do last week?", "Xqzvt blorfang snarglewump wibblefrotz.",
              "I went hiking with my sister last weekend, it was lovely.",
              "Quantum zeppelin marmalade obfuscates velvet chronometers."])
    raw = fluency.score_games([g])[0].raw
    assert raw["A"] < raw["B"]  # lower is better: the plain speaker wins
    turns = {d["turn"]: d["slor"] for d in fluency.score_games([g])[0].details}
    assert turns[1] > max(turns[0], turns[2])  # the gibberish turn is less fluent than either


def test_a_one_turn_bots_stored_slor_is_its_raw_value() -> None:
    """show printed a one-turn bot's turn at SLOR -1.80 and its raw value at -1.81: the turn's
    SLOR was stored at 4 decimals and printed at 2 (double rounding)."""
    fluency = Fluency(Fluency.Params(backend="ngram"))
    result = fluency.score_games([game(["Hello there, how are you doing today?",
                                        "Pretty good, I just got back from the lake."])])[0]
    (b,) = [d for d in result.details if d["speaker"] == "B"]
    assert abs(b["slor"] - result.raw["B"]) <= 5e-7

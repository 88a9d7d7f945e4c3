"""Token-level fluency: the per-token NLL pass and its cache, subword SLOR, and the
degenerate-turn penalty (chatmatch.runtime.lm.tokens, chatmatch.scoring.fluency_tokens)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from scoring_dialogues import game

from chatmatch.runtime.errors import ScoringError
from chatmatch.scoring.fluency import Fluency
from chatmatch.scoring.fluency_tokens import SubwordUnigrams, dangling, degenerate, self_repeats
from chatmatch.runtime.lm import TransformersLM, load_weights
from chatmatch.runtime.lm.tokens import TokenNLLStore, TokenScorer
from test_fluency import ScriptedLM


@pytest.mark.parametrize("text, before, partner, why", [
    ("i like dogs", ["I like dogs."], "hi", "repeat"),
    ("how are you?", ["hello"], "How are you?", "echo"),
    ("i am a little shy but i am a little shy", [], None, "self-repeat"),
    ("i went to the park and then the", [], None, "truncated"),
    ("we talked about it and", [], None, "truncated"),
    ("i went to the park with my dog", [], None, None),
    ("i like it a lot.", [], None, None),
    ("thanks and", [], None, None),  # too short to call truncated
    ("", ["", "x"], "", None),
])
def test_degenerate_reasons(text, before, partner, why) -> None:
    assert degenerate(text, before, partner) == why


#: complete sentences people write without a full stop: a stranded preposition, an
#: object pronoun, an elliptical verb. The first is a human-written line of the retrieval
#: bot's corpus that an earlier rule (any of "to", "it", "you", "is", ...) called truncated
@pytest.mark.parametrize("text", [
    "Sorry, that doesn't give me much for me to respond to",
    "what are you thinking of",
    "it was so nice to meet you",
    "i would love to",
    "i really like it",
    "yeah so do i",
    "i do not know what it is",
    "who are you going with",
])
def test_a_complete_sentence_is_not_truncated(text: str) -> None:
    assert not dangling(text)
    assert degenerate(text, [], None) is None


def test_self_repeats_and_dangling_edges() -> None:
    assert not self_repeats("i like it. do you like it too?")  # one repeated 2-gram is fine
    assert self_repeats("yes yes yes yes yes yes")
    assert not dangling("I went there and.")  # punctuation ends it
    assert dangling("we could go to the")


def test_subword_unigrams_are_add_one_smoothed() -> None:
    u = SubwordUnigrams(np.array([8, 0, 0]))
    assert u.nll.tolist() == pytest.approx([-math.log(9 / 11), -math.log(1 / 11), -math.log(1 / 11)])


def test_degenerate_worst_counts_as_a_uniform_guess() -> None:
    g = game(["seed words here", "a b", "a b", "a b c", "a b c"], seed_first=True)
    # B: "a b" (20) then "a b c" (30) ; A: "a b" echoes B (degenerate), then "a b c" echoes B
    keep = Fluency(Fluency.Params(skip_repetitions=False, aggregation="median", degenerate="keep"),
                   lm=ScriptedLM()).score_games([g])[0]
    assert keep.raw == {"A": 25.0, "B": 25.0}
    worst = Fluency(Fluency.Params(skip_repetitions=False, aggregation="median"),  # degenerate: worst
                    lm=ScriptedLM()).score_games([g])[0]
    assert worst.raw == {"A": 1000.0, "B": 25.0}  # ScriptedLM.vocab_size
    assert [d.get("degenerate") for d in worst.details] == [None, "echo", None, "echo"]
    slor = Fluency(Fluency.Params(skip_repetitions=False), lm=ScriptedLM()).score_games([g])[0]
    assert slor.raw["A"] == pytest.approx(math.log(1000))  # the default: SLOR, in log units


def test_slor_tokens_needs_a_tokenizer() -> None:
    scorer = Fluency(Fluency.Params(aggregation="slor_tokens", skip_repetitions=False), lm=ScriptedLM())
    with pytest.raises(ScoringError, match="needs an LM with a tokenizer.*backend: ngram"):
        scorer.score_games([game(["seed", "a b", "c d"], seed_first=True)])


@pytest.fixture()
def tiny(tiny_model_dir: Path) -> TransformersLM:
    model, tokenizer = load_weights(str(tiny_model_dir))
    return TransformersLM(model, tokenizer, name="tiny", batch_size=2, max_tokens=8)


def test_token_nlls_give_the_perplexity_and_are_cached(tiny: TransformersLM, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHATMATCH_PPL_CACHE", "1")  # the session turns the caches off
    words = tiny.tokenizer.convert_ids_to_tokens(list(range(2, 12)))
    texts = [" ".join(words[:3]), " ".join(words * 2), words[0], ""]  # the second is windowed
    store = TokenNLLStore(lambda: "tiny-key", path=tmp_path / "t.sqlite")
    nlls = TokenScorer(tiny, store).nlls(texts)
    ppl = tiny.perplexities(texts)
    assert nlls[3] is None and ppl[3] is None and nlls[2] is not None and len(nlls[2]) == 1
    assert [len(n) for n in nlls[:2]] == [3, 20]
    for n, p in zip(nlls[:3], ppl[:3]):
        assert math.exp(float(np.mean(n, dtype=np.float64))) == pytest.approx(p, rel=1e-5)
    again = TokenScorer(tiny, TokenNLLStore(lambda: "tiny-key", path=tmp_path / "t.sqlite"))
    assert all(np.array_equal(a, b) for a, b in zip(again.nlls(texts[:3]), nlls[:3]))
    assert again.store is not None and again.store.hits == 3


def test_slor_tokens_is_log_ppl_minus_unigram_nll(tiny: TransformersLM, monkeypatch) -> None:
    import chatmatch.scoring.fluency as fl

    table = SubwordUnigrams(np.arange(tiny.vocab_size, dtype=np.int64))
    monkeypatch.setattr(fl, "chitchat_subword_unigrams", lambda *a: table)
    words = tiny.tokenizer.convert_ids_to_tokens(list(range(2, 6)))
    g = game(["seed", " ".join(words[:2]), " ".join(words[2:])], seed_first=True)
    s = Fluency(Fluency.Params(aggregation="slor_tokens", skip_repetitions=False,
                                 context="none"), lm=tiny).score_games([g])[0]
    text = " ".join(words[2:])
    ids = tiny.tokenizer(text, add_special_tokens=False)["input_ids"]
    want = math.log(tiny.perplexities([text])[0]) - float(np.mean(table.nll[ids]))
    assert s.raw["A"] == pytest.approx(want, rel=1e-6)


@pytest.mark.slow
def test_gibberish_is_the_least_fluent_turn_under_the_default_lm() -> None:
    """Under SmolLM2 (the default) "Xqzvt blorfang snarglewump wibblefrotz." was the most
    fluent turn of its game (SLOR -6.67 against -2.8 to -3.3 for plain sentences): each
    made-up word was priced as one particular word the corpus never saw, a credit larger
    than SmolLM2's cost of spelling it out. Rare-word salad was the second most fluent."""
    g = game(["What did you do last week?", "Xqzvt blorfang snarglewump wibblefrotz.",
              "I went hiking with my sister last weekend, it was lovely.",
              "Quantum zeppelin marmalade obfuscates velvet chronometers."])
    s = Fluency().score_games([g])[0]
    turns = {d["turn"]: d["slor"] for d in s.details}
    assert turns[1] == max(turns.values()) and turns[1] > 0  # lower is more fluent
    assert turns[3] > max(turns[0], turns[2])
    assert s.raw["A"] < s.raw["B"]

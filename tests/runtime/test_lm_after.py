"""A turn read after the turn before it: ``after(before, text)`` scores only the text's
tokens, each predicted from the context token, the end of ``before`` and a line break
(the fluency default, ``context: previous_turn``), on the tiny model of conftest."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from chatmatch.common.text import normalise
from chatmatch.runtime.lm import (AFTER, BEFORE_TOKENS, TransformersLM, after, encode_scored,
                                  load_weights, split_after, windows)
from chatmatch.runtime.ngram import chitchat_ngram_lm


def _by_hand(lm: TransformersLM, before: str, text: str) -> float:
    """exp(mean NLL) of ``text``'s tokens after context + ``before`` + line break, from one
    plain forward pass (no batching, no padding, no window)."""
    import torch

    tok = lm.tokenizer
    prefix = lm._context + tok(before, add_special_tokens=False)["input_ids"] \
        + tok("\n", add_special_tokens=False)["input_ids"]
    ids = prefix + tok(text, add_special_tokens=False)["input_ids"]
    x = torch.tensor([ids])
    with torch.inference_mode():
        logp = torch.log_softmax(lm.model(input_ids=x).logits[0, :-1].float(), -1)
    picked = logp[torch.arange(len(ids) - 1), x[0, 1:]]
    return math.exp(-float(picked[len(prefix) - 1:].mean()))


@pytest.mark.parametrize("n, size, first", [(9, 8, 3), (30, 8, 2), (31, 7, 3), (6, 8, 4), (40, 10, 4)])
def test_windows_score_every_token_from_the_first_scored_one_once(n: int, size: int, first: int) -> None:
    ids = list(range(n))
    scored = [w[j] for w, f in windows(ids, size, first) for j in range(f, len(w))]
    assert scored == ids[first:]


def test_a_turn_read_after_another_scores_its_own_tokens_given_the_other(tiny_model_dir: Path) -> None:
    model, tokenizer = load_weights(str(tiny_model_dir))
    lm = TransformersLM(model, tokenizer, name="tiny", batch_size=3)
    pairs = [("what do you like", "i like tea"), ("i like tea", "the cat is very good"),
             ("you", "a dog is good"), ("the cat is very good", "you")]
    got = lm.perplexities([after(b, t) for b, t in pairs])
    assert got == pytest.approx([_by_hand(lm, b, t) for b, t in pairs], rel=1e-5)
    alone = lm.perplexities([t for _, t in pairs])
    assert all(g != pytest.approx(a, rel=1e-4) for g, a in zip(got, alone))  # the context counts
    # nothing to read it after: the text alone, one cache entry
    assert after("", "i like tea") == "i like tea" and after("  ", "you") == "you"
    assert lm.perplexities([after("what do you like", "  ")]) == [None]
    assert split_after(after("a b", "c")) == ("a b", "c") and split_after("c") == ("", "c")
    assert AFTER not in normalise(f"a{AFTER}b")  # no scored turn can hold the separator


def test_only_the_end_of_a_long_turn_before_is_read(tiny_model_dir: Path) -> None:
    model, tokenizer = load_weights(str(tiny_model_dir))
    lm = TransformersLM(model, tokenizer, name="tiny")
    tail = " ".join(["the cat is very good"] * 60)  # far more than BEFORE_TOKENS tokens
    ids, first = encode_scored(tokenizer, lm._context, after("what do you like " + tail, "i like tea"))
    assert first == len(lm._context) + BEFORE_TOKENS + len(tokenizer("\n", add_special_tokens=False)["input_ids"])
    a, b = lm.perplexities([after("what do you like " + tail, "i like tea"),
                            after("a dog is good you " + tail, "i like tea")])
    assert a == pytest.approx(b, rel=1e-6)  # what differs lies before the last BEFORE_TOKENS


def test_a_long_turn_read_after_another_is_windowed_like_any_text(tiny_model_dir: Path) -> None:
    model, tokenizer = load_weights(str(tiny_model_dir))
    small = TransformersLM(model, tokenizer, name="small", max_tokens=12, batch_size=2)
    text = " ".join(["i like tea and the cat is very good"] * 3)
    (value,) = small.perplexities([after("what do you like", text)])
    ids, first = encode_scored(tokenizer, small._context, after("what do you like", text))
    import torch

    nll, count = 0.0, 0
    for w, f in windows(ids, 12, first):
        x = torch.tensor([w])
        with torch.inference_mode():
            logp = torch.log_softmax(small.model(input_ids=x).logits[0, :-1].float(), -1)
        nll -= float(logp[torch.arange(len(w) - 1), x[0, 1:]][f - 1:].sum())
        count += len(w) - f
    assert count == len(ids) - first
    assert value == pytest.approx(math.exp(nll / count), rel=1e-5)


def test_the_ngram_approximation_reads_every_turn_alone() -> None:
    lm = chitchat_ngram_lm()
    assert lm.perplexities([after("do you like tea?", "i like tea a lot")]) == \
        lm.perplexities(["i like tea a lot"])

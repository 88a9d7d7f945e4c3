"""Bots that generate with the fluency LM are named (fluency favours an LM's own text)."""

from __future__ import annotations

from chatmatch.scoring.fluency import Fluency, bots_on_the_fluency_lm

BOTS = [("small", "smollm2", {}), ("same", "causal-lm", {"model": "smollm2"}),
        ("other", "causal-lm", {"model": "/nowhere/other-model"}), ("eliza", "eliza", {})]


def test_the_bots_on_the_default_fluency_lm_are_named():
    assert bots_on_the_fluency_lm(Fluency.Params(), BOTS) == ["small", "same"]


def test_the_ngram_model_is_no_bot_and_another_lm_names_its_own_bot():
    assert bots_on_the_fluency_lm(Fluency.Params(backend="ngram"), BOTS) == []
    assert bots_on_the_fluency_lm(Fluency.Params(model="/nowhere/other-model"), BOTS) == ["other"]

"""Every perturbation family produces what it claims on a fixed sample (exact outputs)."""

from __future__ import annotations

import importlib.metadata
import random

import pytest

from chatmatch.common.registry import Registry
from chatmatch.robustness.perturb import (DULL, FAMILIES, FAMILY_ORDER, Context, Family, Sample,
                                          generated_families)
from chatmatch.scoring.base import DIMENSIONS

CTX = Context(("What did you do last week?", "I went hiking in Utah with my brother John.",
               "Nice! I really like the mountains.", "We stayed three days. Do you like hiking?"),
              ("A", "B", "A", "B"), "A")
SAMPLE = Sample(CTX, "I do not like hiking, but my sister loves it. I went to Paris on Monday.",
                following=("Why not? It is great exercise.",),
                pool=("I love pizza with extra cheese.", "My brother John goes hiking every weekend.",
                      "Do you play video games?"))

EXPECTED = {
    "repetition": "Nice! I really like the mountains.",
    "speaker_swap": "Why not? It is great exercise.",
    "pronoun_swap": "You do not like hiking, but your sister loves it. You went to Paris on Monday.",
    "contradiction": "Nice! I don't really like the mountains.",
    "negation": "I do like hiking, but my sister loves it. I went to Paris on Monday.",
    "number_change": "I do not like hiking, but my sister loves it. I went to Paris on Wednesday.",
    "entity_swap": "I do not like hiking, but my sister loves it. I went to Canada on Monday.",
    "off_topic": "My brother John goes hiking every weekend.",
    "dull": "That's nice.",
    "echo": "We stayed three days. Do you like hiking?",
    "word_shuffle": "like on sister it. Paris went hiking, but to loves do I Monday. my not I",
    "vocab_collapse": "I do I do I do I do I do I do I do I do",
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_generator_exact_output(name: str) -> None:
    assert FAMILIES.get(name).generate(SAMPLE, random.Random(7)) == EXPECTED[name]  # type: ignore[misc]


def test_every_generated_family_is_covered_and_targets_real_dimensions() -> None:
    assert set(generated_families()) == set(EXPECTED) | {"paraphrase"}
    for name in FAMILY_ORDER:
        assert set(FAMILIES.get(name).targets) <= set(DIMENSIONS)
    assert FAMILIES.get("paraphrase").kind == "stable"


def test_paraphrase_family() -> None:
    s = Sample(CTX, "Yeah, I'm gonna watch a movie.")
    assert FAMILIES.get("paraphrase").generate(s, random.Random(0)) == "Yes, I am going to watch a film."  # type: ignore[misc]
    assert FAMILIES.get("paraphrase").generate(SAMPLE, random.Random(0)) is None  # type: ignore[misc]


@pytest.mark.parametrize("name", ["repetition", "speaker_swap", "contradiction", "off_topic",
                                  "entity_swap", "number_change", "word_shuffle", "vocab_collapse"])
def test_not_applicable_gives_none(name: str) -> None:
    bare = Sample(Context(("hi",), ("B",), "A"), "ok sure")
    assert FAMILIES.get(name).generate(bare, random.Random(0)) is None  # type: ignore[misc]


def test_echo_needs_a_partner_turn() -> None:
    alone = Sample(Context(("my own words",), ("A",), "A"), "ok sure")
    assert FAMILIES.get("echo").generate(alone, random.Random(0)) is None  # type: ignore[misc]


def test_repetition_only_repeats_own_turns_and_never_the_good_turn() -> None:
    s = Sample(Context(("same thing", "partner says", "other thing"), ("A", "B", "A"), "A"), "Same thing")
    for seed in range(20):
        assert FAMILIES.get("repetition").generate(s, random.Random(seed)) == "other thing"  # type: ignore[misc]


def test_dull_is_drawn_from_the_list_and_differs_from_good() -> None:
    outs = {FAMILIES.get("dull").generate(Sample(CTX, "Okay."), random.Random(k)) for k in range(40)}  # type: ignore[misc]
    assert None in outs and outs - {None} <= set(DULL) and "Okay." not in outs


def test_generators_are_reproducible_for_a_seed() -> None:
    for name in generated_families():
        gen = FAMILIES.get(name).generate
        assert gen(SAMPLE, random.Random(11)) == gen(SAMPLE, random.Random(11))  # type: ignore[misc]


def test_unknown_family_suggests() -> None:
    from chatmatch.common.registry import UnknownNameError

    with pytest.raises(UnknownNameError, match="Did you mean: repetition"):
        FAMILIES.get("repetiton")


#: a family of "another package", found through the entry point group chatmatch.perturbations
SHOUTING = Family("shouting", "the good turn in capitals", ("fluency",), lambda s, rng: s.good.upper())


def test_a_family_from_an_entry_point_joins_the_suite(monkeypatch: pytest.MonkeyPatch) -> None:
    from chatmatch.robustness import perturb, suite

    reg: Registry[Family] = Registry("perturbation family", group="chatmatch.perturbations")
    for name in FAMILY_ORDER:
        reg.add(name, FAMILIES.get(name))
    reg.add_entry_points([importlib.metadata.EntryPoint(
        "shouting", f"{__name__}:SHOUTING", "chatmatch.perturbations")])
    monkeypatch.setattr(perturb, "FAMILIES", reg)
    monkeypatch.setattr(suite, "FAMILIES", reg)
    assert suite.all_families()[len(FAMILY_ORDER)] == "shouting"
    assert generated_families()[-1] == "shouting" and suite.targets("shouting") == ("fluency",)
    assert suite.check_families(["shouting"]) == ["shouting"]

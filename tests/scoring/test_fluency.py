"""Fluency: aggregation logic on a scripted LM, the transformers path on a tiny model
built here, and SmolLM2 itself (one module-scoped load)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import ClassVar, Sequence

import pytest
from scoring_dialogues import game

from chatmatch.runtime.settings import RuntimeSettings
from chatmatch.runtime.errors import ScoringError
from chatmatch.scoring.fluency import Fluency
from chatmatch.runtime.lm import (TransformersLM, after, batch_sizes, get_lm, load_weights,
                                  resolve_model, split_after)


class ScriptedLM:
    """Perplexity = 10 x the number of words of the text (a turn read after another:
    its own words); records every call."""

    name = "scripted"
    vocab_size = 1000

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def perplexities(self, texts: Sequence[str]) -> list[float | None]:
        self.calls.append(list(texts))
        own = [split_after(t)[1] for t in texts]
        return [10.0 * len(t.split()) if t.strip() else None for t in own]


def fixed_at(**values: object) -> type[Fluency.Params]:
    """Fluency's parameters with constants that are no longer settable (cap, trim,
    worst_share) at other values: the hand-computed cases of the aggregation rules."""
    notes = {k: ClassVar[type(v)] for k, v in values.items()}  # type: ignore[misc]
    return type("Fixed", (Fluency.Params,), {"__annotations__": notes, **values})


def fluency(sigma_r: float | None = None, fixed: dict[str, object] | None = None,
            **params: object) -> tuple[Fluency, ScriptedLM]:
    # the hand-computed cases repeat texts on purpose: every turn counts unless a test asks
    # for the default (skip_repetitions true, tested on its own below)
    params.setdefault("skip_repetitions", False)
    params.setdefault("aggregation", "median")  # the hand-computed cases (the default before issue 32)
    params.setdefault("degenerate", "keep")  # they repeat texts on purpose
    params.setdefault("context", "none")  # each turn's words alone make its perplexity
    lm = ScriptedLM()
    model = fixed_at(**fixed) if fixed else Fluency.Params
    return Fluency(model.model_validate(params).following(sigma_r), lm=lm), lm


TEXTS = ["seed words here", "a b", "a b c d e f g h", "a", "", "a b c"]
# credited turns (turn 0 is the seed): B 1 -> 20, A 2 -> 80, B 3 -> 10, A 4 -> empty, B 5 -> 30


def test_aggregations_hand_computed() -> None:
    g = game(TEXTS, seed_first=True)
    med, _ = fluency()
    assert med.score_games([g])[0].raw == {"A": 80.0, "B": 20.0}          # median
    mean, _ = fluency(aggregation="mean")
    assert mean.score_games([g])[0].raw == {"A": 80.0, "B": 20.0}         # (20+10+30)/3
    capped, _ = fluency(aggregation="capped_mean", fixed={"cap": 25.0})
    assert capped.score_games([g])[0].raw == {"A": 25.0, "B": pytest.approx(55 / 3)}


def test_trimmed_mean_and_authors_rule_hand_computed() -> None:
    # B's credited turns (A wrote the seed): 10, 20, 30, 40, 500 words x 10 -> 100, 200,
    # 300, 400, 5000; A's turns are all "b" -> 10
    texts = ["seed"] + [w for n in (10, 20, 30, 40, 500) for w in (" ".join(["a"] * n), "b")]
    g = game(texts, seed_first=True)
    trimmed, _ = fluency(aggregation="trimmed_mean", fixed={"trim": 0.2})
    # int(0.2 * 5) = 1 turn off each end: (200 + 300 + 400) / 3; A's five 10s stay 10
    assert trimmed.score_games([g])[0].raw == {"A": 10.0, "B": 300.0}
    untrimmed, _ = fluency(aggregation="trimmed_mean", fixed={"trim": 0.0})
    assert untrimmed.score_games([g])[0].raw["B"] == 6000 / 5
    authors, _ = fluency(aggregation="authors", fixed={"cap": 250.0})
    # capped: 100, 200, 250, 250, 250; the worst (a 250) dropped: (100 + 200 + 250 + 250) / 4
    assert authors.score_games([g])[0].raw == {"A": 10.0, "B": 200.0}


def test_authors_rule_keeps_a_single_turn_and_trim_never_drops_all() -> None:
    f, _ = fluency(aggregation="authors")
    assert f.aggregate([70.0]) == 50.0 and f.aggregate([10.0, 30.0]) == 10.0
    t, _ = fluency(aggregation="trimmed_mean", fixed={"trim": 0.49})
    assert t.aggregate([1.0, 2.0, 9.0]) == 2.0 and t.aggregate([4.0]) == 4.0
    assert math.isnan(f.aggregate([]))


def test_skip_repetitions_leaves_penalised_turns_out() -> None:
    # A repeats its turn 1 word for word at turn 3 (a penalised repetition, Algorithm 1)
    texts = ["seed words here", "a b c d e f", "x y", "a b c d e f", "x y z w"]
    g = game(texts, seed_first=True)
    kept, _ = fluency(skip_repetitions=False)
    assert kept.score_games([g])[0].raw["B"] == 60.0  # median of 60, 60
    assert Fluency.Params().skip_repetitions  # the default
    f, _ = fluency(skip_repetitions=True)
    s = f.score_games([g])[0]
    # B (turns 1, 3): the repetition at turn 3 is left out -> 60 from turn 1 alone;
    # A (turns 2, 4): "x y z w" is not a repetition of "x y" (Sim < 0.95) -> median 30
    assert s.raw == {"A": 30.0, "B": 60.0}
    assert s.details[2] == {"turn": 3, "speaker": "B", "perplexity": 60.0, "excluded": "repetition"}
    # every turn a repetition but the first: with sigma_r 0 A's turn 4 repeats turn 2
    loose, _ = fluency(skip_repetitions=True, sigma_r=0.0)
    assert "excluded" in loose.score_games([g])[0].details[3]


def test_fluency_sigma_r_follows_diversity() -> None:
    from chatmatch.scoring.config import ScoringConfig

    cfg = ScoringConfig(params={"diversity": {"sigma_r": 0.8}, "fluency": {"skip_repetitions": True}})
    assert cfg.scorer_params("fluency").sigma_r == 0.8
    assert ScoringConfig().scorer_params("fluency").sigma_r is None  # diversity's default
    with pytest.raises(ValueError, match="parameter 'sigma_r' was removed: follows diversity's"):
        ScoringConfig(params={"diversity": {"sigma_r": 0.8}, "fluency": {"sigma_r": 0.9}})


def test_lower_is_better_details_and_seed() -> None:
    f, lm = fluency()
    s = f.score_games([game(TEXTS, seed_first=True)])[0]
    assert not s.higher_is_better and not f.higher_is_better
    assert [d["turn"] for d in s.details] == [1, 2, 3, 4, 5]  # the seed is not scored
    assert s.details[3] == {"turn": 4, "speaker": "A", "perplexity": None}
    assert "seed words here" not in lm.calls[0]


def test_one_call_for_all_games_and_text_is_normalised() -> None:
    f, lm = fluency()
    f.score_games([game(["x", "do n't  go"]), game(["y", "z"])])
    assert lm.calls == [["x", "don't go", "y", "z"]]


def test_each_turn_is_read_after_the_turn_before_it_by_default() -> None:
    assert Fluency.Params().context == "previous_turn"
    g = game(["hi  there", "do n't  go", "ok", ""], seed_first=True)
    f, lm = fluency(context="previous_turn")
    f.score_games([g])
    # the seed is read, never scored; an empty turn is asked for alone (no perplexity)
    assert lm.calls == [[after("hi there", "don't go"), after("don't go", "ok"), ""]]
    assert game(["x", "y"]).turns[0].seed is False
    assert f.requests(game(["x", "y"])) == ["x", after("x", "y")]  # nothing before the first
    # the n-gram approximation reads every turn alone; so does the paper's preset
    assert Fluency(Fluency.Params(backend="ngram")).requests(g) == ["don't go", "ok", ""]
    from chatmatch.config.presets import PRESETS

    assert PRESETS["paper"]["scoring.params.fluency.context"] == "none"


def test_bot_without_scoreable_turns_has_no_score() -> None:
    g = game(["hello there", "", "how are you", "  "])
    for aggregation in ("median", "mean", "capped_mean", "trimmed_mean", "authors"):
        f, _ = fluency(aggregation=aggregation)
        raw = f.score_games([g])[0].raw
        # A: "hello there" 20, "how are you" 30 -> median/mean 25 (capped at 50: 25);
        # the authors' rule drops the worst turn (30) -> 20
        assert raw["A"] == (20.0 if aggregation == "authors" else 25.0)
        assert math.isnan(raw["B"])  # NaN loses the dimension to any number


def test_params_validation() -> None:
    assert RuntimeSettings().device == "auto" and RuntimeSettings(device="cuda:1").device == "cuda:1"
    assert RuntimeSettings().batch_size == "auto" and RuntimeSettings(batch_size=64).batch_size == 64
    for bad in ({"batch_size": 0}, {"batch_size": "big"}, {"batch_size": 2.5},
                {"max_batch_tokens": 1}, {"max_batch_tokens": "all"}, {"device": "gpu"}):
        with pytest.raises(ValueError):
            RuntimeSettings(**bad)
    for bad in ({"aggregation": "max"}, {"backend": "kenlm"}, {"cap": 50}, {"trim": 0.1},
                {"sigma_r": 0.9}, {"device": "cpu"}):  # removed or moved to runtime:
        with pytest.raises(ValueError):
            Fluency.Params(**bad)


# --- the transformers path on a tiny model built here (conftest.tiny_model_dir) -----------
def test_auto_batching_is_small_on_a_cpu_and_large_on_a_gpu(tiny_model_dir: Path) -> None:
    """bench_gpu.py: the CPU's 16 texts / 2,048 tokens left an H200 idle (14.4 s against
    2.6 s at 256 / 32,768 for the same 7,891 texts)."""
    assert batch_sizes("auto", "auto", "cpu") == (16, 2048)
    assert batch_sizes("auto", "auto", "cuda:1") == (256, 32768)
    assert batch_sizes(8, "auto", "cuda") == (8, 32768) and batch_sizes("auto", 100, "cpu") == (16, 100)
    lm = get_lm("transformers", str(tiny_model_dir), device="cpu", processes=1)
    assert isinstance(lm, TransformersLM) and (lm.batch_size, lm.max_batch_tokens) == (16, 2048)
    scorer = Fluency(Fluency.Params(model=str(tiny_model_dir)),
                     runtime=RuntimeSettings(device="cpu", processes=1, batch_size=5,
                                             max_batch_tokens=40))
    assert isinstance(scorer.lm, TransformersLM)
    assert (scorer.lm.batch_size, scorer.lm.max_batch_tokens) == (5, 40)


def test_local_directory_batched_and_cached_equals_plain(tiny_model_dir: Path) -> None:
    assert resolve_model(str(tiny_model_dir)) == (str(tiny_model_dir), None)
    model, tokenizer = load_weights(str(tiny_model_dir))
    lm = TransformersLM(model, tokenizer, name="tiny", batch_size=3)
    texts = ["i like tea", "the cat is very good", "you", "what do you like", "i like tea", "",
             "a dog"]
    batched = lm.perplexities(texts)
    plain = [lm.perplexity_plain(t) for t in texts]
    assert batched[5] is None and plain[5] is None
    for b, p in zip(batched, plain):
        if p is not None:
            assert b == pytest.approx(p, rel=1e-4)
    assert lm.cache_size() == 6  # the repeated text is scored once
    # a random 17-word model: perplexity of any text is near the vocabulary size
    assert all(1 < b < 10 * lm.vocab_size for b in batched if b is not None)


def test_resolve_model_errors(tmp_path: Path) -> None:
    with pytest.raises(ScoringError, match="exactly one .gguf"):
        resolve_model(str(tmp_path))
    (tmp_path / "m.gguf").write_bytes(b"")
    assert resolve_model(str(tmp_path)) == (str(tmp_path), "m.gguf")
    assert resolve_model(str(tmp_path / "m.gguf")) == (str(tmp_path), "m.gguf")
    assert resolve_model("someone/some-model") == ("someone/some-model", None)


def test_unreachable_hub_model_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import huggingface_hub.constants

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # no network wait: fail as a machine offline does
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", True)
    with pytest.raises(ScoringError, match="cannot load language model 'nobody/no-such-model-xyz'"):
        load_weights("nobody/no-such-model-xyz")


def test_unknown_backend() -> None:
    with pytest.raises(ScoringError, match="unknown LM backend"):
        get_lm("kenlm")


# --- SmolLM2, the default model ------------------------------------------------------------
# Loading SmolLM2 takes ~20 s on 2 cores: these tests are "slow" (make test-all runs them).
@pytest.fixture(scope="module")
def smollm2() -> TransformersLM:
    lm = get_lm("transformers", "smollm2")
    assert isinstance(lm, TransformersLM)
    return lm


SENTENCES = ["I like to play football on weekends.", "weekends football play to like on I.",
             "Yeah", "¿Qué hiciste la semana pasada?", "That sounds great 😀", ""]


@pytest.mark.slow
def test_smollm2_batched_equals_plain_and_ranks_fluency(smollm2: TransformersLM) -> None:
    batched = smollm2.perplexities(SENTENCES)
    plain = [smollm2.perplexity_plain(t) for t in SENTENCES]
    assert batched[-1] is None and plain[-1] is None
    for b, p in zip(batched[:-1], plain[:-1]):
        assert b == pytest.approx(p, rel=1e-3)
    assert batched[0] is not None and batched[1] is not None
    assert batched[0] < batched[1] / 5  # word salad is far less likely
    assert all(math.isfinite(b) for b in batched[:-1])


@pytest.mark.slow
def test_smollm2_scorer_end_to_end(smollm2: TransformersLM) -> None:
    g = game(["What did you do last week?", "I went hiking with my friends in the mountains.",
              "Sounds fun!", "mountains the my hiking friends went with in I."], seed_first=True)
    # B's scrambled turn has the words of its turn 1: a penalised repetition (TF-IDF
    # cosine 1), which the default leaves out; here every turn counts
    s = Fluency(Fluency.Params(skip_repetitions=False)).score_games([g])[0]
    assert s.raw["B"] > s.raw["A"]  # A's single turn is fluent; B's median turn is not
    assert get_lm("transformers", "smollm2") is smollm2  # loaded once per process


def test_worst_and_slor_aggregations() -> None:
    g = game(TEXTS, seed_first=True)
    worst, _ = fluency(aggregation="worst", fixed={"worst_share": 1.0})
    assert worst.score_games([g])[0].raw == {"A": 80.0, "B": 30.0}  # B: 20, 10, 30 -> max
    from chatmatch.scoring.variety import UnigramTable, chitchat_unigrams

    slor, _ = fluency(aggregation="slor")
    table = chitchat_unigrams()
    # B's turns: "a b" (20), "a" (10), "a b c" (30): log ppl minus log unigram ppl, median
    want = sorted(math.log(p) - (table.log_perplexity(t.split()) or 0.0)
                  for p, t in ((20, "a b"), (10, "a"), (30, "a b c")))[1]
    assert slor.score_games([g])[0].raw["B"] == pytest.approx(want)
    # a common word is predictable by frequency alone: its unigram log ppl is the lower
    small = UnigramTable({"the": 90, "violin": 1})
    assert small.log_perplexity(["the"]) < small.log_perplexity(["violin"])
    assert small.log_perplexity([]) is None


def test_a_word_the_corpus_never_saw_counts_as_one_event_a_new_word() -> None:
    """Add-one priced each unseen word as one particular word never seen, the largest
    rarity credit there is: under SmolLM2 a turn of made-up words was the most fluent of
    its game. An unseen word is now the event "a new word", as likely as the words seen
    once together (Good-Turing), whatever the word."""
    from chatmatch.scoring.variety import UnigramTable

    table = UnigramTable({"the": 90, "cat": 5, "violin": 1, "oboe": 1, "lute": 1})
    assert table.new_word == 3.0  # three words seen once
    total = 90 + 5 + 3 + 5 + 1
    assert table.log_perplexity(["xqzvt"]) == pytest.approx(-math.log(3 / total))
    assert table.log_perplexity(["xqzvt"]) == table.log_perplexity(["blorfang"])
    assert table.log_perplexity(["xqzvt"]) < table.log_perplexity(["violin"])  # 2 / total
    assert table.log_perplexity(["cat"]) == pytest.approx(-math.log(6 / total))  # unchanged

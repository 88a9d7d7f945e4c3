"""The fluency LM's cost controls: sliding windows for long texts, token-budget batches,
float32 only, and device resolution, on the tiny model of conftest."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from chatmatch.runtime.errors import ScoringError
from chatmatch.scoring.fluency import Fluency
from chatmatch.runtime.lm import TransformersLM, get_lm, load_weights, windows

LONG = " ".join(["i like tea and the cat is very good what do you like"] * 3)
TEXTS = ["i like tea", "the cat is very good", "you", "what do you like", LONG, "a dog is good"]


@pytest.mark.parametrize("n, size", [(5, 8), (8, 8), (9, 8), (30, 8), (31, 7), (40, 2), (17, 3)])
def test_windows_score_every_token_once_with_half_a_window_of_context(n: int, size: int) -> None:
    ids = list(range(n))
    wins = windows(ids, size)
    scored = [w[j] for w, first in wins for j in range(first, len(w))]
    assert scored == ids[1:]  # every token but the context token, once, in order
    assert all(len(w) <= size for w, _ in wins)
    assert all(first >= size - size // 2 for _, first in wins[1:])  # context before each
    assert len(wins) <= 1 + max(0, n - size) / max(size // 2, 1) + 1  # linear in n


def _manual(lm: TransformersLM, text: str, size: int) -> float:
    """Perplexity from plain forward passes over the windows (no batching, no padding)."""
    import torch

    nll, count = 0.0, 0
    for w, first in windows(lm._encode(text), size):
        x = torch.tensor([w])
        with torch.inference_mode():
            logp = torch.log_softmax(lm.model(input_ids=x).logits[0, :-1].float(), -1)
        picked = logp[torch.arange(len(w) - 1), x[0, 1:]]
        nll -= float(picked[first - 1:].sum())
        count += len(w) - first
    return math.exp(nll / count)


def test_long_text_is_windowed_short_texts_unchanged(tiny_model_dir: Path) -> None:
    model, tokenizer = load_weights(str(tiny_model_dir))
    whole = TransformersLM(model, tokenizer, name="whole", max_tokens=512)
    windowed = TransformersLM(model, tokenizer, name="windowed", max_tokens=10,
                              max_batch_tokens=24, batch_size=3)
    a, b = whole.perplexities(TEXTS), windowed.perplexities(TEXTS)
    for text, x, y in zip(TEXTS, a, b):
        if len(whole._encode(text)) <= 10:  # within the window: the same number
            assert y == pytest.approx(x, rel=1e-5)
    assert a[4] == pytest.approx(whole.perplexity_plain(LONG), rel=1e-4)
    assert b[4] == pytest.approx(_manual(windowed, LONG, 10), rel=1e-4)
    assert b[4] != pytest.approx(a[4], rel=1e-6)  # the window really cut the context


def test_token_budget_batches(tiny_model_dir: Path) -> None:
    model, tokenizer = load_weights(str(tiny_model_dir))
    lm = TransformersLM(model, tokenizer, name="tiny", batch_size=64, max_batch_tokens=12)
    seqs = [lm._encode(t) for t in TEXTS]
    order = sorted(range(len(seqs)), key=lambda i: len(seqs[i]))
    batches = lm._batches(order, seqs, 64)
    assert [i for b in batches for i in b] == order
    for b in batches:  # within budget, unless one text alone exceeds it
        assert len(b) == 1 or max(len(seqs[i]) for i in b) * len(b) <= 12
    budget = lm.perplexities(TEXTS)
    one_batch = TransformersLM(model, tokenizer, name="one", batch_size=64,
                               max_batch_tokens=10_000).perplexities(TEXTS)
    assert budget == pytest.approx(one_batch, rel=1e-5)


def _no_gpu() -> bool:
    import torch

    return not torch.cuda.is_available()


def test_the_lm_runs_in_float32_only(tiny_model_dir: Path) -> None:
    """The precisions bf16, bf16-mixed and int8 were removed: get_lm takes none, and a
    tournament file that sets one is refused with what to do (tests/scoring/test_removed.py)."""
    import torch

    lm = get_lm("transformers", str(tiny_model_dir), device="cpu")
    assert isinstance(lm, TransformersLM)
    assert {p.dtype for p in lm.model.parameters()} == {torch.float32}
    with pytest.raises(TypeError):
        get_lm("transformers", str(tiny_model_dir), device="cpu", precision="bf16")  # type: ignore[call-arg]


@pytest.mark.skipif(not _no_gpu(), reason="checks the behaviour of a machine without a GPU")
def test_device_auto_is_cpu_and_missing_gpu_is_a_one_line_error(tiny_model_dir: Path) -> None:
    from chatmatch.runtime.resources import resolve_device

    assert resolve_device("auto") == "cpu"
    lm = get_lm("transformers", str(tiny_model_dir), device="auto")
    assert isinstance(lm, TransformersLM) and lm.device.type == "cpu"
    assert lm is get_lm("transformers", str(tiny_model_dir), device="cpu")  # same model
    for device in ("cuda", "cuda:1"):
        with pytest.raises(ScoringError) as err:
            get_lm("transformers", str(tiny_model_dir), device=device)
        msg = str(err.value)
        assert "\n" not in msg and f"'{device}'" in msg and "no CUDA device" in msg
        assert "use 'cpu' or 'auto'" in msg

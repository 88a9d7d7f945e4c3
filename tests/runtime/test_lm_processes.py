"""The fluency LM in several worker processes gives the same perplexities, bit for bit, as
one process; low precisions keep the vocabulary projection in float32."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chatmatch.runtime.lm import forward as lm_forward
from chatmatch.runtime.settings import RuntimeSettings
from chatmatch.scoring.fluency import Fluency
from chatmatch.runtime.lm import TransformersLM, get_lm, load_weights
from chatmatch.runtime.lm.forward import Batch, split_work

LONG = " ".join(["i like tea and the cat is very good what do you like"] * 3)
TEXTS = ["i like tea", "the cat is very good", "you", "what do you like", LONG, "a dog is good",
         "i like the cat", "do you like coffee", "good day", "the dog is very very good"]


def test_worker_processes_give_identical_perplexities(tiny_model_dir: Path) -> None:
    model, tokenizer = load_weights(str(tiny_model_dir))
    one = TransformersLM(model, tokenizer, name="one", batch_size=2, max_tokens=10)
    two = TransformersLM(model, tokenizer, name="two", batch_size=2, max_tokens=10, processes=3)
    try:
        expected = one.perplexities(TEXTS)
        got = two.perplexities(TEXTS)
        assert two._pool._executor is not None  # the workers really ran
        assert got == expected  # exactly: every batch computed the same way
        two.clear_cache()
        assert two.perplexities(list(reversed(TEXTS))) == list(reversed(expected))  # pool reused
    finally:
        two.close()


def test_each_process_runs_its_share_of_the_cores(tiny_model_dir: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes on 2 cores run one torch thread each (the scoring process only while it
    computes its share: its own setting is put back)."""
    import torch

    from chatmatch.runtime.lm.forward import torch_threads, usable_cpus

    model, tokenizer = load_weights(str(tiny_model_dir))
    expected = TransformersLM(model, tokenizer, name="one", batch_size=2,
                              max_tokens=10).perplexities(TEXTS)
    two = TransformersLM(model, tokenizer, name="two", batch_size=2, max_tokens=10, processes=2)
    before = torch.get_num_threads()
    seen: list[int] = []
    forward = lm_forward.forward_nll

    def spy(*args: Any) -> list[float]:
        seen.append(torch.get_num_threads())
        return forward(*args)

    monkeypatch.setattr(lm_forward, "forward_nll", spy)
    try:
        got = two.perplexities(TEXTS)
    finally:
        two.close()
    assert got == expected
    share = max(1, usable_cpus() // 2)
    assert seen and set(seen) == {share}  # this process's share, at its thread count
    assert two._pool._threads == share  # and the worker's
    assert torch.get_num_threads() == before
    with pytest.raises(RuntimeError):
        with torch_threads(1):
            raise RuntimeError("boom")
    assert torch.get_num_threads() == before  # put back on an error too


def test_auto_starts_the_workers_once_the_calls_add_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fluency scorer sends a long pass in chunks (for its progress bar): ``auto`` counts
    the padded tokens over the calls, so the chunks of a long pass still use the cores."""
    monkeypatch.setattr(lm_forward, "usable_cpus", lambda: 2)
    monkeypatch.setattr(lm_forward, "AUTO_MIN_TOKENS", 100)
    pool = lm_forward.ForwardPool(model=None, split=True, processes=0)
    chunk: list[Batch] = [([[1] * 10] * 4, [1] * 4)]  # one batch of 40 padded tokens
    assert [pool._processes(chunk) for _ in range(4)] == [1, 1, 2, 2]  # 40, 80, 120, 160
    assert lm_forward.ForwardPool(None, True, processes=3)._processes(chunk) == 3  # as set


def test_fluency_uses_the_cores_by_default() -> None:
    assert RuntimeSettings().processes == "auto"


def test_split_work_balances_padded_tokens() -> None:
    batches: list[Batch] = [([[0] * n] * rows, [1] * rows) for n, rows in
                            [(10, 4), (3, 2), (50, 1), (7, 7), (20, 2), (2, 16)]]
    shares = split_work(batches, 2)
    assert sorted(i for s in shares for i in s) == list(range(len(batches)))
    loads = [sum(len(batches[i][0][0]) * len(batches[i][0]) for i in s) for s in shares]
    assert max(loads) - min(loads) <= 50  # at most the largest batch apart
    assert split_work(batches, 2) == shares  # deterministic


def test_processes_option_reaches_the_model(tiny_model_dir: Path) -> None:
    p = Fluency.Params(model=str(tiny_model_dir))
    lm = Fluency(p, runtime=RuntimeSettings(device="cpu", processes="auto")).lm
    assert isinstance(lm, TransformersLM) and lm.processes == 0  # 0 = automatic
    # the same values as one process, up to float noise: either model may hold perplexities
    # computed earlier in the session in other batches (bit for bit: the first test)
    assert lm.perplexities(TEXTS[:3]) == pytest.approx(get_lm(
        "transformers", str(tiny_model_dir), device="cpu").perplexities(TEXTS[:3]), rel=1e-5)
    assert lm._pool._executor is None  # a small call stays in this process
    for bad in (0, "many", True):
        with pytest.raises(ValueError, match="from 1 to 256, or 'auto'"):
            RuntimeSettings.model_validate({"processes": bad})


def test_a_bot_and_fluency_on_the_same_model_share_one_copy(tiny_model_dir: Path) -> None:
    """Both load through chatmatch.runtime.resources.load_model (docs/scale.md)."""
    from chatmatch.adapters import create_bot

    bot = create_bot("b", "causal-lm", {"model": str(tiny_model_dir)})
    bot.load()
    lm = get_lm("transformers", str(tiny_model_dir), device="cpu")
    assert isinstance(lm, TransformersLM) and lm.model is bot._model  # type: ignore[attr-defined]

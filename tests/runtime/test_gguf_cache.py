"""The dequantised copy of a GGUF model (chatmatch.runtime.gguf_cache): written once, read back with
bit-identical logits, rebuilt when damaged, bypassed when switched off."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from chatmatch.runtime.gguf_cache import CACHE_SWITCH_ENV, copy_name, load_gguf

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny Llama folder with tied embeddings (like SmolLM2) and a fake ``.gguf`` file."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    folder = tmp_path_factory.mktemp("tiny-gguf")
    vocab = {w: i for i, w in enumerate(["<unk>", "<|endoftext|>", "hi", "there", "dogs", "like"])}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    transformers.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>",
                                         eos_token="<|endoftext|>").save_pretrained(folder)
    torch.manual_seed(0)
    config = transformers.LlamaConfig(vocab_size=len(vocab), hidden_size=16, intermediate_size=32,
                                      num_hidden_layers=1, num_attention_heads=2,
                                      num_key_value_heads=2, tie_word_embeddings=True)
    transformers.LlamaForCausalLM(config).save_pretrained(folder)
    (folder / "tiny.gguf").write_bytes(b"GGUF stand-in, version 1")
    return folder


class FromGguf:
    """A loader standing in for transformers' GGUF path: it reads the tiny folder when
    asked for the GGUF, flags the config as quantised (as transformers does), counts calls."""

    def __init__(self, tiny: Path) -> None:
        self.tiny, self.gguf_loads, self.folder_loads = tiny, 0, 0

    def __call__(self, folder: str, extra: dict[str, Any]) -> tuple[Any, Any]:
        if extra.get("gguf_file"):
            self.gguf_loads += 1
            folder = str(self.tiny)
        else:
            self.folder_loads += 1
        model = transformers.AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32)
        if extra.get("gguf_file"):
            model.config.quantization_config = {"quant_method": "gguf"}
        return transformers.AutoTokenizer.from_pretrained(folder), model


def logits(pair: tuple[Any, Any]) -> Any:
    tokenizer, model = pair
    ids = tokenizer("hi there dogs like hi", return_tensors="pt")["input_ids"]
    with torch.inference_mode():
        return model(input_ids=ids).logits


def test_the_copy_is_written_once_and_gives_bit_identical_logits(tiny: Path, tmp_path: Path) -> None:
    load = FromGguf(tiny)
    first = load_gguf(str(tiny), "tiny.gguf", kind="causal", dtype="float32", cache=tmp_path, load=load)
    second = load_gguf(str(tiny), "tiny.gguf", kind="causal", dtype="float32", cache=tmp_path, load=load)
    assert (load.gguf_loads, load.folder_loads) == (1, 1)
    assert torch.equal(logits(first), logits(second))
    model = second[1]
    assert model.get_output_embeddings().weight is model.get_input_embeddings().weight
    assert "quantization_config" not in (tmp_path / os.listdir(tmp_path)[0] / "config.json").read_text()
    assert [p.name for p in tmp_path.iterdir()] == [copy_name(tiny / "tiny.gguf", "causal", "float32")]


def test_a_damaged_copy_is_rebuilt_from_the_gguf(tiny: Path, tmp_path: Path) -> None:
    load = FromGguf(tiny)
    expected = logits(load_gguf(str(tiny), "tiny.gguf", kind="causal", dtype="float32",
                                cache=tmp_path, load=load))
    (saved,) = tmp_path.iterdir()
    (saved / "model.safetensors").write_bytes(b"not a safetensors file")
    again = load_gguf(str(tiny), "tiny.gguf", kind="causal", dtype="float32", cache=tmp_path, load=load)
    assert load.gguf_loads == 2 and torch.equal(logits(again), expected)
    assert [p.name for p in tmp_path.iterdir()] == [saved.name]  # rebuilt, nothing left over
    load_gguf(str(tiny), "tiny.gguf", kind="causal", dtype="float32", cache=tmp_path, load=load)
    assert load.gguf_loads == 2


def test_a_killed_writers_leftovers_are_swept_by_the_next_writer(tiny: Path, tmp_path: Path) -> None:
    name = copy_name(tiny / "tiny.gguf", "causal", "float32")
    old, fresh = tmp_path / f".{name}.killed", tmp_path / f".{name}.writing"
    for leftover in (old, fresh):
        leftover.mkdir()
        (leftover / "model.safetensors").write_bytes(b"half a file")
    os.utime(old, (1, 1))
    load_gguf(str(tiny), "tiny.gguf", kind="causal", dtype="float32", cache=tmp_path,
              load=FromGguf(tiny))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, fresh.name])


def test_switched_off_it_reads_the_gguf_and_writes_nothing(tiny: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_SWITCH_ENV, "0")
    load = FromGguf(tiny)
    for _ in range(2):
        load_gguf(str(tiny), "tiny.gguf", kind="causal", dtype="float32", cache=tmp_path, load=load)
    assert load.gguf_loads == 2 and list(tmp_path.iterdir()) == []


def test_a_cache_that_cannot_be_written_costs_speed_not_the_result(tiny: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def full_disk(*_args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("chatmatch.runtime.gguf_cache._write", full_disk)
    load = FromGguf(tiny)
    pair = load_gguf(str(tiny), "tiny.gguf", kind="causal", dtype="float32", cache=tmp_path, load=load)
    assert pair[1] is not None and list(tmp_path.iterdir()) == []


def test_the_copy_is_named_by_the_file_content_dtype_and_versions(tiny: Path, tmp_path: Path) -> None:
    other = tmp_path / "tiny.gguf"
    other.write_bytes(b"GGUF stand-in, version 2")
    names = {copy_name(tiny / "tiny.gguf", "causal", "float32"), copy_name(other, "causal", "float32"),
             copy_name(tiny / "tiny.gguf", "causal", "bfloat16")}
    assert len(names) == 3
    assert all(transformers.__version__ in n and torch.__version__ in n for n in names)


@pytest.mark.slow
def test_smollm2_from_the_copy_scores_exactly_as_from_the_gguf(monkeypatch: pytest.MonkeyPatch) -> None:
    from chatmatch.runtime.resources import RESOURCES
    from chatmatch.runtime.lm import get_lm

    texts = ["hi there! how are you today?", "ok", "I like to read books about old ships."]
    values = []
    for switch in ("0", "1", "1"):  # the GGUF, then the first cached load (writes), then the copy
        monkeypatch.setenv(CACHE_SWITCH_ENV, switch)
        RESOURCES.clear()
        values.append(get_lm("transformers", device="cpu").perplexities(texts))
    RESOURCES.clear()
    assert values[0] == values[1] == values[2]

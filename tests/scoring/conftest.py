"""Fixtures for the scorer tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from scoring_dialogues import FIGURE2, game

from chatmatch.transcript import Transcript


@pytest.fixture
def figure2() -> Transcript:
    return game(FIGURE2, gid="figure2")


WORDS = "i you like tea coffee the a cat dog is very good day what do".split()


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    folder = tmp_path_factory.mktemp("tiny-lm")
    vocab = {w: i for i, w in enumerate(["<unk>", "<|endoftext|>"] + WORDS)}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>",
                            eos_token="<|endoftext|>").save_pretrained(folder)
    torch.manual_seed(0)
    config = LlamaConfig(vocab_size=len(vocab), hidden_size=32, intermediate_size=64,
                         num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=4,
                         max_position_embeddings=128)
    LlamaForCausalLM(config).save_pretrained(folder)
    return folder

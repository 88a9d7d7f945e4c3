"""Fixtures for the whole suite: a private cache folder, so no test reads or writes the
user's cache (retrieval indexes, ChatterBot databases, the n-gram LM and the AMR judge's
small model are built there once per session), and the persistent perplexity and embedding caches
off, so that every test computes the values it checks (tests/runtime/test_lm_cache.py,
tests/runtime/test_embed_cache.py and tests/scoring/test_lm_warm.py turn them on, in a
folder of their own)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from chatmatch.runtime.embed_cache import SWITCH_ENV as EMBED_SWITCH_ENV
from chatmatch.runtime.lm.cache import SWITCH_ENV
from chatmatch.runtime.resources import CACHE_ENV


@pytest.fixture(scope="session", autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``$CHATMATCH_CACHE_DIR`` points at a fresh folder for the whole session, and
    ``$CHATMATCH_PPL_CACHE`` and ``$CHATMATCH_EMBED_CACHE`` are ``0``."""
    path = str(tmp_path_factory.mktemp("chatmatch-cache"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(CACHE_ENV, path)
        mp.setenv(SWITCH_ENV, "0")
        mp.setenv(EMBED_SWITCH_ENV, "0")
        yield path


@pytest.fixture(autouse=True)
def no_smollm2_greedy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lab's construct check gets its greedy small-LM group from a stand-in, not from
    SmolLM2 (two CPU minutes); tests/validity/test_construct_greedy.py runs the real one."""
    import chatmatch.validity.lab.construct as construct

    monkeypatch.setattr(construct, "smollm2_replies",
                        lambda prompts: [f"i am sorry , i do not know . ({i})" for i in range(len(prompts))])


#: the tiny model's vocabulary (tests of the language models and of fluency)
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

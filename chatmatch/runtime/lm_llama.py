"""The fluency LM on llama.cpp: SmolLM2's GGUF computed as shipped (4-bit matmuls).

:class:`LlamaCppLM` has the same ``perplexities(texts)`` as
:class:`chatmatch.runtime.lm.TransformersLM` and the same definition of a perplexity (the
``<|endoftext|>`` context token, every token of the text scored, texts longer than
``max_tokens`` in the same sliding windows: :func:`chatmatch.runtime.lm_forward.windows`), but the
model runs through ``llama-cpp-python`` on the CPU. The GGUF's Q4_1 weights are used as
they are; the torch engine dequantises them to float32 and multiplies in float32. The two
differ: llama.cpp quantises the activations to 8 bits for its dot products and keeps the
attention cache in float16, which moves a turn's perplexity by ~2% (median) and up to
~30% (docs/scale.md, "Fluency engines"), and the values depend a little on which texts
share a batch. On the machines measured so far it is not faster than the torch engine
either, so it is an option, not the default.

Many short texts go through one ``llama_decode`` call: each window is its own sequence
(``seq_id``) of a batch of at most ``batch_tokens`` tokens, so a 15-token turn does not
pay a whole decode call. Distinct texts are cached for the life of the
object and on disk for the machine, like the torch engine's (:mod:`chatmatch.runtime.lm_cache`).
"""

from __future__ import annotations

import contextlib
import os
from typing import Any, Iterator

from chatmatch.runtime.errors import ScoringError
from chatmatch.runtime.lm import LanguageModel, LMOptions, gguf_path, load_once
from chatmatch.runtime.lm_forward import windowed_perplexities
from chatmatch.runtime.lm_gguf import CachedGgufLM, check_cpu_gguf, cpu_threads

#: Sequences (windows) per llama_decode call, at most.
MAX_SEQS = 64
#: How to get the engine (the ``llama`` extra of setup.cfg; it compiles llama.cpp).
LLAMA_INSTALL = "pip install 'llama-cpp-python==0.3.36'"


def require_llama() -> Any:
    """The ``llama_cpp`` module, or a one-line error that says how to install it."""
    try:
        import llama_cpp
    except ImportError:
        raise ScoringError("fluency engine 'llama-cpp' needs the llama-cpp-python package; "
                           f"install it with `{LLAMA_INSTALL}` (the `llama` extra; `make "
                           "install` leaves it out: it compiles llama.cpp), or set "
                           "scoring.params.fluency.engine: torch") from None
    return llama_cpp


@contextlib.contextmanager
def _quiet_fds() -> Iterator[None]:
    """Silence C-level writes to stdout/stderr (llama.cpp's loader logs there)."""
    saved = [os.dup(1), os.dup(2)]
    with open(os.devnull, "w") as null:
        try:
            os.dup2(null.fileno(), 1)
            os.dup2(null.fileno(), 2)
            yield
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in saved:
                os.close(fd)


class LlamaCppEngine:
    """The ``llama-cpp`` engine (an entry point of ``chatmatch.engines``): :class:`LlamaCppLM`."""

    def check(self, model: str, device: str, precision: str) -> None:
        check_cpu_gguf("llama-cpp", "computes the GGUF's own quantised weights", model, device,
                       precision)
        require_llama()

    def load(self, model: str, options: LMOptions) -> LanguageModel:
        """The llama.cpp engine for ``model`` (a GGUF), loaded once per process."""
        n = cpu_threads(options.threads)
        path = gguf_path(model)
        max_tokens = options.max_tokens

        def build() -> LanguageModel:
            return LlamaCppLM(path, name=model, max_tokens=max_tokens, threads=n, store=True)

        return load_once(("llama-cpp", path, max_tokens, n), build)


ENGINE = LlamaCppEngine()


class LlamaCppLM(CachedGgufLM):
    """A GGUF model on llama.cpp scoring texts in multi-sequence batches."""

    def __init__(self, path: str, *, name: str, max_tokens: int = 512, batch_tokens: int = 512,
                 threads: int = 2, store: bool = False) -> None:
        """``store``: keep the perplexities in the machine's cache too (keyed by the GGUF's
        sha256, ``max_tokens`` and the library versions)."""
        llama_cpp = require_llama()
        self._lib = llama_cpp
        self.name = name
        self.max_tokens = max_tokens
        self.batch_tokens = max(batch_tokens, max_tokens)
        self.threads = threads
        self.max_seqs = min(MAX_SEQS, int(llama_cpp.llama_max_parallel_sequences()))
        with _quiet_fds():  # verbose=False leaves a few loader lines on stderr
            # the Llama object holds the weights and the tokenizer; its own context is
            # minimal: the scoring context below holds many sequences in one KV cache
            self._llama = llama_cpp.Llama(model_path=path, n_ctx=16, n_batch=16, n_ubatch=16,
                                          n_threads=threads, n_threads_batch=threads,
                                          verbose=False)
            params = llama_cpp.llama_context_default_params()
            params.n_ctx = params.n_batch = params.n_ubatch = self.batch_tokens
            params.n_seq_max, params.kv_unified = self.max_seqs, True
            params.n_threads = params.n_threads_batch = threads
            self._ctx = self._llama._stack.enter_context(contextlib.closing(
                llama_cpp._internals.LlamaContext(model=self._llama._model, params=params,
                                                  verbose=False)))
        self.vocab_size = int(self._llama.n_vocab())
        self._context = self._context_token()
        self._batch = self._llama._stack.enter_context(contextlib.closing(
            llama_cpp._internals.LlamaBatch(n_tokens=self.batch_tokens, embd=0, n_seq_max=1,
                                            verbose=False))).batch
        super().__init__(path, "llama-cpp", lambda: {"max_tokens": max_tokens, "context": self._context},
                         ("llama-cpp-python", "numpy"), store=store)

    # --- public --------------------------------------------------------------------------
    def encode(self, text: str) -> list[int]:
        """The context token, then the text's tokens (none for a blank text)."""
        if not text.strip():
            return []
        return self._context + list(self._llama.tokenize(text.encode("utf-8"), add_bos=False,
                                                         special=False))

    def score_ids(self, seqs: list[list[int]]) -> list[float | None]:
        """Perplexity of each id sequence (``None`` under 2 ids), one ``llama_decode`` a
        chunk (:meth:`_chunks`)."""
        return windowed_perplexities(seqs, self.max_tokens, self._chunks,
                                     lambda batches: [self._decode(*b) for b in batches])

    # --- internals -----------------------------------------------------------------------
    def _context_token(self) -> list[int]:
        """``<|endoftext|>`` when the vocabulary has it (as the torch engine), else BOS."""
        ids = self._llama.tokenize(b"<|endoftext|>", add_bos=False, special=True)
        if len(ids) == 1:
            return [int(ids[0])]
        bos = int(self._llama.token_bos())
        return [bos] if bos >= 0 else []

    def _chunks(self, order: list[int], lengths: list[int]) -> list[list[int]]:
        """Consecutive runs of ``order`` of at most ``batch_tokens`` tokens and
        ``max_seqs`` sequences."""
        out: list[list[int]] = []
        used = 0
        for k in order:
            if out and len(out[-1]) < self.max_seqs and used + lengths[k] <= self.batch_tokens:
                out[-1].append(k)
                used += lengths[k]
            else:
                out.append([k])
                used = lengths[k]
        return out

    def _decode(self, seqs: list[list[int]], firsts: list[int]) -> list[float]:
        """Summed NLL of each sequence's tokens from ``firsts[row]`` on, all sequences in
        one ``llama_decode`` call."""
        import numpy as np

        lib, batch = self._lib, self._batch
        n = 0
        for row, seq in enumerate(seqs):
            for pos, tok in enumerate(seq):
                batch.token[n] = tok
                batch.pos[n] = pos
                batch.n_seq_id[n] = 1
                batch.seq_id[n][0] = row
                batch.logits[n] = pos < len(seq) - 1
                n += 1
        batch.n_tokens = n
        ctx = self._ctx.ctx
        lib.llama_memory_clear(lib.llama_get_memory(ctx), True)
        if lib.llama_decode(ctx, batch) != 0:
            raise ScoringError("llama.cpp could not score a batch of texts (llama_decode failed)")
        outputs = n - len(seqs)
        logits = np.ctypeslib.as_array(lib.llama_get_logits(ctx), shape=(outputs, self.vocab_size))
        targets = np.fromiter((t for s in seqs for t in s[1:]), dtype=np.int64, count=outputs)
        peak = logits.max(axis=1)
        lse = np.log(np.exp(logits - peak[:, None]).sum(axis=1)) + peak
        nll = lse - logits[np.arange(outputs), targets]
        out, start = [], 0
        for seq, first in zip(seqs, firsts):
            out.append(float(nll[start + first - 1: start + len(seq) - 1].sum(dtype=np.float64)))
            start += len(seq) - 1
        return out

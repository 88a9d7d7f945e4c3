"""The fluency LM on ONNX Runtime: SmolLM2's GGUF as an ONNX graph on the CPU.

:class:`OrtLM` has the same ``perplexities(texts)`` as
:class:`chatmatch.runtime.lm.TransformersLM` and the same definition of a perplexity (the
``<|endoftext|>`` context token, every token of the text scored, texts longer than
``max_tokens`` in the same sliding windows: :func:`chatmatch.runtime.lm.forward.windows`,
the same length-sorted padded batches). The model is the ONNX graph of
:mod:`chatmatch.runtime.lm.ort_graph`, written from the GGUF itself (no torch, no export):
by default the GGUF's weights dequantised to float32 and multiplied in float32, so the
perplexities are the torch engine's up to float rounding, at ~0.77x its CPU time on the
machine measured (the vocabulary projection runs on the scored positions only, and ONNX
Runtime's kernels carry less overhead per batch). The 4-bit graph (the Q4_1 blocks in
``MatMulNBits`` with int8 compute) was no faster there and moves the values ~2%:
docs/scale.md, "Fluency engines".

The graph and the tokenizer are built from the GGUF once per machine (a few seconds) and
kept in ``cache_dir("onnx")/<file stem>-<sha256 of the file>-<variant>-ort<version>-...``:
written into a temporary sibling and renamed into place; a copy that cannot be loaded is
removed and rebuilt. Distinct texts are cached for the life of the object and on disk for
the machine (:mod:`chatmatch.runtime.lm.cache`), under a key that names this engine.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any, Callable, Sequence

from chatmatch.runtime.errors import ScoringError
from chatmatch.runtime.lm import LanguageModel, LMOptions, batch_sizes, encode_scored, gguf_path, load_once
from chatmatch.runtime.lm.forward import padded_batches, windowed_perplexities
from chatmatch.runtime.lm.gguf import CachedGgufLM, check_cpu_gguf, cpu_threads

#: How to get the engine (the ``onnx`` extra of setup.cfg; both are wheels).
ORT_INSTALL = "pip install 'onnxruntime>=1.20,<2' 'onnx>=1.16,<2'"
#: Raise when the graph changes, so old copies are not loaded.
GRAPH_VERSION = 1
#: The engine's graph: the GGUF's weights dequantised to float32, plain float32 MatMuls
#: (as fast here as the Q4_1 blocks in MatMulNBits with int8 compute, ``q4-a4-h32``, and
#: exact: docs/scale.md, "Fluency engines").
VARIANT = "fp32-a0-h32"


def require_ort() -> Any:
    """The ``onnxruntime`` module (``onnx`` checked too), or a one-line error saying how to
    install them."""
    try:
        import onnx  # noqa: F401
        import onnxruntime
    except ImportError:
        raise ScoringError("fluency engine 'onnxruntime' needs the onnxruntime and onnx packages; "
                           f"install them with `{ORT_INSTALL}` (the `onnx` extra), or set "
                           "runtime.engine: torch") from None
    return onnxruntime


class OrtEngine:
    """The ``onnxruntime`` engine (an entry point of ``chatmatch.engines``): :class:`OrtLM`."""

    def check(self, model: str, device: str) -> None:
        check_cpu_gguf("onnxruntime", model, device)
        require_ort()

    def load(self, model: str, options: LMOptions) -> LanguageModel:
        """The ONNX Runtime engine for ``model`` (a GGUF), loaded once per process."""
        size, tokens = batch_sizes(options.batch_size, options.max_batch_tokens, "cpu")
        n = cpu_threads(options.threads)
        path = gguf_path(model, "onnxruntime")
        max_tokens = options.max_tokens

        def build() -> LanguageModel:
            return OrtLM(path, name=model, batch_size=size, max_tokens=max_tokens,
                         max_batch_tokens=tokens, threads=n, store=True)

        return load_once(("onnxruntime", path, size, max_tokens, tokens, n), build)


ENGINE = OrtEngine()


class OrtLM(CachedGgufLM):
    """A GGUF model as an ONNX graph on ONNX Runtime, scoring texts in padded batches."""

    def __init__(self, gguf: str, *, name: str, max_tokens: int = 512, batch_size: int = 16,
                 max_batch_tokens: int = 2048, threads: int = 1, store: bool = False,
                 variant: str = VARIANT, build: Callable[[Path], None] | None = None) -> None:
        """``variant``: the graph (``<weights>-a<accuracy_level>-h<head bits>``, see
        :func:`chatmatch.runtime.lm.ort_graph.build_graph`; the default is the engine's),
        or the name of one that ``build(folder)`` writes (the benchmark's); ``store``:
        keep the perplexities in the machine's cache too."""
        ort = require_ort()
        self.name, self.max_tokens, self.threads = name, max_tokens, threads
        self.batch_size, self.max_batch_tokens = batch_size, max_batch_tokens
        folder = ensure_graph(gguf, variant, build or (lambda out: _build(gguf, out, variant)))
        try:
            self._session, self.tokenizer = _load(ort, folder, threads)
        except Exception:  # a damaged copy (onnxruntime and transformers raise their own types)
            shutil.rmtree(folder, ignore_errors=True)
            folder = ensure_graph(gguf, variant, build or (lambda out: _build(gguf, out, variant)))
            self._session, self.tokenizer = _load(ort, folder, threads)
        vocab = self.tokenizer.get_vocab()
        self.vocab_size = len(vocab)
        ctx = vocab.get("<|endoftext|>")
        self._context = [int(ctx)] if ctx is not None else []
        super().__init__(gguf, "onnxruntime", lambda: {
            "max_tokens": max_tokens, "context": self._context, "graph": variant,
            "graph_version": GRAPH_VERSION}, ("onnxruntime", "onnx", "gguf", "numpy"), store=store)

    # --- public --------------------------------------------------------------------------
    def encode(self, text: str) -> list[int]:
        """The context token, then the text's tokens (none for a blank text)."""
        if not text.strip():
            return []
        return self._context + list(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def encode_scored(self, text: str) -> tuple[list[int], int]:
        """``(ids, first scored index)`` (:func:`chatmatch.runtime.lm.encode_scored`)."""
        return encode_scored(self.tokenizer, self._context, text)

    def score_ids(self, seqs: list[list[int]], firsts: Sequence[int] | None = None) -> list[float | None]:
        """Perplexity of each id sequence from index ``firsts[i]`` on (default 1), batched
        as the torch engine's (:func:`padded_batches`), one session run a batch."""
        return windowed_perplexities(
            seqs, self.max_tokens,
            lambda order, lengths: padded_batches(order, lengths, self.batch_size, self.max_batch_tokens),
            lambda batches: [self._forward(*b) for b in batches], firsts)

    # --- internals -----------------------------------------------------------------------

    def _forward(self, seqs: list[list[int]], firsts: list[int]) -> list[float]:
        """Summed NLL of each sequence's tokens from ``firsts[row]`` on, one session run."""
        import numpy as np

        width = max(len(s) for s in seqs)
        ids = np.zeros((len(seqs), width), dtype=np.int64)
        positions: list[int] = []
        targets: list[int] = []
        rows: list[int] = []
        for row, (seq, first) in enumerate(zip(seqs, firsts)):
            ids[row, : len(seq)] = seq
            positions.extend(range(row * width + first - 1, row * width + len(seq) - 1))
            targets.extend(seq[first:])
            rows.extend([row] * (len(seq) - first))
        (nll,) = self._session.run(None, {"input_ids": ids, "positions": np.array(positions, dtype=np.int64),
                                          "targets": np.array(targets, dtype=np.int64)})
        totals = np.zeros(len(seqs), dtype=np.float64)
        np.add.at(totals, np.array(rows, dtype=np.int64), nll.astype(np.float64))
        return [float(v) for v in totals]


def _build(gguf: str, out: Path, variant: str) -> None:
    """The graph ``variant`` and the tokenizer of ``gguf`` written into the folder ``out``."""
    from chatmatch.runtime.lm.ort_graph import build_graph

    weights, accuracy, head = variant.split("-")
    build_graph(gguf, out / "model.onnx", weights=weights, accuracy=int(accuracy[1:]),
                head_bits=int(head[1:]))
    save_tokenizer(gguf, out)


def save_tokenizer(gguf: str, out: Path) -> None:
    """``gguf``'s tokenizer saved (``tokenizer.json``) into the folder ``out``."""
    from transformers import AutoTokenizer

    AutoTokenizer.from_pretrained(os.path.dirname(gguf), gguf_file=os.path.basename(gguf)).save_pretrained(out)


def _load(ort: Any, folder: Path, threads: int) -> tuple[Any, Any]:
    """``(session, tokenizer)`` from a built folder."""
    from transformers import AutoTokenizer

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3  # errors only: no optimiser chatter on stderr
    # a waiting thread sleeps instead of spinning: on a shared machine spinning burns a core
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session = ort.InferenceSession(str(folder / "model.onnx"), opts, providers=["CPUExecutionProvider"])
    return session, AutoTokenizer.from_pretrained(str(folder))


def ensure_graph(gguf: str, variant: str, build: Callable[[Path], None]) -> Path:
    """The folder holding ``gguf``'s graph ``variant``: the cached copy when it is complete,
    else built by ``build(folder)`` into a temporary sibling and renamed into place."""
    import onnxruntime

    from chatmatch.runtime.gguf_cache import file_sha256
    from chatmatch.runtime.resources import CacheDirError, cache_dir, cache_error

    path = Path(gguf)
    name = (f"{path.stem}-{file_sha256(path)[:20]}-{variant}-ort{onnxruntime.__version__}"
            f"-g{GRAPH_VERSION}")
    target = cache_dir("onnx") / name
    try:
        return _built(target, name, build)
    except OSError as exc:  # the machine's cache folder, not the run's: say so
        if isinstance(exc, CacheDirError) or not str(exc.filename or target).startswith(
                str(target.parent)):
            raise
        raise cache_error(exc, target.parent, "read or write the ONNX graph there") from None


def _built(target: Path, name: str, build: Callable[[Path], None]) -> Path:
    """The complete folder ``target``, built into a temporary sibling when it is not."""
    if target.is_dir() and _complete(target):
        return target
    if target.exists():  # a damaged copy: set it aside, then rebuild
        shutil.rmtree(target, ignore_errors=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=target.parent))
    try:
        build(tmp)
        (tmp / "complete").write_text("ok\n")
        try:
            os.rename(tmp, target)
        except OSError:  # another process won the race: use its copy
            if not _complete(target):
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def _complete(folder: Path) -> bool:
    """Whether a built folder has everything (a killed writer's copy has no marker)."""
    return (folder / "complete").is_file() and (folder / "model.onnx").is_file()

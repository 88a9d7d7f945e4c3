"""A GGUF model's dequantised weights, written once and reused, so a later load takes a second.

``transformers`` loads a ``.gguf`` file by dequantising every tensor with numpy: for the
SmolLM2-135M GGUF that chatmatch ships, 40-95 s of CPU each time a ``chatmatch`` command
starts. The result does not depend on anything but the file and the library versions, so
:func:`load_gguf` saves the loaded tokenizer and model (``save_pretrained``: safetensors,
``config.json``, ``tokenizer.json``) the first time, into
``cache_dir("gguf")/<file stem>-<sha256 of the file>-<kind>-<dtype>-tf<transformers>-torch<torch>``,
and loads that folder afterwards. Safetensors stores the float tensors bit for bit, so the
model computes exactly the same logits as one loaded from the GGUF (checked by
tests/runtime/test_gguf_cache.py and ``benchmarks/bench_gguf_cache.py``).

The folder is written into a temporary sibling and renamed into place, so a process never
reads half a copy and two processes writing at once both succeed. A copy that cannot be read
(a damaged disk, a manual edit) is set aside and rebuilt from the GGUF; a temporary folder
left by a killed writer is removed by the next writer after an hour. Deleting the folder is
always safe. The copy takes the model's float size on disk (about 540 MB for SmolLM2 in
float32). ``CHATMATCH_GGUF_CACHE=0`` turns the cache off (every load dequantises the GGUF).
"""

from __future__ import annotations

import copy
import hashlib
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

#: set to ``0`` to load every GGUF from the file itself
CACHE_SWITCH_ENV = "CHATMATCH_GGUF_CACHE"
#: raise when the folder layout changes, so old copies are not read
LAYOUT_VERSION = 1
#: a temporary copy older than this (seconds) was left by a killed writer
STALE_SECONDS = 3600
#: what a loader is given: a folder, and the ``from_pretrained`` arguments naming the file
Loader = Callable[[str, dict[str, Any]], tuple[Any, Any]]


def load_gguf(folder: str, gguf_file: str, *, kind: str, dtype: str, cache: Path,
              load: Loader) -> tuple[Any, Any]:
    """``load(folder, {"gguf_file": gguf_file})`` (a ``(tokenizer, model)`` pair), through
    the copies kept in the folder ``cache``: the saved copy when there is one, else the GGUF,
    saved for next time."""
    if os.environ.get(CACHE_SWITCH_ENV, "1") == "0":
        return load(folder, {"gguf_file": gguf_file})
    saved = cache / copy_name(Path(folder) / gguf_file, kind, dtype)
    if saved.is_dir():
        try:
            return load(str(saved), {})
        except Exception:  # any unreadable copy (safetensors raises its own error type)
            _set_aside(saved)
    tokenizer, model = load(folder, {"gguf_file": gguf_file})
    _save(tokenizer, model, saved)
    return tokenizer, model


def copy_name(gguf: Path, kind: str, dtype: str) -> str:
    """The cache folder's name: what the saved weights depend on."""
    import torch
    import transformers

    digest = file_sha256(gguf)[:20]
    return (f"{gguf.stem}-{digest}-{kind}-{dtype}-tf{transformers.__version__}"
            f"-torch{torch.__version__}-v{LAYOUT_VERSION}")


def file_sha256(path: Path) -> str:
    """The sha256 of a file's content (hex): what identifies a GGUF here and in the
    perplexity cache (:mod:`chatmatch.runtime.lm.cache`)."""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _save(tokenizer: Any, model: Any, target: Path) -> None:
    """Write the copy into a temporary sibling, then rename it into place. Best effort: a
    full disk or a read-only cache costs the next run its speed, never its result."""
    _sweep(target)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        _write(tokenizer, model, tmp)
        os.rename(tmp, target)
    except OSError:  # another process won the race, or the disk said no
        pass
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _sweep(target: Path) -> None:
    """Remove what killed writers left behind: temporary copies of ``target`` untouched
    for :data:`STALE_SECONDS` (a live writer finishes in well under a minute)."""
    now = time.time()
    for stale in target.parent.glob(f".{target.name}.*"):
        try:
            if now - stale.stat().st_mtime > STALE_SECONDS:
                shutil.rmtree(stale, ignore_errors=True)
        except OSError:
            continue


def _write(tokenizer: Any, model: Any, folder: Path) -> None:
    """The float model as a plain ``transformers`` folder. ``save_pretrained`` refuses a
    model loaded from a GGUF (it is flagged as quantised), so the config is written without
    its ``quantization_config`` and the weights with safetensors directly, each tensor
    shared by several names (tied embeddings) once, under its first name."""
    from safetensors.torch import save_file

    config = copy.deepcopy(model.config)
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    config.save_pretrained(folder)
    if getattr(model, "generation_config", None) is not None:
        model.generation_config.save_pretrained(folder)
    tensors: dict[str, Any] = {}
    seen: set[int] = set()
    for name, tensor in model.state_dict().items():
        if tensor.data_ptr() not in seen:
            seen.add(tensor.data_ptr())
            tensors[name] = tensor.detach().contiguous()
    save_file(tensors, str(folder / "model.safetensors"), metadata={"format": "pt"})
    tokenizer.save_pretrained(folder)


def _set_aside(saved: Path) -> None:
    """Move an unreadable copy out of the way (removed; rebuilt by the caller)."""
    trash = saved.with_name(f".{saved.name}.bad{os.getpid()}")
    try:
        os.rename(saved, trash)
    except OSError:
        return
    shutil.rmtree(trash, ignore_errors=True)

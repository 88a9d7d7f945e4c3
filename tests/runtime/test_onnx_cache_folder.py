"""An ONNX graph cache folder chatmatch cannot read or write is reported as the machine's
cache folder (set $CHATMATCH_CACHE_DIR), never as a run folder to change with --out."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from chatmatch.errors import ChatmatchError
from chatmatch.runtime.resources import CACHE_ENV

pytest.importorskip("onnxruntime")


def test_an_unreadable_onnx_cache_folder_names_the_cache(tmp_path: Path, monkeypatch) -> None:
    from chatmatch.runtime.lm import ort as lm_ort

    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF" + b"\0" * 64)

    def denied(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", kwargs.get("dir", ""))
    monkeypatch.setattr(lm_ort.tempfile, "mkdtemp", denied)
    with pytest.raises(ChatmatchError) as err:
        lm_ort.ensure_graph(str(gguf), "fp32", lambda folder: None)
    msg = str(err.value)
    assert "cache folder" in msg and str(tmp_path / "cache" / "onnx") in msg, msg
    assert "Permission denied" in msg and f"${CACHE_ENV}" in msg and "--out" not in msg


def test_a_build_error_elsewhere_is_not_blamed_on_the_cache(tmp_path: Path, monkeypatch) -> None:
    from chatmatch.runtime.lm import ort as lm_ort

    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF" + b"\0" * 64)

    def build(folder: Path) -> None:
        raise FileNotFoundError(errno.ENOENT, "No such file", str(tmp_path / "tokenizer"))
    with pytest.raises(FileNotFoundError):
        lm_ort.ensure_graph(str(gguf), "fp32", build)

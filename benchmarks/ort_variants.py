"""ONNX Runtime variants of the fluency LM measured by ``bench_engines.py`` (``--engines
onnxruntime,ort-q4-a4,...``): the engine's graph and the others that were tried.

* ``onnxruntime``: the engine (:mod:`chatmatch.runtime.lm.ort`): the GGUF's weights
  dequantised to float32, plain float32 ``MatMul`` (the torch engine's arithmetic on ONNX
  Runtime; graph ``fp32-a0-h32``).
* ``ort-q4-a4``: the GGUF's Q4_1 blocks mapped exactly into ``MatMulNBits``,
  ``accuracy_level`` 4 (int8 compute, activations quantised per block of 32), float32 head.
* ``ort-q4-a0`` / ``ort-q4-a1``: the Q4_1 graph, ``MatMulNBits`` multiplying in float32.
* ``ort-q4-a4-h8``: ``ort-q4-a4`` with the vocabulary projection on the GGUF's Q8_0 table
  (8-bit ``MatMulNBits``, exact mapping).
* ``ort-w8a8``: every body linear layer as int8 ``MatMulInteger`` (u8 x s8, the VNNI GEMM):
  weights quantised per output channel from the Q4_1 values, activations per token
  (symmetric, max-abs), like CTranslate2 int8.
* ``ort-w8a8-sq``: ``ort-w8a8`` after SmoothQuant (alpha 0.5) folded into the weights: a
  per-channel scale moved from the activations into the weights (RMSNorm weights, the V
  rows and the up rows), exact in real arithmetic; the activation maxima come from the
  torch engine on 150 chitchat turns disjoint from the measured ones (seed 1).
* ``ort-int8dyn``: ``onnxruntime.quantization.quantize_dynamic`` of the float32 graph (per-channel
  int8 weights, one activation scale per tensor), ORT's stock tool.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

VARIANTS = ("onnxruntime", "ort-q4-a0", "ort-q4-a1", "ort-q4-a4", "ort-q4-a4-h8",
            "ort-w8a8", "ort-w8a8-sq", "ort-int8dyn")
GRAPHS = {"onnxruntime": "fp32-a0-h32", "ort-q4-a0": "q4-a0-h32", "ort-q4-a1": "q4-a1-h32",
          "ort-q4-a4": "q4-a4-h32", "ort-q4-a4-h8": "q4-a4-h8"}
SQ_ALPHA = 0.5


def loader(engine: str, threads: int) -> Callable[[list[str]], list[float | None]]:
    """The perplexity function of variant ``engine`` with ``threads`` threads (the graph
    built and cached first; the time it took printed)."""
    from chatmatch.runtime.lm import gguf_path
    from chatmatch.runtime.lm.ort import OrtLM

    gguf = gguf_path("smollm2")
    t0 = time.perf_counter()
    if engine in GRAPHS:
        lm = OrtLM(gguf, name="smollm2", threads=threads, variant=GRAPHS[engine])
    else:
        lm = OrtLM(gguf, name="smollm2", threads=threads, variant=engine + "-bench",
                   build=lambda out: _build(engine, gguf, out))
    print(f"  ({engine}: graph ready and loaded in {time.perf_counter() - t0:.1f} s)", flush=True)
    return lm.perplexities


def _build(engine: str, gguf: str, out: Path) -> None:
    from chatmatch.runtime.lm.ort import _build as build_engine_graph
    from chatmatch.runtime.lm.ort import save_tokenizer
    from chatmatch.runtime.lm.ort_graph import build_graph

    t0 = time.perf_counter()
    if engine == "ort-int8dyn":
        from onnxruntime.quantization import QuantType, quantize_dynamic

        build_engine_graph(gguf, out, "fp32-a0-h32")
        quantize_dynamic(str(out / "model.onnx"), str(out / "int8.onnx"), op_types_to_quantize=["MatMul"],
                         per_channel=True, weight_type=QuantType.QInt8)
        (out / "int8.onnx").replace(out / "model.onnx")
    else:
        stats = calibration() if engine == "ort-w8a8-sq" else {}
        build_graph(gguf, out / "model.onnx", make_layer=lambda *a: int8_layer(stats, *a))
        save_tokenizer(gguf, out)
    print(f"  ({engine}: built in {time.perf_counter() - t0:.1f} s)", flush=True)


def calibration() -> dict[tuple[int, str], np.ndarray]:
    """Per-channel max |input| of every linear layer, from the torch engine on 150 turns."""
    import torch
    from bench_engines import texts_of
    from bench_scoring import build_games

    from chatmatch.runtime.lm import get_lm

    lm: Any = get_lm("transformers", "smollm2", device="cpu", processes=1)
    stats: dict[tuple[int, str], np.ndarray] = {}
    hooks = []
    for i, block in enumerate(lm.model.model.layers):
        for name, mod in (("qkv", block.self_attn.q_proj), ("o", block.self_attn.o_proj),
                          ("gu", block.mlp.gate_proj), ("down", block.mlp.down_proj)):
            def hook(_mod: Any, inputs: Any, key: tuple[int, str] = (i, name)) -> None:
                x = inputs[0].detach().abs().reshape(-1, inputs[0].shape[-1]).amax(0).numpy()
                stats[key] = np.maximum(stats.get(key, 0), x)
            hooks.append(mod.register_forward_pre_hook(hook))
    with torch.inference_mode():
        lm.perplexities(texts_of(build_games(7, 4, 1))[:150])
    for h in hooks:
        h.remove()
    lm.clear_cache()
    return stats


def _smooth(stats: dict[tuple[int, str], np.ndarray], key: tuple[int, str], w: np.ndarray) -> np.ndarray:
    if key not in stats:
        return np.ones(w.shape[1], np.float32)
    a, wm = np.maximum(stats[key], 1e-5), np.maximum(np.abs(w).max(0), 1e-5)
    return (a ** SQ_ALPHA / wm ** (1 - SQ_ALPHA)).astype(np.float32)


def int8_linear(g: Any, x: str, w: np.ndarray) -> str:
    """``x @ w.T`` with per-token symmetric int8 activations and per-row int8 weights."""
    scale = (np.maximum(np.abs(w).max(1), 1e-12) / 127).astype(np.float32)
    codes = np.clip(np.round(w / scale[:, None]), -127, 127).astype(np.int8).T.copy()
    peak = g.op("ReduceMax", g.op("Abs", x), axes=[-1], keepdims=1)
    s = g.op("Div", g.op("Max", peak, g.const(np.float32(1e-8))), g.const(np.float32(127)))
    q = g.op("Cast", g.op("Add", g.op("Round", g.op("Div", x, s)), g.const(np.float32(128))), to=2)
    y = g.op("MatMulInteger", q, g.const(codes, "w8"), g.const(np.uint8(128)), g.const(np.int8(0)))
    return g.op("Mul", g.op("Cast", y, to=1), g.op("Mul", s, g.const(scale, "ws")))


def int8_layer(stats: dict[tuple[int, str], np.ndarray], g: Any, m: Any, i: int, x: str,
               rope: tuple[str, str, str], _weights: str, _accuracy: int) -> str:
    """One transformer block with int8 linear layers (SmoothQuant folded when ``stats``)."""
    from chatmatch.runtime.lm.ort_graph import attention, rms_norm

    b = f"blk.{i}."
    wqkv = m.linear((b + "attn_q.weight", m.heads), (b + "attn_k.weight", m.kv_heads),
                    (b + "attn_v.weight", None)).float32().copy()
    wo = m.linear((b + "attn_output.weight", None)).float32()
    wgu = m.linear((b + "ffn_gate.weight", None), (b + "ffn_up.weight", None)).float32().copy()
    wd = m.linear((b + "ffn_down.weight", None)).float32()
    s = _smooth(stats, (i, "qkv"), wqkv)
    norm_a, wqkv = m.vector(b + "attn_norm.weight") / s, wqkv * s
    s = _smooth(stats, (i, "gu"), wgu)
    norm_f, wgu = m.vector(b + "ffn_norm.weight") / s, wgu * s
    group, hd = m.heads // m.kv_heads, m.head_dim
    sv = _smooth(stats, (i, "o"), wo).reshape(m.kv_heads, group, hd).max(1)  # one per V channel
    wqkv[(m.heads + m.kv_heads) * hd:] /= sv.reshape(-1)[:, None]
    wo = wo * np.repeat(sv[:, None, :], group, axis=1).reshape(-1)
    sd = _smooth(stats, (i, "down"), wd)
    half = wgu.shape[0] // 2
    wgu[half:] /= sd[:, None]
    wd = wd * sd
    att = attention(g, m, int8_linear(g, rms_norm(g, x, norm_a, m.eps), wqkv), *rope)
    x = g.op("Add", x, int8_linear(g, att, wo))
    gate, up = g.ops("Split", int8_linear(g, rms_norm(g, x, norm_f, m.eps), wgu),
                    g.const(np.array([half, half])), axis=-1, outputs=2)
    act = g.op("Mul", g.op("Mul", gate, g.op("Sigmoid", gate)), up)
    return g.op("Add", x, int8_linear(g, act, wd))

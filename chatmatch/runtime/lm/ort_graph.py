"""SmolLM2's GGUF written as an ONNX graph that outputs what a perplexity needs.

:func:`build_graph` reads a Llama-architecture GGUF (``gguf`` package) and writes the
transformer with ONNX operators: every linear layer of the body is either a float32
``MatMul`` of the dequantised weights (``weights="fp32"``: the engine's default, the torch
engine's arithmetic) or ONNX Runtime's ``MatMulNBits`` (``com.microsoft``) holding the
GGUF's own Q4_1 blocks, mapped exactly (``weights="q4"``, below); the token embeddings and the tied vocabulary projection are the GGUF's Q8_0 table
dequantised to float32, and the graph ends in the negative log-likelihood of the scored
tokens only (padding costs no vocabulary projection).

Exact Q4_1 mapping. A Q4_1 block of 32 weights along the input dimension stores a scale
``d``, a minimum ``m`` and 4-bit codes ``q``: ``w = d*q + m``. ``MatMulNBits`` without
zero points computes ``d*(q - 8)``, so ``w = d*(q - 8) + c`` with ``c = m + 8d`` per
block, and ``x . w = MatMulNBits(x) + sum_b (sum of x over block b) * c_b``: the second
term is a small float32 ``MatMul`` of the block sums (K/32 columns) with the ``c`` table.
The weights are therefore the GGUF's values (up to float32 rounding of ``d*(q-8) + c``);
``accuracy_level`` says how ``MatMulNBits`` multiplies: 0/1 float32, 4 int8 with the
activations quantised per block of 32 (AVX512-VNNI), like llama.cpp's Q8_1 activations.

Inputs: ``input_ids`` (batch x length, int64, right padded), ``positions`` (flat indices
``row * length + t`` of the positions whose next token is scored), ``targets`` (that next
token). Output: ``nll`` (one float per scored position). The Q and K rows are put back
from llama.cpp's interleaved rotary layout into the Hugging Face order (as ``transformers``
does when it loads a GGUF), so the graph computes what the torch engine computes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import numpy as np

#: how the body's linear layers are multiplied: ``q4`` (MatMulNBits on the Q4_1 blocks)
#: or ``fp32`` (plain MatMul of the dequantised weights: the torch engine's arithmetic)
WEIGHTS = ("q4", "fp32")
BLOCK = 32


class Builder:
    """Nodes and initializers of one graph, with fresh names."""

    def __init__(self) -> None:
        self.nodes: list[Any] = []
        self.inits: list[Any] = []
        self._n = 0

    def name(self, stem: str) -> str:
        self._n += 1
        return f"{stem}_{self._n}"

    def const(self, value: Any, stem: str = "c") -> str:
        from onnx import numpy_helper

        name = self.name(stem)
        self.inits.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def op(self, kind: str, *inputs: str, domain: str = "", **attrs: Any) -> str:
        """The output of a new ``kind`` node."""
        return self.ops(kind, *inputs, domain=domain, outputs=1, **attrs)[0]

    def ops(self, kind: str, *inputs: str, domain: str = "", outputs: int, **attrs: Any) -> list[str]:
        """The outputs of a new ``kind`` node with ``outputs`` outputs."""
        from onnx import helper

        names = [self.name(kind.lower()) for _ in range(outputs)]
        self.nodes.append(helper.make_node(kind, list(inputs), names, domain=domain, **attrs))
        return names


def q4_1_blocks(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(codes [N, K], d [N, K/32], m [N, K/32])`` of a Q4_1 tensor's rows of bytes."""
    rows = raw.reshape(raw.shape[0], -1, 20)
    d = rows[..., 0:2].copy().view(np.float16)[..., 0].astype(np.float32)
    m = rows[..., 2:4].copy().view(np.float16)[..., 0].astype(np.float32)
    qs = rows[..., 4:]
    codes = np.concatenate([qs & 0x0F, qs >> 4], axis=-1)  # element i, then i + 16
    return codes.reshape(raw.shape[0], -1), d, m


def dequantised(tensor: Any) -> np.ndarray:
    """A GGUF tensor as float32 [rows, columns] (the ``gguf`` package's dequantiser)."""
    from gguf import dequantize

    return np.asarray(dequantize(tensor.data, tensor.tensor_type), dtype=np.float32)


def unpermute(rows: np.ndarray, heads: int) -> np.ndarray:
    """Q/K rows from llama.cpp's rotary layout back to Hugging Face's (any row payload)."""
    half = rows.shape[0] // heads // 2
    return rows.reshape(heads, half, 2, *rows.shape[1:]).swapaxes(1, 2).reshape(rows.shape)


class Linear:
    """One (possibly fused) linear layer: Q4_1 codes, scales, block constants, or floats."""

    def __init__(self, parts: list[tuple[Any, int | None]]) -> None:
        from gguf import GGMLQuantizationType

        self.q4 = all(t.tensor_type == GGMLQuantizationType.Q4_1 for t, _ in parts)
        codes, ds, ms, floats = [], [], [], []
        for tensor, heads in parts:
            fix = (lambda a: unpermute(a, heads)) if heads else (lambda a: a)
            if self.q4:
                c, d, m = q4_1_blocks(np.asarray(tensor.data))
                codes.append(fix(c))
                ds.append(fix(d))
                ms.append(fix(m))
            else:
                floats.append(fix(dequantised(tensor)))
        if self.q4:
            self.codes, self.d, self.m = (np.concatenate(a) for a in (codes, ds, ms))
            self.n, self.k = self.codes.shape
        else:
            self.weight = np.concatenate(floats)
            self.n, self.k = self.weight.shape

    def float32(self) -> np.ndarray:
        """The weights as float32 [N, K]."""
        if not self.q4:
            return self.weight
        d = np.repeat(self.d, BLOCK, axis=1)
        out: np.ndarray = d * (self.codes.astype(np.float32) - 8) + np.repeat(self.m + 8 * self.d, BLOCK, axis=1)
        return out

    def apply(self, g: Builder, x: str, weights: str, accuracy: int) -> str:
        if weights == "fp32" or not self.q4:
            return g.op("MatMul", x, g.const(self.float32().T, "w"))
        packed = (self.codes[:, 0::2] | (self.codes[:, 1::2] << 4)).astype(np.uint8)
        blob = g.const(packed.reshape(self.n, self.k // BLOCK, BLOCK // 2), "q4")
        y = g.op("MatMulNBits", x, blob, g.const(self.d.reshape(-1), "scale"), domain="com.microsoft",
                 K=self.k, N=self.n, bits=4, block_size=BLOCK, accuracy_level=accuracy)
        sums = g.op("ReduceSum", g.op("Reshape", x, g.const(np.array([0, 0, self.k // BLOCK, BLOCK]))),
                    g.const(np.array([-1])), keepdims=0)
        return g.op("Add", y, g.op("MatMul", sums, g.const((self.m + 8 * self.d).T.copy(), "c")))


class Model:
    """The GGUF's tensors and hyper-parameters, read once."""

    def __init__(self, path: str) -> None:
        from gguf import GGUFReader

        reader = GGUFReader(path)
        self.tensors = {t.name: t for t in reader.tensors}

        def field(key: str) -> Any:
            return reader.fields[f"llama.{key}"].parts[-1][0]

        self.layers = int(field("block_count"))
        self.heads = int(field("attention.head_count"))
        self.kv_heads = int(field("attention.head_count_kv"))
        self.hidden = int(field("embedding_length"))
        self.head_dim = self.hidden // self.heads
        self.eps = float(field("attention.layer_norm_rms_epsilon"))
        self.theta = float(field("rope.freq_base"))
        self.context = int(field("context_length"))

    def vector(self, name: str) -> np.ndarray:
        return np.asarray(self.tensors[name].data, dtype=np.float32).reshape(-1)

    def linear(self, *names: tuple[str, int | None]) -> Linear:
        return Linear([(self.tensors[n], heads) for n, heads in names])


def rms_norm(g: Builder, x: str, weight: np.ndarray, eps: float) -> str:
    """The pattern ONNX Runtime fuses into SimplifiedLayerNormalization."""
    var = g.op("ReduceMean", g.op("Pow", x, g.const(np.float32(2))), axes=[-1], keepdims=1)
    norm = g.op("Div", x, g.op("Sqrt", g.op("Add", var, g.const(np.float32(eps)))))
    return g.op("Mul", norm, g.const(weight, "norm"))


def rotary(g: Builder, x: str, cos: str, sin: str, half: int) -> str:
    """``x * cos + rotate_half(x) * sin`` on [batch, heads, length, head_dim]."""
    lo, hi = g.ops("Split", x, g.const(np.array([half, half])), axis=-1, outputs=2)
    turned = g.op("Concat", g.op("Neg", hi), lo, axis=-1)
    return g.op("Add", g.op("Mul", x, cos), g.op("Mul", turned, sin))


def attention(g: Builder, m: Model, qkv: str, cos: str, sin: str, mask: str) -> str:
    """Causal grouped-query attention; ``qkv`` is [batch, length, (H + 2 KV) * head_dim]."""
    hd, kv, group = m.head_dim, m.kv_heads, m.heads // m.kv_heads
    q, k, v = g.ops("Split", qkv, g.const(np.array([m.heads * hd, kv * hd, kv * hd])), axis=-1, outputs=3)

    def heads(t: str, n: int) -> str:
        return g.op("Transpose", g.op("Reshape", t, g.const(np.array([0, 0, n, hd]))), perm=[0, 2, 1, 3])

    q = rotary(g, heads(q, m.heads), cos, sin, hd // 2)
    k = rotary(g, heads(k, kv), cos, sin, hd // 2)
    q = g.op("Reshape", q, g.const(np.array([0, kv, group, -1, hd])))
    k = g.op("Unsqueeze", g.op("Transpose", k, perm=[0, 1, 3, 2]), g.const(np.array([2])))
    v = g.op("Unsqueeze", heads(v, kv), g.const(np.array([2])))
    scores = g.op("Add", g.op("Mul", g.op("MatMul", q, k), g.const(np.float32(hd ** -0.5))), mask)
    out = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)
    out = g.op("Transpose", g.op("Reshape", out, g.const(np.array([0, m.heads, -1, hd]))), perm=[0, 2, 1, 3])
    return g.op("Reshape", out, g.const(np.array([0, 0, m.heads * hd])))


def layer(g: Builder, m: Model, i: int, x: str, rope: tuple[str, str, str], weights: str,
          accuracy: int) -> str:
    b = f"blk.{i}."
    h = rms_norm(g, x, m.vector(b + "attn_norm.weight"), m.eps)
    qkv = m.linear((b + "attn_q.weight", m.heads), (b + "attn_k.weight", m.kv_heads),
                   (b + "attn_v.weight", None)).apply(g, h, weights, accuracy)
    att = attention(g, m, qkv, *rope)
    x = g.op("Add", x, m.linear((b + "attn_output.weight", None)).apply(g, att, weights, accuracy))
    h = rms_norm(g, x, m.vector(b + "ffn_norm.weight"), m.eps)
    gate_up = m.linear((b + "ffn_gate.weight", None), (b + "ffn_up.weight", None))
    gate, up = g.ops("Split", gate_up.apply(g, h, weights, accuracy),
                    g.const(np.array([gate_up.n // 2] * 2)), axis=-1, outputs=2)
    act = g.op("Mul", g.op("Mul", gate, g.op("Sigmoid", gate)), up)
    return g.op("Add", x, m.linear((b + "ffn_down.weight", None)).apply(g, act, weights, accuracy))


def rope_tables(g: Builder, m: Model, ids: str) -> tuple[str, str, str]:
    """cos and sin of the rotary embedding for positions 0..length-1, and the causal mask."""
    inv = 1.0 / (m.theta ** (np.arange(0, m.head_dim, 2, dtype=np.int64).astype(np.float32) / m.head_dim))
    freqs = np.outer(np.arange(m.context, dtype=np.float32), inv.astype(np.float32))
    emb = np.concatenate([freqs, freqs], axis=-1)
    length = g.op("Shape", ids, start=1, end=2)
    zero, axis = g.const(np.array([0])), g.const(np.array([0]))
    cos, sin = (g.op("Slice", g.const(f(emb).astype(np.float32), "rope"), zero, length, axis)
                for f in (np.cos, np.sin))
    square = g.op("ConstantOfShape", g.op("Concat", length, length, axis=0),
                  value=_tensor(np.array([-1e9], dtype=np.float32)))
    return cos, sin, g.op("Trilu", square, g.const(np.array(1)), upper=1)


def _tensor(value: np.ndarray) -> Any:
    from onnx import numpy_helper

    return numpy_helper.from_array(value)


def head(g: Builder, m: Model, hidden: str, embeddings: str, head_bits: int) -> str:
    """NLL of ``targets`` at ``positions`` of the final hidden states [batch, length, H]."""
    flat = g.op("Gather", g.op("Reshape", hidden, g.const(np.array([-1, m.hidden]))), "positions", axis=0)
    table = m.tensors["token_embd.weight"]
    if head_bits == 8:
        rows = np.asarray(table.data).reshape(table.data.shape[0], -1, 34)
        d = rows[..., 0:2].copy().view(np.float16)[..., 0].astype(np.float32)
        codes = (rows[..., 2:].view(np.int8).astype(np.int16) + 128).astype(np.uint8)
        logits = g.op("MatMulNBits", flat, g.const(codes, "q8"), g.const(d.reshape(-1), "scale"),
                      domain="com.microsoft", K=m.hidden, N=codes.shape[0], bits=8,
                      block_size=BLOCK, accuracy_level=4)
    else:
        logits = g.op("Gemm", flat, embeddings, transB=1)
    picked = g.op("GatherElements", g.op("LogSoftmax", logits, axis=-1),
                  g.op("Unsqueeze", "targets", g.const(np.array([1]))), axis=1)
    return g.op("Neg", g.op("Reshape", picked, g.const(np.array([-1]))))


def build_graph(gguf: str, out: Path, *, weights: str = "q4", accuracy: int = 4,
                head_bits: int = 32, make_layer: Callable[..., str] | None = None) -> None:
    """Write the ONNX graph of the GGUF at ``gguf`` to ``out`` (see the module docstring).
    ``make_layer``: another transformer block with :func:`layer`'s signature (the
    benchmark's int8 variants)."""
    import onnx
    from onnx import TensorProto, helper

    m = Model(gguf)
    if m.tensors["token_embd.weight"].tensor_type.name != "Q8_0" and head_bits == 8:
        raise ValueError("an 8-bit head needs the GGUF's token_embd in Q8_0")
    g = Builder()
    embeddings = g.const(dequantised(m.tensors["token_embd.weight"]), "embed")
    x = g.op("Gather", embeddings, "input_ids", axis=0)
    rope = rope_tables(g, m, "input_ids")
    for i in range(m.layers):
        x = (make_layer or layer)(g, m, i, x, rope, weights, accuracy)
    x = rms_norm(g, x, m.vector("output_norm.weight"), m.eps)
    g.op("Identity", head(g, m, x, embeddings, head_bits))
    g.nodes[-1].output[0] = "nll"
    graph = helper.make_graph(
        g.nodes, "smollm2_nll",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "length"]),
         helper.make_tensor_value_info("positions", TensorProto.INT64, ["scored"]),
         helper.make_tensor_value_info("targets", TensorProto.INT64, ["scored"])],
        [helper.make_tensor_value_info("nll", TensorProto.FLOAT, ["scored"])], g.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("com.microsoft", 1)])
    onnx.save_model(model, str(out))

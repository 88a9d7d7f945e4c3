"""SmoothQuant for the CTranslate2 int8 experiment of bench_engines.py (``--ct2-smooth ALPHA``).

SmoothQuant (Xiao et al. 2023): for every linear layer of a Llama-type model, the largest
absolute input of each channel over :data:`CALIBRATION_TEXTS` chitchat turns gives a scale
``s = act^a / weight^(1-a)``; the input is divided by ``s`` and the weight's column
multiplied by it, the division folded into what produces the input (an RMSNorm's weight, the
``up`` projection for ``down``, the ``v`` projection for ``o``; the vocabulary projection is
untied from the embeddings and smoothed after the final norm). In float the model computes
the same logits (the float32 CTranslate2 conversion of the smoothed model matches torch to
0.00%); int8's one activation scale per token is then less dominated by outlier channels.
Measured: it does not make CTranslate2 int8 faithful on SmolLM2 (docs/scale.md, "Fluency
engines").
"""

from __future__ import annotations

from typing import Any

#: SmoothQuant's migration strength when none is given (0: nothing moved, 1: everything).
ALPHA = 0.5
#: How many chitchat turns calibrate the smoothing scales.
CALIBRATION_TEXTS = 400


def calibration_texts() -> list[str]:
    """:data:`CALIBRATION_TEXTS` chitchat turns (the dataset's last conversations)."""
    import chitchat_dataset

    convos = list(chitchat_dataset.Dataset().values())
    turns = [" ".join(m["text"] for m in turn) for c in convos[-200:] for turn in c["messages"]]
    return turns[:CALIBRATION_TEXTS]


def smooth(model: Any, tokenizer: Any, texts: list[str], alpha: float = ALPHA) -> Any:
    """A smoothed copy of a Llama-type ``model`` (see the module's docstring)."""
    import copy

    import torch

    from chatmatch.runtime.lm import context_token_id

    act = _input_maxima(model, tokenizer, texts, context_token_id(tokenizer))
    out = copy.deepcopy(model)
    out.lm_head.weight = torch.nn.Parameter(out.model.embed_tokens.weight.detach().clone())
    out.config.tie_word_embeddings = False
    cfg = out.config
    group = cfg.num_attention_heads // cfg.num_key_value_heads
    head = getattr(cfg, "head_dim", None) or cfg.hidden_size // cfg.num_attention_heads
    with torch.no_grad():
        for i, layer in enumerate(out.model.layers):
            at, mlp, p = layer.self_attn, layer.mlp, f"model.layers.{i}."
            _fold(layer.input_layernorm.weight, [at.q_proj, at.k_proj, at.v_proj],
                  act[p + "self_attn.q_proj"], alpha)
            _fold(layer.post_attention_layernorm.weight, [mlp.gate_proj, mlp.up_proj],
                  act[p + "mlp.gate_proj"], alpha)
            s = _scales(act[p + "mlp.down_proj"], [mlp.down_proj.weight], alpha)
            mlp.up_proj.weight.div_(s[:, None])
            mlp.down_proj.weight.mul_(s)
            _fold_v_into_o(at, act[p + "self_attn.o_proj"], group, head, alpha)
        _fold(out.model.norm.weight, [out.lm_head], act["lm_head"], alpha)
    return out


def _fold(norm: Any, linears: list[Any], act: Any, alpha: float) -> None:
    s = _scales(act, [lin.weight for lin in linears], alpha)
    norm.div_(s)
    for lin in linears:
        lin.weight.mul_(s)


def _fold_v_into_o(attn: Any, act: Any, group: int, head: int, alpha: float) -> None:
    """One scale per ``v`` output channel, shared by the query heads that read it."""
    import torch

    kv = attn.v_proj.weight.shape[0] // head
    a = act.reshape(kv, group, head).amax(1)
    w = attn.o_proj.weight.abs().amax(0).reshape(kv, group, head).amax(1)
    s = (a.clamp(min=1e-5) ** alpha / w.clamp(min=1e-5) ** (1 - alpha)).clamp(min=1e-5)
    attn.v_proj.weight.div_(s.reshape(-1)[:, None])
    attn.o_proj.weight.mul_(torch.repeat_interleave(s, group, dim=0).reshape(-1))


def _scales(act: Any, weights: list[Any], alpha: float) -> Any:
    import torch

    w = torch.cat([x.abs() for x in weights], 0).amax(0).clamp(min=1e-5)
    return (act.clamp(min=1e-5) ** alpha / w ** (1 - alpha)).clamp(min=1e-5)


def _input_maxima(model: Any, tokenizer: Any, texts: list[str], ctx: int | None) -> dict[str, Any]:
    """The largest absolute input of each channel of every linear layer over ``texts``."""
    import torch

    found: dict[str, Any] = {}

    def hook(name: str) -> Any:
        def record(_mod: Any, inputs: Any, _out: Any) -> None:
            x = inputs[0].detach().abs().reshape(-1, inputs[0].shape[-1]).amax(0)
            found[name] = torch.maximum(found[name], x) if name in found else x
        return record

    hooks = [m.register_forward_hook(hook(n)) for n, m in model.named_modules()
             if isinstance(m, torch.nn.Linear)]
    try:
        with torch.no_grad():
            for text in texts:
                ids = ([] if ctx is None else [ctx]) + tokenizer(text, add_special_tokens=False)["input_ids"]
                model(torch.tensor([ids]))
    finally:
        for h in hooks:
            h.remove()
    return found

"""``precision: bf16-mixed``: the fluency LM's matrix products in bfloat16, everything else in
float32.

Where ``bf16`` runs the whole transformer body in bfloat16 (weights, activations, the
residual stream, RMSNorm, attention, rotary), ``bf16-mixed`` changes only the body's
``nn.Linear`` layers (for Llama: q/k/v/o and the MLP's gate/up/down projections, ~80% of
SmolLM2's arithmetic): their input and weight are rounded to bfloat16, oneDNN multiplies
them with float32 accumulation (AVX512-BF16 on the CPU), and the product comes back as
float32. The residual stream, the norms, rotary, attention's softmax, the activation
function, the token embeddings and the vocabulary projection stay float32.

Why (docs/appendix/scoring-measurements.md, "Fluency LM precision"): SmolLM2's residual stream carries massive
activations (the context token's reaches ~20,000 at layer 11, other tokens ~500), and a
bfloat16 residual stream keeps 8 bits of them: one-word greetings moved by up to 4.6x under
``bf16``. Rounding the SiLU-gated MLP activations to bfloat16 (what ``torch.autocast`` does)
costs ~4x the median error of this layout.

With ``keep_first`` the first position of every window (the context token, whose hidden
states are the same for every text and carry the largest activations) is multiplied in
float32 too: an extra matrix-vector product per layer, a few % of the time.
"""

from __future__ import annotations

import copy
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn


class Bf16Linear(nn.Module):
    """``linear`` computed with bfloat16 operands and float32 accumulation; input and output
    in the caller's dtype. The float32 weight is kept (shared, not copied) for the first
    position when ``keep_first``."""

    def __init__(self, linear: nn.Linear, keep_first: bool) -> None:
        super().__init__()
        self.weight = nn.Parameter(linear.weight.detach().to(torch.bfloat16), requires_grad=False)
        self.exact = linear.weight  # float32, the same tensor as the float32 model's
        self.bias = linear.bias
        self.keep_first = keep_first

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.linear(x.to(torch.bfloat16), self.weight).to(x.dtype)
        if self.bias is not None:
            y = y + self.bias
        if self.keep_first and x.dim() == 3:
            y[:, 0] = F.linear(x[:, 0], self.exact, self.bias)
        return y


def bf16_mixed(fp32: Any, keep_first: bool = True) -> Any:
    """A copy of the float32 causal LM ``fp32`` whose body's ``nn.Linear`` layers are
    :class:`Bf16Linear`; every other tensor is shared with ``fp32`` (not copied): the extra
    memory is the bfloat16 copy of the body's weights."""
    shared: dict[int, Any] = {id(t): t for t in (*fp32.parameters(), *fp32.buffers())}
    model = copy.deepcopy(fp32, memo=shared)
    head = model.get_output_embeddings()
    for parent in list(model.modules()):
        for name, child in list(parent.named_children()):
            if type(child) is nn.Linear and child is not head:
                setattr(parent, name, Bf16Linear(child, keep_first))
    return model

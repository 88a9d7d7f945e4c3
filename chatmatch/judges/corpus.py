"""``chitchat-dataset`` dialogues for the judges: PairEval's comparison examples and the
AMR judge's small-model training pairs. Conversations are read in key order, so a seed
alone fixes every draw."""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Example:
    """A human conversation cut before one of its turns: (history, reply)."""

    context: tuple[str, ...]
    reply: str
    source: str  # "<conversation key>#<turn index>"


@functools.lru_cache(maxsize=1)
def chitchat_dialogues() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(key, turns) of every conversation; a turn's messages joined by spaces."""
    import chitchat_dataset

    data = chitchat_dataset.Dataset()
    out = []
    for key in sorted(data):
        turns = tuple(" ".join(m["text"].strip() for m in turn).strip()
                      for turn in data[key]["messages"])
        turns = tuple(t for t in turns if t)
        if len(turns) >= 2:
            out.append((key, turns))
    return tuple(out)


def comparison_examples(n: int, seed: int, context_turns: int) -> list[Example]:
    """``n`` human (history, reply) examples drawn reproducibly (PairEval's comparison set)."""
    rng = random.Random(seed)
    dialogues = chitchat_dialogues()
    out = []
    for i in rng.sample(range(len(dialogues)), n):
        key, turns = dialogues[i]
        t = rng.randrange(1, len(turns))
        out.append(Example(turns[max(0, t - context_turns):t], turns[t], f"{key}#{t}"))
    return out

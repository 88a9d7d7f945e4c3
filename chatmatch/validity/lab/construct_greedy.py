"""A small LM's greedy replies as a group of the construct check.

The ``smollm2`` bot (SmolLM2-135M-Instruct, greedy decoding, the paper tournament's
persona) answers the people's turns that the generic group answers. Its replies are kept
in the machine cache (``construct/greedy-v1.json`` under the cache folder, keyed by the
prompts and the bot's settings), so only the first ``validate`` on a machine generates them
(about two CPU minutes for 60 replies).

When the fluency scorer scores with the same LM (the default, SmolLM2), the group's kind
is :data:`OWN_LM`: a model finds its own greedy text the most predictable text there is,
so there the group measures self-preference, not blandness. It is reported beside the
verdict, with a verdict of its own, and not folded into it (docs/scoring.md, "Fluency":
a bot built on the fluency LM is favoured by it).
"""

from __future__ import annotations

import hashlib
import json
from typing import Callable, Sequence

from chatmatch.adapters import create_bot
from chatmatch.bot import History, Message
from chatmatch.common.safeio import read_text_bounded
from chatmatch.rundir.store import atomic_write
from chatmatch.runtime.lm import SMOLLM2
from chatmatch.scoring.base import ScorerParams
from chatmatch.scoring.fluency import fluency_lm, scores_with
from chatmatch.runtime.resources import cache_dir

GROUP = "SmolLM2 greedy (the smollm2 bot)"
#: the group's kind when the fluency LM is the model that wrote it
OWN_LM = "scorer's own LM"
#: the paper tournament's persona for the smollm2 bot (tournaments/paper.yaml)
PERSONA = "You are a friendly person chatting casually. Keep replies to one or two sentences."
SETTINGS = {"adapter": "smollm2", "persona": PERSONA, "decoding": "greedy", "version": 1}

Generate = Callable[[Sequence[str]], list[str]]


def smollm2_replies(prompts: Sequence[str]) -> list[str]:
    """The smollm2 bot's greedy reply to each prompt (a person's turn opening a game)."""
    bot = create_bot("smollm2-greedy", "smollm2", {"persona": PERSONA})
    bot.load()
    try:
        histories = [History((Message("partner", p),), p, f"construct/{i}", 1, 0)
                     for i, p in enumerate(prompts)]
        return bot.reply_batch(histories)
    finally:
        bot.close()


def _key(prompts: Sequence[str]) -> str:
    return hashlib.sha256(json.dumps([SETTINGS, list(prompts)]).encode()).hexdigest()


def cached_replies(prompts: Sequence[str], generate: Generate = smollm2_replies) -> list[str]:
    """``generate(prompts)``, read from the machine cache when this exact call was made
    before; a damaged cache file is ignored and written again."""
    path = cache_dir("construct") / "greedy-v1.json"
    key = _key(prompts)
    try:
        stored = json.loads(read_text_bounded(path))  # a pipe or a device: refused at once
    except (OSError, ValueError):
        stored = {}
    if not isinstance(stored, dict):
        stored = {}
    hit = stored.get(key)
    if isinstance(hit, list) and len(hit) == len(prompts) and all(isinstance(r, str) for r in hit):
        return hit
    replies = list(generate(prompts))
    stored[key] = replies
    atomic_write(path, json.dumps(stored))
    return replies


def is_own_lm(params: ScorerParams) -> bool:
    """Whether a fluency scorer with these parameters scores with SmolLM2."""
    return scores_with(*fluency_lm(params), SMOLLM2)

"""Token-level fluency statistics: what a turn's per-token log-probabilities under the LM
say once the predictability of its *content* is taken out, and which turns are degenerate.

Perplexity measures predictability, and a bland, generic reply is the most predictable
text there is: under SmolLM2 a retrieval bot's human-written lines score 250-360 and a
generic seq2seq bot ~100, while people rate the human lines the more fluent. The statistics
here start from the per-token NLLs of :mod:`chatmatch.runtime.lm.tokens`:

* **SLOR** (Pauls & Klein 2012; Lau et al. 2017; Kann et al. 2018, "Sentence-level fluency
  evaluation"): per token, the LM log-probability minus the token's unigram
  log-probability, averaged over the turn (higher is more fluent). The unigram model counts
  the LM's own subword tokens over ``chitchat-dataset`` (the Chit-Chat corpus the install
  ships; add-one smoothed over the vocabulary), so both terms are in the same units. A
  generic reply made of frequent tokens gets no credit for being frequent; a rare but
  well-formed word gets no blame for being rare;
* **unlikely share**: the share of the turn's tokens the LM finds very unlikely even after
  their rarity is discounted (token SLOR below ``-log(UNLIKELY)``), a grammar-break signal;
* **degenerate turns** (:func:`degenerate`): a turn that repeats the speaker's earlier turn
  or the partner's last turn word for word (case and punctuation aside) or lightly edited,
  or the partner's last turn with its content words swapped for others (the same function
  words in the same order, "You windmill orchard in the waterfall ..."), or
  says its own earlier frame again with a word or two changed, or repeats a phrase of its own
  (repeated word 3-grams are a third of the turn's 3-grams or more), or stops, without final
  punctuation, on a word no complete sentence ends on ("and", "the", "my", ...: a
  generation cut mid-sentence; a stranded preposition, "... for me to respond to", ends a
  complete sentence and is not one). People never
  call such text fluent, and a per-token LM finds it *easy*.
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from functools import lru_cache
from typing import Any, Sequence

import numpy as np

from chatmatch.runtime.resources import RESOURCES, cache_dir, save_cache_file
from chatmatch.common.text import normalise, tokens
from chatmatch.scoring.surface import edited_echo, frame_repeat, reshaped
from chatmatch.transcript import Transcript

#: a token whose SLOR is below -log(UNLIKELY) counts as very unlikely
UNLIKELY = 1000.0
#: words a complete sentence never ends on (a generation cut mid-sentence does): articles,
#: conjunctions, possessives that need a noun, "than". Not prepositions, pronouns or verbs:
#: "something for me to respond to", "nice to meet you", "so do i", "i know who you are"
#: are complete, and people write them without a full stop
DANGLING = frozenset("a an the and or but nor my your our their its than".split())

_LOCK = threading.Lock()


class SubwordUnigrams:
    """Add-one smoothed unigram NLLs (nats) of a tokenizer's ids, counted over a corpus."""

    def __init__(self, counts: np.ndarray) -> None:
        self.counts = counts
        total = float(counts.sum()) + counts.size
        self.nll = -np.log((counts.astype(np.float64) + 1.0) / total).astype(np.float32)

    @classmethod
    def count(cls, tokenizer: Any, texts: Sequence[str], vocab: int) -> "SubwordUnigrams":
        counts = np.zeros(vocab, dtype=np.int64)
        for i in range(0, len(texts), 4096):
            for ids in tokenizer(list(texts[i:i + 4096]), add_special_tokens=False)["input_ids"]:
                np.add.at(counts, np.asarray(ids, dtype=np.int64) % vocab, 1)
        return cls(counts)


def chitchat_subword_unigrams(tokenizer: Any, vocab: int, name: str) -> SubwordUnigrams:
    """:class:`SubwordUnigrams` of ``chitchat-dataset`` under ``tokenizer`` (counted once,
    cached on disk as ``unigrams-<name>-<vocab>.npy`` beside the perplexity cache, and in
    memory)."""
    def build() -> SubwordUnigrams:
        path = cache_dir("ppl") / f"unigrams-{_slug(name)}-{vocab}.npy"
        if path.is_file():
            try:
                counts = np.load(path, allow_pickle=False)
                # checked like counted ones: a NaN or negative count is counted again
                if counts.shape == (vocab,) and np.isfinite(counts).all() and (counts >= 0).all():
                    return SubwordUnigrams(counts)
            except (OSError, ValueError):
                pass  # a damaged file: count again and overwrite it
        from chatmatch.runtime.ngram import chitchat_texts

        texts = [t for t in (normalise(x) for x in chitchat_texts()) if t]
        table = SubwordUnigrams.count(tokenizer, texts, vocab)
        save_cache_file(path, lambda tmp: np.save(tmp, table.counts), "the subword-count")
        return table

    with _LOCK:
        table: SubwordUnigrams = RESOURCES.small_models.get_or_create(f"subword-unigrams-{name}", build)
    return table


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name)[-60:]


def slor(nll: np.ndarray, ids: Sequence[int], unigrams: SubwordUnigrams) -> float:
    """Mean over the turn's tokens of (unigram NLL - LM NLL); higher is more fluent."""
    uni = unigrams.nll[np.asarray(ids, dtype=np.int64) % unigrams.nll.size]
    return float(np.mean(uni[-len(nll):] - nll))


def unlikely_share(nll: np.ndarray, ids: Sequence[int], unigrams: SubwordUnigrams,
                   threshold: float = UNLIKELY) -> float:
    """Share of tokens whose SLOR is below ``-log(threshold)``."""
    uni = unigrams.nll[np.asarray(ids, dtype=np.int64) % unigrams.nll.size]
    return float(np.mean((uni[-len(nll):] - nll) < -math.log(threshold)))


def self_repeats(text: str) -> bool:
    """Repeated word 3-grams make up at least a third of the turn's 3-grams ("i am a
    little shy but i am a little shy": 3 of 8)."""
    words = tokens(text)
    grams = list(zip(words, words[1:], words[2:]))
    if len(grams) < 3:
        return False
    repeated = sum(c - 1 for c in Counter(grams).values())
    return repeated > 0 and repeated * 3 >= len(grams)


def dangling(text: str) -> bool:
    """The turn stops, without final punctuation, on a word no complete sentence ends on
    (:data:`DANGLING`: a generation cut mid-sentence)."""
    stripped = text.rstrip()
    if not stripped or stripped[-1] in ".!?)\"'":
        return False
    words = tokens(stripped)
    return len(words) >= 4 and words[-1] in DANGLING


def _key(text: str) -> str:
    """The turn's words, lower-cased, without punctuation: what makes two turns the same."""
    return " ".join(w for w in (x.lower() for x in tokens(text)) if any(c.isalnum() for c in w))


def degenerate(text: str, own_before: Sequence[str], partner_last: str | None) -> str | None:
    """Why the turn is degenerate (``repeat``, ``echo``, ``edit``: the partner's last turn
    lightly edited, ``reshape``: the partner's last turn with its content words swapped for
    others, ``frame``: the bot's earlier frame again, ``self-repeat``, ``truncated``;
    :mod:`chatmatch.scoring.surface`), or
    None. ``own_before``: the speaker's earlier turns; ``partner_last``: the partner's turn
    just before."""
    key = _key(text)
    if not key:
        return None
    if any(_key(t) == key for t in own_before):
        return "repeat"
    if partner_last is not None and _key(partner_last) == key:
        return "echo"
    if edited_echo(text, partner_last):
        return "edit"
    if reshaped(text, partner_last):
        return "reshape"
    if frame_repeat(text, own_before, partner_last=partner_last):
        return "frame"
    if self_repeats(text):
        return "self-repeat"
    if dangling(text):
        return "truncated"
    return None


#: the degenerate turns that repeat (the bot's own turn or frame) or echo (the partner's
#: turn, verbatim or lightly edited): they earn no relevance and test no consistency
RECIPE_TURNS = frozenset({"repeat", "echo", "edit", "reshape", "frame", "canned"})


def degenerate_turns(game: Transcript, canned: frozenset[int] = frozenset()) -> dict[int, str]:
    """Turn index -> why it is degenerate (:func:`degenerate`), for every turn of ``game``
    but the seed; ``canned``: the game's canned turns (:mod:`chatmatch.scoring.canned`),
    degenerate as ``canned`` when nothing else is found. Fluency, relevance and consistency
    each ask for a game's: it is found once (a transcript is frozen) and each caller gets
    its own copy."""
    return dict(_degenerate_turns(game, canned))


@lru_cache(maxsize=256)
def _degenerate_turns(game: Transcript, canned: frozenset[int]) -> tuple[tuple[int, str], ...]:
    out: dict[int, str] = {}
    said: dict[str, list[str]] = {}
    last: str | None = None
    for turn in game.turns:
        own = said.setdefault(turn.speaker, [])
        why = None if turn.seed else degenerate(turn.text, own, last)
        if why is None and turn.index in canned:
            why = "canned"
        if why is not None:
            out[turn.index] = why
        own.append(turn.text)
        last = turn.text
    return tuple(out.items())

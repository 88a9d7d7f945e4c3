"""Scorer parameters that chatmatch no longer takes, and what to write instead.

Each was neither a default, nor needed by ``preset: paper``, nor backed by a measurement a
user would act on; its value is now fixed at the old default (docs/scoring.md, "Removed
parameters"). A tournament file that still sets one is refused with the message below; a
stored setup (a run directory's ``config.yaml``, a learned judge's ``rule_params``) is read
with them dropped (:func:`current_params`). The runtime settings of the fluency LM moved to
the top-level ``runtime:`` block (:mod:`chatmatch.runtime.settings`).
"""

from __future__ import annotations

from typing import Any, Mapping

#: the fluency keys that moved to ``runtime:`` (``precision`` was removed: float32 only)
MOVED_TO_RUNTIME = ("engine", "device", "batch_size", "max_batch_tokens", "processes", "threads")

_SIGMA_R = "follows diversity's sigma_r: set scoring.params.diversity.sigma_r"
_SPACY_RUN = "spaCy's processes and batches are chosen automatically"
_MINILM = "the sentence embedder is all-MiniLM-L6-v2 (minilm)"
#: (dimension, key) -> what to write instead
REMOVED: dict[tuple[str, str], str] = {
    ("fluency", "precision"): "the LM runs in float32 (fp32) only; delete the key",
    ("fluency", "worst_share"): "aggregation 'worst' takes the 0.9 quantile",
    ("fluency", "cap"): "aggregations 'capped_mean' and 'authors' cap each turn at 50",
    ("fluency", "trim"): "aggregation 'trimmed_mean' drops 10% of the turns at each end",
    ("fluency", "max_tokens"): "texts longer than 512 tokens are scored in sliding windows",
    ("fluency", "sigma_r"): _SIGMA_R,
    ("knowledge", "n_process"): _SPACY_RUN,
    ("knowledge", "batch_size"): _SPACY_RUN,
    ("knowledge", "exclude_labels"): "DATE, TIME, ORDINAL and CARDINAL entities never count",
    ("knowledge", "include_labels"): "every other entity label counts",
    ("knowledge", "per_100_exchanges"): "use unit: per_turn or per_100_tokens for a rate",
    ("knowledge", "min_nidf"): "method 'content_words' counts lemmas of normalised IDF >= 0.35",
    ("proactivity", "sigma_r"): _SIGMA_R,
    ("specificity", "window"): "method 'mattr' uses windows of 25 unigrams",
    ("specificity", "sigma_r"): _SIGMA_R,
    ("diversity", "model"): _MINILM,
    ("consistency", "model"): _MINILM,
    ("consistency", "sigma_c"): "0.5 with similarity: embedding, 0.8 with tfidf (the paper's)",
    ("consistency", "sigma_s"): "statements about the same thing have a cosine >= 0.55",
    ("consistency", "sigma_r"): _SIGMA_R,
    ("consistency", "questions"): "every repeated question is tested (the paper)",
    ("relevance", "n_process"): _SPACY_RUN,
    ("relevance", "batch_size"): _SPACY_RUN,
    ("relevance", "sigma_r"): _SIGMA_R,
    ("relevance", "p"): "method 'recall' takes the top 50% of concepts (the paper's p)",
    ("relevance", "d"): "method 'recall' needs a distance over 1 turn (the paper's d)",
    ("relevance", "min_df"): "method 'recall' keeps concepts used at least twice",
    ("relevance", "take_up"): "only remembered concepts earn a bonus (the paper)",
    ("relevance", "restating"): "method 'reply' discounts the words a reply restates",
    ("relevance", "model"): _MINILM,
    ("relevance", "own_concepts"): "a concept last mentioned by either speaker earns a bonus "
                                   "(the paper's rule; false ranked worse in the lab)",
}
for _key in MOVED_TO_RUNTIME:
    REMOVED[("fluency", _key)] = f"it moved to the top-level runtime block: runtime: {{{_key}: ...}}"


#: the value each removed scorer key is fixed at (its old default, as JSON gives it back);
#: the runtime keys change no value and are not listed
FIXED: dict[tuple[str, str], Any] = {
    ("fluency", "precision"): "fp32", ("fluency", "worst_share"): 0.9, ("fluency", "cap"): 50.0,
    ("fluency", "trim"): 0.1, ("fluency", "max_tokens"): 512, ("fluency", "sigma_r"): None,
    ("knowledge", "n_process"): 0, ("knowledge", "batch_size"): 256,
    ("knowledge", "exclude_labels"): ["DATE", "TIME", "ORDINAL", "CARDINAL"],
    ("knowledge", "include_labels"): None, ("knowledge", "per_100_exchanges"): False,
    ("knowledge", "min_nidf"): 0.35, ("proactivity", "sigma_r"): None,
    ("specificity", "window"): 25, ("specificity", "sigma_r"): None,
    ("diversity", "model"): "minilm", ("consistency", "model"): "minilm",
    ("consistency", "sigma_c"): None, ("consistency", "sigma_s"): 0.55,
    ("consistency", "sigma_r"): None, ("consistency", "questions"): "all",
    ("relevance", "n_process"): 0, ("relevance", "batch_size"): 256, ("relevance", "sigma_r"): None,
    ("relevance", "p"): 0.5, ("relevance", "d"): 1, ("relevance", "min_df"): 2,
    ("relevance", "take_up"): False, ("relevance", "restating"): "discounted",
    ("relevance", "model"): "minilm", ("relevance", "own_concepts"): True,
}


def changed_by_removal(params: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The ``dimension.key`` of each removed key in ``params`` whose value is not the one it
    is fixed at now (scores computed with it cannot be reproduced)."""
    return [f"{dim}.{key}" for dim, block in params.items() if isinstance(block, Mapping)
            for key, value in block.items()
            if (dim, key) in FIXED and _plain(value) != FIXED[(dim, key)]]


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def removed_message(dimension: str, key: str) -> str | None:
    """Why ``scoring.params.<dimension>.<key>`` is refused and what to write instead;
    None for a key that is not a removed one."""
    instead = REMOVED.get((dimension, key))
    if instead is None:
        return None
    if (dimension, key) in FIXED and "delete the key" not in instead:
        # its value is fixed now: what to write instead is nothing
        instead += "; delete the key"
    return f"parameter '{key}' was removed: {instead}"


def current_params(params: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """``params`` (a ``scoring.params`` mapping stored by an earlier version) without the
    removed keys, so that it validates today."""
    return {dim: {k: v for k, v in block.items() if (dim, k) not in REMOVED}
            if isinstance(block, Mapping) else block for dim, block in params.items()}


__all__ = ["FIXED", "MOVED_TO_RUNTIME", "REMOVED", "changed_by_removal", "current_params",
           "removed_message"]

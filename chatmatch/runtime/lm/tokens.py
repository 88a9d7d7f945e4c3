"""Per-token log-probabilities of the fluency LM, computed once per machine.

Fluency's token-level statistics (``aggregation: slor_tokens``, ``unlikely`` and the
degenerate-turn penalties of :mod:`chatmatch.scoring.fluency_tokens`) need each token's
negative log-probability (NLL, in nats), not only the turn's perplexity. A
:class:`TokenNLLStore` keeps them on disk beside the perplexity cache
(``~/.cache/chatmatch/ppl/token-nll-v1.sqlite``), keyed exactly as it is (the LM's
fingerprint: model content, engine, precision, device type, ``max_tokens``, library
versions, a hash of the LM code; :mod:`chatmatch.runtime.lm.cache`) and by the text's
sha256. A value is the float32 NLLs of the text's tokens after the context token, in order
(``exp`` of their mean is the text's perplexity, up to float32 rounding). The cache behaves
as the perplexity cache does (``CHATMATCH_PPL_CACHE=0`` turns both off; failures cost speed,
never a result).

Only the torch engine (:class:`~chatmatch.runtime.lm.TransformersLM`) computes them; texts
longer than ``max_tokens`` are scored in the same sliding windows as perplexities.
"""

from __future__ import annotations

import sqlite3
from typing import Any, Mapping, Sequence

import numpy as np

from chatmatch.runtime.lm.cache import PerplexityStore, text_key
from chatmatch.runtime.lm.forward import padded_batches, scored_nll, splittable, windows

TOKEN_FILE = "token-nll-v1.sqlite"
_CHUNK = 500

NLLs = np.ndarray  # float32, one value a scored token


class TokenNLLStore(PerplexityStore):
    """The per-token NLLs of one LM configuration, in their own SQLite file (same layout
    and rules as :class:`PerplexityStore`; a value is the float32 bytes of the array)."""

    FILE = TOKEN_FILE

    def get_arrays(self, texts: Sequence[str]) -> dict[str, NLLs | None]:
        return self._safely(lambda db: self._read_arrays(db, texts), {})

    def put_arrays(self, values: Mapping[str, NLLs | None]) -> None:
        if values:
            self._safely(lambda db: self._write_arrays(db, values), None)

    def _read_arrays(self, db: sqlite3.Connection, texts: Sequence[str]) -> dict[str, NLLs | None]:
        model = self._model_id(db, create=False)
        if model is None:
            return {}
        keys = {text_key(t): t for t in texts}
        ordered = list(keys)
        found: dict[str, NLLs | None] = {}
        for i in range(0, len(ordered), _CHUNK):
            part = ordered[i:i + _CHUNK]
            marks = ",".join("?" * len(part))
            for key, value in db.execute(f"SELECT text, value FROM ppl WHERE model = ? AND text IN "
                                         f"({marks})", (model, *part)):
                if value is None:
                    found[keys[key]] = None
                elif isinstance(value, bytes) and len(value) % 4 == 0:
                    found[keys[key]] = np.frombuffer(value, dtype="<f4").copy()
        self.hits += len(found)
        return found

    def _write_arrays(self, db: sqlite3.Connection, values: Mapping[str, NLLs | None]) -> None:
        model = self._model_id(db, create=True)
        if model is None:
            return
        rows = [(model, text_key(t), None if v is None else np.asarray(v, "<f4").tobytes())
                for t, v in values.items()]
        with db:
            db.executemany("INSERT OR IGNORE INTO ppl (model, text, value) VALUES (?, ?, ?)", rows)
        self.written += len(rows)
        self._bound(db)


def forward_token_nll(model: Any, seqs: list[list[int]], firsts: Sequence[int]) -> list[NLLs]:
    """Per-token NLLs of each sequence from index ``firsts[row]`` on: the per-token terms
    of :func:`~chatmatch.runtime.lm.forward.forward_nll` (the same padded batch,
    :func:`~chatmatch.runtime.lm.forward.scored_nll`)."""
    nll, valid = scored_nll(model, splittable(model), seqs, firsts)
    flat = nll.cpu().numpy().astype("<f4")
    sizes = valid.sum(dim=1).tolist()
    return list(np.split(flat, np.cumsum(sizes)[:-1]))


class TokenScorer:
    """Per-token NLLs of texts under a :class:`~chatmatch.runtime.lm.TransformersLM`'s
    weights, cached in memory and in a :class:`TokenNLLStore`."""

    def __init__(self, lm: Any, store: TokenNLLStore | None = None) -> None:
        self.lm = lm
        if store is None and getattr(lm, "store", None) is not None:
            store = TokenNLLStore(lm.store._fingerprint)
        self.store = store
        self._memo: dict[str, NLLs | None] = {}

    def nlls(self, texts: Sequence[str]) -> list[NLLs | None]:
        todo = [t for t in dict.fromkeys(texts) if t not in self._memo]
        if todo and self.store is not None:
            self._memo.update(self.store.get_arrays(todo))
            todo = [t for t in todo if t not in self._memo]
        if todo:
            computed = dict(zip(todo, self._compute([self.lm._encode(t) for t in todo])))
            self._memo.update(computed)
            if self.store is not None:
                self.store.put_arrays(computed)
        return [self._memo[t] for t in texts]

    def _compute(self, seqs: list[list[int]]) -> list[NLLs | None]:
        pieces = [(i, w, first) for i, s in enumerate(seqs) if len(s) >= 2
                  for w, first in windows(s, self.lm.max_tokens)]
        order = sorted(range(len(pieces)), key=lambda k: len(pieces[k][1]))
        parts: dict[int, list[tuple[int, NLLs]]] = {}
        for chunk in padded_batches(order, [len(p[1]) for p in pieces], self.lm.batch_size,
                                    self.lm.max_batch_tokens):
            values = forward_token_nll(self.lm.model, [pieces[k][1] for k in chunk],
                                       [pieces[k][2] for k in chunk])
            for k, v in zip(chunk, values):
                parts.setdefault(pieces[k][0], []).append((k, v))
        return [np.concatenate([v for _, v in sorted(parts[i], key=lambda kv: kv[0])])
                if i in parts else None for i in range(len(seqs))]

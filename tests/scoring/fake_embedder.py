"""A tiny sentence embedder for fast tests (imported as ``fake_embedder``): each text is the
normalised sum of the vectors of its "concept" words, so the tests decide what means the
same. Words outside :data:`CONCEPTS` add nothing."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from chatmatch.common.text import tokens

#: word -> concept axis (synonyms share an axis)
CONCEPTS = {"classical": 0, "mozart": 0, "music": 1, "favourite": 2, "love": 2, "like": 2,
            "metal": 3, "heavy": 3, "kids": 4, "children": 4, "two": 5, "have": 6,
            "married": 7, "wife": 7, "paris": 8, "rome": 9, "live": 10, "from": 10}
AXES = 12


class FakeEmbedder:
    def __init__(self) -> None:
        self.calls: list[int] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(len(texts))
        out = np.zeros((len(texts), AXES))
        for i, text in enumerate(texts):
            for t in tokens(text):
                if t in CONCEPTS:
                    out[i, CONCEPTS[t]] += 1.0
            norm = np.linalg.norm(out[i])
            out[i] = out[i] / norm if norm else out[i]
        return out

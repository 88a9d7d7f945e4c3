"""The AMR judge's "small model": a classifier chatmatch trains itself (scikit-learn).

The AMR paper's SLM is a fine-tuned sentence + AMR-graph encoder trained to tell the true
next turn from negatives. Offline we cannot fine-tune that, so chatmatch trains a logistic
regression on the paper's *recipe*: from ``chitchat-dataset`` it builds, for each sampled
(context, true next turn) pair, a **random** negative (a turn of another conversation) and a
**word-overlapping adversarial** negative (the turn of another conversation most similar to
the context by TF-IDF cosine: high surface overlap, wrong follow-up). Features: hashed
(context word, response word) cross pairs, response words, and overlap/length statistics.
Its output is P(true next turn | context, response).

The fitted model and its held-out accuracies are saved under the chatmatch cache directory
(``$CHATMATCH_CACHE_DIR/judges/``) and reloaded from there.

scikit-learn, scipy.sparse and joblib are imported inside the functions that use them: this
module is imported with every judge (the scorer registry), and only the AMR judge needs them.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from chatmatch.judges.corpus import chitchat_dialogues
from chatmatch.runtime.resources import RESOURCES, cache_dir

RECIPE_VERSION = "1"
_WORD = re.compile(r"[a-z0-9']+")


@dataclass(frozen=True)
class SLMRecipe:
    contexts: int = 6000  # sampled (context, true reply) pairs; each gives 3 examples
    context_turns: int = 2
    pool: int = 8000  # candidate turns searched for the adversarial negative
    lsa_dims: int = 100  # latent semantic space for a topical similarity feature
    seed: int = 0
    held_out: float = 0.1

    def key(self) -> str:
        blob = json.dumps({**asdict(self), "v": RECIPE_VERSION}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:12]


def _words(text: str) -> list[str]:
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return [w for w in _WORD.findall(text.lower()) if w not in ENGLISH_STOP_WORDS]


def _first(text: str) -> str:
    found = _WORD.findall(text.lower())
    return found[0] if found else "-"


def _tokens(context: str, response: str) -> list[str]:
    last = context.split("\n")[-1]
    cw, rw = set(_words(last)), set(_words(response))
    act = f"a:{_first(last)}|{'?' if last.rstrip().endswith('?') else '.'}|{_first(response)}"
    return [f"x:{c}|{r}" for c in cw for r in rw] + [f"r:{r}" for r in rw] + [act]


def _dense(context: str, response: str) -> list[float]:
    c, r = set(_WORD.findall(context.lower())), set(_WORD.findall(response.lower()))
    inter = len(c & r)
    return [inter / max(1, len(r)), inter / max(1, len(c | r)), min(len(r), 40) / 40,
            float("?" in response), float(bool(r) and r <= c)]


class SmallModel:
    """P(response is the true next turn of context)."""

    def __init__(self, clf: Any, meta: dict[str, Any], lsa: Any = None) -> None:
        from sklearn.feature_extraction.text import HashingVectorizer

        self.clf, self.meta, self.lsa = clf, meta, lsa  # lsa: (TfidfVectorizer, TruncatedSVD)
        self._hv = HashingVectorizer(analyzer=lambda x: x, n_features=2 ** 18,
                                     alternate_sign=False, norm="l2")

    def features(self, pairs: Sequence[tuple[str, str]]) -> Any:
        import scipy.sparse as sp

        hashed = self._hv.transform([_tokens(c, r) for c, r in pairs])
        dense = np.array([_dense(c, r) for c, r in pairs], dtype=float)
        vec, svd = self.lsa
        tc, tr = vec.transform([c for c, _ in pairs]), vec.transform([r for _, r in pairs])
        lexical = np.asarray(tc.multiply(tr).sum(1)).ravel()
        zc, zr = _unit(svd.transform(tc)), _unit(svd.transform(tr))
        topical = (zc * zr).sum(1)
        extra = sp.csr_matrix(np.column_stack([dense, lexical, topical, topical - lexical]))
        return sp.hstack([hashed, extra]).tocsr()

    def score_many(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        if not pairs:
            return []
        return [float(p) for p in self.clf.predict_proba(self.features(pairs))[:, 1]]

    def score(self, context: str, response: str) -> float:
        return self.score_many([(context, response)])[0]


def _unit(m: Any) -> Any:
    return m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)


def build_pairs(recipe: SLMRecipe) -> tuple[list[tuple[str, str, int, str]], list[tuple[str, str, int, str]]]:
    """(train, held-out) rows (context, response, label, kind); kind: positive/random/adversarial."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    rng = random.Random(recipe.seed)
    dialogues = chitchat_dialogues()
    picks = [rng.randrange(len(dialogues)) for _ in range(recipe.contexts)]
    samples = []
    for d in picks:
        turns = dialogues[d][1]
        t = rng.randrange(1, len(turns))
        samples.append((d, "\n".join(turns[max(0, t - recipe.context_turns):t]), turns[t]))
    pool = [(d, dialogues[d][1][rng.randrange(len(dialogues[d][1]))])
            for d in (rng.randrange(len(dialogues)) for _ in range(recipe.pool))]
    vec = TfidfVectorizer(stop_words="english").fit([p[1] for p in pool] + [s[1] for s in samples])
    pool_m = vec.transform([p[1] for p in pool]).T.tocsc()
    pool_d = np.array([p[0] for p in pool])
    rows = []
    for i, (d, ctx, reply) in enumerate(samples):
        if i % 500 == 0:
            sims = (vec.transform([s[1] for s in samples[i:i + 500]]) @ pool_m).toarray()
        row = sims[i % 500].copy()
        row[pool_d == d] = -1.0  # never the same dialogue
        adversarial = pool[int(np.argmax(row))][1]
        other = pool[rng.randrange(len(pool))]
        while other[0] == d:
            other = pool[rng.randrange(len(pool))]
        rows.append([(ctx, reply, 1, "positive"), (ctx, other[1], 0, "random"),
                     (ctx, adversarial, 0, "adversarial")])
    cut = int(len(rows) * (1 - recipe.held_out))
    return [r for g in rows[:cut] for r in g], [r for g in rows[cut:] for r in g]


def fit_lsa(recipe: SLMRecipe) -> Any:
    """TF-IDF + truncated SVD fitted on chitchat turns (topical similarity)."""
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer

    rng = random.Random(recipe.seed + 1)
    dialogues = chitchat_dialogues()
    docs = [" ".join(dialogues[rng.randrange(len(dialogues))][1]) for _ in range(3000)]
    vec = TfidfVectorizer(stop_words="english", min_df=2, sublinear_tf=True).fit(docs)
    svd = TruncatedSVD(recipe.lsa_dims, random_state=recipe.seed).fit(vec.transform(docs))
    return vec, svd


def train(recipe: SLMRecipe) -> SmallModel:
    from sklearn.linear_model import LogisticRegression

    train_rows, test_rows = build_pairs(recipe)
    model = SmallModel(None, {}, fit_lsa(recipe))
    clf = LogisticRegression(max_iter=2000, C=1.0)
    clf.fit(model.features([(c, r) for c, r, _, _ in train_rows]), [y for _, _, y, _ in train_rows])
    model.clf = clf
    p = model.score_many([(c, r) for c, r, _, _ in test_rows])
    by_kind = {k: [p[i] for i, row in enumerate(test_rows) if row[3] == k]
               for k in ("positive", "random", "adversarial")}
    acc = {f"positive_beats_{k}": float(np.mean([a > b for a, b in zip(by_kind["positive"], by_kind[k])]))
           for k in ("random", "adversarial")}
    model.meta = {"recipe": asdict(recipe), "recipe_version": RECIPE_VERSION,
                  "train_examples": len(train_rows), "held_out_pairs": len(by_kind["positive"]),
                  "held_out_accuracy": acc, "classifier": "LogisticRegression(C=1)",
                  "corpus": "chitchat-dataset"}
    return model


def default_path(recipe: SLMRecipe) -> Path:
    return cache_dir("judges") / f"slm-{recipe.key()}.joblib"


def save(model: SmallModel, path: Path) -> None:
    import joblib

    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    joblib.dump({"clf": model.clf, "meta": model.meta, "lsa": model.lsa}, tmp)
    os.replace(tmp, path)


def load(path: Path) -> SmallModel:
    import joblib

    data = joblib.load(path)
    return SmallModel(data["clf"], data["meta"], data["lsa"])


def get_small_model(recipe: SLMRecipe | None = None, path: Path | None = None) -> SmallModel:
    """Load the model from ``path`` (default: the cache) or train and save it there; once
    per process (kept in ``RESOURCES.small_models``)."""
    recipe = recipe or SLMRecipe()
    where = path or default_path(recipe)

    def build() -> SmallModel:
        model = None
        if where.exists():
            try:
                model = load(where)
            except Exception:  # noqa: BLE001 - a damaged cache file: retrain
                model = None
        if model is None:
            model = train(recipe)
            try:
                save(model, where)
            except OSError:
                pass  # a read-only cache costs a retrain next time
        return model

    loaded: SmallModel = RESOURCES.small_models.get_or_create(str(where), build)
    return loaded

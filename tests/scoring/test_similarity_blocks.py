"""The block-wise similarity gives the same numbers as the dense n x n matrix it replaced,
and Algorithms 1 and 2 (with the paper's options) the same verdicts, on random games."""

from __future__ import annotations

import random

import numpy as np
import pytest
from scoring_dialogues import game

from fixed_params import params as fixed_params
from chatmatch.scoring import features as analysis
from chatmatch.scoring.consistency import Consistency
from chatmatch.runtime.errors import ScoringError
from chatmatch.scoring.features import GameSimilarity, similarity_matrix
from chatmatch.scoring.repetitions import find_repetitions
from chatmatch.common.text import is_empty, is_question, tokens
from chatmatch.transcript import Transcript

WORDS = "i you we like love hate dogs cats tea coffee paris rome where what do are is the a".split()


def dense_reference(texts: list[str]) -> np.ndarray:
    """The computation chatmatch used before blocks (kept here as the reference)."""
    from sklearn.feature_extraction.text import TfidfVectorizer

    n = len(texts)
    if not any(tokens(t) for t in texts):
        return np.zeros((n, n))
    vec = TfidfVectorizer(tokenizer=tokens, lowercase=False, token_pattern=None)
    x = vec.fit_transform(texts)
    return np.clip(np.round((x @ x.T).toarray(), 9), 0.0, 1.0)


def repetitions_reference(g: Transcript, sim: np.ndarray, sigma_r: float) -> list[tuple]:
    turns = g.turns
    questions = [is_question(t.text) for t in turns]
    out: dict[int, tuple] = {}
    for t in range(1, len(turns)):
        rep = [u for u in range(t) if turns[u].speaker == turns[t].speaker and sim[t, u] >= sigma_r]
        if not rep:
            continue
        original = None
        if questions[t]:
            asked = [u for u in rep if questions[u]]
            original = max(asked, key=lambda u: (sim[t, u], u)) if asked else None
        prev = out.get(t - 1)
        penalised = (original is not None or not (prev is not None and prev[2] is not None)) \
            and not turns[t].seed
        out[t] = (t, tuple(rep), original, penalised)
    return list(out.values())


def consistency_reference(g: Transcript, sim: np.ndarray, sigma_r: float, sigma_c: float) -> dict:
    turns = g.turns
    reps = {r[0]: r for r in repetitions_reference(g, sim, sigma_r)}
    raw = {p: 0.0 for p in g.players}
    for t in range(1, len(turns)):
        prev = reps.get(t - 1)
        if prev is None or prev[2] is None or turns[t].seed:
            continue
        res = prev[2] + 1
        if turns[res].speaker != turns[t].speaker or res >= t - 1:
            continue
        if is_empty(turns[t].text) or is_empty(turns[res].text):
            continue
        raw[turns[t].speaker] -= sim[t, res] <= sigma_c
    return raw


def random_game(rng: random.Random, n: int) -> Transcript:
    pool: list[str] = []
    texts = []
    for _ in range(n):
        if pool and rng.random() < 0.35:
            texts.append(rng.choice(pool))  # repeat something said before
            continue
        k = rng.randint(0, 6)
        text = " ".join(rng.choice(WORDS) for _ in range(k))
        text += rng.choice(["?", ".", "", "!"])
        pool.append(text)
        texts.append(text)
    return game(texts, seed_first=rng.random() < 0.5, gid=f"r{n}")


@pytest.mark.parametrize("seed", range(12))
def test_blocks_equal_the_dense_matrix_and_the_old_verdicts(seed: int,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    g = random_game(rng, rng.randint(1, 80))
    texts = [t.text for t in g.turns]
    ref = dense_reference(texts)
    # tiny blocks, so that a game spans many of them (and rows of one turn when a speaker
    # has more turns than a block holds)
    monkeypatch.setattr(analysis, "BLOCK_ENTRIES", rng.choice([1, 7, 64, 1 << 22]))
    sim = GameSimilarity(texts)
    assert np.array_equal(sim.dense(), ref)
    for sigma_r in (0.0, 0.3, 0.95, 1.0):
        new = [(r.turn, r.of, r.question_of, r.penalised)
               for r in find_repetitions(g, sigma_r).values()]
        assert new == repetitions_reference(g, ref, sigma_r)
        for sigma_c in (0.0, 0.8):
            paper = Consistency(fixed_params(Consistency.Params, ("sigma_c",), sigma_r=sigma_r,
                                             similarity="tfidf", score="count",
                                             compare="original", sigma_c=sigma_c))
            assert paper.score_game(g).raw == consistency_reference(g, ref, sigma_r, sigma_c)


def test_earlier_yields_every_same_speaker_pair_within_the_block_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [f"turn {i % 5} words" for i in range(40)]
    monkeypatch.setattr(analysis, "BLOCK_ENTRIES", 50)
    sim = GameSimilarity(texts)
    shapes: list[tuple[int, int]] = []
    block = sim.block

    def spy(rows, cols):  # type: ignore[no-untyped-def]
        shapes.append((len(rows), len(cols)))
        return block(rows, cols)

    monkeypatch.setattr(sim, "block", spy)
    groups = [list(range(0, 40, 2)), list(range(1, 40, 2))]
    got = {(t, int(u)): float(v) for t, us, vs in sim.earlier(groups) for u, v in zip(us, vs)}
    ref = dense_reference(texts)
    assert got == {(t, u): ref[t, u] for grp in groups for t in grp for u in grp if u < t}
    assert max(r * c for r, c in shapes) <= 50


def test_a_game_without_any_token() -> None:
    sim = GameSimilarity(["", "...", "?"])
    assert np.array_equal(sim.dense(), np.zeros((3, 3)))
    assert [len(us) for _, us, _ in sim.earlier([[0, 1, 2]])] == [0, 1, 2]


def test_the_dense_matrix_refuses_huge_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(analysis, "DENSE_MAX_TURNS", 3)
    with pytest.raises(ScoringError, match="too long for a dense similarity matrix"):
        similarity_matrix(["a", "b", "c", "d"])

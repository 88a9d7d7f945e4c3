"""Sentence embeddings: the real packaged all-MiniLM-L6-v2 (slow: a model load) and the
loading errors (fast)."""

from __future__ import annotations

import pytest
from scoring_dialogues import game

from chatmatch.runtime.resources import MissingResource
from chatmatch.scoring.consistency import Consistency
from chatmatch.runtime.embed import MINILM, model_folder


def test_a_missing_model_folder_is_a_clear_error(tmp_path: object) -> None:
    with pytest.raises(MissingResource, match="no such directory; give 'minilm'"):
        model_folder("/nonexistent/model")


@pytest.fixture(scope="module")
def minilm() -> object:
    pytest.importorskip("torch")
    from chatmatch.runtime.embed import get_embedder

    try:
        model_folder(MINILM)
    except MissingResource as exc:
        pytest.skip(str(exc))
    return get_embedder(MINILM)


@pytest.mark.slow
def test_real_model_paraphrase_is_consistent_contradiction_is_not(minilm: object,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from chatmatch.runtime.embed import get_embedder

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert get_embedder(MINILM) is minilm  # loaded once per process
    scorer = Consistency(Consistency.Params(similarity="embedding", self_contradictions=True))
    paraphrase = game(["What music do you like?", "I love classical music.",
                       "What music do you like?", "Classical is my favourite."])
    other = game(["What music do you like?", "I love classical music.",
                  "What music do you like?", "Mostly heavy metal these days."])
    s = scorer.score_game(paraphrase)
    assert s.raw["B"] == 0.0  # reworded, same meaning: consistent
    tfidf = Consistency(Consistency.Params(similarity="tfidf"))
    assert tfidf.score_game(paraphrase).raw["B"] == -1.0  # TF-IDF charged it
    default = Consistency()  # by meaning, and the answers' polarity
    assert default.score_game(paraphrase).raw["B"] == 0.0
    hate = game(["What music do you like?", "I love classical music.",
                 "What music do you like?", "I hate classical music."])
    (d,) = default.score_game(hate).details
    assert d["similarity"] > 0.5 and d["compared"][0]["opposite_polarity"] and d["inconsistent"]
    assert scorer.score_game(hate).raw["B"] == -1.0
    assert scorer.score_game(other).raw["B"] == -1.0
    kids = game(["Tell me about yourself.", "I have two kids.", "Nice!",
                 "I don't have any children."])
    (d,) = [d for d in scorer.score_game(kids).details if d.get("self_contradiction")]
    assert (d["turn"], d["earlier_turn"]) == (3, 1)

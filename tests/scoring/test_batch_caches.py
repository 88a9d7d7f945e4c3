"""A batch of many games is analysed once per game: the engine fits each game's TF-IDF
vectors and finds its repetitions once, and hands them to diversity, consistency and the
scorers that leave repetitions out (no scorer refits a game, nothing is kept between
scoring calls)."""

from __future__ import annotations

import pytest
from scoring_dialogues import game

from chatmatch.scoring.base import Scorer
from chatmatch.runtime.resources import Store
from chatmatch.scoring import repetitions
from chatmatch.scoring import features as analysis
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.engine import score_games
from chatmatch.scoring.build import build_scorers


def test_each_game_is_fit_once_in_a_batch_of_300(monkeypatch: pytest.MonkeyPatch) -> None:
    fits = []
    real_init = analysis.GameSimilarity.__init__

    def counting_init(self: analysis.GameSimilarity, texts: list[str]) -> None:
        fits.append(tuple(texts))
        real_init(self, texts)

    monkeypatch.setattr(analysis.GameSimilarity, "__init__", counting_init)
    games = [game([f"I have {i} cats.", "Do you like cats?", f"I have {i} cats.",
                   "Do you like cats?"], gid=f"g{i}") for i in range(300)]
    scorers = build_scorers(ScoringConfig(dimensions=["diversity", "consistency", "proactivity",
                                        "specificity"]))
    out = score_games(games, scorers)
    assert len(out) == 300 and out[7]["diversity"].raw == {"A": -1, "B": -1}
    assert len(fits) == 300 and len(set(fits)) == 300  # one fit per game, none twice


def test_repetitions_are_found_once_per_game_and_sigma_and_not_kept(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, float]] = []
    real = repetitions.find_repetitions

    def spy(g, sigma_r, sim=None):  # type: ignore[no-untyped-def]
        calls.append((g.game_id, sigma_r))
        return real(g, sigma_r, sim)

    monkeypatch.setattr("chatmatch.scoring.context.find_repetitions", spy)
    games = [game(["Where are you from?", "Paris.", "Where are you from?", "Paris."], gid=f"g{i}")
             for i in range(3)]
    # fluency reads them too (n-gram LM); consistency at its own sigma_r
    cfg = ScoringConfig(dimensions=["diversity", "consistency", "proactivity", "specificity",
                                    "fluency"],
                        params={"fluency": {"backend": "ngram"}})

    def scorers() -> list[Scorer]:
        built = build_scorers(cfg)
        built[1].params = built[1].params.following(0.9)  # type: ignore[attr-defined]
        return built

    score_games(games, scorers())
    assert sorted(calls) == sorted((f"g{i}", s) for i in range(3) for s in (0.9, 0.95))
    score_games(games, scorers())  # a second call computes them again: no memo
    assert len(calls) == 12


def test_a_bounded_store_drops_the_least_recently_used_by_size() -> None:
    store: Store[str, int] = Store("t", max_size=5, size=len)
    store.put("abc", 1)
    store.put("de", 2)
    assert store.get("abc") == 1  # now the most recently used
    store.put("f", 3)  # 3 + 2 + 1 = 6 > 5: "de" goes
    assert "de" not in store and store.get("abc") == 1 and store.get("f") == 3
    assert store.get_or_create("f", lambda: 99) == 3
    store.clear()
    assert len(store) == 0

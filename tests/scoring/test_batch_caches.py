"""A batch of many games is analysed once per game: the per-game stores of
chatmatch.resources are sized in turns, so scoring diversity, consistency and the scorers
that leave repetitions out does not refit a game's TF-IDF vectors scorer after scorer (the
old 128-game LRU did, for every batch over 128 games)."""

from __future__ import annotations

import pytest
from scoring_dialogues import game

from chatmatch.resources import RESOURCES, Store
from chatmatch.scoring import analysis
from chatmatch.scoring.config import ScoringConfig
from chatmatch.scoring.engine import score_games


def test_each_game_is_fit_once_in_a_batch_of_300(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(RESOURCES, "similarity", Store("similarity", RESOURCES.MAX_GAME_TURNS,
                                                       lambda texts: len(texts)))
    monkeypatch.setattr(RESOURCES, "repetitions", Store("repetitions", RESOURCES.MAX_GAME_TURNS,
                                                        lambda key: len(key[0])))
    fits = []
    real_init = analysis.GameSimilarity.__init__

    def counting_init(self: analysis.GameSimilarity, texts: list[str]) -> None:
        fits.append(tuple(texts))
        real_init(self, texts)

    monkeypatch.setattr(analysis.GameSimilarity, "__init__", counting_init)
    games = [game([f"I have {i} cats.", "Do you like cats?", f"I have {i} cats.",
                   "Do you like cats?"], gid=f"g{i}") for i in range(300)]
    scorers = ScoringConfig(dimensions=["diversity", "consistency", "proactivity",
                                        "specificity"]).build_scorers()
    out = score_games(games, scorers)
    assert len(out) == 300 and out[7]["diversity"].raw == {"A": -1, "B": -1}
    assert len(fits) == 300 and len(set(fits)) == 300  # one fit per game, none twice


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

"""The human-bot lab's cross-system games: System sides of different systems' chats play
each other, awarded exactly as a tournament awards a game, and they rank systems whose
partners mirror them, where the points against the partner cannot."""

import math
import random

import pytest

from chatmatch.analysis.fed import cross_system_rates
from chatmatch.records import DimensionScore
from chatmatch.scoring.points import award_points
from chatmatch.validity.datasets.dstc9 import Dstc9Chat
from chatmatch.validity.lab.core import Lab
from chatmatch.validity.lab.dimensions import MATCHES, RANKING_CROSS, dimension_rows
from chatmatch.validity.lab.fed import CROSS, SYSTEM_LEVEL, evaluate_fed

OVERALL = "human (overall)"
HIB = {"fluency": False, "relevance": True, "consistency": True}


def chat(system: str, index: int, overall: float) -> Dstc9Chat:
    return Dstc9Chat(system, index, (("User", "hi"), ("System", "hello")), {OVERALL: overall}, 2)


def game(values: dict[str, tuple[float, float]], na: dict[str, tuple[str, ...]] | None = None
         ) -> dict[str, DimensionScore]:
    """dimension -> (System raw, User raw)."""
    return {d: DimensionScore(d, {"System": s, "User": u}, HIB[d],
                              not_applicable=(na or {}).get(d, ())) for d, (s, u) in values.items()}


def test_every_virtual_game_is_awarded_as_a_tournament_awards_it():
    rng = random.Random(7)
    pool = [1.0, 1.0 + 1e-7, 2.0, 3.0, math.nan]  # a raw tie (1e-5 relative) and a NaN
    chats, games = [], []
    for i in range(24):
        chats.append(chat(f"chatbot{i % 4 + 1}", i, 3.0))
        na = {"consistency": ("System",)} if rng.random() < 0.2 else None
        games.append(game({d: (rng.choice(pool), 0.0) for d in HIB}, na))
    weights = {"fluency": 1.0, "relevance": 0.5, "consistency": 1.5}
    got = cross_system_rates(chats, games, weights)
    for i, (ci, gi) in enumerate(zip(chats, games)):
        per_system: dict[str, list[float]] = {}
        for cj, gj in zip(chats, games):
            if cj.system == ci.system:
                continue
            raw = {"a": {d: gi[d].raw["System"] for d in HIB}, "b": {d: gj[d].raw["System"] for d in HIB}}
            na = {d: [p for p, g in (("a", gi), ("b", gj)) if "System" in g[d].not_applicable]
                  for d in HIB}
            res = award_points("x", ("a", "b"), raw, HIB, weights, na)
            per_system.setdefault(cj.system, []).append(res.score_of("a"))
        want = sum(sum(v) / len(v) for v in per_system.values()) / len(per_system)
        assert got[i] == pytest.approx(want), i


def test_each_other_system_counts_equally_and_a_chat_without_the_system_is_nan():
    chats = [chat("a", 0, 3), chat("b", 1, 3), chat("c", 2, 3), chat("c", 3, 3), chat("c", 4, 3)]
    games = [game({"relevance": (v, 0.0)}) for v in (2.0, 1.0, 0.0, 0.0, 3.0)]
    rates = cross_system_rates(chats, games, {"relevance": 1.0})
    # a beats b; against c's three chats it wins two and loses one: (1 + 2/3) / 2
    assert rates[0] == pytest.approx((1 + 2 / 3) / 2)
    assert rates[1] == pytest.approx((0 + 2 / 3) / 2)
    no_system = {"relevance": DimensionScore("relevance", {"User": 1.0, "Bot": 1.0}, True)}
    assert math.isnan(cross_system_rates(chats[:2], [games[0], no_system], {"relevance": 1})[1])
    # a chat without a System side is nobody's opponent either: a (2.0) plays only b's
    # chat (3.0) and loses it; counting the empty chat (NaN, which loses) would give 1/2
    three = cross_system_rates(chats[:2] + [chat("b", 9, 3)],
                               [games[0], game({"relevance": (3.0, 0.0)}), no_system],
                               {"relevance": 1})
    assert three[0] == 0.0 and math.isnan(three[2])
    with pytest.raises(ValueError, match="one game a chat"):
        cross_system_rates(chats, games[:2], {"relevance": 1})
    assert cross_system_rates([chats[0]], [games[0]], {"relevance": 1}) == [pytest.approx(math.nan, nan_ok=True)]


def mirrored() -> tuple[list[Dstc9Chat], list[dict[str, DimensionScore]]]:
    """Four systems of known quality (people agree); each person answers as well as the
    system talks to them, a little better: every System loses its relevance point to its
    partner, so the points against the partner say nothing, and side by side the order shows.
    Fluency (perplexity, lower is better) is the same for every side: it decides nothing."""
    chats, games = [], []
    for q in range(4):
        for k in range(5):
            rel = q + 0.1 * k
            chats.append(chat(f"chatbot{q + 1}", k, 2.0 + q + 0.01 * k))
            games.append(game({"relevance": (rel, rel + 0.5), "fluency": (30.0, 30.0)}))
    return chats, games


def test_cross_system_games_rank_systems_whose_partners_mirror_them():
    chats, games = mirrored()
    weights = {"relevance": 1.0, "fluency": 1.0}
    report = evaluate_fed(chats, games, weights, dataset="dstc9", overall=OVERALL)
    refs = report["references"]
    assert refs[SYSTEM_LEVEL]["full"] is None  # every System scores 0 points: no order
    assert refs[CROSS]["full"] == pytest.approx(1.0)
    assert refs[CROSS]["alone"]["relevance"] == pytest.approx(1.0)
    assert refs[CROSS]["alone"]["fluency"] is None  # every game a tie: no order
    assert refs[CROSS]["minus"]["fluency"] == pytest.approx(1.0)
    assert refs[CROSS]["minus"]["relevance"] is None
    assert refs[CROSS]["reference_order"] == ["chatbot4", "chatbot3", "chatbot2", "chatbot1"]
    per_chat = Lab._per_chat(chats, games, weights)
    rows = dimension_rows(chats, per_chat, MATCHES["dstc9"], samples=50)
    row = next(r for r in rows if r["dimension"] == RANKING_CROSS)
    assert row["system_tau"]["value"] == pytest.approx(1.0)


def test_the_array_rule_is_the_scalar_rule():
    from chatmatch.scoring.points import dimension_winner, dimension_winners
    values = [math.nan, -math.inf, -1.0, 0.0, 1e-6, 1.0, 1.0 + 1e-7, 2.0, 1e308, math.inf]
    for hib in (True, False):
        grid = dimension_winners([[v] for v in values], [values], hib)
        assert [[int(x) for x in row] for row in grid] == [
            [dimension_winner(a, b, hib) for b in values] for a in values]

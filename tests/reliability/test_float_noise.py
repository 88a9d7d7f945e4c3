"""Family 0 of issue 35, the same work on another machine: float noise (another CPU's
kernels move a value in its 7th significant digit) changes no point, no rank and no written
digit. Raw scores within 1e-5 relative are a tie; rankings are written and ranked at 6
significant digits (chatmatch.common.numbers)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from chatmatch.ranking import RankingConfig, rank
from chatmatch.records import GameResult
from chatmatch.rundir.store import nan_to_none
from chatmatch.scoring.points import award_points

CURRENT = Path(__file__).resolve().parents[1] / "data" / "current_run"
METHODS = ["trueskill", "points", "bt", "elo"]
BOTS = ["a", "b", "c", "d", "e"]
DIMS = {"fluency": False, "diversity": True, "proactivity": True, "relevance": True}


def _games(n: int = 60, seed: int = 1) -> list[GameResult]:
    """Games whose raw scores look like a run's: exact ties (0.0, 0.5, a count), values that
    differ only in the 7th digit (one CPU against another), and real differences."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        a, b = rng.sample(BOTS, 2)
        raw: dict[str, dict[str, float]] = {a: {}, b: {}}
        for d in DIMS:
            x = rng.choice([0.0, 0.5, 1.0, rng.uniform(0.0, 1.0), rng.uniform(5.0, 900.0)])
            kind = rng.random()
            y = x if kind < 0.3 else x * (1 + rng.uniform(-3e-7, 3e-7)) if kind < 0.6 else \
                rng.uniform(0.0, 2 * x + 1)
            raw[a][d], raw[b][d] = x, y
        out.append(award_points(f"g{i:03d}", (a, b), raw, DIMS, {}))
    return out


def _perturbed(results: list[GameResult], seed: int, rel: float = 1e-6) -> list[GameResult]:
    rng = random.Random(seed)
    out = []
    for r in results:
        raw = {p: {d: v * (1 + rng.uniform(-rel, rel)) for d, v in r.raw[p].items()}
               for p in r.players}
        out.append(award_points(r.game_id, r.players, raw, r.higher_is_better, {},
                                r.not_applicable))
    return out


def _stored_results() -> list[GameResult]:
    lines = (CURRENT / "results.jsonl").read_text().splitlines()
    return [GameResult.from_json(json.loads(x)["record"]) for x in lines]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_raw_scores_moved_by_1e_6_relative_move_no_point_and_no_ranking(seed):
    results = _games() + [r for r in _stored_results() if not r.forfeit]
    bots = sorted({p for r in results for p in r.players})
    noisy = _perturbed(results, seed)
    assert [r.points for r in noisy] == [r.points for r in results]
    cfg = RankingConfig.model_validate({"shuffles": 5})
    for method in METHODS:
        want = rank(results, bots, cfg, method=method).to_json()
        assert rank(noisy, bots, cfg, method=method).to_json() == want, method


def test_scores_equal_in_the_7th_digit_are_a_tie_on_every_dimension():
    for hib in (True, False):
        for x in (0.0, 1e-8, 0.4318857907649628, 13.36, 2558.9045, -3.2):
            r = award_points("g", ("a", "b"), {"a": {"d": x}, "b": {"d": x * (1 + 9e-7) + 1e-9}},
                             {"d": hib}, {})
            assert r.points == {"a": {"d": 0.0}, "b": {"d": 0.0}}, x
    # a difference in the 5th digit still decides the point
    r = award_points("g", ("a", "b"), {"a": {"d": 13.36}, "b": {"d": 13.35}}, {"d": True}, {})
    assert r.points == {"a": {"d": 1.0}, "b": {"d": 0.0}}


def test_a_rating_written_is_the_same_to_its_last_digit_under_noise():
    """The bootstrap bound that differed in its 16th digit between an AVX2 and an AVX-512
    machine (0.4318857907649628 against ...629) is written the same way."""
    results = _stored_results()
    bots = ["ok", "plain", "bad"]
    ranking = rank(results, bots, RankingConfig.model_validate({}), method="bt")
    row = ranking.rows[0]
    assert row.stats is not None
    shifted = [type(ranking)(ranking.method, (type(row)(
        row.bot, row.rank, v, row.games, type(row.stats)("log_strength", v, v, v)),),
        ranking.games) for v in (0.4318857907649628, 0.4318857907649629)]
    a, b = (json.dumps(nan_to_none(s.to_json())) for s in shifted)
    assert a == b and "0.431886" in a
    zero = type(ranking)(ranking.method, (type(row)(row.bot, 1, 5.8e-13, row.games),), 1)
    assert zero.to_json()["ranking"][0]["score"] == 0.0  # a centred score's noise is 0


def test_ratings_equal_at_the_written_digits_share_a_rank_and_are_listed_by_name():
    """faulty-50 and faulty-20 at 13.3500000001 and 13.35: the same written score, so one
    rank, alphabetical, on every CPU (the order must not come from the noise)."""
    from chatmatch.ranking.base import ranked

    for noise in (1e-10, -1e-10):
        assert ranked({"faulty-50": 13.35 + noise, "faulty-20": 13.35, "x": 20.0}) == [
            ("x", 1), ("faulty-20", 2), ("faulty-50", 2)]
    assert math.isclose(13.35, 13.35 + 1e-10)  # the test's premise

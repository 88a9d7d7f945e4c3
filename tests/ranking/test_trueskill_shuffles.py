"""TrueSkill: the closed-form two-player update, and how the final ranking depends on the
shuffle seed (seed_spread; the default number of shuffles)."""

from __future__ import annotations

import random

import pytest
import trueskill

from chatmatch.ranking import RankingConfig, rank
from chatmatch.ranking.trueskill_rank import (DEFAULT_SHUFFLES, TrueSkillParams, rank_trueskill, rate_pair,
                                             seed_spread)
from chatmatch.records import GameResult
from tests.ranking.synthetic import synthetic_results


def test_rate_pair_matches_the_published_example():
    # trueskill's documentation: 1 vs 1 from (25, 8.333) -> (29.396, 7.171) / (20.604, 7.171)
    env = trueskill.TrueSkill()
    win, lose = rate_pair(env.create_rating(), env.create_rating(), env)
    assert (win.mu, win.sigma) == pytest.approx((29.396, 7.171), abs=1e-3)
    assert (lose.mu, lose.sigma) == pytest.approx((20.604, 7.171), abs=1e-3)
    a, b = rate_pair(env.create_rating(), env.create_rating(), env, drawn=True)
    assert a.mu == pytest.approx(25.0) and a.sigma == pytest.approx(6.458, abs=1e-3)


@pytest.mark.parametrize("draw_probability,tau", [(0.1, 25 / 300), (0.0, 0.0), (0.4, 1.0)])
def test_rate_pair_equals_the_librarys_rate_1vs1(draw_probability, tau):
    env = trueskill.TrueSkill(beta=3.0, tau=tau, draw_probability=draw_probability)
    rng = random.Random(7)
    for _ in range(300):
        a = env.create_rating(rng.uniform(0, 50), rng.uniform(0.5, 9))
        b = env.create_rating(rng.uniform(0, 50), rng.uniform(0.5, 9))
        drawn = draw_probability > 0 and rng.random() < 0.3
        try:
            want = trueskill.rate_1vs1(a, b, drawn=drawn, env=env)
        except FloatingPointError:
            continue
        got = rate_pair(a, b, env, drawn)
        for w, g in zip(want, got):
            assert (g.mu, g.sigma) == pytest.approx((w.mu, w.sigma), abs=1e-9)


def synthetic(seed: int, strengths=(0.0, 0.4, 0.8, 0.9, 1.4, 1.8, 2.2)):
    """A 7-bot double round robin, 7 dimensions a game (tests/ranking/synthetic.py)."""
    return synthetic_results(random.Random(seed), strengths)


def test_seed_spread_reports_each_seeds_final_order():
    results, bots = synthetic(1000)
    p = TrueSkillParams()
    spread = seed_spread(results, bots, p, [0, 1, 2, 3], shuffles=3)
    for s, order in zip(spread.seeds, spread.orders):
        assert list(order) == rank_trueskill(results, bots, p, s, shuffles=3).order()
        assert list(order) == rank(results, bots, RankingConfig(shuffles=3), s).order()
    assert all(len(r) == 4 for r in spread.ranks.values())
    doc = spread.to_json()
    assert doc["distinct_orders"] == spread.distinct and doc["modal_order"] == list(spread.modal_order)
    assert 0 < spread.modal_share <= 1
    with pytest.raises(ValueError):
        seed_spread(results, bots, p, [])


def test_default_shuffles_make_the_ranking_seed_independent_where_3_do_not():
    # measured with lab/trueskill_shuffles.py; this tournament is one of its set
    results, bots = synthetic(1000)
    seeds = list(range(10))
    paper = seed_spread(results, bots, TrueSkillParams(), seeds, shuffles=3)
    default = seed_spread(results, bots, TrueSkillParams(), seeds)  # DEFAULT_SHUFFLES
    assert RankingConfig().shuffles == DEFAULT_SHUFFLES
    assert paper.distinct > 1
    assert default.distinct == 1


def test_batched_shuffles_equal_one_replay_per_shuffle():
    import statistics

    import numpy as np

    from chatmatch.ranking.trueskill_rank import _env, play_order

    results, bots = synthetic(1001)
    # some draws too: a tied game is a TrueSkill draw
    results += [GameResult(f"t{i}", (a, b), raw={a: {}, b: {}}, points={a: {"x": 1.0}, b: {"x": 1.0}})
                for i, (a, b) in enumerate(zip(bots, bots[1:]))]
    cfg = RankingConfig(shuffles=4, trueskill={"draw_probability": 0.2})
    ranking = rank(results, bots, cfg, seed=5)
    rng = random.Random(5)
    base = sorted(results, key=lambda r: r.game_id)
    per_shuffle = []
    for _ in range(4):
        order = list(base)
        rng.shuffle(order)
        per_shuffle.append(play_order(order, _env(cfg.trueskill), bots))
    for row in ranking.rows:
        assert row.stats.mu == pytest.approx(statistics.fmean(r[row.bot].mu for r in per_shuffle), abs=1e-6)
        assert row.stats.sigma == pytest.approx(
            statistics.fmean(r[row.bot].sigma for r in per_shuffle), abs=1e-6)
    assert np.isfinite([r.score for r in ranking.rows]).all()


def test_rank_cli_shows_the_seed_spread(tmp_path):
    import json

    from click.testing import CliRunner

    from chatmatch.cli import cli

    logs = tmp_path / "logs"
    logs.mkdir()
    talk = {("ann", "bob"): "ann: Where do you live?\nbob: Paris.\nann: Do you like it?\nbob: ok\n",
            ("bob", "cy"): "bob: hi\ncy: Hello, what do you do?\nbob: ok\ncy: Why?\n",
            ("cy", "ann"): "cy: Any pets?\nann: A dog. Any kids?\ncy: no\nann: Why not?\n"}
    for i, text in enumerate(talk.values()):
        (logs / f"{i}.txt").write_text(text)
    (tmp_path / "cfg.yaml").write_text("scoring: {dimensions: [proactivity, specificity]}\n")
    run = tmp_path / "run"
    res = CliRunner().invoke(cli, ["score", str(logs), "--config", str(tmp_path / "cfg.yaml"),
                                   "--out", str(run)])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(cli, ["rank", str(run), "--shuffles", "1", "--seeds", "6"])
    assert res.exit_code == 0, res.output
    assert "Final TrueSkill rank over 6 seeds:" in res.output
    assert all(b in res.output.split("Final TrueSkill")[1] for b in ("ann", "bob", "cy"))
    res = CliRunner().invoke(cli, ["rank", str(run), "--seeds", "3", "--json"])
    doc = json.loads(res.stdout)
    assert doc["seed_spread"]["seeds"] == [0, 1, 2] and set(doc["seed_spread"]["ranks"]) == {"ann", "bob", "cy"}
    res = CliRunner().invoke(cli, ["rank", str(run), "--seeds", "1"])
    assert res.exit_code == 2 and "Traceback" not in res.output

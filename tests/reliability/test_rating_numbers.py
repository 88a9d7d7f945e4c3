"""Family 5 of issue 23: ranking parameters are validated to ranges a method can compute
with, Elo's expectation cannot overflow, and no ranking with an infinite rating (or a
score that is not a number) is ever printed or stored."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from chatmatch.config.tournament import load_config
from chatmatch.errors import ChatmatchError, ConfigError
from chatmatch.ranking import Ranking
from chatmatch.ranking.base import RankRow
from chatmatch.ranking.config import check_finite
from chatmatch.ranking.elo import elo_ratings
from chatmatch.run.tournament import run_tournament
from tests.reliability.helpers import run_cli, tournament_yaml


def _cfg(tmp_path: Path, ranking: str) -> Path:
    p = tmp_path / "t.yaml"
    p.write_text(tournament_yaml(bots=3, exchanges=2).replace(
        "ranking: {method: trueskill, shuffles: 3}", ranking))
    return p


@pytest.mark.parametrize("ranking, problem", [
    ("ranking: {method: trueskill, trueskill: {mu: 1e308}}",
     "ranking.trueskill.mu: Input should be less than or equal to 1000000"),
    ("ranking: {method: points, points: {win: 1e308}}",
     "ranking.points.win: Input should be less than or equal to 1000000"),
    ("ranking: {method: elo, elo: {scale: 0.001}}",
     "ranking.elo.scale: Input should be greater than or equal to 1"),
    ("ranking: {method: trueskill, trueskill: {sigma: 1e300}}",
     "ranking.trueskill.sigma: Input should be less than or equal to 1000000"),
])
def test_out_of_range_ranking_parameters_are_refused_with_the_key(tmp_path, ranking, problem):
    with pytest.raises(ConfigError, match=problem.replace(".", r"\.")):
        load_config(_cfg(tmp_path, ranking))


def test_elo_with_a_tiny_scale_and_a_big_k_does_not_overflow(tmp_path):
    s = run_tournament(load_config(_cfg(tmp_path, "ranking: {method: elo, elo: {scale: 1.0, k: 400}}")),
                       tmp_path / "run")
    assert all(math.isfinite(r.score) for r in s.ranking.rows)
    r = elo_ratings([("a", "b", 1.0)] * 100, ["a", "b"], k=1000, initial=1e6, scale=1.0)
    assert all(math.isfinite(v) for v in r.values())


def test_points_on_the_command_line_are_range_checked(tmp_path):
    run_tournament(load_config(_cfg(tmp_path, "ranking: {method: points}")), tmp_path / "run")
    r = run_cli("rank", str(tmp_path / "run"), "--points", "1e308/1/0")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip() == ("error: --points: '1e308/1/0': win: Input should be less than "
                                "or equal to 1000000")


@pytest.mark.parametrize("score", [math.inf, -math.inf, math.nan])
def test_a_ranking_holding_a_non_finite_score_is_refused(score):
    broken = Ranking("plugin", (RankRow("a", 1, score), RankRow("b", 2, 0.0)), 2)
    with pytest.raises(ChatmatchError, match=f"computed score = {score} for bot 'a', which is not a finite"):
        check_finite(broken)

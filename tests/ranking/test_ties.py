"""Ties shown as ties (chatmatch.ranking.ties): bots with the same record, or that TrueSkill's
shuffles cannot order, share a rank; the tie-break is an option."""

import pytest
from pydantic import ValidationError

from chatmatch.ranking import Ranking, RankingConfig, RankRow, rank
from chatmatch.ranking.ties import TieRule, apply_ties
from chatmatch.records import GameTally, TrueSkillStats
from tests.ranking.test_ranking import game


def row(bot, rank_, score, won, lost, points, ranks=()):
    stats = TrueSkillStats(25.0, 1.0, score, float(rank_), rank_, rank_, tuple(ranks)) if ranks else None
    return RankRow(bot, rank_, score, GameTally(won + lost, won, 0, lost, 0, points), stats)


#: b and c have the same 3-9 record; TrueSkill put b first by 0.03
ROWS = (row("a", 1, 10.0, 9, 3, 30.0), row("b", 2, 5.03, 3, 9, 12.0), row("c", 3, 5.0, 3, 9, 14.0),
        row("d", 4, 1.0, 1, 11, 3.0))


def test_same_record_shares_the_rank():
    r = apply_ties(Ranking("trueskill", ROWS, 24), TieRule())
    assert [(x.bot, x.rank, x.tied_with) for x in r.rows] == [
        ("a", 1, ()), ("b", 2, ("c",)), ("c", 2, ("b",)), ("d", 4, ())]
    assert r.meta["ties"] == {"rule": "record", "share": 0.25, "break_by": "none"}
    assert [line[0] for line in r.leaderboard()[1]] == ["1", "2=", "2=", "4"]
    js = r.to_json()["ranking"]
    assert js[1]["tied_with"] == ["c"] and "tied_with" not in js[0]
    assert r.rank_of() == {"a": 1, "b": 2, "c": 2, "d": 4}


def test_break_by_game_points_orders_the_group():
    r = apply_ties(Ranking("trueskill", ROWS, 24), TieRule(break_by="game_points"))
    assert [(x.bot, x.rank, x.tied_with) for x in r.rows] == [
        ("a", 1, ()), ("c", 2, ("b",)), ("b", 3, ("c",)), ("d", 4, ())]
    assert [line[0] for line in r.leaderboard()[1]] == [1, 2, 3, 4]


def test_rule_none_and_no_ties_leave_the_ranking_alone():
    base = Ranking("trueskill", ROWS, 24)
    assert apply_ties(base, TieRule(rule="none")) is base
    distinct = Ranking("x", (ROWS[0], ROWS[1], ROWS[3]), 24)
    assert apply_ties(distinct, TieRule()) is distinct
    assert "tied_with" not in str(distinct.to_json())


def test_shuffles_rule_ties_neighbours_that_swap():
    # a and b: different records, but b ranks above a in 2 of 5 shuffles (40 %)
    a = row("a", 1, 9.0, 8, 4, 25.0, ranks=(1, 2, 1, 2, 1))
    b = row("b", 2, 8.9, 7, 5, 24.0, ranks=(2, 1, 2, 1, 2))
    c = row("c", 3, 2.0, 1, 11, 3.0, ranks=(3, 3, 3, 3, 3))
    base = Ranking("trueskill", (a, b, c), 12)
    assert apply_ties(base, TieRule()) is base  # records differ
    r = apply_ties(base, TieRule(rule="shuffles", share=0.25))
    assert [x.rank for x in r.rows] == [1, 1, 3]
    assert apply_ties(base, TieRule(rule="shuffles", share=0.5)) is base  # 40 % < 50 %


def test_rank_applies_the_config_and_the_dump_omits_the_default():
    # x and y each beat z and win one of their two games: the same 2-1 record
    win, loss = (1, 2), (2, 1)  # (fluency, lower better; proactivity): the first wins both
    results = [game("g1", "x", "z", win, loss), game("g2", "y", "z", win, loss),
               game("g3", "x", "y", win, loss), game("g4", "y", "x", win, loss)]
    cfg = RankingConfig(method="points")
    r = rank(results, ["x", "y", "z"], cfg)
    assert r.rank_of()["x"] == r.rank_of()["y"] == 1 and r.rows[0].tied_with
    assert "ties" not in cfg.model_dump()
    other = RankingConfig(ties={"rule": "none", "break_by": "game_points"})
    assert other.model_dump()["ties"]["rule"] == "none"
    assert RankingConfig.model_validate(other.model_dump()) == other
    with pytest.raises(ValidationError, match="rule"):
        RankingConfig(ties={"rule": "closeish"})


def test_rank_cli_tie_options(tmp_path):
    import json
    import shutil
    from pathlib import Path

    from click.testing import CliRunner

    from chatmatch.cli import cli

    run = tmp_path / "old_run"
    shutil.copytree(Path(__file__).parents[1] / "data" / "old_run", run)
    # 0/0/0 points: ok and plain also have equal game points: the points method itself
    # cannot order them (bad has fewer match wins)
    res = CliRunner().invoke(cli, ["rank", str(run), "-m", "points", "--points", "0/0/0", "--json"])
    assert res.exit_code == 0, res.output
    assert [r["rank"] for r in json.loads(res.stdout)["ranking"]] == [1, 1, 3]
    res = CliRunner().invoke(cli, ["rank", str(run), "-m", "points", "--points", "0/0/0",
                                   "--tie-break", "game_points", "--json"])
    rows = json.loads(res.stdout)["ranking"]
    assert [r["rank"] for r in rows] == [1, 2, 3] and rows[2]["bot"] == "bad"
    assert rows[0]["tied_with"] == ["plain"] and "tied_with" not in rows[2]
    table = CliRunner().invoke(cli, ["rank", str(run), "-m", "points", "--points", "0/0/0"])
    assert "1=" in table.output
    none = CliRunner().invoke(cli, ["rank", str(run), "-m", "points", "--points", "0/0/0",
                                    "--ties", "none", "--json"])
    assert none.exit_code == 0 and "tied_with" not in none.stdout


def test_points_table_ties_only_equal_points_not_equal_game_records():
    """Issue 35 (0f): four bots on 9/6/3/0 match points whose game records are all 3-3 were
    all shown "1=" by the default rule ``record``; a points-table tie is equal match points
    and then equal game points."""
    bots = ["a", "b", "c", "d"]
    results = []
    for i, strong in enumerate(bots):
        for weak in bots[i + 1:]:
            # the stronger bot wins game 1 on both dimensions and loses game 2 on one:
            # one game each, more game points for the stronger, so it wins the match
            results.append(game(f"{strong}{weak}1", strong, weak, (1.0, 5), (10.0, 1)))
            results.append(game(f"{strong}{weak}2", weak, strong, (1.0, 3), (10.0, 3)))
    r = rank(results, bots, RankingConfig(method="points"), 0)
    assert {x.games.won for x in r.rows} == {3} and {x.games.lost for x in r.rows} == {3}
    assert [(x.bot, x.rank, x.score, x.tied_with) for x in r.rows] == [
        ("a", 1, 9.0, ()), ("b", 2, 6.0, ()), ("c", 3, 3.0, ()), ("d", 4, 0.0, ())]
    assert [line[0] for line in r.leaderboard()[1]] == [1, 2, 3, 4]  # no "1=" anywhere
    # equal match points and equal game points stay a shared rank
    even = [game("ab1", "a", "b", (1.0, 3), (10.0, 3)), game("ab2", "b", "a", (1.0, 3), (10.0, 3))]
    tied = rank(even, ["a", "b"], RankingConfig(method="points"), 0)
    assert [x.rank for x in tied.rows] == [1, 1]

"""Budgeted schedules (chatmatch.play.pairing): rounds of matches chosen from the results so far,
within a game budget, played and resumed by ``chatmatch run``."""

import json
from collections import Counter

import pytest

from chatmatch.config.tournament import load_config
from chatmatch.errors import ConfigError
from chatmatch.play.pairing import (AUTO_BUDGETED, AUTO_ROUND_ROBIN_MAX, Match, Rounds, default_budget,
                               matches_of, next_round, resolve)
from chatmatch.play.schedule import double_round_robin
from chatmatch.records import GameResult
from chatmatch.run.tournament import run_tournament

BOTS = [f"b{i}" for i in range(8)]
MATCHES = matches_of(double_round_robin(BOTS, ["Hi?"], 0))


def beats(order):
    """Outcomes where every bot beat every later bot of ``order`` (both legs)."""
    return [(a, b, 1.0) for i, a in enumerate(order) for b in order[i + 1:]] + \
           [(b, a, 0.0) for i, a in enumerate(order) for b in order[i + 1:]]


@pytest.mark.parametrize("method", ["random", "swiss", "adaptive"])
def test_a_round_is_unplayed_matches_each_bot_at_most_once(method):
    played = {m.match_id for m in MATCHES[:5]}
    rnd = next_round(method, BOTS, MATCHES, played, beats(BOTS[:3]), 100, 0, 1)
    assert rnd and not {m.match_id for m in rnd} & played
    assert max(Counter(p for m in rnd for p in (m.a, m.b)).values()) == 1
    assert rnd == next_round(method, BOTS, MATCHES, played, beats(BOTS[:3]), 100, 0, 1)
    assert len(next_round(method, BOTS, MATCHES, played, [], 5, 0, 1)) == 2  # 5 games: 2 matches
    assert next_round(method, BOTS, MATCHES, {m.match_id for m in MATCHES}, [], 100, 0, 1) == []


def test_swiss_pairs_neighbours_in_strength():
    # b0 > b1 > ... > b7 from earlier games between other pairs
    order = ["b0", "b1", "b2", "b3", "b4", "b5", "b6", "b7"]
    known = [(order[i], order[i + 2], 1.0) for i in range(6)] * 3
    played = {m.match_id for m in MATCHES if abs(int(m.a[1]) - int(m.b[1])) == 2}
    rnd = next_round("swiss", BOTS, MATCHES, played, known, 100, 0, 2)
    assert {(m.a, m.b) for m in rnd} == {("b0", "b1"), ("b2", "b3"), ("b4", "b5"), ("b6", "b7")}


def test_adaptive_plays_close_and_little_known_pairs_first():
    # b0..b3 well known and far apart; b4..b7 never played: their matches are less certain
    known = beats(["b0", "b1", "b2", "b3"]) * 4
    played = {m.match_id for m in MATCHES if {m.a, m.b} <= {"b0", "b1", "b2", "b3"}}
    rnd = next_round("adaptive", BOTS, MATCHES, played, known, 100, 0, 2)
    first = rnd[0]
    assert {first.a, first.b} <= {"b4", "b5", "b6", "b7"}


def _result(gid, a, b, winner):
    pts = {p: {"proactivity": 1.0 if p == winner else 0.0} for p in (a, b)}
    return GameResult(gid, (a, b), pts, pts, {"proactivity": True})


def test_rounds_spend_the_budget_and_finish_half_played_matches_first():
    sched = double_round_robin(BOTS, ["Hi?"], 0)
    r = Rounds("adaptive", sched, 20, 0)
    first = r.next(set(), {})
    assert len(first) == 8 and r.total == 20  # 4 matches, both games
    stored = {g.game_id for g in first}
    results = {g.game_id: _result(g.game_id, g.starter, g.other, min(g.players)) for g in first}
    second = r.next(stored, results)
    assert len(second) == 8 and not {g.game_id for g in second} & stored
    stored |= {g.game_id for g in second}
    assert len(r.next(stored, results)) == 4  # the budget's last 4 games
    # a match with one game stored gets its other game before anything new
    one = {sched[10].game_id}
    assert r.next(one, {}) == [sched[11]]
    # random does not wait for results: the whole budget at once
    assert len(Rounds("random", sched, 20, 0).next(set(), {})) == 20
    assert Rounds("round-robin", sched, None, 0).next(set(), {}) == sched


def test_auto_is_the_round_robin_for_small_leagues_and_budgeted_above():
    assert resolve("auto", None, AUTO_ROUND_ROBIN_MAX) == ("round-robin", None)
    n = AUTO_ROUND_ROBIN_MAX + 1
    assert resolve("auto", None, n) == (AUTO_BUDGETED, default_budget(AUTO_BUDGETED, n))
    assert default_budget(AUTO_BUDGETED, n) < n * (n - 1)
    assert resolve("auto", 30, 5) == (AUTO_BUDGETED, 30)
    assert resolve("swiss", None, 4) == ("swiss", 12)  # never more than the round-robin


def league_yaml(tmp_path, schedule, n=6):
    lines = ["name: big", "exchanges: 2", "seed: 4", "record_timings: false",
             f"output_dir: {tmp_path / 'run'}", f"schedule: {schedule}", "bots:"]
    for i in range(n):
        lines += [f"  - name: s{i}", "    adapter: tests.scripted:SamplingBot",
                  f"    params: {{words: {2 + i}, ask_every: {i % 3}}}"]
    lines += ["scoring: {dimensions: [proactivity, specificity, diversity]}",
              "ranking: {method: bt, bt: {bootstrap: 20}}"]
    p = tmp_path / "t.yaml"
    p.write_text("\n".join(lines) + "\n")
    return load_config(p)


def test_a_budgeted_run_plays_the_budget_and_a_larger_budget_adds_games(tmp_path):
    s = run_tournament(league_yaml(tmp_path, "{method: adaptive, games: 12}"))
    assert s.games_played == 12 and s.ranking.games == 12 and s.ranking.complete
    rows = {r.bot: r for r in s.ranking.rows}
    assert len(rows) == 6 and all(r.stats is not None and r.stats.rank_ci_high is not None for r in rows.values())
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["expected_games"] == 12
    before = {p.name: p.read_bytes() for p in (tmp_path / "run" / "transcripts").iterdir()}
    s = run_tournament(league_yaml(tmp_path, "{method: adaptive, games: 20}"))
    assert s.games_played == 8 and s.ranking.games == 20
    after = {p.name: p.read_bytes() for p in (tmp_path / "run" / "transcripts").iterdir()}
    assert {k: after[k] for k in before} == before
    # the rest of the round-robin, in place
    s = run_tournament(league_yaml(tmp_path, "{method: round-robin}"))
    assert s.games_played == 10 and s.ranking.games == 30


def test_the_same_results_give_the_same_rounds(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = run_tournament(league_yaml(tmp_path / "a", "{method: swiss, games: 14}"))
    b = run_tournament(league_yaml(tmp_path / "b", "{method: swiss, games: 14}"))
    names = lambda d: sorted(p.name for p in (d / "run" / "transcripts").iterdir())  # noqa: E731
    assert a.games_played == 14 and names(tmp_path / "a") == names(tmp_path / "b")


def test_a_budget_with_the_round_robin_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="schedule: games: a budget needs method random, swiss or adaptive"):
        league_yaml(tmp_path, "{method: round-robin, games: 10}")


def test_a_misspelt_schedule_key_names_the_right_one(tmp_path):
    with pytest.raises(ConfigError, match=r"schedule.methd: unknown key 'methd'; did you mean 'method'\?"):
        league_yaml(tmp_path, "{methd: swiss}")
    with pytest.raises(ConfigError, match=r"schedule.method: .*'adaptive'"):
        league_yaml(tmp_path, "{method: elimination}")

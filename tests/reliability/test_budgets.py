"""Family 1 of issue 35, budgets that cannot finish: a game budget is satisfiable or refused
when the YAML is loaded, with the nearest valid values named. Games are played in matches of
two, so an odd budget is refused (it left the run INCOMPLETE for ever, "1 game(s) to play");
a budget lowered below the games a run already holds is refused (it printed one count in the
header and another under the ranking)."""

from __future__ import annotations

import json

import pytest

from chatmatch.config.tournament import load_config
from chatmatch.errors import ConfigError
from tests.reliability.helpers import run_cli, tournament_yaml


def _yaml(tmp_path, games: int, method: str = "random"):
    p = tmp_path / "t.yaml"
    p.write_text(tournament_yaml(bots=5, exchanges=2, concurrent=2,
                                 extra=f"schedule: {{method: {method}, games: {games}}}\n"))
    return p


@pytest.mark.parametrize("method", ["random", "swiss", "adaptive", "auto"])
def test_an_odd_budget_is_refused_at_load_with_the_nearest_values(tmp_path, method):
    with pytest.raises(ConfigError, match="games: 7 cannot be played to the end.*use 6 or 8"):
        load_config(_yaml(tmp_path, 7, method), check_bots=False)


def test_an_even_budget_finishes(tmp_path):
    run = tmp_path / "run"
    r = run_cli("run", str(_yaml(tmp_path, 8)), "--out", str(run))
    assert r.returncode == 0, r.stderr
    assert "INCOMPLETE" not in r.stdout + r.stderr
    doc = json.loads((run / "rankings" / "trueskill.json").read_text())
    assert doc["games"] == doc["expected_games"] == 8 and doc["complete"]


def test_a_budget_below_the_stored_games_is_refused_with_the_nearest_value(tmp_path):
    run = tmp_path / "run"
    assert run_cli("run", str(_yaml(tmp_path, 8)), "--out", str(run)).returncode == 0
    before = sorted(p.name for p in (run / "transcripts").iterdir())
    r = run_cli("run", str(_yaml(tmp_path, 4)), "--out", str(run))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "schedule.games: 4 is below the 8 games this run already holds" in r.stderr, r.stderr
    assert "use games: 8 or more" in r.stderr
    assert sorted(p.name for p in (run / "transcripts").iterdir()) == before
    r = run_cli("run", str(_yaml(tmp_path, 10)), "--out", str(run))  # raising it is fine
    assert r.returncode == 0, r.stderr
    assert json.loads((run / "rankings" / "trueskill.json").read_text())["games"] == 10


def test_the_nearest_budget_named_exists_in_the_round_robin(tmp_path):
    """Issue 35 (1b): with 3 bots (6 games), "games: 7" suggested "use 6 or 8"; 8 games do
    not exist. Only values the schedule can play are named, and the reason is said."""
    p = tmp_path / "t.yaml"
    p.write_text(tournament_yaml(bots=3, exchanges=2, extra="schedule: {method: random, games: 7}\n"))
    r = run_cli("run", str(p), "--out", str(tmp_path / "run"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    line = r.stderr.strip().splitlines()[-1]
    assert "t.yaml:20: schedule: games: 7 cannot be played to the end" in line, r.stderr
    advice = line.split("t.yaml:20: ", 1)[1]  # the temporary path may hold an 8 itself
    assert advice.endswith("use 6 (the round-robin of 3 bots has 6 games)") and "8" not in advice
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("games,bots,named", [(7, 3, "use 6 (the round-robin of 3 bots has 6 games)"),
                                              (10001, 3, "use 6 (the round-robin of 3 bots has 6 games)"),
                                              (3, 2, "use 2 (the round-robin of 2 bots has 2 games)"),
                                              (7, 5, "use 6 or 8")])
def test_the_values_named_for_an_odd_budget(games, bots, named):
    from chatmatch.config.league import ScheduleConfig

    with pytest.raises(ValueError) as err:
        ScheduleConfig(method="random", games=games).check_budget(bots)
    assert str(err.value).endswith(named)

"""The run plan (chatmatch.run.plan): made once, shared by ``chatmatch run`` and the runner,
made again only when another process changed the run directory in between."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import chatmatch.run.plan as runplan
from chatmatch.cli import cli
from chatmatch.config.tournament import dump_config
from chatmatch.errors import RunDirError
from chatmatch.run.plan import make_plan
from chatmatch.run.tournament import run_tournament
from tests.run.test_runner import make_cfg

THREE = [("rich", "rich", 1), ("plain", "plain", 0), ("dull", "dull", 0)]
FOUR = THREE + [("new", "rich", 0)]


def test_a_plan_holds_the_config_dump_the_league_and_the_rounds(tmp_path):
    cfg = make_cfg(tmp_path, bots=FOUR, extra="schedule: {method: swiss, games: 6}\n")
    plan = make_plan(cfg, None, "t.yaml")
    assert plan.path == tmp_path / "run" and plan.config_file == "t.yaml"
    assert plan.config_text == dump_config(cfg)
    assert len(plan.schedule) == 12 and plan.total == 6  # a budget plays part of the schedule
    assert plan.refused is None and plan.league.active == ("rich", "plain", "dull", "new")
    with pytest.raises(dataclasses.FrozenInstanceError):
        plan.total_games = 1  # type: ignore[misc]


def test_chatmatch_run_plans_once(tmp_path, monkeypatch):
    make_cfg(tmp_path)  # writes t.yaml
    calls = {"league": 0, "dump": 0, "target": 0}

    def counted(name, real):
        def wrapper(*a, **kw):
            calls[name] += 1
            return real(*a, **kw)
        return wrapper

    monkeypatch.setattr(runplan, "plan_league", counted("league", runplan.plan_league))
    monkeypatch.setattr(runplan, "dump_config", counted("dump", runplan.dump_config))
    monkeypatch.setattr(runplan, "check_target", counted("target", runplan.check_target))
    res = CliRunner().invoke(cli, ["run", str(tmp_path / "t.yaml"), "-q"])
    assert res.exit_code == 0, res.output
    assert calls == {"league": 1, "dump": 1, "target": 1}


def test_a_refused_league_is_raised_by_the_run_after_the_estimate(tmp_path):
    run_tournament(make_cfg(tmp_path))
    cfg = make_cfg(tmp_path, exchanges=4)
    plan = make_plan(cfg)
    assert isinstance(plan.refused, RunDirError)
    assert plan.total == 6  # the estimate counts it as a new run
    with pytest.raises(RunDirError, match="another tournament setup"):
        run_tournament(cfg, plan=plan)


def test_a_plan_made_before_another_run_is_made_again(tmp_path):
    grown = make_cfg(tmp_path, bots=FOUR)
    stale = make_plan(grown)  # the folder is empty: a new league of four
    assert stale.total == 12
    run_tournament(make_cfg(tmp_path, bots=THREE))  # meanwhile, three bots play there
    s = run_tournament(grown, plan=stale)
    assert s.games_played == 6 and s.games_total == 12  # the league grew by one bot
    events = [e["event"] for e in json.loads((tmp_path / "run" / "manifest.json").read_text())["history"]]
    assert "bots_changed" in events


def test_a_plan_is_for_the_configuration_it_was_made_from(tmp_path):
    plan = make_plan(make_cfg(tmp_path))
    with pytest.raises(ValueError, match="another configuration"):
        run_tournament(make_cfg(tmp_path), plan=plan)


def test_a_plan_refuses_a_folder_that_is_not_a_run(tmp_path):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "notes.txt").write_text("mine")
    with pytest.raises(RunDirError):
        make_plan(make_cfg(tmp_path))
    assert Path(tmp_path / "run" / "notes.txt").read_text() == "mine"

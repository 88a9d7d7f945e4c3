"""Messages that said something else than what was shown: the games page's heading is made
from the filter that picks its games; a bot listed with no game has no best/worst rank,
and no table prints float noise (7e-14); an edited league record of a run written without
its digest is blamed on the record, not on every genuine game; a results file that is a
device is refused before the run's header and estimate are printed; a report of a run
with games missing says "5 of 6"."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from chatmatch.analysis.runtables import select_games, selection_title
from chatmatch.cli import cli
from chatmatch.run.storedrun import Run
from tests.analysis.helpers import won, write_run

FORMAT2 = Path(__file__).parents[1] / "data" / "format2_run"
GAMES = [won("g001", "a", "b", 5, 1), won("g002", "b", "c", 4, 2), won("g003", "c", "d", 4, 2),
         won("g004", "d", "a", 1, 5), won("g005", "a", "c", 3, 3)]


@pytest.mark.parametrize("bot, vs, dim, title", [
    (None, None, None, "all games"), (None, "b", None, "games of b"),
    ("a", "b", None, "games of a against b"), ("a", None, "d1", "games of a in which a won d1"),
    (None, None, "d1", "all games in which a bot won d1")])
def test_the_heading_says_what_the_list_holds(bot, vs, dim, title):
    assert selection_title(bot, vs, dim) == title
    chosen = select_games(GAMES, bot, vs, dim)
    if title.startswith("all games") and dim is None:
        assert len(chosen) == len(GAMES)
    if vs is not None and bot is None:
        assert chosen and all(vs in r.players for r in chosen) and len(chosen) < len(GAMES)


def test_the_view_heads_a_vs_only_list_with_that_bot(tmp_path):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from chatmatch.view.pages import Views
    from chatmatch.view.state import RunState
    from chatmatch.view.web import create_app

    run = write_run(tmp_path / "run", ["a", "b", "c", "d"], GAMES)
    page = TestClient(create_app(Views([RunState(run)]))).get("/run/0/games?vs=b").text
    assert "<h1>Games of b</h1>" in page and "All games" not in page


@pytest.mark.parametrize("method", ["bt", "elo", "trueskill"])
def test_a_bot_with_no_game_has_no_rank_interval_and_no_float_noise(tmp_path, method):
    run = Run.load(write_run(tmp_path / "run", ["a", "b", "c", "d", "e"], GAMES, method=method))
    headers, rows = run.rank(method=method).leaderboard()
    best, worst = headers.index("best"), headers.index("worst")
    (e,) = [r for r in rows if r[1] == "e"]
    assert e[0] == "-" and e[best] == "" and e[worst] == ""
    ranked = [r for r in rows if r[0] != "-"]
    assert all(1 <= r[best] <= r[worst] <= len(ranked) for r in ranked)
    floats = [v for r in rows for v in r if isinstance(v, float)]
    assert all(v == 0 or abs(v) >= 1e-9 for v in floats), floats
    text = CliRunner().invoke(cli, ["rank", str(run.store.path), "--method", method]).output
    assert "e-1" not in text, text


def test_an_edited_roster_without_digest_is_blamed_on_the_record(tmp_path):
    run = tmp_path / "old_run"
    shutil.copytree(FORMAT2, run)
    m = json.loads((run / "manifest.json").read_text())
    m["bots"] = [m["bots"][1], m["bots"][0], *m["bots"][2:]]  # two names swapped by hand
    (run / "manifest.json").write_text(json.dumps(m))
    (tmp_path / "t.yaml").write_text((run / "config.yaml").read_text())
    for args in (["rank", str(run)], ["run", str(tmp_path / "t.yaml"), "--out", str(run)]):
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 2, res.output
        assert "manifest.json: its league record" in res.output and "the record was edited" in res.output
        assert "move transcripts" not in res.output, res.output


def test_one_tampered_game_of_an_old_run_is_still_that_games_problem(tmp_path):
    run = tmp_path / "old_run"
    shutil.copytree(FORMAT2, run)
    first = (run / "transcripts" / "g001.jsonl").read_text().splitlines()
    head = json.loads(first[0])
    head["players"] = list(reversed(head["players"]))
    (run / "transcripts" / "g001.jsonl").write_text("\n".join([json.dumps(head), *first[1:]]) + "\n")
    res = CliRunner().invoke(cli, ["rank", str(run)])
    assert "league record" not in res.output and "g001" in res.output, res.output


def test_a_device_as_results_file_is_refused_before_the_header(tmp_path):
    run = tmp_path / "old_run"
    shutil.copytree(FORMAT2, run)
    (tmp_path / "t.yaml").write_text((run / "config.yaml").read_text())
    (run / "results.jsonl").unlink()
    os.symlink("/dev/zero", run / "results.jsonl")
    res = CliRunner().invoke(cli, ["run", str(tmp_path / "t.yaml"), "--out", str(run)])
    assert res.exit_code == 2
    assert "Tournament '" not in res.output and "nothing to play" not in res.output, res.output
    assert "results.jsonl: cannot read (a device, not a regular file)" in res.output
    assert "move it away" in res.output


def test_a_report_of_a_run_with_games_missing_says_of_how_many(tmp_path):
    from chatmatch.analysis.report import build_report

    path = write_run(tmp_path / "run", ["a", "b", "c", "d"], GAMES)
    m = json.loads((path / "manifest.json").read_text())
    m["expected_games"] = 6
    (path / "manifest.json").write_text(json.dumps(m))
    page = build_report(Run.load(path))
    assert "5 of 6 games scored" in page
    full = build_report(Run.load(write_run(tmp_path / "full", ["a", "b", "c", "d"], GAMES)))
    assert "5 scored games" in full

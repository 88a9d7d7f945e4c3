"""The view's leaderboard prints the ranking's settings as words, not a Python dict, and
its compare page says which judge scored each run and the scorer settings in which the
two runs differ."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

pytest.importorskip("starlette", reason="chatmatch view needs the 'annotate' extra")
from starlette.testclient import TestClient  # noqa: E402

from chatmatch.analysis.templating import settings_text  # noqa: E402
from chatmatch.rundir.store import RunDir  # noqa: E402
from chatmatch.run.migrations import read_manifest  # noqa: E402
from chatmatch.run.storedsetup import StoredSetup  # noqa: E402
from chatmatch.view.pages import Views  # noqa: E402
from chatmatch.view.state import RunState  # noqa: E402
from chatmatch.view.web import create_app  # noqa: E402
from tests.analysis.helpers import won, write_run  # noqa: E402


def client(*runs):
    return TestClient(create_app(Views([RunState(r) for r in runs])))


def test_settings_text_writes_nested_settings_as_words() -> None:
    meta = {"shuffles": 5, "rank_by": "conservative", "k": 3.0, "sigma0": 8.333333333333334,
            "ties": {"rule": "record", "share": 0.25, "break_by": "none"}, "seed": None,
            "uncontrolled": False}
    assert settings_text(meta) == ("shuffles 5, rank by conservative, k 3, sigma0 8.33, ties "
                                   "(rule record, share 0.25, break by none), seed none, "
                                   "uncontrolled no")


def test_the_leaderboard_prints_tied_bots_settings_readably(tmp_path) -> None:
    # alpha and beta have the same record: the ranking shows them tied (meta["ties"])
    games = [won("g001", "alpha", "beta", 4, 3), won("g002", "beta", "alpha", 4, 3),
             won("g003", "alpha", "gamma", 5, 1), won("g004", "beta", "gamma", 5, 1)]
    run = write_run(tmp_path / "tied", ["alpha", "beta", "gamma"], games, method="trueskill")
    page = client(run).get("/run/0/").text
    settings = re.search(r'<span class="settings">(.*?)</span>', page)
    assert settings is not None
    text = settings.group(1)
    assert "ties (rule record, share 0.25, break by none)" in text, text
    assert "{" not in text and "&#39;" not in text and "rank by conservative" in text


def _judged(run, preset: str | None, aggregation: str) -> None:
    """Record in ``run``'s manifest and config which judge scored it."""
    store = RunDir(run)
    manifest = read_manifest(store, StoredSetup(run))
    scorers = {"fluency": {"name": "fluency", "params": {"aggregation": aggregation, "cap": 50.0}},
               "proactivity": {"name": "proactivity", "params": {"unit": "share"}}}
    store.write_manifest(replace(manifest, scorers=scorers))
    if preset:
        cfg = run / "config.yaml"
        cfg.write_text(f"preset: {preset}\n" + cfg.read_text())


def test_the_compare_page_says_which_judge_scored_each_run(two_runs) -> None:
    _judged(two_runs[0], "paper", "authors")
    _judged(two_runs[1], None, "slor")
    page = client(*two_runs).get("/compare/0/1").text
    judges = page[page.index('id="judges"'):page.index('id="moved"')]
    assert re.search(r'id="judge-a">before was judged by preset paper; dimensions d1, ', judges)
    assert re.search(r"id=\"judge-b\">after was judged by chatmatch(&#39;|')s defaults; dimensions d1, ",
                     judges)
    rows = re.findall(r'<tr><td class="name">([^<]+)</td><td class="name">([^<]*)</td>'
                      r'<td class="name">([^<]*)</td></tr>', judges)
    assert rows == [("fluency aggregation", "authors", "slor")]


def test_the_compare_page_of_runs_without_recorded_scorers(two_runs) -> None:
    page = client(*two_runs).get("/compare/0/1").text
    assert "only the dimensions can be compared" in page
    assert "was judged by chatmatch" in page


def test_a_game_page_tags_each_turns_deciding_value(tmp_path) -> None:
    """A real run (fluency on the n-gram LM): the game page shows each turn's SLOR and tags
    the echo bot's turns as degenerate, with why, as `chatmatch show` does."""
    from click.testing import CliRunner

    from chatmatch.cli import cli
    from tests.cli.test_show_explained import YAML

    cfg = tmp_path / "t.yaml"
    cfg.write_text(YAML.format(out=tmp_path / "run"))
    assert CliRunner().invoke(cli, ["run", str(cfg), "--quiet"]).exit_code == 0
    page = client(tmp_path / "run").get("/run/0/game/g001").text
    assert re.search(r"fluency: SLOR -?\d+\.\d\d \(ppl \d", page)
    assert "fluency: degenerate (echo): counted as the least fluent turn" in page
    assert "lower is better" in page

"""Figures and report for a paper: a bot the human file leaves out is marked on the rank
chart and named in a note; the rank chart labels its x axis; the head-to-head colour scale
starts at 0; PNG files at print resolution; report.html has a contents list and links from
every bot name to the list of its games, and from there to each transcript."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from chatmatch.analysis.human import HumanRanking
from chatmatch.analysis.plots import PNG_DPI, head_to_head_chart, plot_run, rank_chart
from chatmatch.analysis.report import build_report
from chatmatch.cli import cli
from chatmatch.run.storedrun import Run
from chatmatch.transcript import make_transcript
from tests.analysis.helpers import won, write_run


@pytest.fixture(scope="module")
def run3(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three bots, each pair twice; every bot scores at least 1 point a game."""
    games, trs = [], []
    for n, (a, b, pa, pb) in enumerate([("alpha", "beta", 4, 1), ("beta", "alpha", 1, 4),
                                        ("alpha", "gamma", 5, 1), ("gamma", "alpha", 1, 5),
                                        ("beta", "gamma", 3, 2), ("gamma", "beta", 2, 3)], 1):
        games.append(won(f"g{n:03d}", a, b, pa, pb))
        trs.append(make_transcript(f"g{n:03d}", (a, b), ["Hi there.", "Hello.", "How are you?"],
                                   seed_first=True))
    return write_run(tmp_path_factory.mktemp("paper") / "run", ["alpha", "beta", "gamma"],
                     games, transcripts=trs)


def test_the_rank_chart_marks_and_names_a_bot_the_humans_left_out(run3, tmp_path: Path) -> None:
    human = HumanRanking("h", {"alpha": 1, "beta": 2})  # no gamma
    plot_run(Run.load(run3), tmp_path, human)
    svg = (tmp_path / "ranks.svg").read_text()
    assert "<!-- gamma * -->" in svg and "<!-- alpha -->" in svg and "<!-- alpha * -->" not in svg
    assert "<!-- * not in the human ranking (no human rank drawn): gamma -->" in svg
    assert "<!-- bot (ordered by the human ranking) -->" in svg  # the x axis is labelled
    full = HumanRanking("h", {"alpha": 1, "beta": 2, "gamma": 3})
    plot_run(Run.load(run3), tmp_path / "full", full)
    assert "not in the human ranking" not in (tmp_path / "full" / "ranks.svg").read_text()


def test_the_rank_chart_without_humans_labels_its_x_axis() -> None:
    fig = rank_chart({"points": {"a": 1.0, "b": 2.0}}, ["a", "b"])
    assert fig.axes[0].get_xlabel() == "bot" and fig.axes[0].get_ylabel() == "rank (1 = best)"


def test_plot_says_which_bot_the_human_file_leaves_out(run3, tmp_path: Path) -> None:
    humans = tmp_path / "humans.yaml"
    humans.write_text("judges:\n  ann: {alpha: 1, beta: 2}\n")
    res = CliRunner().invoke(cli, ["plot", str(run3), "--human", str(humans), "--out",
                                   str(tmp_path / "plots")])
    assert res.exit_code == 0, res.output
    assert "ranks no gamma: marked '*' on the rank chart" in res.stderr


def test_the_head_to_head_colour_scale_starts_at_zero(run3) -> None:
    data = Run.load(run3)
    fig = head_to_head_chart(list(data.results), list(data.bots))
    assert fig.axes[0].images[0].norm.vmin == 0.0
    low = min(r.total[p] for r in data.results for p in r.players)
    assert low > 0  # the games' points alone would start the scale above 0


def test_png_files_are_print_resolution(run3, tmp_path: Path) -> None:
    assert PNG_DPI >= 150
    for p in plot_run(Run.load(run3), tmp_path):
        if p.suffix == ".png":
            with Image.open(p) as img:
                assert round(img.info["dpi"][0]) == PNG_DPI
                assert img.size[0] >= 5 * PNG_DPI  # every figure is at least 5 inches wide


def test_report_has_a_contents_list_and_links_each_bot_name_to_its_games(run3) -> None:
    page = build_report(Run.load(run3), HumanRanking("h", {"alpha": 1, "beta": 2, "gamma": 3}))
    nav = page[page.index("<nav id='contents'>"):page.index("</nav>")]
    anchors = re.findall(r"href='#([\w-]+)'", nav)
    assert anchors[:2] == ["leaderboard", "dimensions"] and "games-by-bot" in anchors
    assert all(f"id='{a}'" in page for a in anchors)
    # every bot name in the leaderboard opens its section of "Games by bot"
    board = page[page.index("id='leaderboard'"):page.index("id='dimensions'")]
    links = dict(re.findall(r"<a class='bot' href='#(bot-\d+)'>(\w+)</a>", board))
    assert sorted(links.values()) == ["alpha", "beta", "gamma"]
    for anchor, bot in links.items():
        section = page[page.index(f"<h3 id='{anchor}'>{bot}</h3>"):]
        section = section[:section.index("</ul>")]
        games = re.findall(r"<li><a href='#(g\d+)-t0'>\1: (\w+) vs (\w+)", section)
        assert len(games) == 4 and all(bot in (a, b) for _, a, b in games)
        assert all(f"id='{g}-t0'" in page for g, _, _ in games)  # each opens its transcript

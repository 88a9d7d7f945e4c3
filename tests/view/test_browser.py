"""``chatmatch view`` in a real headless browser (Debian's chromium through chromium-driver,
driven by selenium) against the real command: leaderboard -> head-to-head cell -> game ->
a tagged turn; a page that picks up the games a concurrent ``chatmatch run`` finishes,
without a reload; two runs compared; hostile names and replies shown as text; every table
of the view and of report.html within a 1,280 px window. The run directories are hashed
before and after: the view never changes them.

CI needs the Debian packages ``chromium`` and ``chromium-driver`` (``make browser``);
without them these tests are skipped, saying so.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.browser import ENV, ROOT, browser, console_errors, needs_chromium, serve
from tests.view.conftest import EVIL_BOT, EVIL_TEXT, fingerprint

pytestmark = needs_chromium

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@contextmanager
def viewer(*args: str) -> Iterator[str]:
    """``chatmatch view ARGS --port 0`` in its own process; yields its URL."""
    with serve("view", *args) as (url, _):
        yield url


def fits(drv: Any, width: int = 1280) -> list[str]:
    """What sticks out of a ``width`` px window: the page itself, or a table's container."""
    out = drv.execute_script("""
        const w = arguments[0], out = [];
        if (document.documentElement.scrollWidth > w) out.push('page ' + document.documentElement.scrollWidth);
        for (const t of document.querySelectorAll('table')) {
          const box = (t.closest('.scroll') || t).getBoundingClientRect();
          if (box.right > w + 1) out.push((t.className || 'table') + ' ' + box.right);
        }
        return out;""", width)
    return list(out)


def widest_table(drv: Any) -> int:
    return int(drv.execute_script(
        "return Math.max(...[...document.querySelectorAll('table')].map(t => t.scrollWidth))"))


def test_leaderboard_to_head_to_head_to_game_to_a_tagged_turn(scripted, tmp_path):
    before = fingerprint(scripted)
    drv = browser(tmp_path / "b")
    try:
        with viewer(str(scripted)) as url:
            drv.get(url)
            assert drv.find_element(By.ID, "progress").text == "12 of 12 games scored"
            rows = drv.find_elements(By.CSS_SELECTOR, "table.leaderboard tbody tr")
            assert len(rows) == 4 and "best" in drv.find_element(By.CSS_SELECTOR, "table.leaderboard").text
            drv.find_element(By.ID, "method-bt").click()  # another method, one click away
            WebDriverWait(drv, 30).until(lambda d: "ci lo" in d.find_element(
                By.CSS_SELECTOR, "table.leaderboard thead").text)
            drv.find_element(By.ID, "tab-h2h").click()
            # a game against dull, whose repeated "ok" scores on diversity (the bots' one
            # question, "What about you?", is generic: no proactivity point, no badge)
            cell = drv.find_element(By.CSS_SELECTOR,
                                    "table.h2h tbody td:not(.name) a[href$='vs=dull']")
            bot = cell.get_attribute("href").split("bot=")[1].split("&")[0]
            cell.click()
            WebDriverWait(drv, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "table.games"))
            assert drv.find_element(By.TAG_NAME, "h1").text.startswith(f"Games of {bot} against ")
            links = drv.find_elements(By.CSS_SELECTOR, "table.games a")
            assert len(links) == 2
            links[0].click()
            WebDriverWait(drv, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "table.turns"))
            verdicts = drv.find_element(By.CSS_SELECTOR, "table.verdicts").text
            assert "proactivity" in verdicts and "is better" in verdicts
            turn = drv.find_element(By.CSS_SELECTOR, "table.verdicts a")  # a turn that scored
            index = turn.text
            turn.click()
            assert drv.current_url.endswith(f"#t{index}")
            row = drv.find_element(By.ID, f"t{index}").find_element(By.XPATH, "..")
            assert row.get_attribute("class") == "scored"
            badge = row.find_element(By.CSS_SELECTOR, ".badge").text
            assert badge.startswith("diversity: repetition of turn "), badge
            drv.set_window_size(1280, 1000)
            for page in ("/run/0/", "/run/0/dimensions", "/run/0/h2h", "/run/0/people"):
                drv.get(url.rstrip("/") + page)
                assert fits(drv) == [], page
            assert console_errors(drv) == []
    finally:
        drv.quit()
    assert fingerprint(scripted) == before


LIVE_YAML = """\
name: live
exchanges: 2
seed: 5
bots:
  - {name: ann, adapter: "tests.scripted:SlowBot", params: {load_s: 15, reply_s: 1.0}}
  - {name: bob, adapter: "tests.scripted:SlowBot", params: {load_s: 15, reply_s: 1.0}}
  - {name: cyd, adapter: "tests.scripted:SlowBot", params: {load_s: 15, reply_s: 1.0}}
scoring:
  dimensions: [proactivity, specificity]
"""


@pytest.mark.slow  # about a minute: the bots take 15 s to load, so the page opens first
def test_live_view_picks_up_games_a_concurrent_run_finishes(tmp_path):
    cfg = tmp_path / "live.yaml"
    cfg.write_text(LIVE_YAML)
    out = tmp_path / "run"
    run = subprocess.Popen([sys.executable, "-m", "chatmatch", "run", str(cfg), "--out", str(out),
                            "--quiet"], cwd=ROOT, env=ENV, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    drv = browser(tmp_path / "b")
    try:
        deadline = time.monotonic() + 120
        while not (out / "manifest.json").exists():
            assert run.poll() is None and time.monotonic() < deadline, "the run did not start"
            time.sleep(0.2)
        with viewer(str(out), "--poll", "0.5") as url:
            drv.get(url)
            first = drv.find_element(By.ID, "progress").text
            assert first.endswith("of 6 games scored"), first
            assert not first.startswith("6 "), "the run finished before the page opened: slow the bots"
            drv.execute_script("window.sameDocument = 'yes'")
            WebDriverWait(drv, 240, poll_frequency=0.5).until(
                lambda d: d.find_element(By.ID, "progress").text != first)
            assert drv.execute_script("return window.sameDocument") == "yes"  # no reload
            assert int(drv.execute_script("return document.body.dataset.refreshed")) >= 1
            assert drv.find_elements(By.CSS_SELECTOR, "table.leaderboard tbody tr")
            assert run.wait(timeout=240) == 0, run.stdout.read() if run.stdout else ""
            WebDriverWait(drv, 30, poll_frequency=0.5).until(
                lambda d: d.find_element(By.ID, "progress").text == "6 of 6 games scored")
            assert console_errors(drv) == []
    finally:
        drv.quit()
        if run.poll() is None:
            run.terminate()
            run.wait(timeout=30)


def test_two_runs_compared_in_the_browser(two_runs, tmp_path):
    before = [fingerprint(r) for r in two_runs]
    drv = browser(tmp_path / "b")
    try:
        with viewer(*map(str, two_runs)) as url:
            drv.get(url)
            drv.find_element(By.ID, "tab-compare").click()
            WebDriverWait(drv, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "table.flipped"))
            flipped = drv.find_elements(By.CSS_SELECTOR, "table.flipped tbody tr")
            assert [r.text.split()[0] for r in flipped] == ["g001", "g002"]
            moved = drv.find_element(By.CSS_SELECTOR, "table.moved").text
            assert re.search(r"\b(up|down) \d", moved)
            flipped[0].find_elements(By.TAG_NAME, "a")[1].click()  # the game in the second run
            WebDriverWait(drv, 30).until(lambda d: "/run/1/game/g001" in d.current_url)
            assert "winner beta" in drv.find_element(By.TAG_NAME, "h1").text
            assert console_errors(drv) == []
    finally:
        drv.quit()
    assert [fingerprint(r) for r in two_runs] == before


def test_hostile_text_is_shown_as_text(hostile_run, tmp_path):
    drv = browser(tmp_path / "b")
    try:
        with viewer(str(hostile_run)) as url:
            for page in ("/run/0/", "/run/0/h2h", "/run/0/games", "/run/0/game/g001"):
                drv.get(url.rstrip("/") + page)
                assert EVIL_BOT in drv.find_element(By.TAG_NAME, "main").text, page
                assert not drv.find_elements(By.CSS_SELECTOR, "main img, main b, main script")
                assert "pwned" not in drv.title
            texts = [e.text for e in drv.find_elements(By.CSS_SELECTOR, "table.turns td.text")]
            assert EVIL_TEXT in texts
            assert console_errors(drv) == []
    finally:
        drv.quit()


def test_report_tables_fit_1280_px(tmp_path):
    """A run wide enough to overflow (12 bots, 7 dimensions: the old report was 1,656 px
    wide on 5 bots): every table stays inside the window, scrolling in its container."""
    from chatmatch.analysis.report import build_report
    from chatmatch.run.storedrun import Run
    from tests.analysis.helpers import won, write_run

    bots = [f"arealllylongbotname{i:02d}" for i in range(12)]
    games = [won(f"g{k:03d}", a, b, (k * 3) % 7, (k * 5) % 7 // 2)
             for k, (a, b) in enumerate(((a, b) for a in bots for b in bots if a != b), 1)]
    run = Run.load(write_run(tmp_path / "wide", bots, games, method="trueskill"))
    page = tmp_path / "report.html"
    page.write_text(build_report(run), encoding="utf-8")
    drv = browser(tmp_path / "b")
    try:
        drv.set_window_size(1280, 1000)
        drv.get(page.as_uri())
        assert drv.execute_script("return window.innerWidth") <= 1280
        assert widest_table(drv) > 1280  # the page really has tables wider than the window
        assert fits(drv) == []
        assert console_errors(drv) == []
        # control: without the scroll containers the same page sticks out of the window
        drv.execute_script("for (const e of document.querySelectorAll('.scroll')) "
                           "e.style.overflowX = 'visible'")
        assert fits(drv) != []
    finally:
        drv.quit()

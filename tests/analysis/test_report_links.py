"""report.html in a real headless browser (Debian's chromium through chromium-driver,
driven by selenium): clicking a bot's name in the leaderboard lands on the list of its
games, and clicking a game there opens its transcript. Skipped, saying so, without
chromium (``make browser``)."""

from __future__ import annotations

from pathlib import Path

from chatmatch.analysis.report import build_report
from chatmatch.run.storedrun import Run
from tests.browser import browser, console_errors, needs_chromium

pytestmark = needs_chromium

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


def in_view(drv, element) -> bool:
    return bool(drv.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        # -1: a heading scrolled to the top can sit a fraction of a pixel above it
        "return r.top >= -1 && r.top < window.innerHeight;", element))


def test_a_bot_name_opens_its_games_and_a_game_its_transcript(scripted_run: Path, tmp_path: Path) -> None:
    data = Run.load(scripted_run)
    page = tmp_path / "report.html"
    page.write_text(build_report(data), encoding="utf-8")
    drv = browser(tmp_path / "profile")
    try:
        drv.get(page.resolve().as_uri())
        name = drv.find_elements(By.CSS_SELECTOR, "table.leaderboard a.bot")[1]  # the 2nd bot
        bot = name.text
        name.click()
        WebDriverWait(drv, 10).until(lambda d: d.execute_script("return location.hash") != "")
        target = drv.execute_script("return location.hash")[1:]
        heading = drv.find_element(By.ID, target)
        assert heading.text == bot and in_view(drv, heading)
        games = heading.find_elements(By.XPATH, "following-sibling::ul[1]/li/a")
        assert len(games) == 6  # four bots: each plays every other twice
        assert all(bot in g.text.split(":")[1] for g in games)
        last = games[-1]  # not g001, whose transcript is the one open at first
        gid = last.text.split(":")[0]
        assert gid != "g001" and drv.find_element(By.ID, f"game-{gid}").get_attribute("open") is None
        last.click()
        WebDriverWait(drv, 10).until(lambda d: d.execute_script("return location.hash") == f"#{gid}-t0")
        WebDriverWait(drv, 10).until(lambda d: d.find_element(By.ID, f"game-{gid}")
                                     .get_attribute("open") is not None)
        assert in_view(drv, drv.find_element(By.ID, f"{gid}-t0"))
        assert console_errors(drv) == []
    finally:
        drv.quit()

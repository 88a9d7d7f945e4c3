"""The annotation page in a real headless browser (Debian's chromium, driven through
chromium-driver by selenium) against the real ``chatmatch annotate`` process: a whole
session with the keyboard, reload and resume, two annotators at once, a server killed with
SIGKILL and started again, then ``compare --annotations`` reads what they stored.

CI needs the Debian packages ``chromium`` and ``chromium-driver`` (``make browser``);
without them these tests are skipped, saying so.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from tests.annotate.conftest import HOSTILE
from tests.browser import ENV, browser, console_errors, needs_chromium, serve

pytestmark = needs_chromium

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@contextmanager
def server(run_dir: Path, *args: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``chatmatch annotate RUN --port 0 ARGS`` in its own process; yields (url, process)."""
    with serve("annotate", str(run_dir), *args) as running:
        yield running


def login(drv: Any, url: str, name: str) -> None:
    drv.get(url)
    drv.find_element(By.ID, "name").send_keys(name + Keys.ENTER)
    WebDriverWait(drv, 30).until(lambda d: d.find_elements(By.ID, "progress"))


def progress(drv: Any) -> str:
    """The page's progress line; read again when the page was replaced while reading it
    (after a save the browser loads the next page under the test's feet)."""
    for _ in range(100):
        try:
            return str(drv.find_element(By.ID, "progress").text)
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise AssertionError("the progress line kept being replaced for 5 s")


def item_id(drv: Any) -> str:
    return str(drv.find_element(By.NAME, "item").get_attribute("value"))


def press(drv: Any, keys: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(drv).send_keys(keys).perform()


def judge_with_keys(drv: Any, keys: str) -> str:
    """Answer every question with ``keys`` (one per question), press Enter, wait for the
    next page; returns the item judged."""
    from selenium.webdriver.support.expected_conditions import staleness_of

    judged, page = item_id(drv), drv.find_element(By.TAG_NAME, "html")
    press(drv, keys)
    assert "All answered" in drv.find_element(By.ID, "status").text
    press(drv, Keys.ENTER)
    WebDriverWait(drv, 30).until(staleness_of(page))
    return judged


def fingerprint(run_dir: Path) -> dict[str, str]:
    """Every file of the run but the annotations, with its hash."""
    return {str(p.relative_to(run_dir)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(run_dir.rglob("*"))
            if p.is_file() and not p.name.startswith("annotations.sqlite")}


def test_whole_session_two_annotators_reload_kill_resume(scripted, tmp_path):
    before = fingerprint(scripted)
    ann, bob = browser(tmp_path / "ann"), browser(tmp_path / "bob")
    try:
        with server(scripted) as (url, proc):
            login(ann, url, "ann")
            assert progress(ann) == "0 of 12 judged"
            assert len(ann.find_elements(By.CSS_SELECTOR, "fieldset.question")) == 5
            # Enter before every question is answered does not submit: it says what is missing
            press(ann, "12" + Keys.ENTER)
            assert "Answer question 3 first" in ann.find_element(By.ID, "status").text
            press(ann, Keys.ARROW_UP + Keys.ARROW_UP)
            mine = [judge_with_keys(ann, "21312")]
            assert "Saved your judgement of game " + mine[0] in ann.find_element(By.ID, "notice").text
            assert progress(ann) == "1 of 12 judged"
            login(bob, url, "bob")  # a second annotator at the same time
            theirs = [judge_with_keys(bob, "11111")]
            mine.append(judge_with_keys(ann, "22222"))
            theirs.append(judge_with_keys(bob, "33333"))
            assert set(mine).isdisjoint(theirs)  # every pair of bots before any pair twice
            current = item_id(ann)
            ann.refresh()  # a reload shows the same game again
            assert item_id(ann) == current and progress(ann) == "2 of 12 judged"
            assert console_errors(ann) == [] and console_errors(bob) == []
            proc.kill()  # SIGKILL: nothing is flushed on the way out
            proc.wait(timeout=30)
        with server(scripted) as (url, _):
            ann.get(url)  # the browser remembers the name: straight back to the same game
            assert progress(ann) == "2 of 12 judged" and item_id(ann) == current
            # judging a game again: the earlier answers are shown and replaced, with a message
            ann.get(url + "judge/" + mine[0])
            assert "You judged this before" in ann.find_element(By.ID, "notice").text
            checked = ann.find_elements(By.CSS_SELECTOR, "input[name=q_overall]:checked")
            assert [c.get_attribute("value") for c in checked] == ["b"]
            judge_with_keys(ann, "11111")
            assert "your new answers replace the earlier ones" in ann.find_element(By.ID, "notice").text
            assert progress(ann) == "2 of 12 judged"
    finally:
        ann.quit()
        bob.quit()
    assert fingerprint(scripted) == before  # the run's own files are never touched
    out = subprocess.run([sys.executable, "-m", "chatmatch", "compare", str(scripted),
                          "--annotations", "--bootstrap", "50"], capture_output=True, text=True,
                         env=ENV, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "4 judgement(s) of 4 item(s) by 2 annotator(s) (ann, bob), 20 answers" in out.stdout
    assert re.search(r"overall\s+4\s+4\s+[+-]\d\.\d{3}\s+\[", out.stdout)


def test_transcript_text_is_escaped_and_pairs_mode_shows_two_games(hostile_run, tmp_path):
    drv = browser(tmp_path / "b")
    try:
        with server(hostile_run, "--show-names") as (url, _):
            login(drv, url, "eve")
            drv.get(url + "judge/g001")
            texts = [e.text for e in drv.find_elements(By.CSS_SELECTOR, ".turn .text")]
            assert HOSTILE in texts  # shown as text, not run as markup
            assert "pwned" not in drv.title and not drv.find_elements(By.CSS_SELECTOR, ".turn b")
            assert console_errors(drv) == []
        with server(hostile_run, "--mode", "pairs", "--show-names",
                    "--dimensions", "none") as (url, _):
            drv.get(url)
            panels = drv.find_elements(By.CSS_SELECTOR, ".panel")
            assert len(panels) == 2
            assert "Speaker A (" in panels[0].text and "partner (" in panels[0].text
            assert len(drv.find_elements(By.CSS_SELECTOR, "fieldset.question")) == 1
            before = progress(drv)
            drv.find_element(By.CSS_SELECTOR, "input[name=q_overall][value=tie]").click()
            drv.find_element(By.ID, "save").click()  # the mouse works too
            WebDriverWait(drv, 30).until(lambda d: progress(d) != before)
            assert progress(drv) == "1 of 3 judged"
    finally:
        drv.quit()

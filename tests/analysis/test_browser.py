"""The HTML report in a real headless browser (Debian's chromium): it renders, the
screenshot is not blank, and the page logs nothing to the console.

CI needs the Debian package ``chromium`` (``apt-get install -y chromium``); without
/usr/bin/chromium these tests are skipped.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from chatmatch.analysis.human import load_human
from chatmatch.analysis.report import build_report
from chatmatch.run.storedrun import Run

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium not found; "
                                "install Debian's chromium package (apt-get install -y chromium)")
_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
          "--disable-background-networking", "--disable-component-update", "--disable-sync",
          "--enable-logging=stderr", "--v=0"]


def chromium(page: Path, tmp: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CHROMIUM), *_FLAGS, f"--user-data-dir={tmp / 'profile'}", *extra,
                           page.resolve().as_uri()], capture_output=True, text=True, timeout=120)


def console_messages(stderr: str) -> list[str]:
    """What the page wrote to the console (chromium logs it as INFO:CONSOLE lines)."""
    return [line for line in stderr.splitlines() if re.search(r":CONSOLE(\(\d+\))?:", line)]


def test_console_capture_catches_script_errors(tmp_path):
    """Negative control: a page with a script error is caught by the same check."""
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><html><body><script>undefinedFn();</script></body></html>")
    proc = chromium(bad, tmp_path, "--dump-dom")
    assert any("Uncaught ReferenceError" in m for m in console_messages(proc.stderr))


def test_report_renders_without_console_errors(scripted_run, human_file, tmp_path):
    import matplotlib.image as mpimg

    data = Run.load(scripted_run)
    page = tmp_path / "report.html"
    page.write_text(build_report(data, load_human(human_file, data.bots)), encoding="utf-8")
    shot = tmp_path / "report.png"
    proc = chromium(page, tmp_path, f"--screenshot={shot}", "--window-size=1280,2000")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert console_messages(proc.stderr) == []
    img = mpimg.imread(shot)
    assert img.shape[:2] == (2000, 1280)
    assert img[..., :3].std() > 0.05  # not a blank page
    dom = chromium(page, tmp_path, "--dump-dom")
    assert console_messages(dom.stderr) == []
    assert "Leaderboard" in dom.stdout and "Agreement with humans" in dom.stdout
    assert dom.stdout.count("<details") == len(data.results)

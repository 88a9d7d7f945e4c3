"""Take the README's screenshots of ``chatmatch view`` (headless Debian chromium, selenium):

    .venv/bin/python docs/img/view_screenshot.py RUN_DIR

writes docs/img/view-leaderboard.png and docs/img/view-game.png (1,100 x 700 px)."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

HERE = Path(__file__).parent


def main(run_dir: str) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "chatmatch", "view", run_dir, "--port", "0"],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        url = next(m.group(1) for line in proc.stdout if (m := re.search(r"Open (http://\S+)", line)))
        opts = webdriver.ChromeOptions()
        opts.binary_location = "/usr/bin/chromium"
        with tempfile.TemporaryDirectory() as profile:
            for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                         "--window-size=1100,700", f"--user-data-dir={profile}"):
                opts.add_argument(flag)
            drv = webdriver.Chrome(options=opts, service=Service("/usr/bin/chromedriver"))
            try:
                drv.get(url)
                drv.save_screenshot(str(HERE / "view-leaderboard.png"))
                drv.get(url.rstrip("/") + "/run/0/game/g001")
                drv.save_screenshot(str(HERE / "view-game.png"))
            finally:
                drv.quit()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    main(sys.argv[1])

"""What the browser tests of ``chatmatch annotate`` and ``chatmatch view`` share: Debian's
headless chromium driven through chromium-driver by selenium (skipped, saying so, when
either is missing: ``make browser``), a page's console errors, and a ``chatmatch`` page
server started in its own process."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

CHROMIUM = Path("/usr/bin/chromium")
DRIVER = Path("/usr/bin/chromedriver")
ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed "
                                "(pip install 'chatmatch[test]')")
#: ``pytestmark = needs_chromium`` in a browser test module
needs_chromium = pytest.mark.skipif(
    not (CHROMIUM.exists() and DRIVER.exists()),
    reason="/usr/bin/chromium or /usr/bin/chromedriver not found; install Debian's chromium "
           "and chromium-driver packages (make browser)")


def browser(tmp: Path) -> Any:
    """A headless chromium with its own profile folder ``tmp``, keeping the console log."""
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000",
                 f"--user-data-dir={tmp}"):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=opts, service=Service(str(DRIVER)))


def console_errors(drv: Any) -> list[str]:
    return [e["message"] for e in drv.get_log("browser") if e["level"] == "SEVERE"]


@contextmanager
def serve(*args: str, wait_s: float = 120) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``chatmatch ARGS --port 0`` (``annotate RUN``, ``view RUN``) in its own process;
    yields (the URL it prints, the process) and stops it after."""
    proc = subprocess.Popen([sys.executable, "-m", "chatmatch", *args, "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV)
    try:
        assert proc.stdout is not None
        seen = []
        deadline = time.monotonic() + wait_s
        for line in proc.stdout:
            seen.append(line)
            m = re.search(r"Open (http://\S+)", line)
            if m:
                yield m.group(1), proc
                break
            assert time.monotonic() < deadline, "".join(seen)
        else:
            raise AssertionError(f"chatmatch {args[0]} stopped: " + "".join(seen))
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=30)

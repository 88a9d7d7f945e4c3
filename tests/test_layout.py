"""The tests mirror the package and name promises, and the docs name what the code has:
a test folder for every package of chatmatch/, no test file named after a round of work,
every bot capability listed in docs/bots.md."""

from __future__ import annotations

import re
from pathlib import Path

from chatmatch.bot import CAPABILITIES

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_has_a_test_folder():
    packages = {p.parent.name for p in (ROOT / "chatmatch").glob("*/__init__.py")}
    missing = sorted(p for p in packages if not (ROOT / "tests" / p).is_dir())
    assert packages and not missing, f"packages without tests/<name>/: {missing}"


def test_no_test_file_is_named_after_a_round():
    history = re.compile(r"attack|round\d|round_?(one|two|three|four)|stop\d|issue\d|_after_merge")
    named = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("test_*.py")
                   if history.search(p.stem))
    assert not named, named


def test_docs_list_every_bot_capability():
    interface = (ROOT / "docs" / "bots.md").read_text().split("## The interface", 1)[1].split("```")[1]
    listed = re.findall(r"^\s+(\w+): (?:ClassVar\[bool\]|int) = ", interface, re.M)
    assert sorted(listed) == sorted(CAPABILITIES)

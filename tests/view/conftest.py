"""Runs to view: the scripted four-bot run of the analysis tests (12 games, real scorers),
a small hand-built run whose names and replies are hostile HTML, and two runs of the same
bots in which some games flipped."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from chatmatch.transcript import make_transcript
from tests.runs import scripted, scripted_template  # noqa: F401 (fixtures)
from tests.analysis.helpers import game, won, write_run

#: a bot name and a reply that would run script if a page wrote them unescaped
EVIL_BOT = "<img src=x onerror=\"document.title='pwned'\">"
EVIL_TEXT = "<b>bold</b><script>document.title='pwned'</script> & \"quotes\""


@pytest.fixture
def hostile_run(tmp_path: Path) -> Path:
    """Three bots, one named with HTML, six games whose replies hold HTML and script."""
    bots = ["x", EVIL_BOT, "z"]
    results, transcripts = [], []
    pairs = [("x", EVIL_BOT), (EVIL_BOT, "x"), ("x", "z"), ("z", "x"), (EVIL_BOT, "z"), ("z", EVIL_BOT)]
    for i, (a, b) in enumerate(pairs):
        gid = f"g{i + 1:03d}"
        results.append(game(gid, a, b, a_wins=("d1",), dims=("d1", "d2")))
        texts = ["What did you do last week?", EVIL_TEXT, "Which one?", EVIL_TEXT]
        transcripts.append(make_transcript(gid, (a, b), texts, seed_first=True))
    return write_run(tmp_path / "hostile", bots, results, transcripts=transcripts)


@pytest.fixture
def two_runs(tmp_path: Path) -> tuple[Path, Path]:
    """The same six games of three bots, scored twice: in the second, g001 and g002 flip."""
    bots = ["alpha", "beta", "gamma"]
    first = [won("g001", "alpha", "beta", 5, 1), won("g002", "beta", "alpha", 1, 5),
             won("g003", "alpha", "gamma", 4, 2), won("g004", "gamma", "alpha", 2, 4),
             won("g005", "beta", "gamma", 4, 3), won("g006", "gamma", "beta", 3, 4)]
    second = [won("g001", "alpha", "beta", 1, 5), won("g002", "beta", "alpha", 5, 1), *first[2:]]
    return (write_run(tmp_path / "before", bots, first, method="points"),
            write_run(tmp_path / "after", bots, second, method="points"))


def fingerprint(run_dir: Path) -> dict[str, str]:
    """Every file and folder of the run with its hash (folders: their entries)."""
    out = {}
    for p in sorted(run_dir.rglob("*")):
        key = str(p.relative_to(run_dir))
        out[key] = (hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file()
                    else ",".join(sorted(x.name for x in p.iterdir())))
    return out

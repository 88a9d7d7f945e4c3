"""Runs to judge: the scripted four-bot run of the analysis tests (12 games), and a small
hand-built run whose transcripts hold HTML and script text."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import pytest

from chatmatch.annotate.items import Item
from chatmatch.annotate.store import Judgement
from chatmatch.transcript import make_transcript
from tests.runs import scripted, scripted_template  # noqa: F401 (fixtures)
from tests.analysis.helpers import game, write_run

HOSTILE = "<b>bold</b><script>document.title='pwned'</script> & \"quotes\""


@pytest.fixture
def hostile_run(tmp_path: Path) -> Path:
    """Three bots, six games, one of whose turns is HTML with a script."""
    bots = ["x", "y", "z"]
    results, transcripts = [], []
    for i, (a, b) in enumerate([("x", "y"), ("y", "x"), ("x", "z"), ("z", "x"), ("y", "z"),
                                ("z", "y")]):
        gid = f"g{i + 1:03d}"
        results.append(game(gid, a, b, a_wins=("d1",), dims=("d1", "d2")))
        texts = ["What did you do last week?", HOSTILE if i == 0 else "I read a book.",
                 "Which one?", "A long one."]
        transcripts.append(make_transcript(gid, (a, b), texts, seed_first=True))
    return write_run(tmp_path / "hostile", bots, results, transcripts=transcripts)


def judgement(annotator: str, item: str, a: str, b: str, answer: str,
              question: str = "overall") -> Judgement:
    return Judgement(annotator, item, question, item, a, item, b, answer, "t", "t")


def items_of(pairs: Sequence[tuple[str, str]]) -> list[Item]:
    from chatmatch.annotate.items import Side

    return [Item(f"g{i:03d}", Side(f"g{i:03d}", a), Side(f"g{i:03d}", b))
            for i, (a, b) in enumerate(pairs, 1)]

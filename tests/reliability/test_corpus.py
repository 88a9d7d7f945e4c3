"""Every case of the hostile-input corpus (``corpus.py``) gets its exit status, a message
holding the expected text, no traceback, and the row docs/appendix/reliability-corpus.md shows for it."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Iterator

import pytest

from tests.reliability.corpus import CASES, Case, docs_rows, make_base, row, run_case

REGENERATE = "run `python -m tests.reliability.corpus --write-docs` and commit docs/appendix/reliability-corpus.md"


@pytest.fixture(scope="module")
def base() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="chatmatch-corpus-") as d:
        make_base(Path(d))
        yield Path(d)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_hostile_input_gets_its_exit_status_and_one_clear_line(base: Path, case: Case) -> None:
    out = run_case(case, base)
    assert out.exception is None or isinstance(out.exception, SystemExit), repr(out.exception)
    assert "Traceback" not in out.output, out.output
    assert out.exit_code == case.exit, out.output
    msg = out.message(case)
    assert case.matches(msg), out.output
    if case.exit == 2:
        assert msg.startswith(("error:", "Error:")), out.output
    assert docs_rows().get(case.id) == row(case, msg, out.exit_code), \
        f"docs/appendix/reliability-corpus.md is out of date for {case.id}: {REGENERATE}"


def test_docs_table_lists_every_case_and_no_other() -> None:
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    documented = docs_rows()
    assert sorted(set(ids) - set(documented)) == [], f"cases missing from the docs: {REGENERATE}"
    assert sorted(set(documented) - set(ids)) == [], f"rows without a case in the docs: {REGENERATE}"

"""Every bad input of the catalogue in ``bad_inputs.py`` gets exit status 2, a message with
the expected text, and no traceback (the table in docs/reliability.md is generated from
the same catalogue)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Iterator

import pytest

from tests.reliability.bad_inputs import (TRANSCRIPT_FILES, Case, available_cases, make_base,
                                          run_case, transcript_file_message)


@pytest.fixture(scope="module")
def base() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="chatmatch-bad-") as d:
        make_base(Path(d))
        yield Path(d)


@pytest.mark.parametrize("case", available_cases(), ids=lambda c: f"{c.group}: {c.what}")
def test_bad_input_gets_a_clear_message_and_exit_2(base: Path, case: Case) -> None:
    out = run_case(case, base)
    assert out.exception is None or isinstance(out.exception, SystemExit), repr(out.exception)
    assert out.exit_code == 2, out.output
    assert "Traceback" not in out.output
    assert case.expect in out.output, out.output
    assert out.message.startswith(("error:", "Error:")), out.output


@pytest.mark.parametrize("what, name, content, expect", TRANSCRIPT_FILES, ids=[t[0] for t in TRANSCRIPT_FILES])
def test_bad_transcript_file_gets_a_transcript_error(tmp_path: Path, what: str, name: str,
                                                     content: str | bytes, expect: str) -> None:
    pytest.importorskip("chatmatch.importers")
    msg = transcript_file_message(tmp_path, name, content)
    assert msg.startswith(name), msg  # names the file (and the line where there is one)
    assert expect in msg, msg

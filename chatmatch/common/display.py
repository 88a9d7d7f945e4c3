"""The one rule for text that chatmatch shows or writes for other programs.

* :func:`shown`: any text shown on a terminal, in an error message, the HTML report or the
  annotation page (a bot's reply, a seed utterance, a category, a name read from a file):
  control characters other than newline (ESC sequences, BEL, NUL) and the bidirectional
  controls that reorder what follows them (U+202E RIGHT-TO-LEFT OVERRIDE and its kin) are
  shown escaped (``\\x1b``, ``\\u202e``); the stored text keeps them as they came.
* :func:`csv_text`: every CSV chatmatch writes (``rankings/*.csv``, ``--export``): a text
  cell that a spreadsheet would run as a formula (it starts with ``=``, ``+``, ``-``, ``@``,
  a tab or a carriage return) is written with a leading ``'``, as spreadsheet-safe
  exporters do (OWASP, "CSV injection"); numbers are written as numbers.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from typing import Any, Iterable, Sequence

#: bidirectional controls: they reorder the text after them, so a name can read as another
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")
#: first characters that make a spreadsheet read a cell as a formula
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def shown(text: str) -> str:
    """``text`` safe to show (see the module docstring)."""
    return "".join(ascii(c)[1:-1] if (c != "\n" and unicodedata.category(c) == "Cc")
                   or c in BIDI_CONTROLS else c for c in text)


def csv_cell(value: Any) -> Any:
    """``value`` as a CSV cell: a text that starts like a formula gets a leading ``'``
    (a plain number such as ``-0.5`` or ``-1e-05`` is a number, not a formula)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """The CSV document of ``header`` and ``rows`` (``\\n`` line ends), cells neutralised."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([csv_cell(h) for h in header])
    w.writerows([csv_cell(c) for c in row] for row in rows)
    return buf.getvalue()

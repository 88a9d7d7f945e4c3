"""Plain-text tables for the terminal: numbers right-aligned, text left-aligned.

Used by the commands' output (chatmatch.cli) and by the reports of the robustness suite
and the validity lab, which must not depend on the CLI.
"""

from __future__ import annotations

from typing import Any, Collection, Mapping, Sequence

from chatmatch.common.display import shown


def fmt(v: Any) -> str:
    """A float with 2 decimals; one that is not 0 but would print as 0.00 (points of 1e-7)
    with 2 significant digits, so that values that order a table never print equal."""
    if isinstance(v, float):
        return f"{v:.2g}" if v != 0 and abs(v) < 0.005 else f"{v:.2f}"
    return str(v)


def fmt_estimate(e: Mapping[str, Any]) -> str:
    """An estimate ``{"value", "low", "high"}`` as ``+0.53 [+0.07, +0.64]``: ``n/a`` without
    a value, the value alone without an interval."""
    if e["value"] is None:
        return "n/a"
    if e["low"] is None:
        return f"{e['value']:+.2f}"
    return f"{e['value']:+.2f} [{e['low']:+.2f}, {e['high']:+.2f}]"


def _numeric(cell: str) -> bool:
    """Numbers are right-aligned, text left-aligned."""
    try:
        float(cell.rstrip("%x"))
        return True
    except ValueError:
        return cell in ("-", "")


def one_line(cell: str) -> str:
    """``cell`` on one line: a line break, a tab or another control character inside it
    (a file name can hold one) is written as its escape (``\\n``), so a row stays a row."""
    if cell.isprintable():
        return cell
    return shown(cell).replace("\n", "\\n")


def render_table(headers: Sequence[str], rows: Sequence[Sequence[Any]], left: int = 0,
                 text: Collection[int] = ()) -> str:
    """``rows`` under ``headers``, columns two spaces apart, a dashed line under the
    headers; numbers (:func:`_numeric`) right-aligned, text left-aligned, and the first
    ``left`` columns and the columns ``text`` (labels: a bot named ``-1`` is text, not a
    number) always left-aligned."""
    cells = [[one_line(fmt(c)) for c in r] for r in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h)
              for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    sep = "  ".join("-" * w for w in widths)
    labels = set(range(left)) | set(text)
    body = ["  ".join(c.rjust(w) if i not in labels and _numeric(c) else c.ljust(w)
                      for i, (c, w) in enumerate(zip(r, widths)))
            for r in cells]
    return "\n".join([line, sep, *body])


def line_up_ranks(rows: Sequence[Sequence[Any]], header: str = "rank") -> list[list[Any]]:
    """``rows`` whose first cell is a rank label (``2=`` for a shared rank, as
    :func:`chatmatch.ranking.base.rank_labels` makes them), padded so that the digits of
    ``1`` and ``2=`` line up (right-aligned under ``header``)."""
    if not any(str(row[0]).endswith("=") for row in rows):
        return [list(row) for row in rows]
    cells = [str(row[0]) if str(row[0]).endswith("=") else f"{row[0]} " for row in rows]
    width = max(len(header), *(len(c) for c in cells))
    return [[c.rjust(width), *row[1:]] for c, row in zip(cells, rows)]

"""Plain-text tables for the terminal."""

from __future__ import annotations

from typing import Any, Sequence

from chatmatch.ranking import Ranking

def fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.2f}"
    return str(v)


def _numeric(cell: str) -> bool:
    """Numbers are right-aligned, text left-aligned."""
    try:
        float(cell.rstrip("%x"))
        return True
    except ValueError:
        return cell in ("-", "")


def render_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    cells = [[fmt(c) for c in r] for r in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h)
              for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    sep = "  ".join("-" * w for w in widths)
    body = ["  ".join(c.rjust(w) if _numeric(c) else c.ljust(w) for c, w in zip(r, widths))
            for r in cells]
    return "\n".join([line, sep, *body])


def ranking_table(r: Ranking, marks: dict[str, str] | None = None) -> str:
    """``marks``: text put after a bot's name (e.g. forfeits over the limit)."""
    headers, rows = r.leaderboard()
    marks = marks or {}
    rows = [[rank, f"{bot} {marks[bot]}" if bot in marks else bot, *rest]
            for rank, bot, *rest in rows]
    title = f"Ranking by {r.method}"
    if r.method == "trueskill":
        m = r.meta
        title += (f" ({m.get('shuffles')} shuffles, ranked by "
                  f"{'mu - %g*sigma' % m.get('k', 3) if m.get('rank_by') == 'conservative' else 'mu'})")
    elif r.method == "points":
        title += f" (win/tie/loss = {r.meta.get('win'):g}/{r.meta.get('tie'):g}/{r.meta.get('loss'):g})"
    foot = f"based on {r.games} game(s)"
    if not r.complete:
        foot += f" of {r.expected_games} scheduled: INCOMPLETE, run again to finish"
    return f"{title}\n{render_table(headers, rows)}\n{foot}"

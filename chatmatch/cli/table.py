"""Plain-text tables for the terminal."""

from __future__ import annotations

from typing import Any, Sequence

from chatmatch.ranking import Ranking

_COLUMNS = {
    "trueskill": [("mu", "mu"), ("sigma", "sigma"), ("conservative", "mu-k*sigma"),
                  ("rank_min", "best"), ("rank_max", "worst")],
    "points": [("match_points", "pts"), ("matches_won", "mW"), ("matches_tied", "mT"),
               ("matches_lost", "mL")],
    "bt": [("log_strength", "log p"), ("ci_low", "ci lo"), ("ci_high", "ci hi"),
           ("rank_ci_low", "best"), ("rank_ci_high", "worst")],
    "elo": [("elo", "elo"), ("ci_low", "ci lo"), ("ci_high", "ci hi"),
            ("rank_ci_low", "best"), ("rank_ci_high", "worst")],
}
_GAMES = [("won", "W"), ("tied", "T"), ("lost", "L"), ("game_points", "game pts")]


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
    extra = _COLUMNS.get(r.method, [])
    headers = ["rank", "bot", *[h for _, h in extra], *[h for _, h in _GAMES]]
    marks = marks or {}
    rows = [[row.rank, f"{row.bot} {marks[row.bot]}" if row.bot in marks else row.bot,
             *[row.stats.get(k, "") for k, _ in extra],
             *[row.stats.get(k, "") for k, _ in _GAMES]] for row in r.rows]
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

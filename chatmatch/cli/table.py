"""Plain-text tables for the terminal."""

from __future__ import annotations

from chatmatch.ranking import Ranking
from chatmatch.tables import render_table

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

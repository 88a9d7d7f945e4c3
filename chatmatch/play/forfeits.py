"""Forfeits made visible: which bot forfeited which games, and why.

A forfeited game is scored as a loss on every dimension (see
:mod:`chatmatch.scoring.points`), so a bot's rank then says more about its failures
(a dead endpoint, timeouts) than about its conversations. ``chatmatch run`` prints
:func:`render` at the end, marks the bots over ``failures.max_forfeit_share`` in the
leaderboard and exits with :class:`ForfeitError` (status 3) unless ``--allow-forfeits``;
``--replay-forfeits`` plays the forfeited games again once the cause is fixed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from chatmatch.errors import ChatmatchError
from chatmatch.records import GameResult

#: the leaderboard mark of a bot over the limit
MARK = "(!)"


class ForfeitError(ChatmatchError):
    """A run where a bot forfeited more games than ``failures.max_forfeit_share`` allows."""

    exit_code = 3


@dataclass(frozen=True)
class BotForfeits:
    bot: str
    games: tuple[str, ...]  # forfeited game ids
    of: int  # games of this bot that were scored
    reasons: tuple[tuple[str, int], ...]  # distinct reasons, most frequent first

    @property
    def share(self) -> float:
        return len(self.games) / self.of if self.of else 0.0


def summarize(results: Iterable[GameResult]) -> list[BotForfeits]:
    """Bots that forfeited at least one game, in the order of their first forfeit."""
    played: Counter[str] = Counter()
    games: dict[str, list[str]] = {}
    reasons: dict[str, Counter[str]] = {}
    for r in results:
        played.update(r.players)
        if r.forfeit:
            bot = r.forfeit.bot
            games.setdefault(bot, []).append(r.game_id)
            reason = r.forfeit.reason.replace(f"BotError: bot '{bot}': ", "", 1)
            reasons.setdefault(bot, Counter())[_short(reason)] += 1
    return [BotForfeits(b, tuple(g), played[b], tuple(reasons[b].most_common()))
            for b, g in games.items()]


def over_limit(summary: Sequence[BotForfeits], max_share: float) -> list[str]:
    return [f.bot for f in summary if f.share > max_share]


def _short(reason: str, limit: int = 160) -> str:
    reason = " ".join(reason.split())
    return reason if len(reason) <= limit else reason[:limit - 3] + "..."


def render(summary: Sequence[BotForfeits], max_share: float) -> str:
    """The end-of-run forfeit summary (empty when nothing was forfeited)."""
    if not summary:
        return ""
    lines = [f"Forfeits (a forfeit is a loss on every dimension; limit "
             f"failures.max_forfeit_share = {max_share:.0%}):"]
    for f in summary:
        flag = f" {MARK} over the limit" if f.share > max_share else ""
        games = ", ".join(f.games[:6]) + (", ..." if len(f.games) > 6 else "")
        lines.append(f"  {f.bot}: {len(f.games)}/{f.of} games ({f.share:.0%}){flag}: {games}")
        for reason, n in f.reasons[:3]:
            lines.append(f"    {n} x {reason}")
    return "\n".join(lines)


def error(bots: Sequence[str], max_share: float, config_file: str) -> ForfeitError:
    return ForfeitError(
        f"{len(bots)} bot(s) forfeited more than {max_share:.0%} of their games "
        f"({', '.join(bots)}), so the ranking reflects failures; fix the cause, then run "
        f"`chatmatch run {config_file} --replay-forfeits`, or accept the forfeits with "
        "--allow-forfeits (the limit is failures.max_forfeit_share)")

"""The games bar of ``chatmatch run``: counts turns, not only finished games.

Games played side by side (``concurrent_games``) advance in lock-step and all end at the
same moment, so a bar of finished games stands still for most of a run. The bar counts
the bot turns produced across all games instead: every bot is wrapped in
:class:`CountingBot`, which records, per game, the highest turn index answered (a retried
turn is counted once); a game that ends early (a forfeit) is counted in full when it ends.
"""

from __future__ import annotations

import threading
from typing import Mapping, Sequence

from chatmatch.bot import Bot, BotWrapper, History
from chatmatch.play.schedule import ScheduledGame
from chatmatch.progress import Bar
from chatmatch.transcript import Transcript


class PlayProgress:
    """Turns and games done, shown on ``bar`` (whose unit is turns)."""

    def __init__(self, bar: Bar, games: Sequence[ScheduledGame], exchanges: int,
                 games_done: int, games_total: int) -> None:
        self.bar = bar
        self.per_game = 2 * exchanges - 1  # bot turns in a game (turn 0 is the seed)
        self.turns: dict[str, int] = {g.game_id: 0 for g in games}
        self.games_done, self.games_total = games_done, games_total
        self._lock = threading.Lock()
        bar.set_total(self.per_game * len(games))
        self._show()

    def add(self, games: Sequence[ScheduledGame]) -> None:
        """More games to play (the next round of a budgeted schedule)."""
        with self._lock:
            self.turns.update({g.game_id: 0 for g in games if g.game_id not in self.turns})
            self.bar.set_total(self.per_game * len(self.turns))
        self._show()

    def wrap(self, bots: Mapping[str, Bot]) -> dict[str, Bot]:
        return {n: CountingBot(b, self) for n, b in bots.items()}

    def answered(self, histories: Sequence[History]) -> None:
        with self._lock:
            for h in histories:
                if h.game_id in self.turns and h.turn_index > self.turns[h.game_id]:
                    self.turns[h.game_id] = min(h.turn_index, self.per_game)
        self._show()

    def finished(self, tr: Transcript) -> None:
        with self._lock:
            self.turns[tr.game_id] = self.per_game
            self.games_done += 1
        self._show()

    def _show(self) -> None:
        self.bar.update(sum(self.turns.values()),
                        detail=f"{self.games_done}/{self.games_total} games")


class CountingBot(BotWrapper):
    """Passes every call to ``inner`` and tells :class:`PlayProgress` what was answered."""

    def __init__(self, inner: Bot, progress: PlayProgress) -> None:
        super().__init__(inner)
        self.progress = progress

    def reply(self, history: History) -> str:
        text = self.inner.reply(history)
        self.progress.answered([history])
        return text

    def reply_batch(self, histories: Sequence[History]) -> list[str]:
        texts = self.inner.reply_batch(histories)
        self.progress.answered(histories)
        return texts

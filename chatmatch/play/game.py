"""Playing games: the two-bot loop, the failure policy, and batching across games.

A game is the seed utterance (turn 0, on behalf of the starter) followed by the bots
taking turns until the game has ``2 * exchanges`` turns. The loop for one game is simply::

    while not game.done:
        speaker = game.next_speaker
        game.add(bots[speaker].reply(game.history_for(speaker)))

:func:`play_games` runs that loop for up to ``concurrent`` games at once, step by step: at
each step the games waiting on the same bot are answered together, with one
``reply_batch`` call when the bot ``supports_batch`` (one forward pass for many games), or
from a thread pool when the bot is ``thread_safe`` (HTTP endpoints). The order of calls, and
so the transcripts of deterministic bots, do not depend on ``concurrent``.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence

from chatmatch.bot import Bot, History, Message
from chatmatch.config.settings import FailurePolicy
from chatmatch.errors import BotError
from chatmatch.play.botcall import clean_text, exception_text, is_blank, reply_call
from chatmatch.play.schedule import ScheduledGame, derive_seed
from chatmatch.records import Forfeit
from chatmatch.transcript import Transcript, Turn

log = logging.getLogger(__name__)

#: one accepted reply: (text, seconds the call took, a note such as ``{"truncated_from": n}``
#: or ``{"retries": k}``, else None)
Reply = tuple[str, float, dict[str, object] | None]


class BotFailure(BotError):
    """A bot failed on a turn even after the retries the policy allows."""

    def __init__(self, bot: str, game_id: str, turn: int, reason: str) -> None:
        self.bot, self.game_id, self.turn, self.reason = bot, game_id, turn, reason
        super().__init__(f"bot '{bot}' failed in game {game_id} at turn {turn}: {reason}")


@dataclass
class GameState:
    """A game in progress."""

    game: ScheduledGame
    total_turns: int
    turns: list[Turn] = field(default_factory=list)
    notes: list[dict[str, object]] = field(default_factory=list)
    forfeit: Forfeit | None = None

    #: each player's view of the game so far, kept as turns are added (not rebuilt per turn)
    views: dict[str, list[Message]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not self.turns:
            self.turns.append(Turn(0, self.game.starter, self.game.seed_utterance, 0.0, seed=True))
        self.views = {p: [Message("self" if t.speaker == p else "partner", t.text)
                          for t in self.turns] for p in self.game.players}

    @property
    def done(self) -> bool:
        return self.forfeit is not None or len(self.turns) >= self.total_turns

    @property
    def next_speaker(self) -> str:
        return self.game.players[len(self.turns) % 2]

    def history_for(self, speaker: str) -> History:
        msgs = tuple(self.views[speaker])
        idx = len(self.turns)
        return History(msgs, self.game.seed_utterance, self.game.game_id, idx,
                       derive_seed(self.game.random_seed, idx))

    def add(self, text: str, seconds: float) -> None:
        speaker = self.next_speaker
        self.turns.append(Turn(len(self.turns), speaker, text, seconds))
        for p, view in self.views.items():
            view.append(Message("self" if p == speaker else "partner", text))

    def transcript(self) -> Transcript:
        meta: dict[str, object] = {"match_id": self.game.match_id,
                                   "random_seed": self.game.random_seed}
        if self.notes:
            meta["notes"] = list(self.notes)
        return Transcript(self.game.game_id, self.game.players, tuple(self.turns),
                          self.game.seed_utterance, meta, self.forfeit)


class _Lane:
    """Where one bot's calls run when a time limit applies.

    Every call gets its own daemon thread, so a call that is given up on (timeout) is
    abandoned where it is: it holds no pool thread another bot needs, and it cannot keep
    the process from exiting. A bot that is not ``thread_safe`` still gets one call at a
    time: a new call waits, within its own time limit, until the abandoned one returns;
    so a hung bot forfeits its own later turns, never another bot's.
    """

    def __init__(self, bot: Bot) -> None:
        self.name = bot.name
        self.lock = None if bot.thread_safe else threading.Lock()

    def call(self, fn: Callable[[], object], timeout_s: float) -> object:
        box: dict[str, object] = {}
        errors: list[BaseException] = []
        done, abandoned = threading.Event(), threading.Event()

        def run() -> None:
            if self.lock is not None:
                self.lock.acquire()
            try:
                if not abandoned.is_set():  # the caller may have given up while we waited
                    box["value"] = fn()
            except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
                errors.append(exc)
            finally:
                if self.lock is not None:
                    self.lock.release()
                done.set()

        threading.Thread(target=run, name=f"chatmatch-bot-{self.name}", daemon=True).start()
        if not done.wait(timeout_s):
            abandoned.set()
            raise TimeoutError(f"no reply within {timeout_s:g} s")
        if errors:
            raise errors[0]
        return box.get("value")


class _Caller:
    """Applies the failure policy to bot calls: timeout, retries, empty/huge replies.

    The time limit is per bot (see :class:`_Lane`). A bot that retries by itself
    (``retries_inside``, e.g. ``openai-chat``) is not called again by the engine after an
    exception or a timeout: one retry layer, not two multiplied together.
    """

    def __init__(self, policy: FailurePolicy) -> None:
        self.policy = policy
        self.lanes: dict[str, _Lane] = {}
        self._lanes_lock = threading.Lock()

    def _timed(self, bot: Bot, fn: Callable[[], object]) -> object:
        if self.policy.timeout_s is None:
            return fn()
        with self._lanes_lock:
            lane = self.lanes.setdefault(bot.name, _Lane(bot))
        return lane.call(fn, self.policy.timeout_s)

    def check(self, text: object) -> tuple[str, dict[str, object] | None]:
        if not isinstance(text, str):
            raise TypeError(f"reply must be a str, got {type(text).__name__}")
        text = clean_text(text)  # lone surrogates -> U+FFFD: a transcript is UTF-8
        if is_blank(text) and not self.policy.allow_empty:
            raise ValueError("empty reply (nothing visible in it)" if text else "empty reply")
        if len(text) > self.policy.max_chars:
            return text[: self.policy.max_chars], {"truncated_from": len(text)}
        return text, None

    def one(self, bot: Bot, state: GameState) -> Reply:
        speaker = state.next_speaker
        history = state.history_for(speaker)
        last, attempts = "", 0
        for attempt in range(self.policy.retries + 1):
            attempts = attempt + 1
            t0 = time.perf_counter()
            try:
                raw = self._timed(bot, lambda: reply_call(lambda: bot.reply(history)))
            except Exception as exc:  # noqa: BLE001 - any bot failure is handled by policy
                last = _reason(exc)
                log.warning("bot '%s', game %s, turn %d: %s", speaker, state.game.game_id,
                            len(state.turns), last)
                if bot.retries_inside:
                    break
                continue
            try:
                text, note = self.check(raw)
            except Exception as exc:  # noqa: BLE001
                last = _reason(exc)
                continue
            note = dict(note or {})
            if attempt:
                note["retries"] = attempt
            return text, time.perf_counter() - t0, note or None
        tries = ("the engine called it once: the bot retries inside" if bot.retries_inside
                 and attempts == 1 else f"after {attempts} attempt(s)")
        raise BotFailure(speaker, state.game.game_id, len(state.turns), f"{last} ({tries})")

    def batch(self, bot: Bot, states: Sequence[GameState]) -> list[Reply | BotFailure]:
        histories = [s.history_for(s.next_speaker) for s in states]
        t0 = time.perf_counter()
        try:
            texts = self._timed(bot, lambda: reply_call(lambda: bot.reply_batch(histories)))
            if not isinstance(texts, list) or len(texts) != len(states):
                raise ValueError("reply_batch returned the wrong number of replies")
            checked = [self.check(t) for t in texts]
        except Exception:  # noqa: BLE001 - fall back to single calls, which attribute blame
            return [_safe_one(self, bot, s) for s in states]
        per = (time.perf_counter() - t0) / len(states)
        return [(text, per, note) for text, note in checked]


def _reason(exc: BaseException) -> str:
    return exception_text(exc)


OnFinished = Callable[[Transcript], None]


def play_games(games: Iterable[ScheduledGame], bots: Mapping[str, Bot], exchanges: int,
               policy: FailurePolicy, *, concurrent: int = 1,
               on_finished: OnFinished | None = None) -> list[Transcript]:
    """Play ``games``; call ``on_finished`` with each transcript as soon as it ends.

    A bot failure forfeits that game (recorded in ``Transcript.forfeit``) or, with
    ``on_failure: abort``, raises :class:`BotFailure` after the games that already ended
    were handed to ``on_finished``.
    """
    pending = list(games)
    pending.reverse()
    active: list[GameState] = []
    done: list[Transcript] = []
    total_turns = 2 * exchanges
    caller = _Caller(policy)
    # the pool only fans out the calls of one thread-safe bot; each call's time limit runs
    # on that bot's own threads (see _Lane), so a hung call never holds a pool thread
    with ThreadPoolExecutor(max_workers=max(2, min(32, concurrent))) as pool:
        while pending or active:
            while pending and len(active) < concurrent:
                active.append(GameState(pending.pop(), total_turns))
            _step(active, bots, caller, pool, policy)
            still = []
            for st in active:
                if st.done:
                    tr = st.transcript()
                    done.append(tr)
                    if on_finished:
                        on_finished(tr)
                else:
                    still.append(st)
            active = still
    return done


def _step(active: list[GameState], bots: Mapping[str, Bot], caller: _Caller,
          pool: ThreadPoolExecutor, policy: FailurePolicy) -> None:
    waiting: dict[str, list[GameState]] = {}
    for st in active:
        if not st.done:
            waiting.setdefault(st.next_speaker, []).append(st)
    for name, states in waiting.items():
        bot = bots[name]
        outs: list[Reply | BotFailure]
        if bot.supports_batch and len(states) > 1:
            outs = list(caller.batch(bot, states))
        elif bot.thread_safe and len(states) > 1:
            outs = list(pool.map(lambda s: _safe_one(caller, bot, s), states))
        else:
            outs = [_safe_one(caller, bot, s) for s in states]
        for st, out in zip(states, outs):
            if isinstance(out, BotFailure):
                if policy.on_failure == "abort":
                    raise out
                st.forfeit = Forfeit(out.bot, out.reason, str(out.turn))
                continue
            text, seconds, note = out
            if note:
                st.notes.append({"turn": len(st.turns), **note})
            st.add(text, seconds)


def _safe_one(caller: _Caller, bot: Bot, st: GameState) -> Reply | BotFailure:
    try:
        return caller.one(bot, st)
    except BotFailure as exc:
        return exc

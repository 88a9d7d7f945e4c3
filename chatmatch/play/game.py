"""Playing games: the two-bot loop, the failure policy, and batching across games.

A game is the seed utterance (turn 0, on behalf of the starter) followed by the bots
taking turns until the game has ``2 * exchanges`` turns. The loop for one game is simply::

    while not game.done:
        speaker = game.next_speaker
        game.add(bots[speaker].reply(game.history_for(speaker)))

:func:`play_games` runs that loop for up to ``concurrent`` games at once, step by step: at
each step the games waiting on the same bot are answered together, with one
``reply_batch`` call when the bot ``supports_batch`` (one forward pass for many games), or
from a thread pool when the bot is ``thread_safe`` (HTTP endpoints). The calls do not wait
for the whole step before them: each starts, in its own thread, as soon as its games have
their previous turns (:class:`_Flow`), so the bots of one step answer side by side, and a
bot that declares ``parallel_calls: 2`` (a model on a CPU of several cores) generates its
batches of two consecutive steps at once (it speaks in different games at each). What
each call holds and each bot's order of calls, and so the transcripts of deterministic
bots, do not depend on that overlap nor on timing.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Callable, Iterable, Mapping, Sequence, cast

from chatmatch.bot import Bot, History, Message
from chatmatch.config.settings import FailurePolicy
from chatmatch.errors import BotError
from chatmatch.play.botcall import (clean_text, exception_text, is_blank, may_pass, reply_call,
                                    report_failure)
from chatmatch.play.schedule import ScheduledGame, derive_seed
from chatmatch.records import Forfeit
from chatmatch.transcript import Transcript, Turn


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
    #: the step of :func:`play_games` at which the game's turn 1 is played
    first_step: int = 0
    #: the step at which it was forfeited
    forfeit_step: int | None = None

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

    @property
    def last_step(self) -> int:
        """The step of the game's last turn, if it is not forfeited."""
        return self.first_step + self.total_turns - 2

    def turn_at(self, step: int) -> int:
        return step - self.first_step + 1

    def speaker_at(self, step: int) -> str:
        return self.game.players[self.turn_at(step) % 2]

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
    time (``parallel_calls`` at a time): a new call waits, within its own time limit, until
    the abandoned one returns; so a hung bot forfeits its own later turns, never another
    bot's.
    """

    def __init__(self, bot: Bot) -> None:
        self.name = bot.name
        self.lock = (None if bot.thread_safe
                     else threading.BoundedSemaphore(max(1, bot.parallel_calls)))

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
        last, attempts, settled = "", 0, False
        for attempt in range(self.policy.retries + 1):
            attempts = attempt + 1
            more = attempt < self.policy.retries
            t0 = time.perf_counter()
            try:
                raw = self._timed(bot, lambda: reply_call(lambda: bot.reply(history)))
            except Exception as exc:  # noqa: BLE001 - any bot failure is handled by policy
                last = _reason(exc)
                again = more and not bot.retries_inside and (may_pass(exc) or not bot.deterministic)
                report_failure(speaker, state.game.game_id, len(state.turns), attempts, exc, again)
                settled = more and not again and not bot.retries_inside
                if again:
                    continue
                break
            try:
                text, note = self.check(raw)
            except Exception as exc:  # noqa: BLE001
                last = _reason(exc)
                settled = more and bot.deterministic
                if settled:
                    break  # a deterministic bot answers the same history the same way
                continue
            note = dict(note or {})
            if attempt:
                note["retries"] = attempt
            return text, time.perf_counter() - t0, note or None
        raise BotFailure(speaker, state.game.game_id, len(state.turns),
                         f"{last} ({_tries(bot, attempts, settled)})")

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


def _tries(bot: Bot, attempts: int, settled: bool) -> str:
    """How often a failed turn was tried, for the forfeit reason."""
    if bot.retries_inside and attempts == 1:
        return "the engine called it once: the bot retries inside"
    if settled:
        return ("after 1 attempt; not retried: the bot is deterministic and the failure is "
                "not a timeout or connection error, so the same history fails the same way")
    return f"after {attempts} attempt(s)"


OnFinished = Callable[[Transcript], None]


def play_games(games: Iterable[ScheduledGame], bots: Mapping[str, Bot], exchanges: int,
               policy: FailurePolicy, *, concurrent: int = 1,
               on_finished: OnFinished | None = None) -> list[Transcript]:
    """Play ``games``; call ``on_finished`` with each transcript as soon as it ends.

    A bot failure forfeits that game (recorded in ``Transcript.forfeit``) or, with
    ``on_failure: abort``, raises :class:`BotFailure` after the games that already ended
    were handed to ``on_finished``.
    """
    caller = _Caller(policy)
    # the pool only fans out the calls of one thread-safe bot; each call's time limit runs
    # on that bot's own threads (see _Lane), so a hung call never holds a pool thread
    with ThreadPoolExecutor(max_workers=max(2, min(32, concurrent))) as pool:
        flow = _Flow(list(games), bots, 2 * exchanges, concurrent, caller, pool, policy,
                     on_finished)
        flow.run()
    return flow.done


@dataclass(eq=False)
class _Task:
    """The call of one bot at one step: the games of that step where it speaks, in the
    order of the step's games (the forfeited ones are left out when it starts)."""

    step: int
    bot: str
    games: list[GameState]


class _Flow:
    """The game loop of :func:`play_games` (see the module docstring).

    Step by step, in the order of ``games``: at step ``s`` the games in flight (at most
    ``concurrent``; a game's turn 1 is at the step it entered) each take one turn, and
    the games where the same bot speaks are one call of that bot (:class:`_Task`). A
    game that ended by its length leaves at the next step, a forfeited game one step
    later, and the next games enter in their place. What a step holds is fixed by the
    steps before it, never by timing; so is every call.

    The calls run in daemon threads as soon as they can: when the games of the call have
    their previous turns, when the bot's own earlier calls are done (the calls of each
    bot keep the order of the steps), and when the games that leave at the step are
    known (so a call may start while a slow call of the step before is still running).
    A bot with ``parallel_calls`` > 1 (a model on a CPU of several cores) may run that
    many of its calls at once: at steps ``s`` and ``s + 1`` it speaks in different games,
    so two of its batches overlap while their partners answer. Finished games are handed
    to ``on_finished`` step by step, in the order of the step's games.
    """

    def __init__(self, games: list[ScheduledGame], bots: Mapping[str, Bot], total_turns: int,
                 concurrent: int, caller: _Caller, pool: ThreadPoolExecutor, policy: FailurePolicy,
                 on_finished: OnFinished | None) -> None:
        self.pending: deque[ScheduledGame] = deque(games)
        self.bots, self.total_turns, self.concurrent = bots, total_turns, max(1, concurrent)
        self.caller, self.pool, self.policy, self.on_finished = caller, pool, policy, on_finished
        self.steps: list[list[GameState]] = []  # the games of each step, in order
        self.open: list[int] = []  # the calls of each step not finished yet
        self.queues: dict[str, deque[_Task]] = {}  # each bot's calls, in step order
        self.running: dict[str, int] = {}  # each bot's calls in flight
        self.results: queue.Queue[tuple[_Task, list[GameState], object]] = queue.Queue()
        self.handed = 0  # steps whose finished games were handed over (all calls done)
        self.ended = False  # no step is left to plan
        self.error: BaseException | None = None
        self.done: list[Transcript] = []
        self._threads = 0

    # --- the steps ----------------------------------------------------------------------
    def _plan(self) -> None:
        """Make the next steps whose games are known: step s once every call of the steps
        up to s - 2 is done (a game forfeited at s - 2 leaves at s)."""
        while not self.ended and len(self.steps) <= self.handed + 1:
            s = len(self.steps)
            prev = self.steps[-1] if self.steps else []
            games = [g for g in prev if g.last_step >= s
                     and (g.forfeit_step is None or g.forfeit_step >= s - 1)]
            while self.pending and len(games) < self.concurrent:
                games.append(GameState(self.pending.popleft(), self.total_turns, first_step=s))
            if not games:
                self.ended = True
                return
            tasks: dict[str, _Task] = {}
            for g in games:  # one forfeited at s - 1 is left out when the call starts
                name = g.speaker_at(s)
                tasks.setdefault(name, _Task(s, name, [])).games.append(g)
            self.steps.append(games)
            self.open.append(len(tasks))
            for name, task in tasks.items():
                self.queues.setdefault(name, deque()).append(task)
            self._hand_over()  # a step without calls (its games all forfeited) is done

    def _advance(self) -> None:
        """Plan the steps that can be planned and start the calls that can start, until
        nothing changes (a call without games ends its step at once)."""
        while True:
            before = (len(self.steps), self.handed, self._threads)
            self._plan()
            self._launch()
            if (len(self.steps), self.handed, self._threads) == before:
                return

    def _ready(self, task: _Task) -> bool:
        return all(g.forfeit is not None or len(g.turns) == g.turn_at(task.step)
                   for g in task.games)

    def _launch(self) -> None:
        for name, tasks in self.queues.items():
            bot = self.bots[name]
            while (tasks and self.error is None and self._ready(tasks[0])
                   and self.running.get(name, 0) < max(1, bot.parallel_calls)):
                task = tasks.popleft()
                states = [g for g in task.games if g.forfeit is None]
                if not states:
                    self._finish(task)
                    continue
                self.running[name] = self.running.get(name, 0) + 1
                self._threads += 1
                threading.Thread(target=self._call, args=(task, states),
                                 name=f"chatmatch-bot-step-{self._threads}", daemon=True).start()

    def _call(self, task: _Task, states: list[GameState]) -> None:
        try:
            out: object = _answer(self.caller, self.bots[task.bot], states, self.pool)
        except BaseException as exc:  # noqa: BLE001 - handed to the game loop
            out = exc
        self.results.put((task, states, out))

    def _apply(self, task: _Task, states: list[GameState], out: object) -> None:
        self.running[task.bot] -= 1
        if isinstance(out, BaseException):
            self.error = self.error or out
        elif self.error is None:
            for st, reply in zip(states, cast("list[Reply | BotFailure]", out)):
                if isinstance(reply, BotFailure):
                    if self.policy.on_failure == "abort":
                        self.error = reply
                        break
                    st.forfeit = Forfeit(reply.bot, reply.reason, str(reply.turn))
                    st.forfeit_step = task.step
                    continue
                text, seconds, note = reply
                if note:
                    st.notes.append({"turn": len(st.turns), **note})
                st.add(text, seconds)
        self._finish(task)

    def _finish(self, task: _Task) -> None:
        self.open[task.step] -= 1
        self._hand_over()

    def _hand_over(self) -> None:
        """Hand over the games that ended at each step whose calls are all done, in order."""
        while self.error is None and self.handed < len(self.steps) and not self.open[self.handed]:
            s = self.handed
            for g in self.steps[s]:
                if g.forfeit_step == s or (g.forfeit is None and g.last_step == s):
                    tr = g.transcript()
                    self.done.append(tr)
                    if self.on_finished:
                        self.on_finished(tr)
            self.handed += 1

    def run(self) -> None:
        """Play every game; the first error (a bot failure with ``on_failure: abort``, an
        exception of a call or of ``on_finished``) is raised once the calls in flight have
        returned, and no call starts after it. Ctrl-C is raised at once."""
        try:
            self._advance()
            while any(self.running.values()) or (self.error is None and not self._over()):
                if not any(self.running.values()):
                    raise RuntimeError("play_games: no call can start (a bug in the game loop)")
                try:
                    item = self.results.get(timeout=0.2)  # a timed wait lets Ctrl-C through
                except queue.Empty:
                    continue
                try:
                    self._apply(*item)
                except Exception as exc:  # noqa: BLE001 - on_finished failed: stop, then raise
                    self.error = self.error or exc
                if self.error is None:
                    self._advance()
        finally:
            self.ended = True
        if self.error is not None:
            raise self.error

    def _over(self) -> bool:
        return self.ended and self.handed >= len(self.steps)


def _answer(caller: _Caller, bot: Bot, states: list[GameState],
            pool: ThreadPoolExecutor) -> list[Reply | BotFailure]:
    """The replies of ``bot`` to the games in ``states`` (one batch, the pool for a
    thread-safe bot, else one call after another)."""
    if bot.supports_batch and len(states) > 1:
        return list(caller.batch(bot, states))
    if bot.thread_safe and len(states) > 1:
        return list(pool.map(lambda s: _safe_one(caller, bot, s), states))
    return [_safe_one(caller, bot, s) for s in states]


def _safe_one(caller: _Caller, bot: Bot, st: GameState) -> Reply | BotFailure:
    try:
        return caller.one(bot, st)
    except BotFailure as exc:
        return exc

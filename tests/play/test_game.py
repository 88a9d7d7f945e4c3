import threading

import pytest

from chatmatch.bot import Bot, History
from chatmatch.config.settings import FailurePolicy
from chatmatch.play.game import BotFailure, play_games
from chatmatch.play.schedule import ScheduledGame, double_round_robin
from tests.scripted import BatchBot, CountingBot, FlakyBot, RecordingBot


def _games(names, seeds=("What did you do last week?",)):
    return double_round_robin(names, list(seeds), 0)


@pytest.mark.parametrize("exchanges", [1, 2, 5])
def test_game_length_alternation_and_seed_turn(exchanges):
    bots = {"a": RecordingBot("a"), "b": RecordingBot("b")}
    out = play_games(_games(["a", "b"]), bots, exchanges, FailurePolicy())
    assert len(out) == 2
    for tr in out:
        assert len(tr.turns) == 2 * exchanges
        assert [t.index for t in tr.turns] == list(range(2 * exchanges))
        assert tr.turns[0].seed and tr.turns[0].text == "What did you do last week?"
        assert tr.turns[0].speaker == tr.players[0]
        assert not any(t.seed for t in tr.turns[1:])
        for t in tr.turns:
            assert t.speaker == tr.players[t.index % 2]
            assert t.seconds >= 0


def test_each_bot_sees_the_conversation_from_its_own_side():
    a, b = RecordingBot("a"), RecordingBot("b")
    games = [g for g in _games(["a", "b"]) if g.starter == "a"]
    play_games(games, {"a": a, "b": b}, 3, FailurePolicy())
    first_b = b.seen[0]
    assert [m.role for m in first_b.messages] == ["partner"]
    assert first_b.messages[0].text == "What did you do last week?"
    first_a = a.seen[0]  # a's first reply comes at turn 2
    assert [m.role for m in first_a.messages] == ["self", "partner"]
    assert first_a.turn_index == 2 and first_a.last_partner_text == "b says 1"
    assert first_a.seed_utterance == "What did you do last week?"


def test_batched_and_sequential_play_give_identical_transcripts():
    def run(concurrent):
        bots = {n: BatchBot(n) for n in "abc"}
        return play_games(_games(list("abc")), bots, 4, FailurePolicy(),
                          concurrent=concurrent), bots

    seq, _ = run(1)
    par, bots = run(6)
    strip = lambda trs: [(t.game_id, [(x.speaker, x.text) for x in t.turns]) for t in trs]
    assert sorted(strip(seq)) == sorted(strip(par))
    assert max(max(b.batch_sizes) for b in bots.values()) > 1  # batching really happened


def test_on_finished_gets_every_game_as_it_ends():
    seen = []
    play_games(_games(list("abc")), {n: CountingBot(n) for n in "abc"}, 2, FailurePolicy(),
               concurrent=2, on_finished=lambda tr: seen.append(tr.game_id))
    assert sorted(seen) == [g.game_id for g in _games(list("abc"))]


def test_retry_recovers_from_a_transient_failure():
    out = play_games(_games(["ok", "flaky"])[:1], {"ok": CountingBot("ok"),
                     "flaky": FlakyBot("flaky", mode="raise_once")}, 3, FailurePolicy(retries=1))
    tr = out[0]
    assert tr.forfeit is None
    assert {n["retries"] for n in tr.meta["notes"]} == {1}


def test_persistent_failure_forfeits_with_reason():
    out = play_games(_games(["ok", "bad"])[:1], {"ok": CountingBot("ok"),
                     "bad": FlakyBot("bad", mode="raise")}, 3, FailurePolicy(retries=2))
    f = out[0].forfeit
    assert f is not None and f.bot == "bad"
    assert f.reason == ("RuntimeError: model exploded (after 1 attempt; not retried: the bot is "
                        "deterministic and the failure is not a timeout or connection error, so "
                        "the same history fails the same way)")


def test_abort_policy_raises_after_finished_games_were_handed_over():
    finished = []
    bots = {"ok": CountingBot("ok"), "late": FlakyBot("late", mode="raise_after", after=2)}
    with pytest.raises(BotFailure, match="bot 'late' failed in game g002"):
        play_games(_games(["ok", "late"]), bots, 2, FailurePolicy(retries=0, on_failure="abort"),
                   on_finished=lambda tr: finished.append(tr.game_id))
    assert finished == ["g001"]


def test_empty_reply_is_a_failure_unless_allowed():
    bots = {"ok": CountingBot("ok"), "e": FlakyBot("e", mode="empty")}
    out = play_games(_games(["ok", "e"])[:1], bots, 2, FailurePolicy(retries=0))
    assert out[0].forfeit.reason.startswith("ValueError: empty reply")
    out = play_games(_games(["ok", "e"])[:1], bots, 2, FailurePolicy(allow_empty=True))
    assert out[0].forfeit is None


def test_huge_reply_is_truncated_and_recorded():
    bots = {"ok": CountingBot("ok"), "h": FlakyBot("h", mode="huge")}
    tr = play_games(_games(["ok", "h"])[:1], bots, 1, FailurePolicy(max_chars=100))[0]
    assert len(tr.turns[1].text) == 100
    assert tr.meta["notes"] == [{"turn": 1, "truncated_from": 50000}]


def test_timeout_counts_as_failure():
    bots = {"ok": CountingBot("ok"), "s": FlakyBot("s", mode="hang")}
    try:
        tr = play_games(_games(["ok", "s"])[:1], bots, 1,
                        FailurePolicy(retries=0, timeout_s=0.05))[0]
    finally:
        bots["s"].release.set()
    assert tr.forfeit.reason.startswith("TimeoutError: no reply within 0.05 s")


def test_a_hung_bot_never_delays_or_blames_another():
    import threading

    hang = FlakyBot("hang", mode="hang")  # not thread-safe
    bots = {"hang": hang, "a": CountingBot("a"), "b": CountingBot("b")}
    out: list = []
    # in a thread, so that a queue stuck behind the hung bot fails the test instead of
    # hanging it (the hung bot is released only after the games are over)
    player = threading.Thread(target=lambda: out.extend(play_games(
        _games(["hang", "a", "b"]), bots, 3, FailurePolicy(retries=1, timeout_s=0.3),
        concurrent=6)), daemon=True)
    player.start()
    player.join(timeout=60)
    stuck = player.is_alive()
    hang.release.set()
    assert not stuck, "play_games is stuck behind the hung bot"
    forfeits = {tr.game_id: tr.forfeit for tr in out}
    assert len(out) == 6
    for tr in out:
        if "hang" in tr.players:
            assert forfeits[tr.game_id].bot == "hang"
        else:
            assert forfeits[tr.game_id] is None and len(tr.turns) == 6
    # the abandoned call keeps the not-thread-safe bot busy: its later calls wait (inside
    # their own limit) instead of running beside it; nobody else waits on it
    assert hang.count == 1


def test_a_bot_that_retries_inside_is_not_retried_again():
    class Inside(FlakyBot):
        retries_inside = True

    bots = {"ok": CountingBot("ok"), "r": Inside("r", mode="raise")}
    tr = play_games(_games(["ok", "r"])[:1], bots, 2, FailurePolicy(retries=3))[0]
    assert tr.forfeit.reason == ("RuntimeError: model exploded (the engine called it once: "
                                 "the bot retries inside)")


def test_abandoned_calls_do_not_keep_the_process_alive(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    script = tmp_path / "hang.py"
    script.write_text(
        "from chatmatch.config.settings import FailurePolicy\n"
        "from chatmatch.play.game import play_games\n"
        "from chatmatch.play.schedule import double_round_robin\n"
        "from tests.scripted import CountingBot, FlakyBot\n"
        "class Hang(FlakyBot):\n"
        "    thread_safe = True\n"
        "games = double_round_robin(['h', 'a'], ['Hi?'], 0)\n"
        "out = play_games(games, {'h': Hang('h', mode='hang'), 'a': CountingBot('a')}, 2,\n"
        "                 FailurePolicy(retries=0, timeout_s=0.2), concurrent=2)\n"
        "print(sorted(tr.forfeit.bot for tr in out))\n")
    root = Path(__file__).resolve().parents[2]
    res = subprocess.run([sys.executable, str(script)], cwd=root, capture_output=True, text=True,
                         timeout=60, env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})
    assert res.returncode == 0, res.stderr
    # a process kept alive by the hung call would run into the 60 s timeout
    assert res.stdout.strip() == "['h', 'h']"


class _Meeting(Bot):
    """Replies only when its partner bot is called at the same time (a two-party barrier)."""

    barrier = threading.Barrier(2, timeout=10)

    def reply(self, history: History) -> str:
        self.barrier.wait()
        return f"{self.name} met"


def test_the_bots_waiting_at_a_step_are_called_side_by_side():
    _Meeting.barrier = threading.Barrier(2, timeout=10)
    games = [ScheduledGame("g001", 1, "x", "a", "Hi", 1), ScheduledGame("g002", 2, "y", "b", "Hi", 2)]
    bots = {"x": CountingBot("x"), "y": CountingBot("y"), "a": _Meeting("a"), "b": _Meeting("b")}
    out = play_games(games, bots, 1, FailurePolicy(retries=0), concurrent=2)
    assert [(tr.forfeit, tr.turns[1].text) for tr in out] == [(None, "a met"), (None, "b met")]


def test_side_by_side_calls_give_the_transcripts_of_calls_one_after_another():
    names = ["a", "b", "c", "d"]
    one = play_games(_games(names), {n: CountingBot(n) for n in names}, 3, FailurePolicy(),
                     concurrent=1)
    many = play_games(_games(names), {n: CountingBot(n) for n in names}, 3, FailurePolicy(),
                      concurrent=8)
    def texts(out):
        return sorted((t.game_id, [(x.speaker, x.text) for x in t.turns]) for t in out)
    assert texts(one) == texts(many)


class _TwoAtOnce(BatchBot):
    """A batched bot that declares ``parallel_calls = 2``; its first two calls wait for each
    other (they return only if the game loop really runs them at the same time)."""

    parallel_calls = 2

    def __init__(self, name: str = "") -> None:
        super().__init__(name)
        self.meet = threading.Barrier(2, timeout=10)
        self.calls = 0
        self._lock = threading.Lock()

    def reply_batch(self, histories):
        with self._lock:
            self.calls += 1
            self.batch_sizes.append(len(histories))
            first_two = self.calls <= 2
        if first_two:
            self.meet.wait()  # broken (an error) if the second call does not come meanwhile
        return [f"{self.name}: {len(h.messages)} {h.last_partner_text[:12]}" for h in histories]

    def reply(self, history):
        return self.reply_batch([history])[0]


@pytest.mark.parametrize("timeout_s", [None, 30.0])
def test_a_bot_with_parallel_calls_generates_two_steps_at_once(timeout_s):
    """The batches of two consecutive steps of a ``parallel_calls: 2`` bot overlap (it
    speaks in other games at each), with and without a time limit (its lane lets two
    calls in); the transcripts and every other bot's calls are those of one call at a time."""
    def run(bot):
        partners = {"r": RecordingBot("r"), "s": RecordingBot("s")}
        out = play_games(_games(["m", "r", "s"]), {"m": bot, **partners}, 4,
                         FailurePolicy(retries=0, timeout_s=timeout_s), concurrent=6)
        return ([(t.game_id, t.forfeit, [(x.speaker, x.text) for x in t.turns]) for t in out],
                {n: [(h.game_id, h.turn_index, h.messages) for h in b.seen]
                 for n, b in partners.items()}, sorted(bot.batch_sizes))

    overlapped = run(_TwoAtOnce("m"))
    serial_bot = _TwoAtOnce("m")
    serial_bot.parallel_calls, serial_bot.calls = 1, 2  # no meeting: one call at a time
    assert overlapped == run(serial_bot)
    assert all(forfeit is None for _, forfeit, _ in overlapped[0])
    assert overlapped[2][-1] == 2  # batches of two games (one per game it plays at a step)


def test_games_and_calls_do_not_depend_on_the_overlap():
    """Four bots, one of them batched with ``parallel_calls: 2``, a forfeit on the way:
    what each call holds and each bot's order of calls are those of the serial loop."""
    def run(parallel):
        bots = {"m": BatchBot("m"), "r": RecordingBot("r"), "s": RecordingBot("s"),
                "f": FlakyBot("f", mode="raise_after", after=3)}
        bots["m"].parallel_calls = 2 if parallel else 1
        out = play_games(_games(list("mrsf")), bots, 3, FailurePolicy(retries=0), concurrent=5)
        calls = {n: [(h.game_id, h.turn_index) for h in b.seen] for n, b in bots.items()
                 if type(b) is RecordingBot}  # one call at a time: in the loop's order
        batches = sorted(bots["m"].batch_sizes)  # two at once: in either order
        return ([(t.game_id, str(t.forfeit), [(x.speaker, x.text) for x in t.turns]) for t in out],
                calls, batches)

    serial = run(False)
    assert any(forfeit != "None" for _, forfeit, _ in serial[0])  # the forfeit happened
    for _ in range(3):
        assert run(True) == serial

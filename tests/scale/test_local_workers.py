"""The local executor: same transcripts whatever ``workers`` and ``concurrent_games``;
shared bot objects; stateful bots called by one thread at a time; errors stop all workers."""

from __future__ import annotations

import sys

import pytest

from chatmatch.config.settings import FailurePolicy
from chatmatch.errors import ChatmatchError
from chatmatch.executors import ExecutorError, make_executor
from chatmatch.executors.local import SerialBot, play_parallel
from chatmatch.play.fingerprint import play_fingerprint
from chatmatch.play.game import BotFailure
from chatmatch.play.schedule import double_round_robin
from chatmatch.run.tournament import run_tournament
from tests.scale.common import make_cfg, ranking_file, transcript_files
from tests.scripted import BatchBot, CountingBot, FlakyBot, SlowBot


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("ref")
    s = run_tournament(make_cfg(tmp, "run", extra="concurrent_games: 1\nworkers: 1\n"))
    assert s.games_played == 12
    return tmp / "run"


@pytest.mark.parametrize("extra", [
    "concurrent_games: 8\n",                       # one loop, batching across games
    "concurrent_games: 5\nworkers: 2\n",           # uneven chunks over two threads
    "concurrent_games: 12\nworkers: 4\n",
    "concurrent_games: 1\nworkers: 3\n",           # one game per thread
])
def test_same_seed_gives_identical_run_whatever_the_parallelism(tmp_path, reference, extra):
    s = run_tournament(make_cfg(tmp_path, "run", extra=extra))
    assert s.games_played == 12 and s.games_scored == 12
    assert transcript_files(tmp_path / "run") == transcript_files(reference)
    assert ranking_file(tmp_path / "run") == ranking_file(reference)


def test_workers_share_one_object_per_bot_and_batch_within_their_share():
    names = ["a", "b", "c"]
    batcher = BatchBot("a")
    bots = {"a": batcher, "b": CountingBot("b"), "c": CountingBot("c")}
    games = double_round_robin(names, ["Hi"], 0)
    seen: list[str] = []
    play_parallel(games, bots, 3, FailurePolicy(), concurrent=6, workers=2,
                  on_finished=lambda tr: seen.append(tr.game_id))
    assert sorted(seen) == sorted(g.game_id for g in games)
    # the single BatchBot object served every turn of its 4 games: 2 + 3 turns per pair
    assert len(batcher.seen) == 10
    assert {h.game_id for h in batcher.seen} == {g.game_id for g in games if "a" in g.players}
    assert max(batcher.batch_sizes) >= 2  # games of one thread's share went in one batch


def test_stateful_bots_are_called_by_one_thread_at_a_time_while_others_overlap():
    SlowBot.reset()
    bots = {n: SlowBot(n, reply_s=0.004) for n in "abcd"}
    games = double_round_robin(list(bots), ["Hi"], 0)
    play_parallel(games, bots, 4, FailurePolicy(), concurrent=4, workers=4,
                  on_finished=lambda tr: None)
    assert all(b.peak_self == 1 for b in bots.values())  # SerialBot's lock held
    assert SlowBot.peak_all >= 2  # but different bots worked at the same time
    SlowBot.reset()
    play_parallel(games, bots, 4, FailurePolicy(), concurrent=4, workers=1,
                  on_finished=lambda tr: None)
    assert SlowBot.peak_all == 1  # one loop: one bot call at a time


def test_serial_bot_keeps_capabilities():
    wrapped = SerialBot(BatchBot("x"))
    assert wrapped.supports_batch and wrapped.thread_safe and wrapped.name == "x"
    assert wrapped.reply_batch([]) == []


def test_abort_in_one_worker_stops_all_and_raises():
    bots = {"ok": CountingBot("ok"), "bad": FlakyBot("bad", mode="raise_after", after=3),
            "c": CountingBot("c")}
    games = double_round_robin(list(bots), ["Hi"], 0)
    seen: list[str] = []
    with pytest.raises(BotFailure, match="bad"):
        play_parallel(games, bots, 3, FailurePolicy(retries=0, on_failure="abort"),
                      concurrent=2, workers=2, on_finished=lambda tr: seen.append(tr.game_id))
    assert len(seen) < len(games)


def test_error_in_on_finished_stops_the_other_workers_at_once():
    bots = {n: CountingBot(n) for n in "abcd"}
    games = double_round_robin(list(bots), ["Hi"], 0)
    seen: list[str] = []

    def finished(tr):
        seen.append(tr.game_id)
        if len(seen) == 3:
            raise KeyError("disk full")

    with pytest.raises(KeyError, match="disk full"):
        play_parallel(games, bots, 2, FailurePolicy(), concurrent=4, workers=4, on_finished=finished)
    assert len(seen) == 3  # nothing handed over after the failure


def test_parallel_run_resumes(tmp_path, reference):
    cfg = make_cfg(tmp_path, "run", extra="concurrent_games: 4\nworkers: 2\n")

    class Stop(Exception):
        pass

    def progress(done, total):
        if done == 5:
            raise Stop()

    with pytest.raises(Stop):
        run_tournament(cfg, progress=progress)
    assert len(transcript_files(tmp_path / "run")) == 5
    s = run_tournament(cfg)
    assert s.games_played == 7
    assert transcript_files(tmp_path / "run") == transcript_files(reference)


def test_ray_executor_without_ray_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    cfg = make_cfg(tmp_path, "run", extra="executor: ray\n")
    with pytest.raises(ExecutorError, match=r"pip install 'chatmatch\[ray\]'") as info:
        run_tournament(cfg)
    assert isinstance(info.value, ChatmatchError)
    assert not (tmp_path / "run" / "transcripts").exists()


def test_executor_settings_do_not_change_what_is_played(tmp_path):
    base = make_cfg(tmp_path, "a")
    other = make_cfg(tmp_path, "a", extra="executor: ray\nworkers: 3\nconcurrent_games: 2\n"
                                          "ray: {num_cpus: 2, gpus_per_bot: 0.5, actors: all}\n")
    assert other.executor == "ray" and other.workers == 3 and other.ray.gpus_per_bot == 0.5
    assert play_fingerprint(base) == play_fingerprint(other)
    assert make_executor(base).__class__.__name__ == "LocalExecutor"


@pytest.mark.parametrize("extra,message", [
    ("executor: spark\n", "executor"),
    ("workers: 0\n", "workers"),
    ("ray: {gpu_per_bot: 1}\n", "did you mean 'gpus_per_bot'"),
    ("ray: {actors: some}\n", "ray.actors"),
])
def test_bad_executor_settings_are_config_errors(tmp_path, extra, message):
    with pytest.raises(ChatmatchError, match=message):
        make_cfg(tmp_path, "bad", extra=extra)

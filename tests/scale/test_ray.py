"""The Ray executor on a local Ray instance started by the test: bots as actors, the same
transcripts as the local executor, resume after an interruption, errors from actors."""

from __future__ import annotations

import json

import pytest

from chatmatch.errors import BotError
from chatmatch.run.tournament import run_tournament
from tests.scale.common import BOTS, make_cfg, ranking_file, transcript_files

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'chatmatch[ray]')")


@pytest.fixture(scope="module", autouse=True)
def ray_instance():
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("local")
    run_tournament(make_cfg(tmp, "run", extra="concurrent_games: 1\n"))
    return tmp / "run"


@pytest.mark.parametrize("extra", ["ray: {actors: all}\nconcurrent_games: 4\n",
                                   "concurrent_games: 8\nworkers: 1\n"])
def test_ray_gives_the_same_run_as_local(tmp_path, local_run, extra):
    s = run_tournament(make_cfg(tmp_path, "run", extra="executor: ray\n" + extra))
    assert s.games_played == 12 and s.games_scored == 12
    assert transcript_files(tmp_path / "run") == transcript_files(local_run)
    assert ranking_file(tmp_path / "run") == ranking_file(local_run)
    described = json.loads((tmp_path / "run" / "manifest.json").read_text())["bots_described"]
    actors = {n for n, d in described.items() if d.get("ray_actor")}
    # stateful and batched bots always live in actors; thread-safe ones only with actors: all
    expected = {"counter", "batcher", "sampler"} | ({"echo"} if "all" in extra else set())
    assert actors == expected
    assert described["batcher"]["class"] == "tests.scripted:BatchBot"


def test_interrupted_ray_run_resumes_where_it_stopped(tmp_path, local_run):
    cfg = make_cfg(tmp_path, "run", extra="executor: ray\nconcurrent_games: 4\n")

    class Stop(Exception):
        pass

    def progress(done, total):
        if done == 4:
            raise Stop()

    with pytest.raises(Stop):
        run_tournament(cfg, progress=progress)
    assert len(transcript_files(tmp_path / "run")) == 4
    assert ray.is_initialized()  # the test's instance is left running
    s = run_tournament(cfg)
    assert s.games_played == 8 and s.games_scored == 8
    assert transcript_files(tmp_path / "run") == transcript_files(local_run)
    assert ranking_file(tmp_path / "run") == ranking_file(local_run)


def test_bot_that_cannot_load_in_its_actor_is_a_bot_error(tmp_path):
    bots = BOTS[:2] + [("broken", "tests.scripted:FlakyBot", "{mode: load}")]
    cfg = make_cfg(tmp_path, "run", bots=bots, extra="executor: ray\n")
    with pytest.raises(BotError, match=r"bot 'broken' could not be loaded in its Ray actor: "
                                       r"bot 'broken': load\(\) failed: "
                                       r"FileNotFoundError: weights.bin not found"):
        run_tournament(cfg)


def test_reply_error_in_an_actor_forfeits_with_the_original_reason(tmp_path):
    bots = BOTS[:2] + [("flaky", "tests.scripted:FlakyBot", "{mode: raise}")]
    cfg = make_cfg(tmp_path, "run", bots=bots, extra="executor: ray\nfailures: {retries: 0}\n")
    s = run_tournament(cfg)
    assert s.games_played == 6
    forfeits = [json.loads(p.read_text()) for p in (tmp_path / "run" / "scores").glob("*.json")]
    reasons = {f["forfeit"]["reason"] for f in forfeits if "forfeit" in f}
    assert reasons == {"RuntimeError: model exploded (after 1 attempt(s))"}


def test_a_budgeted_adaptive_schedule_plays_the_same_rounds_on_ray(tmp_path):
    """schedule: adaptive plays round by round through the executor; Ray and local give
    the same games (the rounds depend only on the results)."""
    extra = "schedule: {method: adaptive, games: 8}\nconcurrent_games: 4\n"
    local = run_tournament(make_cfg(tmp_path, "local", extra=extra))
    remote = run_tournament(make_cfg(tmp_path, "remote", extra="executor: ray\n" + extra))
    assert local.games_played == remote.games_played == 8
    assert transcript_files(tmp_path / "remote") == transcript_files(tmp_path / "local")
    assert ranking_file(tmp_path / "remote") == ranking_file(tmp_path / "local")


def test_the_wrap_hook_gets_the_actor_stand_ins_and_plays_with_what_it_returns(tmp_path):
    from chatmatch.executors import make_executor
    from chatmatch.executors.ray_executor import RemoteBot
    from chatmatch.play.schedule import double_round_robin
    from tests.scale.test_wrap_hook import Tagged

    cfg = make_cfg(tmp_path, "run", bots=BOTS[:2], exchanges=2, extra="executor: ray\n")
    got: dict[str, object] = {}

    def wrap(bots):
        got.update(bots)
        return {n: Tagged(b) for n, b in bots.items()}

    ex = make_executor(cfg, wrap=wrap)
    try:
        described = ex.start({"counter", "batcher"})
        assert isinstance(got["batcher"], RemoteBot)  # batched: an actor
        assert described["batcher"].get("ray_actor") is True
        games: list = []
        ex.play(double_round_robin(["counter", "batcher"], cfg.seed_utterances, cfg.seed),
                games.append)
    finally:
        ex.close()
    bot_turns = [t for g in games for t in g.turns if not t.seed]
    assert len(games) == 2 and all(t.text.startswith("[w] ") for t in bot_turns)

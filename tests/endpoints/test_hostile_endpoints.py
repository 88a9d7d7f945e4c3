"""``openai-chat`` (and the judges' client, the same :class:`chatmatch.endpoints.client.Endpoint`)
against hostile or broken endpoints: a gzip bomb, a key in the URL path, a server that
echoes the key in a successful reply, a redirect, a body cut mid-stream, a wrong model
name, and keys that are empty or carry a newline."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterator

import pytest

from chatmatch.adapters import create_bot
from chatmatch.bot import History, Message
from chatmatch.common.yamlloc import parse_located_yaml
from chatmatch.config.tournament import config_from_data
from chatmatch.errors import BotError, ChatmatchError
from chatmatch.run.tournament import run_tournament
from chatmatch_bots.openai_http import OpenAIChatBot
from tests.fake_openai import FakeOpenAI, chat_completion

KEY = "sk-hostile-0123456789-secret"
HIST = History((Message("partner", "What did you do last week?"),),
               "What did you do last week?", "g001", 1, 3)


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as f:
        yield f


@pytest.fixture(autouse=True)
def api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOSTILE_KEY", KEY)


def bot(url: str, **kw: Any) -> OpenAIChatBot:
    b = create_bot("remote", "openai-chat", {"base_url": url, "model": "m1",
                                             "api_key_env": "HOSTILE_KEY", "retries": 0,
                                             "timeout_s": 5.0, **kw})
    assert isinstance(b, OpenAIChatBot)
    b.load()
    return b


def test_a_gzip_bomb_is_stopped_at_the_decompressed_cap(fake: FakeOpenAI) -> None:
    fake.gzip = True
    fake.raw_body = json.dumps(chat_completion("x" * 30_000_000)).encode()  # ~30 kB gzip
    with pytest.raises(BotError, match=r"larger than max_response_bytes=1000000 \(decompressed\)"):
        bot(fake.base_url).reply(HIST)  # stopped at the cap: the message says so
    with pytest.raises(BotError, match="max_response_bytes=2000"):
        bot(fake.base_url, max_response_bytes=2000).reply(HIST)


def test_a_small_gzip_answer_is_read(fake: FakeOpenAI) -> None:
    fake.gzip = True
    assert bot(fake.base_url).reply(HIST).startswith("[m1] 1 msgs")


def test_a_key_in_the_base_url_path_is_refused() -> None:
    for url in ("http://h/v1/sk-abcdef0123456789xyz", "http://h/key/Zx9Qw81LmP02Rt7Yb4Nc6Vd5/v1"):
        with pytest.raises(BotError, match="looks like a key in its path"):
            create_bot("r", "openai-chat", {"base_url": url, "model": "m1"})
    create_bot("r", "openai-chat", {"base_url": "http://h/openai/deployments/gpt-4o-mini/v1",
                                    "model": "m1"})  # words and versions are fine


def test_a_key_echoed_in_a_successful_reply_is_never_stored(tmp_path: Path,
                                                             fake: FakeOpenAI) -> None:
    fake.answer = lambda path, body: chat_completion(f"Hi! your key is {KEY} ok.")
    text = (f"name: echo\nexchanges: 2\noutput_dir: {tmp_path / 'run'}\n"
            "scoring: {dimensions: [proactivity]}\nbots:\n"
            f"  - {{name: remote, adapter: openai-chat, params: {{base_url: '{fake.base_url}', "
            "model: m1, api_key_env: HOSTILE_KEY}}\n  - eliza\n")
    run_tournament(config_from_data(parse_located_yaml(text, "e.yaml")))
    said = [p.read_text() for p in (tmp_path / "run" / "transcripts").iterdir()]
    assert any("your key is ***" in t for t in said)
    for p in (tmp_path / "run").rglob("*"):
        if p.is_file():
            assert KEY not in p.read_bytes().decode("utf-8", "replace"), p


def test_a_redirect_is_named_as_one(fake: FakeOpenAI) -> None:
    fake.redirect_to = "https://elsewhere.example/v1/chat/completions"
    with pytest.raises(BotError, match="answered HTTP 307, a redirect to https://elsewhere"):
        bot(fake.base_url).reply(HIST)


def test_a_body_cut_mid_stream_is_not_called_a_connection_failure(fake: FakeOpenAI) -> None:
    fake.cut_after = 20
    with pytest.raises(BotError) as err:
        bot(fake.base_url).reply(HIST)
    assert "the answer was cut off mid-body" in str(err.value)
    assert "cannot connect" not in str(err.value)


@pytest.mark.parametrize("value, message", [
    ("", "HOSTILE_KEY (named by params.api_key_env) is set but empty"),
    (KEY + "\n", "a trailing newline from a file"),
])
def test_empty_key_and_key_with_a_newline_are_named(monkeypatch: pytest.MonkeyPatch,
                                                     fake: FakeOpenAI, value: str,
                                                     message: str) -> None:
    monkeypatch.setenv("HOSTILE_KEY", value)
    with pytest.raises(BotError) as err:
        bot(fake.base_url)
    assert message in str(err.value) and KEY not in str(err.value)
    assert "base_url" not in str(err.value)


def _cfg(url: str, out: Path, model: str) -> Any:
    text = (f"name: pf\nexchanges: 2\noutput_dir: {out}\n"
            "scoring: {dimensions: [proactivity]}\nbots:\n"
            f"  - {{name: remote, adapter: openai-chat, params: {{base_url: '{url}', "
            f"model: {model}, timeout_s: 2, retries: 0}}}}\n  - eliza\n")
    return config_from_data(parse_located_yaml(text, "pf.yaml"))


def test_a_wrong_model_name_stops_the_run_before_any_scorer_loads(
        tmp_path: Path, fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> None:
    from chatmatch.run import tournament as runner

    fake.models = ["qwen2.5-0.5b-instruct"]
    loaded: list[str] = []
    monkeypatch.setattr(runner, "load_scorers", lambda scorers, rep: loaded.append("yes"))
    with pytest.raises(ChatmatchError) as err:
        run_tournament(_cfg(fake.base_url, tmp_path / "run", "qwen2.5-0.5b-instruc"))
    text = str(err.value)
    assert "bot 'remote': model 'qwen2.5-0.5b-instruc' cannot be used" in text
    assert "HTTP 404" in text and "did you mean 'qwen2.5-0.5b-instruct'?" in text
    assert loaded == []  # refused before the scorers' models load
    assert not list((tmp_path / "run").glob("transcripts/*.jsonl"))
    run_tournament(_cfg(fake.base_url, tmp_path / "ok", "qwen2.5-0.5b-instruct"))
    assert loaded == ["yes"]


def test_a_server_that_hangs_on_completions_is_refused_by_the_preflight(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """/models answers, completions hang (a server stuck loading a model it cannot get):
    one line before any game, not a forfeit per game after minutes of timeouts."""
    with FakeOpenAI(delay_s=3600) as hang:
        b = create_bot("remote", "openai-chat", {"base_url": hang.base_url, "model": "m1",
                                                 "retries": 0, "preflight_timeout_s": 1})
        pool = ThreadPoolExecutor(1)  # a hang guard, not a speed test
        try:
            check = pool.submit(b.preflight)  # type: ignore[attr-defined]
            with pytest.raises(BotError, match="model 'm1' cannot be used.*within timeout_s=1"):
                check.result(timeout=120)
        finally:
            pool.shutdown(wait=False)

"""Secrets hygiene: an API key comes only from the environment and never reaches the run
directory, the logs or a report -- checked end to end with the ``openai-chat`` bot against
a real HTTP server on 127.0.0.1, including a server that echoes the key in its errors."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.fake_openai import FakeOpenAI
from tests.reliability.helpers import cli_env, run_cli

KEY = "sk-chatmatch-" + secrets.token_hex(20)  # made up per session: not even in the source
ENV = "CHATMATCH_TEST_SECRET"


@pytest.fixture
def server() -> Iterator[tuple[str, FakeOpenAI]]:
    with FakeOpenAI(key=KEY) as fake:
        yield fake.base_url, fake


def _yaml(url: str, *, on_failure: str = "forfeit", extra_params: str = "") -> str:
    remote = ("    adapter: openai-chat\n"
              f"    params: {{base_url: '{url}', model: MODEL, api_key_env: {ENV}, retries: 0, "
              f"backoff_s: 0.01, timeout_s: 10, temperature: 0.0{extra_params}}}\n")
    return ("name: secrets\nexchanges: 2\nconcurrent_games: 2\n"
            "scoring: {dimensions: [proactivity, specificity, diversity]}\n"
            f"failures: {{on_failure: {on_failure}, retries: 0}}\nbots:\n"
            "  - name: remote-a\n" + remote.replace("MODEL", "model-a") +
            "  - name: remote-b\n" + remote.replace("MODEL", "model-b") +
            "  - name: local\n    adapter: tests.scripted:CountingBot\n")


def _leaks(text: str | bytes) -> bool:
    blob = text.encode() if isinstance(text, str) else text
    return KEY.encode() in blob or KEY[-16:].encode() in blob


def _files_with_key(folder: Path) -> list[str]:
    return [str(p) for p in folder.rglob("*") if p.is_file() and _leaks(p.read_bytes())]


def _report(run: Path) -> tuple[int, str]:
    """``chatmatch report RUN``."""
    r = run_cli("report", str(run), env=cli_env(**{ENV: KEY}))
    return r.returncode, r.stdout + r.stderr


def test_key_from_env_is_used_but_never_written_or_printed(tmp_path, server):
    url, state = server
    cfg = tmp_path / "t.yaml"
    cfg.write_text(_yaml(url))
    run = tmp_path / "run"
    out = run_cli("run", str(cfg), "--out", str(run), env=cli_env(**{ENV: KEY}))
    assert out.returncode == 0, out.stderr
    assert state.authorized >= 6 and state.unauthorized == 0  # the key really was sent
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["bots_described"]["remote-a"]["api_key_env"] == ENV  # the name, not the key
    assert manifest["bots_described"]["remote-a"]["model"] == "model-a"
    outputs = [out.stdout, out.stderr]
    for args in (["rank", str(run)], ["rank", str(run), "--json", "--save"], ["show", str(run), "g001"]):
        r = run_cli(*args, env=cli_env(**{ENV: KEY}))
        assert r.returncode == 0, r.stderr
        outputs += [r.stdout, r.stderr]
    code, text = _report(run)
    outputs.append(text)
    assert code == 0 and (run / "report.html").exists(), text
    assert not any(_leaks(o) for o in outputs)
    assert _files_with_key(run) == []
    assert not _leaks((run / "config.yaml").read_text()) and ENV in (run / "config.yaml").read_text()


def test_key_echoed_by_a_failing_server_is_redacted_everywhere(tmp_path, server):
    url, state = server
    # a careless server that echoes the credentials, from the first game request on (the
    # two pre-flight test requests pass)
    state.fail_from, state.status = 3, 400
    cfg = tmp_path / "t.yaml"
    cfg.write_text(_yaml(url))
    run = tmp_path / "run"
    out = run_cli("run", str(cfg), "--out", str(run), env=cli_env(**{ENV: KEY}))
    assert out.returncode == 3, out.stderr  # every remote game is forfeited: shown, exit 3
    assert "Forfeits (" in out.stderr and "error: 2 bot(s) forfeited" in out.stderr
    results = (run / "results.jsonl").read_text()
    assert "forfeit" in results and "Bearer ***" in results  # the echo reached the record...
    assert _files_with_key(run) == [] and not _leaks(out.stdout + out.stderr)  # ...redacted

    cfg.write_text(_yaml(url, on_failure="abort"))
    out = run_cli("run", str(cfg), "--out", str(tmp_path / "run2"), env=cli_env(**{ENV: KEY}))
    assert out.returncode == 2 and "error: bot 'remote-" in out.stderr
    assert "Bearer ***" in out.stderr and not _leaks(out.stdout + out.stderr)
    assert _files_with_key(tmp_path / "run2") == []


def test_missing_key_variable_is_a_clear_error(tmp_path, server):
    url, _ = server
    cfg = tmp_path / "t.yaml"
    cfg.write_text(_yaml(url))
    env = cli_env()
    env.pop(ENV, None)
    out = run_cli("run", str(cfg), "--out", str(tmp_path / "run"), env=env)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert f"environment variable {ENV} (named by params.api_key_env) is not set" in out.stderr


@pytest.mark.parametrize("extra, where", [
    (f", api_key: {KEY}", "bots.0.params.api_key"),
    (f", extra_headers: {{Authorization: 'Bearer {KEY}'}}", "bots.0.params.extra_headers.Authorization"),
], ids=["api_key", "authorization-header"])
def test_key_written_in_the_yaml_is_refused(tmp_path, server, extra, where):
    url, state = server
    cfg = tmp_path / "t.yaml"
    cfg.write_text(_yaml(url, extra_params=extra))
    out = run_cli("run", str(cfg), "--out", str(tmp_path / "run"), env=cli_env(**{ENV: KEY}))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert f"{cfg}:9: {where}: a secret written in the YAML is refused" in out.stderr
    assert "api_key_env" in out.stderr and not _leaks(out.stderr + out.stdout)
    assert not (tmp_path / "run").exists() and state.authorized == 0


def test_describe_of_the_http_bot_never_holds_the_key(monkeypatch, server):
    from chatmatch.adapters import create_bot

    monkeypatch.setenv(ENV, KEY)
    bot = create_bot("r", "openai-chat", {"base_url": server[0], "model": "m",
                                          "api_key_env": ENV, "extra_headers": {"X-Team": "t"}})
    bot.load()
    assert not _leaks(json.dumps(bot.describe())) and bot.describe()["api_key_env"] == ENV
    assert not _leaks(repr(vars(bot)))


@pytest.mark.parametrize("params, message", [
    (f"base_url: 'http://user:{KEY}@127.0.0.1:9/v1'", "'base_url' holds a user name or password"),
    (f"base_url: 'http://127.0.0.1:9/v1?api_key={KEY}'", "'base_url' holds a secret in its query"),
    (f"base_url: 'http://127.0.0.1:9/v1', extra_headers: {{Cookie: 'sid={KEY}'}}",
     "header 'Cookie' carries a credential"),
], ids=["user-password", "query", "cookie"])
def test_key_in_base_url_or_headers_is_refused_before_anything_runs(tmp_path, params, message):
    cfg = tmp_path / "t.yaml"
    cfg.write_text("name: s\nexchanges: 1\nbots:\n  - name: r\n    adapter: openai-chat\n"
                   f"    params: {{model: m, {params}}}\n  - eliza\n")
    out = run_cli("run", str(cfg), "--out", str(tmp_path / "run"))
    assert out.returncode == 2 and message in out.stderr and "api_key_env" in out.stderr
    assert not _leaks(out.stdout + out.stderr) and not (tmp_path / "run").exists()

"""Family 5 of issue 35, secrets in unusual places: a key anywhere in ``base_url`` (user
info, a path segment, a ``;param``, the query, the ``#fragment``, percent-encoded or not) is
refused before anything is written; a non-ASCII key or header value is a one-line error,
not a traceback from the HTTP client. End to end against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import pytest

from chatmatch.endpoints.safety import check_base_url
from tests.reliability.test_secrets import ENV, KEY, _yaml, server  # noqa: F401 (fixture)
from tests.reliability.helpers import cli_env, run_cli

TOKEN = "Zq81Kd02Lm93Xv74Tb65Hs56Qa"  # a long key-like token without a known prefix


@pytest.mark.parametrize("suffix", [
    f"/v1;key={KEY}", f"/v1;api_key={TOKEN}", f"/v1#{KEY}", f"/v1#api_key={TOKEN}",
    f"/v1#access_token={TOKEN}", f"/v1?x=1&api_key={TOKEN}", f"/v1/{TOKEN}", f"/v1/{KEY}",
    f"/v1;{TOKEN}", f"/v1?q={TOKEN}", f"/v1/%73%6b-chatmatch-{'0' * 20}",
], ids=["semi-key", "semi-api_key", "fragment-sk", "fragment-named", "fragment-token",
        "query-named", "path-token", "path-sk", "semi-bare", "query-value", "path-encoded"])
def test_a_key_anywhere_in_base_url_is_refused(suffix):
    with pytest.raises(ValueError, match="holds .*(secret|key|user).*api_key_env"):
        check_base_url("http://127.0.0.1:8000" + suffix)


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000/v1", "https://api.example.com/v1/",
                                 "http://localhost:8080/openai/deployments/gpt-4o/v1?api-version=2024-06-01",
                                 "http://h/v1#section", "http://h/v1;type=chat"])
def test_ordinary_urls_pass(url):
    assert check_base_url(url) == url.rstrip("/")


def test_a_key_after_a_semicolon_never_reaches_the_run_directory(tmp_path, server):  # noqa: F811
    url, _ = server
    cfg = tmp_path / "t.yaml"
    cfg.write_text(_yaml(url + f";key={KEY}"))
    run = tmp_path / "run"
    out = run_cli("run", str(cfg), "--out", str(run), env=cli_env(**{ENV: KEY}))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "base_url' holds a secret in its path (key=...)" in out.stderr, out.stderr
    assert not run.exists() and KEY not in out.stderr


@pytest.mark.parametrize("where, value", [("key", "sk-ключ-" + "x" * 20),
                                          ("header", "café")])
def test_a_non_ascii_key_or_header_is_a_clear_error(tmp_path, server, where, value):  # noqa: F811
    url, _ = server
    cfg = tmp_path / "t.yaml"
    extra = ", extra_headers: {X-Team: 'café'}" if where == "header" else ""
    cfg.write_text(_yaml(url, extra_params=extra))
    env = cli_env(**{ENV: value if where == "key" else KEY})
    out = run_cli("run", str(cfg), "--out", str(tmp_path / "run"), env=env)
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert "non-ASCII or control character" in out.stderr, out.stderr
    assert len([x for x in out.stderr.splitlines() if x.startswith("error:")]) == 1


def test_an_upper_case_scheme_is_accepted_and_never_echoes_a_credential(tmp_path, server):  # noqa: F811
    """Issue 35 (5m): ``HTTP://`` was refused (schemes are case-insensitive) and the message
    repeated the whole URL, credential included."""
    url, _ = server
    assert check_base_url("HTTP://127.0.0.1:8000/v1/") == "http://127.0.0.1:8000/v1"
    assert check_base_url("Https://h/v1") == "https://h/v1"
    for bad in (f"ftp://u:{KEY}@h/v1", f"HTTP:/u:{KEY}@h/v1", f"h/v1?{KEY}"):
        with pytest.raises(ValueError) as err:
            check_base_url(bad)
        assert KEY not in str(err.value) and KEY[:12] not in str(err.value)
        assert "must start with http:// or https://" in str(err.value)
    cfg = tmp_path / "t.yaml"
    cfg.write_text(_yaml(url.replace("http://", "HTTP://", 1)))
    out = run_cli("run", str(cfg), "--out", str(tmp_path / "run"), env=cli_env(**{ENV: KEY}))
    assert out.returncode == 0, out.stderr
    assert "remote-a" in (tmp_path / "run" / "rankings" / "trueskill.json").read_text()


@pytest.mark.parametrize("field", ["model", "persona_role_x"])
def test_a_key_shaped_model_is_refused_before_anything_is_written(tmp_path, field):
    """Issue 35 (5l): ``model: sk-...`` (a key pasted in the wrong field) was written to
    config.yaml and the manifest; any one-word parameter that looks like a key is refused."""
    cfg = tmp_path / "t.yaml"
    text = _yaml("http://127.0.0.1:9/v1")
    if field == "model":
        text = text.replace("model: model-a", f"model: {KEY}")
    else:
        text = text.replace("temperature: 0.0", f"temperature: 0.0, {field}: {KEY}")
    cfg.write_text(text)
    out = run_cli("run", str(cfg), "--out", str(tmp_path / "run"), env=cli_env(**{ENV: KEY}))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert f"bots.0.params.{field}: a secret written in the YAML is refused" in out.stderr, out.stderr
    assert KEY[:12] not in out.stderr and not (tmp_path / "run").exists()


def test_a_key_shaped_judge_model_is_refused():
    from chatmatch.common.validation import validation_message
    from chatmatch.judges.backends import BackendParams

    with pytest.raises(ValueError) as err:
        BackendParams(backend="openai", model=KEY, base_url="http://127.0.0.1:9/v1")
    shown = validation_message(err.value)  # what a user is shown (chatmatch's messages)
    assert "parameter 'model' looks like an API key" in shown and KEY[:12] not in shown

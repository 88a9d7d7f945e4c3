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

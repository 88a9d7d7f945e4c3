"""Input files a user hands in fail in one line and never echo their content: a seed or
human CSV with a huge field, a seed file without an utterance column, a damaged n-gram
cache (trained again), a key inside a ``model`` or a custom header, a missing folder or
manifest, a cache folder that is a file; a bracketed IPv6 loopback is this machine."""

from __future__ import annotations

import pytest

from chatmatch.analysis.human import HumanFileError, parse_csv
from chatmatch.config.seedsets import read_seed_file
from chatmatch.errors import ChatmatchError, ConfigError
from chatmatch.runtime import ngram
from tests.reliability.helpers import cli_env, run_cli
from tests.reliability.test_secrets import ENV, KEY, _yaml


def test_a_seed_csv_with_a_huge_field_is_one_line(tmp_path):
    path = tmp_path / "seeds.csv"
    path.write_text("h" * 300_000 + ",x\na,b\n")
    with pytest.raises(ConfigError) as err:
        read_seed_file(path)
    assert "is not a readable CSV" in str(err.value) and "field larger than field limit" in str(err.value)


def test_a_human_csv_with_a_huge_field_is_one_line():
    with pytest.raises(HumanFileError) as err:
        parse_csv("bot,rank\n" + "x" * 300_000 + ",1\n", file="h.csv")
    assert "not a readable CSV" in str(err.value)


def test_a_seed_file_without_an_utterance_column_does_not_echo_its_first_line(tmp_path):
    path = tmp_path / "seeds.csv"
    path.write_text("root:*:20228:0:99999:7:::\nsecond\n")
    with pytest.raises(ConfigError) as err:
        read_seed_file(path)
    assert "no utterance column" in str(err.value) and "1 column(s)" in str(err.value)
    assert "20228" not in str(err.value) and "99999" not in str(err.value)


@pytest.mark.parametrize("content", [b"", b"PK\x03\x04 truncated"])
def test_a_damaged_ngram_cache_is_trained_again(tmp_path, monkeypatch, content):
    (tmp_path / ngram.CACHE_NAME).write_bytes(content)
    made = []

    def train(cls, texts, **kw):  # a stand-in: training on the real corpus takes a minute
        made.append(kw)
        return ngram.NgramLM.__new__(cls)

    monkeypatch.setattr(ngram.NgramLM, "train", classmethod(train))
    monkeypatch.setattr(ngram, "chitchat_texts", lambda: ["a b c"])
    monkeypatch.setattr(ngram.NgramLM, "save", lambda self, path: None)
    assert isinstance(ngram.chitchat_ngram_lm(tmp_path), ngram.NgramLM) and len(made) == 1


@pytest.mark.parametrize("edit", [("model: model-a", f"model: 'gpt-4o {KEY}'"),
                                  ("temperature: 0.0", f"temperature: 0.0, extra_headers: {{X-Custom: 'Bearer {KEY}'}}")])
def test_a_key_inside_a_model_or_a_custom_header_is_refused(tmp_path, edit):
    cfg = tmp_path / "t.yaml"
    text = _yaml("http://127.0.0.1:9/v1")
    assert edit[0] in text
    cfg.write_text(text.replace(edit[0], edit[1]))
    out = run_cli("run", str(cfg), "--out", str(tmp_path / "run"), env=cli_env(**{ENV: KEY}))
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert "a secret written in the YAML is refused" in out.stderr
    assert KEY[:12] not in out.stderr and not (tmp_path / "run").exists()


def test_a_persona_of_plain_words_is_still_accepted():
    from chatmatch.config.checks import _key_shaped

    assert not _key_shaped("persona", "You are a friendly person. Keep replies short.")
    assert not _key_shaped("model", "gpt-4o mini")
    assert _key_shaped("model", f"gpt-4o {KEY}")


def test_a_missing_folder_and_a_missing_manifest_are_named_as_such(tmp_path):
    from chatmatch.rundir.store import RunDir, RunDirError

    with pytest.raises(RunDirError, match="not a chatmatch run directory \\(no such folder\\)"):
        RunDir(tmp_path / "nope").read_manifest()
    (tmp_path / "run").mkdir()
    with pytest.raises(RunDirError, match="not a chatmatch run directory"):
        RunDir(tmp_path / "run").read_manifest()
    (tmp_path / "run" / "config.yaml").write_text("name: t\n")
    with pytest.raises(RunDirError, match="if it is a run whose manifest was deleted, `chatmatch run`"):
        RunDir(tmp_path / "run").read_manifest()


def test_a_bracketed_ipv6_loopback_is_this_machine():
    """The attack's 6.3: ``--host [::1]`` (the URL form) was called 'not an address of this
    machine' while ``--host ::1`` worked."""
    from chatmatch.common.webserver import check_host, is_loopback, unbracketed

    assert unbracketed("[::1]") == "::1" and unbracketed("127.0.0.1") == "127.0.0.1"
    assert is_loopback("[::1]") and is_loopback("::1")
    check_host("[::1]", False, "the page")  # no --allow-network needed


def test_a_cache_dir_that_is_a_file_is_named_when_a_bot_cannot_load(tmp_path, monkeypatch):
    """The attack's 7.6: ``CHATMATCH_CACHE_DIR`` set to a file made the retrieval bot's load
    fail with 'check its parameters'; the message now names the variable."""
    from chatmatch.play.botcall import guarded

    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv("CHATMATCH_CACHE_DIR", str(blocker))

    def load():
        (blocker / "retrieval").mkdir(parents=True)

    with pytest.raises(ChatmatchError) as err:
        guarded("retrieval", "load", load)
    assert "$CHATMATCH_CACHE_DIR" in str(err.value) and "check its parameters" not in str(err.value)

"""Every path read goes through the one special-file check of chatmatch.common.safeio and
says the true reason (a named pipe, a device, a file for a folder); caches are read back
checked like computed values (a blank cached reply, an impossible subword count, a cache
path in the way); messages say what a stopped command keeps and why tau is n/a."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from chatmatch.annotate.store import AnnotationsError, AnnotationStore
from chatmatch.validity.datasets.dstc9 import Dstc9Error, find_files
from tests.reliability.helpers import run_cli, tournament_yaml


def _special(path: Path, kind: str) -> Path:
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    return path


REASONS = [("fifo", "a named pipe, not a regular file"), ("zero", "a device, not a regular file")]


@pytest.mark.parametrize("kind, reason", REASONS)
@pytest.mark.parametrize("create", [True, False])
def test_an_annotations_file_that_is_a_pipe_or_a_device_is_named_so(tmp_path, kind, reason,
                                                                    create):
    """3.7, 3.8: annotate said 'disk I/O error; check ... writable' or 'damaged ... .recover',
    compare 'the annotations file is gone', report nothing."""
    _special(tmp_path / "annotations.sqlite", kind)
    with pytest.raises(AnnotationsError, match=f"annotations.sqlite: {reason}; move it away"):
        AnnotationStore.open(tmp_path, create=create)
    assert not (tmp_path / "annotations.sqlite").is_file()  # never replaced


def test_report_warns_about_an_annotations_pipe(tmp_path):
    """3.7: `report` said nothing about a named pipe (a garbage file got a warning)."""
    (tmp_path / "t.yaml").write_text(tournament_yaml(bots=2, exchanges=1, record_timings=False))
    run = tmp_path / "run"
    made = run_cli("run", str(tmp_path / "t.yaml"), "--out", str(run), "-q")
    assert made.returncode == 0, made.stderr
    _special(run / "annotations.sqlite", "fifo")
    got = run_cli("report", str(run), "--out", str(tmp_path / "r.html"), timeout=60)
    assert got.returncode == 0, got.stderr
    assert "annotations.sqlite: a named pipe, not a regular file" in got.stderr


@pytest.mark.parametrize("kind, reason", REASONS)
def test_validate_names_a_dataset_file_that_is_a_pipe(tmp_path, kind, reason):
    """3.15: `validate --data D` with D/fed/fed_data.json a FIFO said 'not found'."""
    (tmp_path / "fed").mkdir()
    _special(tmp_path / "fed" / "fed_data.json", kind)
    got = run_cli("validate", "--data", str(tmp_path), "--datasets", "fed", "--ngram-fluency",
                  timeout=60)
    assert got.returncode != 0
    assert f"fed_data.json: {reason}" in got.stderr and "not found" not in got.stderr


def test_validate_data_that_is_a_file_says_so(tmp_path):
    """8.8: `validate --data FILE` said 'no such folder' for an existing file."""
    f = tmp_path / "base.yaml"
    f.write_text("name: x\n")
    got = run_cli("validate", "--data", str(f), "--datasets", "fed", timeout=60)
    assert got.returncode != 0
    assert "a file, not a folder" in got.stderr and "no such folder" not in got.stderr


def test_dstc9_given_a_file_gives_no_garbled_example(tmp_path, monkeypatch):
    """8.7: `--dstc9 base.yaml` advised '(e.g. .; see ...': the file's folder, '.'."""
    monkeypatch.chdir(tmp_path)
    Path("base.yaml").write_text("name: x\n")
    with pytest.raises(Dstc9Error) as got:
        find_files("base.yaml")
    text = str(got.value)
    assert text.startswith("base.yaml: is a file, not a folder; give --dstc9 the folder")
    assert f"(e.g. {tmp_path.resolve()}; " in text and "e.g. .;" not in text


def test_the_one_wording_of_a_path_that_is_not_what_it_should_be(tmp_path):
    from chatmatch.common.safeio import file_problem, folder_problem

    os.mkfifo(tmp_path / "p")
    (tmp_path / "f").write_text("x")
    assert file_problem(tmp_path / "f") is None and folder_problem(tmp_path) is None
    assert file_problem(tmp_path / "p") == "a named pipe, not a regular file"
    assert file_problem(tmp_path) == "a folder, not a regular file"
    assert file_problem(tmp_path / "none") == "no such file"
    assert folder_problem(tmp_path / "p") == "a named pipe, not a folder"
    assert folder_problem(tmp_path / "f") == "a file, not a folder"
    assert folder_problem(tmp_path / "none") == "no such folder"


@pytest.mark.parametrize("stored", [" ", "\u200b\u00a0", ""])
def test_a_blank_reply_in_the_reply_cache_is_dropped_and_asked_again(tmp_path, stored):
    """7.9: a blank reply in RUN/reply_cache.sqlite was served on every retry and every
    --replay-forfeits: the bot forfeited for ever while its server answered."""
    from chatmatch.bot import History, Message
    from chatmatch.play.reply_cache import CachedBot, ReplyCache, turn_key
    from tests.scripted import CountingBot

    CountingBot.reset()
    warned: list[str] = []
    cache = ReplyCache(tmp_path / "reply_cache.sqlite", warned.append)
    bot = CachedBot(CountingBot(), cache, "ident")
    history = History(messages=(Message("partner", "hello"),), seed_utterance="hello",
                      random_seed=3)
    cache.put_many([(turn_key("ident", history), "x", "fine")])
    assert cache._file._db is not None
    cache._file._db.execute("UPDATE replies SET reply=?", (stored,))  # a damaged row
    got = bot.reply(history)
    assert got.strip() and CountingBot.calls == 1  # the bot was asked
    assert any("dropped 1 stored reply with nothing visible" in w for w in warned)
    assert cache.get_many([turn_key("ident", history)]) == {turn_key("ident", history): got}
    CountingBot.reset()


def test_export_to_a_named_pipe_is_refused_not_replaced(tmp_path):
    """3.11: `compare --annotations --export p.jsonl` replaced the FIFO p.jsonl by a file
    (its reader got nothing)."""
    from chatmatch.annotate.report import export
    from chatmatch.errors import ChatmatchError

    fifo = tmp_path / "p.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(ChatmatchError, match="named pipe"):
        export([], fifo, tmp_path / "annotations.sqlite")
    assert Path(fifo).is_fifo()


@pytest.mark.parametrize("kind, reason", REASONS)
def test_view_human_names_a_pipe_or_a_device(tmp_path, kind, reason):
    """3.21: `view --human FIFO` said 'no such file' (report/plot/analyze: 'a named pipe')."""
    human = _special(tmp_path / "h.yaml", kind)
    got = run_cli("view", str(tmp_path), "--human", str(human), "--port", "0", timeout=60)
    assert got.returncode == 2
    assert f"h.yaml: {reason}" in got.stderr and "no such file" not in got.stderr


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_an_ngram_cache_path_in_the_way_is_said_once_and_leaves_no_tmp(tmp_path, monkeypatch,
                                                                      caplog, kind):
    """7.4: the n-gram cache path a folder: the model was trained again on every run,
    silently, and a 44 MB .tmp.npz was left beside it."""
    from chatmatch.runtime import ngram

    lm = ngram.NgramLM.train(["hello there my friend", "how are you my friend"] * 3)
    monkeypatch.setattr(ngram.NgramLM, "train", classmethod(lambda cls, texts, **kw: lm))
    monkeypatch.setattr(ngram, "chitchat_texts", lambda: ["a b c"])
    where = tmp_path / ngram.CACHE_NAME
    where.mkdir() if kind == "folder" else os.mkfifo(where)
    with caplog.at_level("WARNING"):
        assert ngram.chitchat_ngram_lm(tmp_path) is lm  # a pipe is never opened (no hang)
    assert sorted(p.name for p in tmp_path.iterdir()) == [ngram.CACHE_NAME]
    said = [r.getMessage() for r in caplog.records if "cannot be written" in r.getMessage()]
    assert len(said) == 1 and ngram.CACHE_NAME in said[0]


@pytest.mark.parametrize("bad", ["file", "proc"])
def test_a_bad_cache_dir_variable_is_named_before_the_run_directory_is_made(tmp_path, bad):
    """7.7: CHATMATCH_CACHE_DIR a file said 'a file is in the way ... (--out)', under /proc
    'check that the path exists': neither named the variable, and the run directory was
    already written."""
    from tests.reliability.helpers import cli_env

    (tmp_path / "t.yaml").write_text(tournament_yaml(bots=2, exchanges=1, record_timings=False))
    cache = tmp_path / "t.yaml" if bad == "file" else Path("/proc/chatmatch-no-cache")
    got = run_cli("run", str(tmp_path / "t.yaml"), "--out", str(tmp_path / "run"),
                  env=cli_env(CHATMATCH_CACHE_DIR=str(cache)))
    assert got.returncode == 2, got.stderr
    assert f"$CHATMATCH_CACHE_DIR is {cache}" in got.stderr and "--out" not in got.stderr
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("categories, where", [
    ("{q: [hi], x: [3]}", "seed_utterance: categories.x.0: Input should be a valid string"),
    ("{q: [hi], 1: [hey]}", "seed_utterance: categories: the name 1 must be text: quote it"),
])
def test_a_bad_seed_category_names_its_key(categories, where):
    """8.6: `categories: {q: [], 1: [3]}` said 'seed_utterance: Input should be a valid
    string' without saying which key."""
    from chatmatch.common.yamlloc import parse_located_yaml
    from chatmatch.config.tournament import config_from_data
    from chatmatch.errors import ConfigError

    text = (f"name: s\nbots: [eliza, echo]\nseed_utterance:\n  categories: {categories}\n"
            "exchanges: 1\nscoring: {dimensions: [proactivity]}\n")
    with pytest.raises(ConfigError) as got:
        config_from_data(parse_located_yaml(text, "s.yaml"))
    assert where in str(got.value)


@pytest.mark.parametrize("command, said", [
    ("analyze", "terminated (SIGTERM); stopped before it finished; run the same command again"),
    ("run", "terminated (SIGTERM); finished games are saved — run the same command again to resume"),
])
def test_a_stopped_command_says_what_it_keeps(command, said):
    """8.12: `analyze` stopped by SIGTERM said 'finished games are saved — run the same
    command again to resume': analyze plays no game."""
    import click
    from click.testing import CliRunner

    from chatmatch.cli import Terminated, _Group

    @click.group(cls=_Group)
    def group() -> None:
        pass

    @group.command(command)
    def stopped() -> None:
        raise Terminated()

    got = CliRunner().invoke(group, [command])
    assert got.exit_code == 143
    assert said in got.output


def _judged(a: str, b: str, answer: str, item: str) -> "Judgement":
    from chatmatch.annotate.store import Judgement

    return Judgement("alice", item, "overall", item, a, item, b, answer, "t", "t")


@pytest.mark.parametrize("tied, why", [
    ("chatmatch", "chatmatch's ranking ties every judged bot"),
    ("humans", "the annotators' judgements tie every bot"),
])
def test_compare_says_why_tau_is_na(tied, why):
    """6.11: `compare --annotations` printed tau 'n/a' with no reason when chatmatch's
    ranking tied every bot (a bt run where every bot went W5 L5)."""
    from chatmatch.annotate.agreement import summarize
    from chatmatch.annotate.report import summary_text

    bots = ["x", "y", "z"]
    if tied == "chatmatch":
        judged = [_judged("x", "y", "a", "i1"), _judged("y", "z", "a", "i2"),
                  _judged("x", "z", "a", "i3")]
        ranks = {b: 1.0 for b in bots}
    else:
        judged = [_judged("x", "y", "tie", "i1"), _judged("y", "z", "tie", "i2"),
                  _judged("x", "z", "tie", "i3")]
        ranks = {"x": 1.0, "y": 2.0, "z": 3.0}
    s = summarize(judged, bots, "bt", ranks, {}, "annotations.sqlite", reps=20)
    assert s.questions[0].tau_why is not None and why in s.questions[0].tau_why
    assert f"note: tau of overall is n/a: {why}" in summary_text(s)
    assert s.questions[0].to_json()["kendall_tau_why"] == s.questions[0].tau_why


def test_the_annotation_page_offers_games_added_while_it_serves(tmp_path):
    """6.17: `run` added a bot to a run while `annotate` served it: the page kept its old
    items and said 'N of N judged' (Thank you); the new games were never offered."""
    pytest.importorskip("starlette", reason="the 'annotate' extra is not installed")
    from starlette.testclient import TestClient

    from chatmatch.annotate.session import Session, Settings
    from chatmatch.annotate.web import create_app
    from chatmatch.common.yamlloc import parse_located_yaml
    from chatmatch.config.tournament import config_from_data
    from chatmatch.run.tournament import run_tournament

    def play(bots: int) -> None:
        text = tournament_yaml(bots=bots, exchanges=1, record_timings=False)
        run_tournament(config_from_data(parse_located_yaml(text, "t.yaml")), tmp_path / "run")

    play(2)
    c = TestClient(create_app(Session.open(tmp_path / "run", Settings())))
    c.post("/login", data={"name": "bob"})
    assert "0 of 2 judged" in c.get("/judge").text
    play(3)  # a league grows: 4 new games
    page = c.get("/judge").text
    assert "0 of 6 judged" in page and 'name="item" value="' in page


@pytest.mark.parametrize("bad", [np.nan, -3.0])
def test_a_subword_count_cache_with_impossible_counts_is_counted_again(tmp_path, monkeypatch,
                                                                      bad):
    """Family 7 (a cache value checked like a computed one): a NaN or negative count in the
    cached subword unigrams was used as read."""
    from chatmatch.runtime import ngram
    from chatmatch.scoring import fluency_tokens as ft

    def tokenizer(texts, add_special_tokens=False):
        return {"input_ids": [[len(w) for w in t.split()] for t in texts]}

    monkeypatch.setattr(ft, "cache_dir", lambda *parts: tmp_path)
    monkeypatch.setattr(ngram, "chitchat_texts", lambda: ["a bb ccc", "dd e"])
    name = f"test-{bad}"
    cached = np.zeros(8)
    cached[1] = bad
    np.save(tmp_path / f"unigrams-{ft._slug(name)}-8.npy", cached)
    table = ft.chitchat_subword_unigrams(tokenizer, 8, name)
    assert np.isfinite(table.nll).all() and (table.counts >= 0).all() and table.counts[1] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"unigrams-{ft._slug(name)}-8.npy"]


def test_what_is_in_the_way_of_a_folder_is_named_for_what_it_is(tmp_path):
    """`plot --out /dev/full` said 'a file is in the way'; a full standard output said '?'."""
    import errno

    from chatmatch.errors import os_error_message

    device = tmp_path / "dev"
    device.symlink_to("/dev/full")
    blocked = OSError(errno.ENOTDIR, "Not a directory", str(tmp_path / "dev" / "x" / "y.png"))
    msg = os_error_message(blocked)
    assert "a link (" in msg and str(device) in msg  # lstat: the link itself stands there
    plain = tmp_path / "plain"
    plain.write_text("x")
    msg = os_error_message(OSError(errno.EEXIST, "File exists", str(plain / "ranks.png")))
    assert f"a file ({plain}) is in the way of a folder" in msg
    msg = os_error_message(OSError(errno.EEXIST, "File exists", "/dev/full/ranks.png"))
    assert "a device (/dev/full) is in the way of a folder" in msg
    full = os_error_message(OSError(errno.ENOSPC, "No space left on device"))
    assert full.startswith("the output (standard output): cannot write (No space left")

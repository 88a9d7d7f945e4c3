"""Family 6 of issue 35, the annotation page when its run changes under it: a run directory
or annotations file that disappears gives every request a page saying so (503, no
traceback, no new empty file); annotator names are one person up to case and width;
judgements of retired bots are named when compare --annotations leaves them out; a --host
other than this machine needs --allow-network."""

from __future__ import annotations

import shutil

import pytest

pytest.importorskip("starlette", reason="the 'annotate' extra is not installed")

from starlette.testclient import TestClient  # noqa: E402

from chatmatch.annotate.agreement import summarize  # noqa: E402
from chatmatch.annotate.report import summary_text  # noqa: E402
from chatmatch.annotate.session import Session, Settings  # noqa: E402
from chatmatch.annotate.store import AnnotationStore  # noqa: E402
from chatmatch.annotate.web import create_app  # noqa: E402
from chatmatch.common import webserver  # noqa: E402
from chatmatch.errors import ChatmatchError  # noqa: E402
from tests.annotate.conftest import hostile_run, judgement  # noqa: E402,F401
from tests.reliability.helpers import run_cli  # noqa: E402

ANSWERS = {"q_overall": "a", "q_d1": "b", "q_d2": "tie"}


def _judge(c: TestClient, name: str):
    c.post("/login", data={"name": name})
    item = c.get("/judge").text.split('name="item" value="')[1].split('"')[0]
    return c.post("/judge", data={"item": item, **ANSWERS})


@pytest.mark.parametrize("gone", ["run", "annotations"])
def test_a_run_that_disappears_gives_a_clear_page(hostile_run, gone):  # noqa: F811
    c = TestClient(create_app(Session.open(hostile_run, Settings())))
    assert "Saved your judgement" in _judge(c, "ann").text
    if gone == "run":
        shutil.rmtree(hostile_run)
    else:
        (hostile_run / "annotations.sqlite").unlink()
    r = c.post("/judge", data={"item": "g002", **ANSWERS})
    assert r.status_code == 503 and "The run cannot be read" in r.text, r.text
    assert "annotations file is gone" in r.text or "cannot open" in r.text
    assert not (hostile_run / "annotations.sqlite").exists()  # no new, empty file
    # issue 35 (6d): the page said "your judgements are kept" when they were gone
    assert "judgements are kept" not in r.text and "they are not kept" in r.text


def test_a_page_whose_run_fails_but_whose_judgements_exist_says_they_are_kept(tmp_path):
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import Route

    from chatmatch.annotate.web import ErrorPage

    def fail(request):
        raise OSError(5, "Input/output error", "transcripts/g001.jsonl")

    db = tmp_path / "annotations.sqlite"
    db.write_bytes(b"")
    app = Starlette(middleware=[Middleware(ErrorPage, annotations=db)], routes=[Route("/", fail)])
    r = TestClient(app).get("/")
    assert r.status_code == 503 and "judgements are kept in the annotations file" in r.text
    db.unlink()
    r = TestClient(app).get("/")
    assert r.status_code == 503 and "they are not kept" in r.text


def test_the_alpha_note_agrees_with_the_overlap_column():
    """Issue 35 (6i): two people gave the same answer on the same items: alpha is n/a (no
    variation), but the note said no item was judged by two people while the table's
    overlap column said 2."""
    js = [judgement(who, item, "x", "y", "a") for who in ("ann", "bob") for item in ("g1", "g2")]
    s = summarize(js, ["x", "y"], "trueskill", {"x": 1, "y": 2}, {}, "annotations.sqlite", reps=20)
    text = summary_text(s)
    assert s.questions[0].overlap_items == 2
    assert "no item was judged by two people" not in text
    assert "alpha is n/a although 2 item(s) were judged by two or more people" in text
    one = summarize(js[:2], ["x", "y"], "trueskill", {"x": 1, "y": 2}, {}, "a.sqlite", reps=20)
    assert "no item was judged by two people yet" in summary_text(one)


def test_annotator_names_are_one_person_up_to_case_and_width(hostile_run):  # noqa: F811
    for name in ("alice", "Alice", "\uff21\uff4c\uff49\uff43\uff45"):  # full-width Ａｌｉｃｅ
        c = TestClient(create_app(Session.open(hostile_run, Settings())))
        assert _judge(c, name).status_code == 200
    store = AnnotationStore.open(hostile_run, create=False)
    assert {j.annotator for j in store.judgements()} == {"alice"}


def test_judgements_of_a_retired_bot_are_named_when_left_out():
    js = [judgement("ann", "g1", "x", "y", "a"), judgement("ann", "g2", "x", "w", "b"),
          judgement("bob", "g3", "w", "y", "a")]
    s = summarize(js, ["x", "y"], "trueskill", {"x": 1, "y": 2}, {}, "annotations.sqlite", reps=20)
    assert s.left_out == {"w": 2} and s.to_json()["left_out"] == {"w": 2}
    assert "left out the judgements of bots this run no longer ranks (retired): w (2)" in summary_text(s)


def test_listening_beyond_this_machine_needs_an_explicit_opt_in(hostile_run):  # noqa: F811
    # before: it served the page to the network (a subprocess, so that cannot hang the tests)
    r = run_cli("annotate", str(hostile_run), "--host", "0.0.0.0", "--port", "0", timeout=60)
    assert r.returncode == 2 and "--allow-network" in r.stderr and "no password" in r.stderr


def test_the_view_has_the_same_host_rule(hostile_run):  # noqa: F811
    r = run_cli("view", str(hostile_run), "--host", "0.0.0.0", "--port", "0", timeout=60)
    assert r.returncode == 2 and "--allow-network" in r.stderr and "no password" in r.stderr


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "localhost"])
def test_every_loopback_name_counts_as_this_machine(host):
    assert webserver.is_loopback(host)


def test_a_host_that_names_no_address_says_so_before_the_network_rule():
    assert not webserver.is_loopback("0.0.0.0")
    with pytest.raises(ChatmatchError, match="not an address of this machine"):
        webserver.check_host("no.such.host.invalid", False, "the page")

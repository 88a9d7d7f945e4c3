"""The page's routes without a browser (Starlette's test client): names, missing answers,
unknown items, escaping and the headers that keep transcript text from running."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the 'annotate' extra is not installed")

from starlette.testclient import TestClient  # noqa: E402

from chatmatch.annotate.session import Session, Settings  # noqa: E402
from chatmatch.annotate.web import create_app  # noqa: E402
from tests.annotate.conftest import HOSTILE  # noqa: E402


def client(run_dir, **settings) -> TestClient:
    return TestClient(create_app(Session.open(run_dir, Settings(**settings))))


def test_name_is_checked(hostile_run):
    c = client(hostile_run)
    assert "Your name" in c.get("/").text
    r = c.post("/login", data={"name": "<script>"})
    assert r.status_code == 400 and "Name: a name is 1 to 40 letters" in r.text
    assert "<script>" not in r.text
    r = c.post("/login", data={"name": "  Ann  Lee "}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/judge"
    assert c.get("/judge").text.count("ann lee") >= 1  # one form of a name (issue 35)


def test_judging_needs_a_name_and_every_answer(hostile_run):
    c = client(hostile_run)
    assert c.get("/judge", follow_redirects=False).headers["location"] == "/"
    c.post("/login", data={"name": "ann"})
    page = c.get("/judge")
    assert page.headers["content-security-policy"].startswith("default-src 'self'")
    item = page.text.split('name="item" value="')[1].split('"')[0]
    r = c.post("/judge", data={"item": item, "q_overall": "a"})
    assert r.status_code == 400 and "Answer questions 2, 3 (" in r.text
    r = c.post("/judge", data={"item": "g999", "q_overall": "a"})
    assert r.status_code == 400 and "No item &#39;g999&#39;" in r.text
    answers = {"q_overall": "a", "q_d1": "b", "q_d2": "tie"}
    r = c.post("/judge", data={"item": item, **answers})
    assert f"Saved your judgement of game {item}" in r.text and "1 of 6 judged" in r.text
    r = c.post("/judge", data={"item": item, **answers})  # the same page sent twice
    assert "already judged" in r.text and "nothing changed" in r.text
    assert "1 of 6 judged" in r.text
    assert f'href="/judge/{item}" id="previous"' in r.text  # a slip can be undone


def test_transcript_text_is_escaped(hostile_run):
    c = client(hostile_run, show_names=True)
    c.post("/login", data={"name": "ann"})
    text = c.get("/judge/g001").text
    assert HOSTILE not in text and "&lt;script&gt;" in text
    assert "Speaker A (" in text  # names shown


def test_done_page(hostile_run):
    c = client(hostile_run, limit=1, dimensions=())
    c.post("/login", data={"name": "ann"})
    item = c.get("/judge").text.split('name="item" value="')[1].split('"')[0]
    r = c.post("/judge", data={"item": item, "q_overall": "tie"})
    assert "All done, thank you, ann!" in r.text and "1 of 1" in r.text
    assert "--annotations" in r.text


def test_a_page_on_this_machine_answers_only_its_own_host_names(hostile_run):
    """The attack's 6.6 (stop 39): ``annotate`` answered any Host header (a page of another
    site pointing its own name at 127.0.0.1 could read transcripts and judge), while
    ``view`` answered 400; both take their hosts from chatmatch.common.webserver."""
    from chatmatch.common.webserver import allowed_hosts

    app = create_app(Session.open(hostile_run, Settings()), allowed_hosts("127.0.0.1"))
    assert TestClient(app, base_url="http://127.0.0.1:8000").get("/").status_code == 200
    assert TestClient(app, base_url="http://localhost:8000").get("/").status_code == 200
    assert TestClient(app, base_url="http://evil.example").get("/").status_code == 403
    assert allowed_hosts("0.0.0.0") == ("*",)

"""A page served on any loopback address (not only 127.0.0.1) answers only its own names:
``--host ::1``, ``127.0.0.2`` or ``127.1.2.3`` need no --allow-network, so a page of another
site pointing a name of its own at that address (DNS rebinding) must be refused."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
from starlette.applications import Starlette  # noqa: E402
from starlette.middleware import Middleware  # noqa: E402
from starlette.responses import PlainTextResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from chatmatch.common import webserver  # noqa: E402


def _app(bind: str) -> Starlette:
    return Starlette(middleware=[Middleware(webserver.HostGuard, hosts=webserver.allowed_hosts(bind))],
                     routes=[Route("/", lambda request: PlainTextResponse("transcripts"))])


@pytest.mark.parametrize("bind, own", [("::1", "[::1]:8000"), ("127.0.0.2", "127.0.0.2:8000"),
                                       ("127.1.2.3", "127.1.2.3:8000"), ("127.0.0.1", "127.0.0.1:8000"),
                                       ("localhost", "localhost:8000")])
def test_every_loopback_bind_refuses_a_foreign_host_name(bind, own):
    assert webserver.check_host(bind, allow_network=False, page="p") is None  # no flag needed
    c = TestClient(_app(bind))
    assert c.get("/", headers={"host": own}).text == "transcripts"
    assert c.get("/", headers={"host": "localhost"}).status_code == 200
    for foreign in ("evil.example", "evil.example:8000", "rebind.attacker.test.", ""):
        r = c.get("/", headers={"host": foreign})
        assert r.status_code == 403 and "loopback" in r.text, foreign


def test_a_network_bind_answers_every_name():
    assert webserver.allowed_hosts("0.0.0.0") == ("*",)
    assert TestClient(_app("0.0.0.0")).get("/", headers={"host": "box.lan:8000"}).status_code == 200


@pytest.mark.parametrize("header, name", [("[::1]:8000", "::1"), ("Example.ORG.:80", "example.org"),
                                          ("127.0.0.1", "127.0.0.1"), ("::1", "::1")])
def test_host_name_drops_the_port_and_brackets(header, name):
    assert webserver.host_name(header) == name

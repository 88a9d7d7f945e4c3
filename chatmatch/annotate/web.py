"""The annotation page: a Starlette app (served by uvicorn, :mod:`.server`), rendered on the
server with Jinja2 templates (every transcript text is HTML-escaped by Jinja2's autoescape)
and a small script for the keyboard (``static/annotate.js``).

Routes: ``GET /`` the name form, ``POST /login``, ``POST /logout``, ``GET /judge`` the item
the annotator is on (or the next one), ``POST /judge`` save the answers and go on (a
redirect, so a reload never submits twice), ``GET /judge/ITEM`` look at (and change) an item
judged before. The annotator's name lives in a cookie (``SameSite=Strict``): it is a tool
for colleagues on one machine or network, not an authenticated service.
"""

from __future__ import annotations

import html
import logging
import sqlite3
import threading
from pathlib import Path
from typing import Any, Sequence
from urllib.parse import quote, unquote, urlencode

import jinja2
from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.middleware import Middleware
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from chatmatch.annotate.items import Item
from chatmatch.annotate.session import Session, check_name
from chatmatch.annotate.store import ANSWERS
from chatmatch.common import webserver
from chatmatch.common.display import shown
from chatmatch.errors import ChatmatchError

HERE = Path(__file__).parent
log = logging.getLogger(__name__)
COOKIE = "chatmatch_annotator"
#: no inline script or style, nothing from elsewhere: a transcript cannot run code
HEADERS = {"Content-Security-Policy": "default-src 'self'; form-action 'self'; "
                                      "frame-ancestors 'none'",
           "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}
NOTICES = {
    "new": "Saved your judgement of {item}.",
    "same": "You had already judged {item} with the same answers; nothing changed.",
    "replaced": "You had already judged {item}; your new answers replace the earlier ones.",
}


def _shown(value: Any) -> Any:
    """Every value a template prints is shown by the one text rule (controls and
    bidirectional overrides escaped) before Jinja2 HTML-escapes it."""
    return shown(value) if isinstance(value, str) and not isinstance(value, Markup) else value


def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(HERE / "templates"),
                              autoescape=True, undefined=jinja2.StrictUndefined,
                              finalize=_shown)


class Pages:
    """The page's handlers for one :class:`Session`."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.env = _env()
        self._lock = threading.Lock()

    def _fresh(self) -> None:
        """Read the run again when it changed (new games while the page serves)."""
        with self._lock:
            self.session = self.session.fresh()

    def page(self, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        html = self.env.get_template(name).render(run=self.session.run_name, **ctx)
        return HTMLResponse(html, status_code=status, headers=HEADERS)

    @staticmethod
    def who(request: Request) -> str | None:
        """The annotator's name from the cookie (None: not logged in, or a bad cookie)."""
        raw = request.cookies.get(COOKIE)
        if raw is None:
            return None
        try:
            return check_name(unquote(raw))
        except ValueError:
            return None

    def judge_page(self, annotator: str, item: Item, status: int = 200, error: str = "",
                   notice: str = "", answers: dict[str, str] | None = None) -> HTMLResponse:
        s = self.session
        sides = {"a": (item.a, "A"), "b": (item.b, "B")}
        choices = [(v, s.label(*sides[v]) if v in sides else "Can't tell", k)
                   for v, k in zip(ANSWERS, ("1", "2", "3"))]
        return self.page("judge.html", status, annotator=annotator, item=item,
                         panels=s.panels(item), questions=s.questions, choices=choices,
                         answers=answers or {}, judged=s.judged(annotator), total=s.total,
                         error=error, notice=notice, pairs=not item.single_game,
                         last=s.store.last_item(annotator))

    async def index(self, request: Request) -> Response:
        if self.who(request):
            return RedirectResponse("/judge", 303)
        return self.page("login.html", questions=self.session.questions, error="")

    async def login(self, request: Request) -> Response:
        form = await request.form()
        try:
            name = check_name(str(form.get("name", "")))
        except ValueError as exc:
            return self.page("login.html", 400, questions=self.session.questions,
                             error=f"Name: {exc}.")
        resp = RedirectResponse("/judge", 303)
        resp.set_cookie(COOKIE, quote(name), max_age=30 * 86400, httponly=True, samesite="strict")
        return resp

    async def logout(self, request: Request) -> Response:
        resp = RedirectResponse("/", 303)
        resp.delete_cookie(COOKIE)
        return resp

    def judge(self, request: Request) -> Response:  # sync: Starlette runs it in a thread
        annotator = self.who(request)
        if annotator is None:
            return RedirectResponse("/", 303)
        self._fresh()
        notice = ""
        done, how = request.query_params.get("saved"), request.query_params.get("how")
        if done and how in NOTICES:
            notice = NOTICES[how].format(item=_item_name(self.session, done))
        item = self.session.next_for(annotator)
        if item is None:
            return self.page("done.html", annotator=annotator, notice=notice,
                             judged=self.session.judged(annotator), total=self.session.total,
                             run_dir=str(self.session.run_dir))
        return self.judge_page(annotator, item, notice=notice)

    def revisit(self, request: Request) -> Response:
        annotator = self.who(request)
        if annotator is None:
            return RedirectResponse("/", 303)
        item_id = request.path_params["item"]
        if item_id not in self.session.items:
            return self.page("error.html", 404, message=f"No item '{item_id}' in this run.")
        answers = self.session.store.answers(annotator, item_id)
        notice = "You judged this before; saving replaces your earlier answers." if answers else ""
        return self.judge_page(annotator, self.session.items[item_id], notice=notice,
                               answers=answers)

    async def submit(self, request: Request) -> Response:
        annotator = self.who(request)
        if annotator is None:
            return RedirectResponse("/", 303)
        form = await request.form()
        item_id = str(form.get("item", ""))
        if item_id not in self.session.items:
            return self.page("error.html", 400, message=f"No item '{item_id}' in this run; "
                             "go back to the page and reload it.")
        item = self.session.items[item_id]
        questions = self.session.questions
        answers = {q.key: str(form.get(f"q_{q.key}", "")) for q in questions}
        missing = [str(i + 1) for i, q in enumerate(questions) if answers[q.key] not in ANSWERS]
        if missing:
            return self.judge_page(annotator, item, 400, answers=answers, error=(
                f"Answer question{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                "(\"can't tell\" is an answer too), then save."))
        how = await run_in_threadpool(self.session.store.save, annotator, item, answers)
        return RedirectResponse("/judge?" + urlencode({"saved": item_id, "how": how}), 303)


class ErrorPage:
    """Every request whose run cannot be read any more (the run directory or its
    annotations file deleted or moved while the page serves) gets a page saying so, with
    status 503, and the log one line, not a traceback."""

    def __init__(self, app: Any, annotations: Path | None = None) -> None:
        self.app, self.annotations = app, annotations

    def _kept(self) -> str:
        """What became of the saved judgements: the truth, checked now."""
        if self.annotations is not None and not self.annotations.is_file():
            return (f"Your saved judgements were in {html.escape(shown(str(self.annotations)))}, "
                    "which is gone (deleted or moved): they are not kept. Restore that file "
                    "(or the whole run directory) from a backup to get them back, or stop the "
                    "page (Ctrl-C).")
        return ("Your saved judgements are kept in the annotations file. Restore the run "
                "directory, or stop the page (Ctrl-C) and start <code>chatmatch annotate</code> "
                "again.")

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        except (ChatmatchError, OSError, sqlite3.Error) as exc:
            log.warning("annotation page: %s", shown(str(exc)))
            body = ("<!doctype html><meta charset='utf-8'><title>chatmatch annotate</title>"
                    "<h1>The run cannot be read</h1><p>" + html.escape(shown(str(exc))) +
                    "</p><p>" + self._kept() + "</p>")
            await HTMLResponse(body, status_code=503)(scope, receive, send)


def create_app(session: Session, hosts: Sequence[str] = ("*",)) -> Starlette:
    """The page for ``session``, answering requests for ``hosts`` (``*``: any;
    :func:`chatmatch.common.webserver.allowed_hosts`)."""
    p = Pages(session)
    return Starlette(middleware=[Middleware(webserver.HostGuard, hosts=tuple(hosts)),
                                 Middleware(ErrorPage, annotations=session.store.path)], routes=[
        Route("/", p.index), Route("/login", p.login, methods=["POST"]),
        Route("/logout", p.logout, methods=["POST"]),
        Route("/judge", p.judge, methods=["GET"]), Route("/judge", p.submit, methods=["POST"]),
        Route("/judge/{item:path}", p.revisit),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static")])


def _item_name(session: Session, item_id: str) -> str:
    item = session.items.get(item_id)
    if item is None or item.single_game:
        return f"game {item_id}"
    return f"games {item.a.game_id} and {item.b.game_id}"

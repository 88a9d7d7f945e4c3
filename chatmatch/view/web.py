"""The Starlette app of ``chatmatch view`` (served by uvicorn, :mod:`chatmatch.common.webserver`).
It only answers GET requests and only reads run directories.

Routes: ``/`` the runs (one run: its leaderboard), ``/run/N/`` the leaderboard
(``?method=bt``), ``/run/N/dimensions``, ``/run/N/h2h``, ``/run/N/games?bot=&vs=&dim=``,
``/run/N/game/GID``, ``/run/N/people`` (agreement with people), ``/run/N/state`` (the
run's version, which ``static/view.js`` polls to refresh the page while a run plays),
``/compare/N/M``, ``/style.css`` (the report's stylesheet) and ``/static/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Sequence

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from chatmatch.analysis.templating import environment, stylesheet
from chatmatch.common import webserver
from chatmatch.errors import ChatmatchError
from chatmatch.view.pages import NotFound, Views

HERE = Path(__file__).parent
#: scripts only from this server, no inline script; images may be data URIs (the charts)
HEADERS = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                                      "frame-ancestors 'none'; form-action 'none'",
           "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}


class Pages:
    """The handlers of the app over ``views``' runs (sync: Starlette runs them in threads)."""

    def __init__(self, views: Views) -> None:
        self.views = views
        self.env = environment(HERE / "templates")
        self.css = stylesheet()

    def page(self, name: str, make: Callable[[], dict[str, Any]]) -> Response:
        """Template ``name`` with ``make()``'s context; a :class:`NotFound` is a 404 page,
        another :class:`ChatmatchError` (a run that cannot be read yet) a page that says so."""
        try:
            ctx, status = make(), 200
        except NotFound as exc:
            name, ctx, status = "error.html", {"message": str(exc)}, 404
        except ChatmatchError as exc:
            name, ctx, status = "error.html", {"message": str(exc)}, 200
        return HTMLResponse(self.env.get_template(name).render(**ctx), status, headers=HEADERS)

    def index(self, request: Request) -> Response:
        if len(self.views.states) == 1:
            return RedirectResponse("/run/0/", 303)
        return self.page("index.html", self.views.index)

    def run_page(self, request: Request, name: str) -> Response:
        """``/run/N/...``: the run page ``name`` (board, dimensions, h2h, games, game, people)."""
        v, p, i = self.views, request.path_params, int(request.path_params["i"])
        q = request.query_params
        makers: dict[str, Callable[[], dict[str, Any]]] = {
            "board": lambda: v.board(i, q.get("method")),
            "dimensions": lambda: v.dimensions(i), "h2h": lambda: v.h2h(i),
            "games": lambda: v.games(i, q), "game": lambda: v.game(i, p["gid"]),
            "people": lambda: v.people(i)}
        return self.page(f"{name}.html", makers[name])

    def compare(self, request: Request) -> Response:
        p = request.path_params
        return self.page("compare.html", lambda: self.views.compare(int(p["i"]), int(p["j"])))

    def state(self, request: Request) -> Response:
        try:
            version, _ = self.views.state(int(request.path_params["i"])).version()
        except NotFound as exc:
            return JSONResponse({"error": str(exc)}, 404, headers=HEADERS)
        return JSONResponse({"version": version}, headers=HEADERS)

    def style(self, request: Request) -> Response:
        return Response(self.css, media_type="text/css", headers=HEADERS)

    async def missing(self, request: Request, exc: Exception) -> Response:
        return HTMLResponse(self.env.get_template("error.html").render(
            message=f"no page {request.url.path}; start from the leaderboard at /"), 404,
            headers=HEADERS)


#: the Host headers the app answers on this machine only (chatmatch.common.webserver)
LOCAL_HOSTS = webserver.LOCAL_HOSTS


def create_app(views: Views, hosts: Sequence[str] = ("*",)) -> Starlette:
    """The app over ``views``' runs, answering requests for ``hosts`` (``*``: any)."""
    p = Pages(views)

    def run_route(path: str, name: str) -> Route:
        def endpoint(request: Request) -> Response:
            return p.run_page(request, name)
        return Route(f"/run/{{i:int}}/{path}", endpoint)

    pages = [("", "board"), ("dimensions", "dimensions"), ("h2h", "h2h"), ("games", "games"),
             ("game/{gid}", "game"), ("people", "people")]
    return Starlette(middleware=[Middleware(webserver.HostGuard, hosts=tuple(hosts))],
                     exception_handlers={404: p.missing}, routes=[
        Route("/", p.index), Route("/style.css", p.style),
        *(run_route(path, name) for path, name in pages),
        Route("/run/{i:int}/state", p.state), Route("/compare/{i:int}/{j:int}", p.compare),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static")])

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
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from chatmatch.analysis.templating import environment, stylesheet
from chatmatch.errors import ChatmatchError
from chatmatch.view.pages import NotFound, Views

HERE = Path(__file__).parent
#: scripts only from this server, no inline script; images may be data URIs (the charts)
HEADERS = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
                                      "frame-ancestors 'none'; form-action 'none'",
           "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}


def create_app(views: Views) -> Starlette:
    """The app over ``views``' runs."""
    env = environment(HERE / "templates")
    css = stylesheet()

    def page(name: str, make: Callable[[], dict[str, Any]]) -> Response:
        try:
            ctx, status = make(), 200
        except NotFound as exc:
            name, ctx, status = "error.html", {"message": str(exc)}, 404
        except ChatmatchError as exc:
            name, ctx, status = "error.html", {"message": str(exc)}, 200
        return HTMLResponse(env.get_template(name).render(**ctx), status, headers=HEADERS)

    def num(request: Request, key: str) -> int:
        return int(request.path_params[key])

    def index(request: Request) -> Response:
        if len(views.states) == 1:
            return RedirectResponse("/run/0/", 303)
        return page("index.html", views.index)

    def board(request: Request) -> Response:
        return page("board.html", lambda: views.board(num(request, "i"),
                                                      request.query_params.get("method")))

    def dimensions(request: Request) -> Response:
        return page("dimensions.html", lambda: views.dimensions(num(request, "i")))

    def h2h(request: Request) -> Response:
        return page("h2h.html", lambda: views.h2h(num(request, "i")))

    def games(request: Request) -> Response:
        return page("games.html", lambda: views.games(num(request, "i"), request.query_params))

    def game(request: Request) -> Response:
        return page("game.html", lambda: views.game(num(request, "i"), request.path_params["gid"]))

    def people(request: Request) -> Response:
        return page("people.html", lambda: views.people(num(request, "i")))

    def compare(request: Request) -> Response:
        return page("compare.html", lambda: views.compare(num(request, "i"), num(request, "j")))

    def state(request: Request) -> Response:
        try:
            version, _ = views.state(num(request, "i")).version()
        except NotFound as exc:
            return JSONResponse({"error": str(exc)}, 404, headers=HEADERS)
        return JSONResponse({"version": version}, headers=HEADERS)

    def style(request: Request) -> Response:
        return Response(css, media_type="text/css", headers=HEADERS)

    async def missing(request: Request, exc: Exception) -> Response:
        return HTMLResponse(env.get_template("error.html").render(
            message=f"no page {request.url.path}; start from the leaderboard at /"), 404,
            headers=HEADERS)

    return Starlette(exception_handlers={404: missing}, routes=[
        Route("/", index), Route("/style.css", style),
        Route("/run/{i:int}/", board), Route("/run/{i:int}/dimensions", dimensions),
        Route("/run/{i:int}/h2h", h2h), Route("/run/{i:int}/games", games),
        Route("/run/{i:int}/game/{gid}", game), Route("/run/{i:int}/people", people),
        Route("/run/{i:int}/state", state), Route("/compare/{i:int}/{j:int}", compare),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static")])

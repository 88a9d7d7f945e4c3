"""Serve a local page (``chatmatch annotate``, ``chatmatch view``) with uvicorn on a socket bound here first, so that a port in
use is one clear message (not a server log), and ``--port 0`` picks a free port."""

from __future__ import annotations

import errno
import ipaddress
import socket
from typing import Any, Sequence

from chatmatch.errors import ChatmatchError


def _not_an_address(host: str, exc: socket.gaierror) -> ChatmatchError:
    return ChatmatchError(f"--host {host}: not an address of this machine ({exc.strerror}); "
                          "leave --host out for 127.0.0.1")


#: the names a page listening on this machine only always answers (with any loopback
#: address written as a number: 127.0.0.1, 127.1.2.3, [::1])
LOCAL_HOSTS = ("127.0.0.1", "localhost")


def allowed_hosts(host: str) -> tuple[str, ...]:
    """The Host header names a page listening on ``host`` answers (``*``: any): on a
    loopback address (:func:`is_loopback`), ``localhost``, ``host`` itself and loopback
    addresses, so that a page of another site pointing a name of its own at this machine
    (DNS rebinding) is refused by :class:`HostGuard`; on any other, every name."""
    if not is_loopback(host):
        return ("*",)
    return tuple(dict.fromkeys((*LOCAL_HOSTS, unbracketed(host).lower().rstrip("."))))


def host_name(header: str) -> str:
    """The name of a Host header without its port: ``[::1]:8000`` -> ``::1``,
    ``Example.org.:80`` -> ``example.org``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:header.find("]")] if "]" in header else header
    return header.rsplit(":", 1)[0].rstrip(".") if header.count(":") == 1 else header.rstrip(".")


def host_allowed(header: str, hosts: Sequence[str]) -> bool:
    """Whether a request with Host ``header`` is answered by a page answering ``hosts``
    (:func:`allowed_hosts`): any name for ``*``, else a listed name or a loopback address."""
    if "*" in hosts:
        return True
    name = host_name(header)
    if name in hosts:
        return True
    try:
        return ipaddress.ip_address(name.split("%")[0]).is_loopback
    except ValueError:
        return False


class HostGuard:
    """ASGI middleware: a request whose Host header :func:`host_allowed` refuses gets a
    403 saying which names the page answers (the guard against DNS rebinding)."""

    def __init__(self, app: Any, hosts: Sequence[str] = ("*",)) -> None:
        self.app, self.hosts = app, tuple(hosts)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            header = dict(scope.get("headers") or ()).get(b"host", b"").decode("latin-1")
            if not host_allowed(header, self.hosts):
                from starlette.responses import PlainTextResponse

                names = ", ".join(h for h in self.hosts)
                body = (f"Host {header!r} is not this page's: it answers {names} or a loopback "
                        "address only (a page of another site may not read it)")
                await PlainTextResponse(body, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def unbracketed(host: str) -> str:
    """``[::1]`` (the URL form of an IPv6 address) as ``::1``; any other host unchanged."""
    return host[1:-1] if host.startswith("[") and host.endswith("]") else host


def is_loopback(host: str) -> bool:
    """Whether every address ``host`` names is a loopback address (only this machine reaches
    it: 127.0.0.1, ::1, localhost, localhost.); a name that resolves to nothing is a
    :class:`ChatmatchError` saying so."""
    try:
        infos = socket.getaddrinfo(unbracketed(host), None, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise _not_an_address(host, exc) from None
    return all(ipaddress.ip_address(str(info[4][0]).split("%")[0]).is_loopback for info in infos)


def check_host(host: str, allow_network: bool, page: str) -> None:
    """The rule of ``chatmatch annotate`` and ``chatmatch view``: a ``host`` other machines
    can reach serves ``page``, which has no password, only with ``--allow-network``."""
    if not is_loopback(host) and not allow_network:
        raise ChatmatchError(f"--host {host} serves {page}, which has no password, to every "
                             "machine that can reach this one: anyone there reads the run's "
                             "transcripts. Add --allow-network to do that on a network you "
                             "trust, or leave --host out (127.0.0.1)")


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port``, or a :class:`ChatmatchError`."""
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(unbracketed(host), port,
                                                          type=socket.SOCK_STREAM)[0]
    except socket.gaierror as exc:
        raise _not_an_address(host, exc) from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ChatmatchError(f"port {port} on {host} is in use (another `chatmatch annotate` or `chatmatch view`?); "
                                 "stop that program, or choose another port with --port "
                                 "(--port 0 picks a free one)") from None
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise ChatmatchError(f"port {port} on {host}: permission denied (ports below 1024 "
                                 "need root); choose another with --port") from None
        raise ChatmatchError(f"cannot listen on {host}:{port} ({exc.strerror}); choose another "
                             "--host or --port") from None
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(app: object, sock: socket.socket) -> None:
    """Run uvicorn on ``sock`` (already listening: a browser that connects before uvicorn
    has started waits in the backlog) until Ctrl-C or SIGTERM."""
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")  # type: ignore[arg-type]
    uvicorn.Server(config).run(sockets=[sock])

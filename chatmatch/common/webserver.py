"""Serve a local page (``chatmatch annotate``, ``chatmatch view``) with uvicorn on a socket bound here first, so that a port in
use is one clear message (not a server log), and ``--port 0`` picks a free port."""

from __future__ import annotations

import errno
import ipaddress
import socket

from chatmatch.errors import ChatmatchError


def _not_an_address(host: str, exc: socket.gaierror) -> ChatmatchError:
    return ChatmatchError(f"--host {host}: not an address of this machine ({exc.strerror}); "
                          "leave --host out for 127.0.0.1")


#: the Host headers a page answers when it listens on this machine only: a page of another
#: site that points a name of its own at 127.0.0.1 (DNS rebinding) gets a 400, not the run
#: (IPv6 ``--host ::1`` answers any name: Starlette's check cannot parse ``[::1]:PORT``)
LOCAL_HOSTS = ("127.0.0.1", "localhost")


def allowed_hosts(host: str) -> tuple[str, ...]:
    """The Host headers a page listening on ``host`` answers (``*``: any)."""
    return LOCAL_HOSTS if host in LOCAL_HOSTS else ("*",)


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

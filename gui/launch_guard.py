"""Checks before the server starts: a free port, and credentials when leaving loopback."""

from __future__ import annotations

import errno
import ipaddress
import os
import secrets
import socket
from collections.abc import Callable
from typing import Any

AUTH_ENV = "LOCALCREW_AUTH"


class LaunchError(RuntimeError):
    """The server cannot start as asked; the message says why and what to do."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def parse_auth(value: str | None) -> tuple[str, str] | None:
    value = value or os.environ.get(AUTH_ENV)
    if not value:
        return None
    user, sep, password = value.partition(":")
    if not sep or not user or not password:
        raise LaunchError("--auth must look like USER:PASSWORD (both non-empty)")
    return user, password


def require_auth_off_loopback(host: str, auth: tuple[str, str] | None) -> None:
    if not is_loopback(host) and auth is None:
        raise LaunchError(
            f"Refusing to listen on {host} without credentials: anyone on the network could run "
            f"code on this machine. Pass --auth USER:PASSWORD (or set {AUTH_ENV}), or use "
            "--host 127.0.0.1."
        )


def ensure_port_free(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        if os.name != "nt":
            # As the server binds: connections of a LocalCrew that just closed linger in TIME_WAIT
            # for a minute, and without this a restart on the same port was refused. (On Windows
            # SO_REUSEADDR would let it bind over a live server.)
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                raise LaunchError(
                    f"Port {port} on {host} is already in use (is LocalCrew already running?). "
                    "Choose another with --port."
                ) from exc
            raise LaunchError(f"Cannot listen on {host}:{port}: {exc.strerror or exc}") from exc


# Names a browser may use for a server that listens on loopback only.
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
# Binds whose port a browser reaches as NAME.localhost (Chromium and Firefox resolve every
# *.localhost name to loopback by themselves, without asking DNS or /etc/hosts).
_NAMED_BINDS = frozenset({"127.0.0.1", "localhost", "::1", "0.0.0.0", "::"})


def launch_host(bind_host: str) -> str | None:
    """This launch's own host name for the browser, `lc-<random>.localhost`; None where a browser
    on this machine cannot reach the server under it (a bind to another address).

    Cookies ignore ports: a key cookie set on 127.0.0.1 went to every server on any port of
    127.0.0.1 the user visited. A host-only cookie on a name no other server is reached under
    goes to this IDE alone. The name is random, not `lc-PORT`: a local server that knew it could
    send the browser to that name on its own port, and receive the cookie there.
    """
    if bind_host.strip("[]").lower() not in _NAMED_BINDS:
        return None
    return f"lc-{secrets.token_hex(8)}.localhost"


def host_name(header: str) -> str:
    """The name in a Host header, without its port: '[::1]:7860' -> '::1'."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    return header.rpartition(":")[0] if header.count(":") == 1 else header


class LoopbackHostOnly:
    """ASGI middleware: refuse requests whose Host header does not name this machine.

    A server on 127.0.0.1 without credentials is still reachable from any web page the user
    opens: the page's own domain can be re-pointed at 127.0.0.1 (DNS rebinding) and then drive
    the IDE, which runs code. Such requests carry that domain in their Host header.
    """

    def __init__(self, app: Any, allowed: frozenset[str]) -> None:
        self.app, self.allowed = app, allowed

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            header = dict(scope.get("headers", [])).get(b"host", b"").decode("latin-1")
            if host_name(header) not in self.allowed:
                await _refuse(scope, send, header)
                return
        await self.app(scope, receive, send)


async def _refuse(scope: dict[str, Any], send: Any, header: str) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    # The launch's own name is not said: a rebound page reads this answer as its own.
    body = f"LocalCrew answers only as 127.0.0.1 or localhost (or its printed address), not {header!r}.\n"
    body = body.encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 400, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def host_check(host: str, launch_name: str | None = None) -> Callable[[Any], Any] | None:
    """Wraps an ASGI app in the host check on loopback; off it, credentials guard (None)."""
    if not is_loopback(host):
        return None
    allowed = LOOPBACK_NAMES | {host_name(host)} | ({launch_name.lower()} if launch_name else set())
    return lambda app: LoopbackHostOnly(app, frozenset(allowed))

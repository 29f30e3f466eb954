"""Checks before the server starts: a free port, and credentials when leaving loopback."""

from __future__ import annotations

import errno
import ipaddress
import os
import socket

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
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                raise LaunchError(
                    f"Port {port} on {host} is already in use (is LocalCrew already running?). "
                    "Choose another with --port."
                ) from exc
            raise LaunchError(f"Cannot listen on {host}:{port}: {exc.strerror or exc}") from exc

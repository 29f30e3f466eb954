"""The port check before the server starts: a port in use is refused, one a closed LocalCrew's
connections still linger on (TIME_WAIT) is free, as it is for the server's own bind."""

from __future__ import annotations

import socket

import pytest

from gui.launch_guard import LaunchError, ensure_port_free


def _lingering_port() -> int:
    """A port whose listener accepted a connection and closed first: the server side of that
    connection stays in TIME_WAIT, as after quitting the app with a browser tab open."""
    with socket.socket() as server:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn's server socket
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        client = socket.create_connection(("127.0.0.1", port))
        accepted, _ = server.accept()
        accepted.close()  # the server closes first: its end goes to TIME_WAIT
        client.recv(1)
        client.close()
    return port


def test_a_port_just_released_by_a_closed_server_is_free() -> None:
    ensure_port_free("127.0.0.1", _lingering_port())


def test_a_listening_port_is_refused_with_a_clear_message() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(LaunchError, match=f"Port {port} on 127.0.0.1 is already in use"):
            ensure_port_free("127.0.0.1", port)


def test_each_launch_has_its_own_localhost_name_where_a_browser_reaches_the_server_by_it() -> None:
    """The key's cookie is host-only on this name: a random one, so no other local server can ask
    the browser for it under that name on its own port."""
    from gui.launch_guard import launch_host

    names = {launch_host(host) for host in ("127.0.0.1", "localhost", "::1", "0.0.0.0", "127.0.0.1")}
    assert len(names) == 5 and None not in names
    for name in names:
        assert name is not None and name.startswith("lc-") and name.endswith(".localhost") and len(name) < 64
    assert launch_host("192.168.1.5") is None and launch_host("127.0.0.2") is None  # not reached by it

"""gui.startup_splash: a status page at once, then the port is free for the real server."""

from __future__ import annotations

import socket
import urllib.request

from gui.startup_splash import SPLASH_HEADER, StartupSplash
from tests.app_process import free_port


def test_splash_answers_then_frees_the_port() -> None:
    port = free_port()
    splash = StartupSplash("127.0.0.1", port, "Loading <the> interface")
    splash.start()
    for path in ("/", "/anything"):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
            body = response.read().decode()
            assert response.status == 200 and response.headers.get(SPLASH_HEADER) == "1"
    assert "LocalCrew is starting" in body and "Loading &lt;the&gt; interface" in body
    splash.stop()
    with socket.socket() as server:  # what Gradio does next, right away
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", port))

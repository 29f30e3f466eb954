"""The --auth login back-off counts guesses against the socket peer, whatever X-Forwarded-For says.

uvicorn trusts X-Forwarded-For from 127.0.0.1 and rewrites scope["client"] before the guard sees
the request, so a local process naming a new address per guess got 8 guesses in 2 s instead of
one per back-off step. The requests here go through uvicorn's own proxy-header middleware, as
the server sends them.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from gui.http_guard import TOKEN_HEADER, HttpGuard, LoginBackoff

TOKEN = "k" * 43
BASE_S = 0.2


async def _wrong_password(scope: dict[str, Any], receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 400, "headers": []})
    await send({"type": "http.response.body", "body": b"wrong"})


def _server_stack() -> Any:
    import uvicorn.middleware.proxy_headers as proxy_headers  # installed with gradio: no reason to skip

    guard = HttpGuard(_wrong_password, TOKEN, 7860, LoginBackoff(base_s=BASE_S, cap_s=30 * BASE_S))
    return proxy_headers.ProxyHeadersMiddleware(guard, trusted_hosts="127.0.0.1")


async def _login(app: Any, peer: str, forwarded_for: str | None) -> tuple[int, float]:
    headers = [(TOKEN_HEADER.encode(), TOKEN.encode()), (b"host", b"127.0.0.1:7860")]
    if forwarded_for is not None:
        headers.append((b"x-forwarded-for", forwarded_for.encode()))
    scope = {
        "type": "http", "method": "POST", "path": "/login", "query_string": b"", "headers": headers,
        "client": (peer, 50000), "server": ("127.0.0.1", 7860), "scheme": "http", "root_path": "",
    }  # fmt: skip
    statuses: list[int] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"username=u&password=p", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    start = time.monotonic()
    await app(scope, receive, send)
    return statuses[0], time.monotonic() - start


def test_a_new_forwarded_address_per_guess_still_waits() -> None:
    app = _server_stack()

    async def guesses() -> list[tuple[int, float]]:
        return [await _login(app, "127.0.0.1", f"10.0.0.{n}") for n in range(5)]

    done = asyncio.run(guesses())
    assert [status for status, _ in done] == [400] * 5
    # Three free failures, then the waits they earned: 1x and 2x the base.
    assert all(took < BASE_S for _, took in done[:3]), done
    assert done[3][1] >= BASE_S * 0.9 and done[4][1] >= 2 * BASE_S * 0.9, done


def test_different_peers_keep_their_own_count() -> None:
    app = _server_stack()

    async def guesses() -> list[tuple[int, float]]:
        first = [await _login(app, "192.0.2.1", None) for _ in range(4)]
        return first + [await _login(app, "192.0.2.2", None)]

    done = asyncio.run(guesses())
    assert done[3][1] >= BASE_S * 0.9, done  # the first peer's fourth guess waits
    assert done[4][1] < BASE_S, done  # another machine's first guess does not

"""Only the IDE's own page drives the IDE: a per-launch key, the page's own origin, slow wrong passwords.

The IDE runs code and writes files, so its HTTP routes are as dangerous as a shell. Loopback alone
is no fence: any page the user opens (a dev server on localhost:9999, a notebook, a site that
re-points its name at 127.0.0.1) can send requests to it. So every request must carry this
launch's key (the address printed at start carries it once; the answer sets an HttpOnly,
SameSite=Strict cookie) and, when a browser says where it comes from, come from the IDE's own
origin. On loopback the cookie is host-only on this launch's own name (`lc-<random>.localhost`,
gui/launch_guard.launch_host) and counts only on requests to that name and port: cookies ignore
ports, and one set on 127.0.0.1 went to every local server the user visited. The key's address
under 127.0.0.1 answers a page that checks whether the browser resolves that name (Safari and some
resolvers do not) and goes on there; where it does not, it says what that costs and lets the user
go on under 127.0.0.1, the cookie then set there. The guard is ASGI middleware placed outside all
of Gradio's (its CORS middleware too), so it covers every route: the page, the API, the queue,
uploads, file routes and static files.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import math
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from html import escape
from json import dumps
from string import Template
from typing import Any
from urllib.parse import parse_qsl, urlencode

BACKOFF_ENV = "LOCALCREW_LOGIN_BACKOFF_S"  # the first wait after the free failures (tests shorten it)
TOKEN_PARAM = "token"
TOKEN_HEADER = "x-localcrew-token"  # for scripts: the same key as a header instead of the cookie
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# Where the browser cannot open the launch's own name: the user chose to go on under 127.0.0.1.
FALLBACK_PARAM = "no-own-name"
# An image under the launch's own name that says only whether the browser reaches it by that name.
PROBE_PATH = "/localcrew-own-name-probe.svg"
PROBE_TIMEOUT_MS = 5000  # a resolver that hangs; a name that does not resolve fails at once
PROBE_IMAGE = b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'

NO_KEY_MESSAGE = (
    "LocalCrew: open the address printed when it started (it carries this launch's key, ?token=...).\n"
)
CROSS_ORIGIN_MESSAGE = "LocalCrew answers only its own page, not requests from other sites or origins.\n"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def cookie_name(port: int) -> str:
    # Cookies ignore ports: two LocalCrews on one machine must not overwrite each other's key.
    return f"localcrew-key-{port}"


def _headers(scope: dict[str, Any]) -> dict[str, str]:
    # Repeated headers: the last wins, which is enough for the ones read here.
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def _cookies(header: str) -> dict[str, str]:
    pairs = (part.strip().partition("=") for part in header.split(";"))
    return {name: value for name, _, value in pairs if name}


def own_origin(scope: dict[str, Any], headers: dict[str, str]) -> str:
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
    return f"{scheme}://{headers.get('host', '').strip().lower()}"


def cross_origin_problem(scope: dict[str, Any], headers: dict[str, str]) -> str | None:
    """Why a browser request comes from somewhere other than the IDE's page; None when it does not."""
    origin = headers.get("origin")
    if origin is not None and origin.strip().lower() != own_origin(scope, headers):
        return f"origin {origin!r}"  # includes "null" (sandboxed frames, file:// pages)
    site = headers.get("sec-fetch-site", "").lower()
    if site in ("cross-site", "same-site"):
        # "same-site" is another port or name of this machine (localhost:9999 -> localhost:7860).
        # A top-level navigation (a link the user follows) is allowed through: it only shows the
        # page to the user, and without the key it is refused below anyway.
        method = scope.get("method", "GET")
        navigating = (
            headers.get("sec-fetch-mode") == "navigate" and headers.get("sec-fetch-dest") == "document"
        )
        if method not in ("GET", "HEAD") or not navigating:
            return f"Sec-Fetch-Site {site}"
    return None


@dataclass
class LoginBackoff:
    """Wrong passwords from one client: free at first, then an exponentially growing wait, capped,
    so guessing slows to a crawl while the right password still gets in after at most `cap_s`."""

    free_failures: int = 3
    base_s: float = 1.0
    cap_s: float = 30.0
    clock: Callable[[], float] = time.monotonic
    _failures: dict[str, int] = field(default_factory=dict)
    _not_before: dict[str, float] = field(default_factory=dict)

    def delay_after(self, failures: int) -> float:
        if failures < self.free_failures:
            return 0.0
        return min(self.cap_s, self.base_s * 2 ** (failures - self.free_failures))

    def wait_left(self, client: str) -> float:
        return max(0.0, self._not_before.get(client, 0.0) - self.clock())

    def failed(self, client: str) -> None:
        count = self._failures.get(client, 0) + 1
        self._failures[client] = count
        self._not_before[client] = self.clock() + self.delay_after(count)

    def succeeded(self, client: str) -> None:
        self._failures.pop(client, None)
        self._not_before.pop(client, None)


# Headers a proxy sets to name the client it forwards for. uvicorn trusts X-Forwarded-For from
# 127.0.0.1 (its default forwarded_allow_ips) and puts the named address in scope["client"]
# before any middleware sees the request: a local process could name a new "client" per guess.
FORWARDING_HEADERS = ("x-forwarded-for", "forwarded", "x-real-ip")


def client_key(scope: dict[str, Any], headers: dict[str, str]) -> str:
    """Whom the login back-off counts a guess against: the socket peer. A request that names
    another client through a proxy header counts against one shared key: its scope["client"] may
    be the header's claim, not the peer (LocalCrew is never meant to sit behind a proxy)."""
    if any(name in headers for name in FORWARDING_HEADERS):
        return "forwarded"
    return str((scope.get("client") or ("?", 0))[0])


def login_backoff(environ: dict[str, str]) -> LoginBackoff:
    try:
        base = float(environ.get(BACKOFF_ENV, "1"))
    except ValueError:
        base = 1.0
    base = max(base, 0.01)  # never none at all
    return LoginBackoff(base_s=base, cap_s=30 * base)


async def _send_text(send: Any, status: int, text: str, extra: list[tuple[bytes, bytes]] = ()) -> None:
    body = text.encode()
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# The key's address under 127.0.0.1 or localhost, in a browser: on to the launch's own name if the
# browser reaches the server by it, else the warning and the way on under 127.0.0.1 (a click: the
# cookie goes there only once the user has read what that costs).
OWN_NAME_PAGE = Template("""<!doctype html><html><head><meta charset="utf-8"><title>LocalCrew</title>
<style nonce="$nonce">body{font-family:system-ui,sans-serif;margin:15vh auto;max-width:40em;
padding:0 1em;color:#374151;line-height:1.5}</style></head><body>
<p id="wait">Opening LocalCrew&hellip;</p>
<div id="fallback" hidden><h1>This browser cannot open LocalCrew's own address</h1>
<p id="fallback-warning">This browser could not open this launch's own name ($name), so the key's
cookie would be kept for $here instead, where every other local server this browser visits on this
machine also receives it and could drive the IDE while it runs. Safer: open the address LocalCrew
printed in Chromium or Firefox; or go on here and visit no other local server in this browser while
LocalCrew runs.</p>
<p><a id="go-on" href="$fallback">Go on under $here</a></p></div>
<script nonce="$nonce">
const own = $own;
let settled = false;
function settle(reached) {
  if (settled) return;
  settled = true;
  if (reached) { location.replace(own); return; }
  document.getElementById("wait").hidden = true;
  document.getElementById("fallback").hidden = false;
}
const probe = new Image();
probe.onload = () => settle(true);
probe.onerror = () => settle(false);
setTimeout(() => settle(false), $timeout_ms);
probe.src = $probe;
</script></body></html>
""")


# The key's cookie is set; on to the address without the key.
GO_ON_PAGE = Template("""<!doctype html><html><head><meta charset="utf-8"><title>LocalCrew</title>
<meta http-equiv="refresh" content="0;url=$location"></head><body>
<p><a href="$location">Open LocalCrew</a></p></body></html>
""")


def _script_string(text: str) -> str:
    return dumps(text).replace("<", "\\u003c")  # no "</script>" in the value ends the script early


async def _send_probe_image(send: Any, method: str) -> None:
    """The probe's answer: a blank image, no cookie (it only shows that the own name reaches here)."""
    headers = [
        (b"content-type", b"image/svg+xml"),
        (b"content-length", str(len(PROBE_IMAGE)).encode()),
        (b"cache-control", b"no-store"),
        (b"x-content-type-options", b"nosniff"),
    ]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": PROBE_IMAGE if method == "GET" else b""})


_FRAME_HEADERS = [
    (b"x-frame-options", b"SAMEORIGIN"),
    (b"content-security-policy", b"frame-ancestors 'self'"),
]


def _not_framed(send: Any) -> Any:
    """No other page may show the IDE in a frame and trick clicks into it (browsers without the
    fetch metadata read above still honour these)."""

    async def framed_send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            names = {name.lower() for name, _ in message.get("headers", [])}
            extra = [(k, v) for k, v in _FRAME_HEADERS if k not in names]
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return framed_send


class HttpGuard:
    """ASGI middleware: the key (query once, then cookie or header) and the origin, on every request."""

    # Gradio's launch() probes these two without any key before it returns; neither shows or
    # changes anything (HEAD / is answered here, with no body; startup-events runs Gradio's
    # start-up once and answers true/false).
    _LAUNCH_PROBES = frozenset({("HEAD", "/"), ("GET", "/gradio_api/startup-events")})

    def __init__(
        self,
        app: Any,
        token: str,
        port: int,
        backoff: LoginBackoff | None = None,
        cookie_host: str | None = None,
    ) -> None:
        self.app, self.token, self.cookie, self.backoff = app, token, cookie_name(port), backoff
        self.port = port
        # Where the key may be a cookie: this host name only (None: any, off loopback, where the
        # browsers of other machines name this one as they can and --auth guards too).
        self.cookie_host = cookie_host.lower() if cookie_host else None
        # Hosts (name, port) where a browser that cannot resolve the own name went on: the cookie
        # was set there, so it counts there too.
        self._fallback_hosts: set[tuple[str, int]] = set()
        self._login_locks: dict[str, asyncio.Lock] = {}

    @staticmethod
    def _asked_host(headers: dict[str, str]) -> tuple[str, int]:
        name, _, port = headers.get("host", "").strip().lower().rpartition(":")
        if not name or not port.isdigit():  # no port: only port 80 leaves it out
            return headers.get("host", "").strip().lower(), 80
        return name, int(port)

    def _own_host_asked(self, headers: dict[str, str]) -> bool:
        """Whether the request names this launch's own host and port (or no such host is set)."""
        return self.cookie_host is None or self._asked_host(headers) == (self.cookie_host, self.port)

    def _cookie_counts(self, headers: dict[str, str]) -> bool:
        return self._own_host_asked(headers) or self._asked_host(headers) in self._fallback_hosts

    def _has_key(self, headers: dict[str, str]) -> bool:
        given = headers.get(TOKEN_HEADER)
        if not given and self._cookie_counts(headers):
            given = _cookies(headers.get("cookie", "")).get(self.cookie, "")
        return bool(given) and hmac.compare_digest(given.encode(), self.token.encode())

    def _is_probe(self, scope: dict[str, Any], headers: dict[str, str]) -> bool:
        # Before the origin check: the page under 127.0.0.1 loads it from another site.
        return (
            scope["type"] == "http"
            and scope.get("method") in ("GET", "HEAD")
            and scope.get("path") == PROBE_PATH
            and self.cookie_host is not None
            and self._own_host_asked(headers)
        )

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        method = scope.get("method", "GET")
        if self._is_probe(scope, headers):
            await _send_probe_image(send, method)
            return
        problem = cross_origin_problem(scope, headers)
        if problem is not None:
            await self._refuse(scope, send, CROSS_ORIGIN_MESSAGE)
            return
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        given = dict(query).get(TOKEN_PARAM)
        if given is not None and hmac.compare_digest(given.encode(), self.token.encode()):
            if scope["type"] == "http" and method == "GET":
                await self._open_with_key(scope, send, headers, query)
                return
        elif not self._has_key(headers):
            if scope["type"] == "http" and (method, scope.get("path")) in self._LAUNCH_PROBES:
                if method == "HEAD":
                    await send({"type": "http.response.start", "status": 200, "headers": []})
                    await send({"type": "http.response.body", "body": b""})
                    return
            else:
                await self._refuse(scope, send, NO_KEY_MESSAGE)
                return
        if (
            self.backoff is not None
            and method == "POST"
            and scope.get("path", "").rstrip("/").endswith("/login")
        ):
            await self._login(scope, receive, send, client_key(scope, headers))
            return
        await self.app(scope, receive, _not_framed(send) if scope["type"] == "http" else send)

    async def _open_with_key(
        self, scope: dict[str, Any], send: Any, headers: dict[str, str], query: list[tuple[str, str]]
    ) -> None:
        """The key's address, opened: the cookie where it may be set, else the way to that host."""
        if self._own_host_asked(headers):
            await self._set_cookie_and_redirect(scope, send, query, headers)
        elif any(name == FALLBACK_PARAM for name, _ in query):
            # The browser could not open the own name and the user, told what it costs, went on
            # here: the cookie is host-only on this name, as before the own name existed.
            self._fallback_hosts.add(self._asked_host(headers))
            await self._set_cookie_and_redirect(scope, send, query, headers)
        else:
            await self._own_name_page(scope, send, query, self._asked_host(headers)[0])

    async def _set_cookie_and_redirect(
        self, scope: dict[str, Any], send: Any, query: list[tuple[str, str]], headers: dict[str, str]
    ) -> None:
        # The key leaves the address bar (and the history) at once; the cookie carries it from now on.
        rest = urlencode([(k, v) for k, v in query if k not in (TOKEN_PARAM, FALLBACK_PARAM)])
        location = (scope.get("root_path", "") + scope.get("path", "/")) + (f"?{rest}" if rest else "")
        cookie = f"{self.cookie}={self.token}; Path=/; HttpOnly; SameSite=Strict"
        answer = [
            (b"set-cookie", cookie.encode("latin-1")),
            (b"cache-control", b"no-store"),
            (b"referrer-policy", b"no-referrer"),
        ]
        if headers.get("sec-fetch-site") in ("none", "same-origin"):  # the user's own address bar
            answer += [(b"location", location.encode("latin-1")), (b"content-length", b"0")]
            await send({"type": "http.response.start", "status": 303, "headers": answer})
            await send({"type": "http.response.body", "body": b""})
            return
        # A navigation another site (or file, or a browser without fetch metadata) started, like the
        # page under 127.0.0.1: a redirect would stay part of it and the browser would withhold the
        # Strict cookie from the next request. A refresh is this page's own navigation.
        page = GO_ON_PAGE.substitute(location=escape(location, quote=True)).encode()
        answer += [
            (b"content-type", b"text/html; charset=utf-8"),
            (b"content-length", str(len(page)).encode()),
            (b"content-security-policy", b"default-src 'none'; frame-ancestors 'none'"),
            (b"x-frame-options", b"DENY"),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": answer})
        await send({"type": "http.response.body", "body": page})

    async def _own_name_page(
        self, scope: dict[str, Any], send: Any, query: list[tuple[str, str]], here: str
    ) -> None:
        """The key's address under 127.0.0.1 or localhost: a page that goes on to the same address
        under this launch's own name where the browser reaches it (only a request with the key
        gets here, so only its holder learns the name), and sets no cookie.

        No 303 for clients that are not browsers: scripts send the key as a header, and one that
        asks with it in the address gets the own-name address in this page as well."""
        origin = f"http://{self.cookie_host}:{self.port}"
        path = scope.get("root_path", "") + scope.get("path", "/")
        rest = scope.get("query_string", b"").decode("latin-1")
        nonce = secrets.token_urlsafe(16)
        page = OWN_NAME_PAGE.substitute(
            nonce=nonce,
            name=escape(str(self.cookie_host)),
            here=escape(here),
            own=_script_string(f"{origin}{path}" + (f"?{rest}" if rest else "")),
            probe=_script_string(origin + PROBE_PATH),
            fallback=escape(f"{path}?{urlencode([*query, (FALLBACK_PARAM, '1')])}", quote=True),
            timeout_ms=PROBE_TIMEOUT_MS,
        ).encode()
        policy = (
            f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; "
            f"img-src {origin}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        )
        headers = [
            (b"content-type", b"text/html; charset=utf-8"),
            (b"content-length", str(len(page)).encode()),
            (b"cache-control", b"no-store"),
            (b"referrer-policy", b"no-referrer"),
            (b"content-security-policy", policy.encode("latin-1")),
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": page})

    async def _refuse(self, scope: dict[str, Any], send: Any, message: str) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        await _send_text(send, 403, message)

    async def _login(self, scope: dict[str, Any], receive: Any, send: Any, client: str) -> None:
        """One attempt at a time per client, each after the wait its earlier failures earned."""
        assert self.backoff is not None
        lock = self._login_locks.setdefault(client, asyncio.Lock())
        if lock.locked() and self.backoff.wait_left(client) > 0:
            # Parallel guesses queue up behind one another; answer them now instead of holding them.
            wait = math.ceil(self.backoff.wait_left(client))
            retry = [(b"retry-after", str(wait).encode())]
            await _send_text(send, 429, f"Too many wrong passwords; try again in {wait} s.\n", retry)
            return
        async with lock:
            await asyncio.sleep(self.backoff.wait_left(client))
            status: list[int] = []

            async def watch(message: dict[str, Any]) -> None:
                if message["type"] == "http.response.start":
                    status.append(message["status"])
                await send(message)

            await self.app(scope, receive, watch)
            if status and status[0] == 200:
                self.backoff.succeeded(client)
            elif status and 400 <= status[0] < 500:
                self.backoff.failed(client)


def outermost(wrap: Callable[[Any], Any]) -> Callable[[Any], contextlib.AbstractAsyncContextManager[None]]:
    """A FastAPI lifespan that puts `wrap` around the app's whole middleware stack.

    Gradio adds its CORS middleware outside any middleware given to launch(), and that one
    answers preflights and reflects every localhost origin by itself; only a layer outside it can
    refuse them. The lifespan runs before the server accepts its first connection, so no
    request is ever served unguarded.
    """

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        if app.middleware_stack is None:
            app.middleware_stack = app.build_middleware_stack()
        app.middleware_stack = wrap(app.middleware_stack)
        yield

    return lifespan


def guarded_app_kwargs(
    token: str,
    port: int,
    backoff: LoginBackoff | None,
    host_check: Callable[[Any], Any] | None = None,
    cookie_host: str | None = None,
) -> dict[str, Any]:
    """Gradio's launch(app_kwargs=...): the guard outside everything, and outside it the host check
    (a wrong Host is answered as such, before the key is asked for)."""

    def wrap(stack: Any) -> Any:
        guarded = HttpGuard(stack, token, port, backoff, cookie_host)
        return host_check(guarded) if host_check is not None else guarded

    return {"lifespan": outermost(wrap)}

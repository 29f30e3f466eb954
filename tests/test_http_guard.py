"""Only the IDE's own page drives the IDE: the real server, asked as other local pages and programs would."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from gui.http_guard import NO_KEY_MESSAGE, TOKEN_HEADER, LoginBackoff
from tests.app_process import RunningApp, serve_app
from tests.gguf_builder import llama_like

EVIL = "http://localhost:9999"  # a dev server or notebook on the same machine
LOCAL_FILE = "local .gguf file…"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningApp]:
    root = tmp_path_factory.mktemp("guard")
    (root / "workspace").mkdir()
    (root / "workspace" / "calc.py").write_text("x = 1\n")
    (root / "config").mkdir()
    (root / "config" / "settings.json").write_text(json.dumps({"rounds": 1}))
    uploads = root / "uploads"  # Gradio's upload folder: what an accepted upload leaves behind
    with serve_app(tmp_path=root, env={"GRADIO_TEMP_DIR": str(uploads)}) as running:
        running.root = root  # type: ignore[attr-defined]
        running.uploads = uploads  # type: ignore[attr-defined]
        yield running


def _request(
    app: RunningApp,
    method: str,
    path: str,
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
    *,
    cookie: bool = False,
    host: str | None = None,
) -> tuple[int, dict[str, str], str]:
    """`cookie`: with the page's cookie, asked as the page asks: under this launch's own name
    (`host` asks under another, as a replayed cookie would)."""
    headers = dict(headers or {})
    if cookie:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in app.cookies.items())
        headers.setdefault("Host", host or app.page_host)
    elif host is not None:
        headers["Host"] = host
    connection = http.client.HTTPConnection("127.0.0.1", app.port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        answer = {k.lower(): v for k, v in response.getheaders()}
        return response.status, answer, response.read().decode(errors="replace")
    finally:
        connection.close()


def _config(app: RunningApp) -> dict[str, Any]:
    status, _, body = _request(app, "GET", "/config", cookie=True)
    assert status == 200
    return json.loads(body)


def _fn_index(app: RunningApp, api_name: str) -> int:
    return next(d["id"] for d in _config(app)["dependencies"] if d.get("api_name") == api_name)


def _join(fn_index: int, data: list[Any]) -> bytes:
    return json.dumps(
        {"data": data, "fn_index": fn_index, "session_hash": "attacker", "event_data": None}
    ).encode()


JSON = {"Content-Type": "application/json"}


def _multipart(name: str, content: bytes) -> tuple[dict[str, str], bytes]:
    boundary = "----localcrewtest"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="{name}"\r\n'
            f"Content-Type: text/plain\r\n\r\n"
        ).encode()
        + content
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return {"Content-Type": f"multipart/form-data; boundary={boundary}"}, body


def test_every_route_without_the_key_is_refused_with_one_line_saying_what_to_open(app: RunningApp) -> None:
    routes = [
        ("GET", "/", None),
        ("GET", "/config", None),
        ("GET", "/gradio_api/info", None),
        ("GET", "/theme.css", None),
        ("GET", "/gradio_api/file=" + str(app.root / "workspace" / "calc.py"), None),  # type: ignore[attr-defined]
        ("POST", "/gradio_api/queue/join", _join(0, ["hello", None])),
        ("POST", "/gradio_api/run/predict", b"{}"),
    ]
    for method, path, body in routes:
        status, headers, text = _request(app, method, path, JSON if body else None, body)
        assert status == 403 and text == NO_KEY_MESSAGE, (method, path, status, text)
        assert "access-control-allow-origin" not in headers
    upload_headers, upload = _multipart("x.txt", b"payload")
    status, _, text = _request(app, "POST", "/gradio_api/upload", upload_headers, upload)
    assert status == 403 and text == NO_KEY_MESSAGE
    # A wrong key is no key.
    status, _, _ = _request(app, "GET", "/", {TOKEN_HEADER: app.token[:-1] + "x"})
    assert status == 403
    assert _request(app, "GET", "/?token=wrong")[0] == 403


def test_the_printed_address_sets_a_strict_http_only_cookie_and_the_page_loads(app: RunningApp) -> None:
    path = "/?" + urlsplit(app.url).query  # "/?token=..."
    typed = {"Sec-Fetch-Site": "none"}  # opened from the address bar
    status, headers, _ = _request(app, "GET", path, typed, host=app.page_host)
    assert status == 303 and headers["location"] == "/"  # the key leaves the address bar
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"{next(iter(app.cookies))}={app.token};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    status, headers, page = _request(app, "GET", "/", cookie=True)
    assert status == 200 and "<html" in page.lower()
    assert headers.get("x-frame-options") == "SAMEORIGIN"  # no other page shows it in a frame
    # The page's own requests: same origin, with the cookie.
    same = {"Origin": app.page_url.rstrip("/"), "Sec-Fetch-Site": "same-origin", **JSON}
    stop = _join(_fn_index(app, "stop"), [])
    status, headers, _ = _request(app, "POST", "/gradio_api/queue/join", same, stop, cookie=True)
    assert status == 200, status
    assert headers.get("access-control-allow-origin") == app.page_url.rstrip("/")


def test_gradio_client_with_the_pages_cookie_works(app: RunningApp) -> None:
    plan = app.client().predict("smollm2-135m", "", 4096, "f16", "auto", api_name="/preview_plan")
    assert "CPU" in plan or "GPU" in plan


def test_another_local_origin_gets_no_cors_and_cannot_post_even_with_the_cookie(app: RunningApp) -> None:
    preflight = {
        "Origin": EVIL,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
    }
    status, headers, _ = _request(app, "OPTIONS", "/gradio_api/queue/join", preflight, cookie=True)
    assert status == 403 and "access-control-allow-origin" not in headers
    # The cookie is there to show that the origin check holds by itself (a browser would also
    # withhold the SameSite=Strict cookie from a cross-site page).
    evil = {"Origin": EVIL, "Sec-Fetch-Site": "same-site", **JSON}
    status, headers, _ = _request(
        app, "POST", "/gradio_api/queue/join", evil, _join(0, ["hi", None]), cookie=True
    )
    assert status == 403 and "access-control-allow-origin" not in headers
    for origin in ("null", "http://127.0.0.1:1", "http://attacker.example"):
        status, headers, _ = _request(app, "GET", "/config", {"Origin": origin}, cookie=True)
        assert status == 403 and "access-control-allow-origin" not in headers, origin
    # Without an Origin header, the fetch metadata alone refuses a cross-site subresource request.
    status, _, _ = _request(
        app, "GET", "/config", {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"}, cookie=True
    )
    assert status == 403
    # Nor in a frame of a same-site page (another port of this machine), which gets the cookie.
    frame = {"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe"}
    assert _request(app, "GET", "/", frame, cookie=True)[0] == 403
    link = {"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}
    assert _request(app, "GET", "/", link, cookie=True)[0] == 200  # a link the user follows


def test_a_cross_site_multipart_upload_is_refused(app: RunningApp) -> None:
    headers, body = _multipart("authorized_keys", b"ssh-ed25519 AAAA attacker\n")
    for extra in (
        {"Origin": "http://attacker.example", "Sec-Fetch-Site": "cross-site"},
        {"Origin": EVIL, "Sec-Fetch-Site": "same-site"},
        {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"},  # a form post that sent no Origin
    ):
        status, answer, text = _request(
            app, "POST", "/gradio_api/upload", {**headers, **extra}, body, cookie=True
        )
        assert status == 403 and "access-control-allow-origin" not in answer, (extra, status, text)
    # The page's own upload still works.
    own = {**headers, "Origin": app.page_url.rstrip("/"), "Sec-Fetch-Site": "same-origin"}
    status, _, text = _request(app, "POST", "/gradio_api/upload", own, body, cookie=True)
    assert status == 200 and "authorized_keys" in text, text


EVIL_PAGE = """<!doctype html><html><body><form id="f" method="POST" enctype="multipart/form-data"
action="{ide}gradio_api/upload"><input type="hidden" name="x" value="y"></form></body></html>"""

ATTACK_JS = """async (ide) => {
  const out = {};
  const upload = () => {
    const form = new FormData();
    form.append("files", new Blob(["attacker"]), "stolen-upload.txt");
    return form;
  };
  const post = {method: "POST", credentials: "include"};
  try {
    out.config = (await fetch(ide + "config", {credentials: "include"})).status;
  } catch (e) { out.config = "blocked"; }
  try {
    out.upload = (await fetch(ide + "gradio_api/upload", {...post, body: upload()})).status;
  } catch (e) { out.upload = "blocked"; }
  // no-cors: the browser sends it (same-site: with the cookie) and hides the answer;
  // only the server can refuse it.
  await fetch(ide + "gradio_api/upload", {...post, body: upload(), mode: "no-cors"});
  return out;
}"""


def test_a_page_on_another_local_port_cannot_drive_the_ide_in_a_real_browser(app: RunningApp) -> None:
    """The issue's attack as a browser makes it: the user has the IDE open (its cookie is set) and
    visits a page on another port of 127.0.0.1, which is same-site, so the cookie goes along."""
    import http.server
    import socketserver

    from playwright.sync_api import sync_playwright

    from bench.child_process import free_port
    from tests.test_gui_browser import CHROMIUM_ARGS, chromium_path

    page_html = EVIL_PAGE.format(ide=app.page_url).encode()

    class Evil(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page_html)

        def log_message(self, *args: object) -> None:
            pass

    evil_port = free_port()
    with socketserver.TCPServer(("127.0.0.1", evil_port), Evil) as evil:
        threading.Thread(target=evil.serve_forever, daemon=True).start()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            try:
                page = browser.new_page()
                page.goto(app.url)  # the user's own tab: the key becomes the cookie
                assert page.url == app.page_url and "403" not in page.title()
                assert any(c["name"] == next(iter(app.cookies)) for c in page.context.cookies())
                page.goto(f"http://127.0.0.1:{evil_port}/")
                result = page.evaluate(ATTACK_JS, app.page_url)
                assert result == {"config": "blocked", "upload": "blocked"}, result
                with page.expect_navigation():  # a plain form post, top level
                    page.evaluate("document.getElementById('f').submit()")
                assert "other sites or origins" in page.content()
            finally:
                browser.close()
        evil.shutdown()
    uploads: Path = app.uploads  # type: ignore[attr-defined]
    assert not list(uploads.rglob("stolen-upload.txt")), "a cross-origin upload was accepted"


def test_the_key_is_a_cookie_of_this_launchs_own_host_name_only(app: RunningApp) -> None:
    """Cookies ignore ports: a key cookie on 127.0.0.1 went to every local server on any port, and
    replayed from there it drove the IDE. The browser now opens this launch's own name, the cookie
    is host-only there, and elsewhere it does not count."""
    name, _, port = app.page_host.rpartition(":")
    assert name.startswith("lc-") and name.endswith(".localhost") and int(port) == app.port, app.url
    for other in (f"127.0.0.1:{app.port}", f"localhost:{app.port}", f"{name}:1", name):
        status, headers, text = _request(app, "GET", "/config", cookie=True, host=other)
        assert status == 403 and text == NO_KEY_MESSAGE, (other, status)
    assert _request(app, "GET", "/config", cookie=True)[0] == 200  # the page's own host and port
    assert _request(app, "GET", "/config", {TOKEN_HEADER: app.token})[0] == 200  # scripts: anywhere
    # The key's address under 127.0.0.1 sets no cookie there: its page goes on to the launch's own
    # name (tests/test_own_host_fallback.py: where the browser cannot resolve that name).
    query = urlsplit(app.url).query
    status, headers, page = _request(app, "GET", f"/?{query}", host=f"127.0.0.1:{app.port}")
    assert status == 200 and "set-cookie" not in headers
    assert json.dumps(f"{app.page_url}?{query}") in page


def test_a_server_on_another_loopback_port_never_receives_the_key_in_a_real_browser(app: RunningApp) -> None:
    """The issue's leak as chromium makes it: the IDE is open (its cookie is set), then the user
    visits servers on other ports of 127.0.0.1 and localhost; none may be sent the key."""
    import http.server
    import socketserver

    from playwright.sync_api import sync_playwright

    from bench.child_process import free_port
    from tests.test_gui_browser import CHROMIUM_ARGS, chromium_path

    received: list[str] = []

    class Other(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            received.append(self.headers.get("Cookie") or "")
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<!doctype html><title>other</title>")

        def log_message(self, *args: object) -> None:
            pass

    other_port = free_port()
    with socketserver.TCPServer(("127.0.0.1", other_port), Other) as other:
        threading.Thread(target=other.serve_forever, daemon=True).start()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            try:
                page = browser.new_page()
                page.goto(app.url)  # chromium resolves lc-<random>.localhost to loopback itself
                assert page.url == app.page_url, page.url
                page.wait_for_selector("#request textarea", timeout=180_000)  # the IDE, loaded
                cookies = page.context.cookies()
                key = [c for c in cookies if c["name"] == next(iter(app.cookies))]
                assert key and key[0]["domain"] == urlsplit(app.page_url).hostname, cookies
                for host in ("127.0.0.1", "localhost"):
                    page.goto(f"http://{host}:{other_port}/")
                    assert page.title() == "other"
            finally:
                browser.close()
        other.shutdown()
    assert len(received) >= 2  # both pages (and their favicons)
    assert not any(app.token in cookie for cookie in received), received


def test_a_raw_queue_call_to_the_editors_private_handler_needs_the_pages_key(app: RunningApp) -> None:
    show_file = _fn_index(app, "show_checked")  # the tree's checkbox opens a file through it
    body = _join(show_file, [str(app.root / "workspace" / "calc.py"), "", "", None])  # type: ignore[attr-defined]
    status, _, text = _request(app, "POST", "/gradio_api/queue/join", JSON, body)
    assert status == 403 and text == NO_KEY_MESSAGE
    status, _, _ = _request(
        app, "POST", "/gradio_api/queue/join", {**JSON, "Origin": EVIL}, body, cookie=True
    )
    assert status == 403
    # Nor may the stream of results be read without it.
    assert _request(app, "GET", "/gradio_api/queue/data?session_hash=attacker")[0] == 403


@pytest.mark.parametrize("folder", ["/", "/root", "/etc", "~", ".", "../.."])
def test_settings_cannot_move_the_workspace_to_a_root_home_or_system_folder(
    app: RunningApp, folder: str
) -> None:
    settings_file = app.root / "config" / "settings.json"  # type: ignore[attr-defined]
    workspace = str((app.root / "workspace").resolve())  # type: ignore[attr-defined]
    message = app.client().predict(folder, 1, 0.0, 42, False, api_name="/save_settings")
    assert "still" in message or "Settings not saved" in message, message
    if settings_file.exists():
        saved = json.loads(settings_file.read_text())
        assert saved.get("workspace", "") in ("", workspace), saved
    # The workspace itself did not move: a file saved now lands in the real workspace.
    assert "Saved" in app.client().predict(str(Path(workspace)), 1, 0.0, 42, False, api_name="/save_settings")


def test_a_model_that_fails_to_load_does_not_replace_the_saved_model(app: RunningApp, tmp_path: Path) -> None:
    settings_file = app.root / "config" / "settings.json"  # type: ignore[attr-defined]
    before = settings_file.read_text() if settings_file.exists() else None
    broken = llama_like(tmp_path / "broken.gguf")  # a readable header, no tokenizer: llama.cpp refuses it
    client = app.client()
    message = client.predict(LOCAL_FILE, str(broken), 4096, "f16", "auto", api_name="/load_model")
    assert "Load failed" in message and "nothing was saved" in message, message
    after = settings_file.read_text() if settings_file.exists() else None
    assert after == before
    assert str(broken) not in (after or "")


# ---------- --auth: wrong passwords slow down ----------


def test_login_backoff_grows_per_client_is_capped_and_clears_on_success() -> None:
    now = [100.0]
    backoff = LoginBackoff(free_failures=3, base_s=1.0, cap_s=8.0, clock=lambda: now[0])
    for _ in range(3):
        backoff.failed("a")
    assert backoff.wait_left("a") == 1.0 and backoff.wait_left("b") == 0.0
    waits = []
    for _ in range(5):
        backoff.failed("a")
        waits.append(backoff.wait_left("a"))
    assert waits == [2.0, 4.0, 8.0, 8.0, 8.0]  # capped: the right password is never locked out for long
    now[0] += 8.0
    assert backoff.wait_left("a") == 0.0
    backoff.succeeded("a")
    backoff.failed("a")
    assert backoff.wait_left("a") == 0.0  # a fresh start after a success


def _login(app: RunningApp, password: str) -> tuple[int, float]:
    body = f"username=user&password={password}".encode()
    headers = {TOKEN_HEADER: app.token, "Content-Type": "application/x-www-form-urlencoded"}
    start = time.monotonic()
    status, _, _ = _request(app, "POST", "/login", headers, body)
    return status, time.monotonic() - start


def test_repeated_wrong_passwords_slow_down_and_the_right_one_still_gets_in(tmp_path: Path) -> None:
    base = 0.4
    with serve_app(
        "--auth", "user:right-password", tmp_path=tmp_path, env={"LOCALCREW_LOGIN_BACKOFF_S": str(base)}
    ) as app:
        quick = [_login(app, "wrong") for _ in range(3)]
        assert all(status == 400 for status, _ in quick) and all(took < base for _, took in quick), quick
        status, took = _login(app, "wrong")  # the fourth waits out the delay the third earned
        assert status == 400 and took >= base * 0.9, took
        status, took = _login(app, "wrong")
        assert status == 400 and took >= 2 * base * 0.9, took
        # Guesses in parallel do not share the wait: the extra ones are answered 429 at once.
        results: list[int] = []
        threads = [threading.Thread(target=lambda: results.append(_login(app, "wrong")[0])) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert 429 in results and set(results) <= {400, 429}, results
        status, took = _login(app, "right-password")
        assert status == 200 and took <= 30 * base + 1, took  # slowed, never blocked for good
        assert _login(app, "wrong")[1] < base  # a success clears the count


# ---------- settings, whoever sends them ----------


@pytest.mark.parametrize("folder", ["/", "/etc", str(Path.home())])
def test_a_root_home_or_system_workspace_is_never_persisted(tmp_path: Path, folder: str) -> None:
    from gui.user_settings import UnsafeWorkspace, UserSettings, save_settings

    path = tmp_path / "settings.json"
    with pytest.raises(UnsafeWorkspace):
        save_settings(UserSettings(workspace=folder), path)
    assert not path.exists()
    save_settings(UserSettings(workspace=str(tmp_path)), path)  # a project folder is fine
    assert json.loads(path.read_text())["workspace"] == str(tmp_path)

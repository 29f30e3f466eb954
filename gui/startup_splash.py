"""A status page on the app's port while Gradio is still importing (about 4 s on 2 cores), so the
browser tab opens at once and says what is happening; it reloads itself into the IDE.

Standard library only: it must be up before anything heavy is imported.
"""

from __future__ import annotations

import socket
import threading
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SPLASH_HEADER = "X-LocalCrew-Splash"

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>LocalCrew is starting</title>
<style>body{{font-family:system-ui,sans-serif;margin:15vh auto;max-width:36em;color:#374151}}
.s{{display:inline-block;width:1em;height:1em;border:3px solid #f97316;border-top-color:transparent;
border-radius:50%;animation:r .8s linear infinite;vertical-align:middle;margin-right:.5em}}
@keyframes r{{to{{transform:rotate(360deg)}}}}</style></head><body>
<h1><span class="s"></span>LocalCrew is starting…</h1><p>{detail}</p>
<script>
async function poll() {{
  try {{
    const r = await fetch("/", {{cache: "no-store"}});
    if (!r.headers.get("{header}")) {{ location.reload(); return; }}
  }} catch (e) {{}}
  setTimeout(poll, 400);
}}
setTimeout(poll, 400);
</script></body></html>"""


class StartupSplash:
    def __init__(self, host: str, port: int, detail: str) -> None:
        body = PAGE.format(detail=escape(detail), header=SPLASH_HEADER).encode()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Cache-Control", "no-store")
                self.send_header(SPLASH_HEADER, "1")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:  # quiet: the terminal is the app's
                pass

        class Server(ThreadingHTTPServer):
            allow_reuse_address = True
            address_family = socket.AF_INET6 if ":" in host else socket.AF_INET

        self._server = Server((host, port), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="splash", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Free the port for the real server (called right before Gradio binds it)."""
        self._server.shutdown()
        self._server.server_close()

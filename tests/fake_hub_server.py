"""A local HTTP server on 127.0.0.1 that answers file downloads as the Hugging Face hub does.

Only what huggingface_hub's download path asks: HEAD and GET of /{repo}/resolve/{revision}/{file},
with the hub's headers (X-Repo-Commit, ETag, Content-Length), Range requests answered 206, and a
404 that names EntryNotFound. Test knobs: `cut_after` closes the first GET after that many bytes,
`delay_s` sleeps between 4 KiB pieces (a slow link). Every request is recorded.
"""

from __future__ import annotations

import hashlib
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COMMIT = "0123456789abcdef0123456789abcdef01234567"
_PIECE = 4096


@dataclass
class Seen:
    method: str
    path: str
    range: str | None


@dataclass
class FakeHub:
    files: dict[str, bytes] = field(default_factory=dict)  # "repo/filename" -> bytes
    cut_after: int | None = None  # the first GET ends after this many body bytes
    delay_s: float = 0.0
    seen: list[Seen] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def file_requests(self) -> list[Seen]:
        """Requests for files (the client may also ask the API for other things, e.g. its registries)."""
        return [s for s in self.seen if "/resolve/" in s.path]

    def gets(self) -> list[Seen]:
        return [s for s in self.file_requests() if s.method == "GET"]

    def start(self) -> FakeHub:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # quiet test output
                pass

            def do_HEAD(self) -> None:  # noqa: N802 - http.server's naming
                hub._answer(self, body=False)

            def do_GET(self) -> None:  # noqa: N802
                hub._answer(self, body=True)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()

    def _answer(self, handler: BaseHTTPRequestHandler, body: bool) -> None:
        requested = handler.headers.get("Range")
        self.seen.append(Seen(handler.command, handler.path, requested))
        repo_and_rest = handler.path.split("/resolve/", 1)
        data = None
        if len(repo_and_rest) == 2:
            filename = repo_and_rest[1].split("/", 1)[-1]
            data = self.files.get(f"{repo_and_rest[0].lstrip('/')}/{filename}")
        if data is None:
            handler.send_response(404)
            handler.send_header("X-Error-Code", "EntryNotFound")
            handler.send_header("X-Repo-Commit", COMMIT)
            handler.send_header("Content-Length", "0")
            handler.end_headers()
            return
        start = int(requested.split("=", 1)[1].split("-", 1)[0]) if requested else 0
        handler.send_response(206 if requested else 200)
        handler.send_header("X-Repo-Commit", COMMIT)
        handler.send_header("ETag", f'"{hashlib.sha256(data).hexdigest()}"')
        handler.send_header("Accept-Ranges", "bytes")
        handler.send_header("Content-Length", str(len(data) - start))
        if requested:
            handler.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        handler.end_headers()
        if body:
            self._send(handler, data[start:])

    def _send(self, handler: BaseHTTPRequestHandler, payload: bytes) -> None:
        limit = self.cut_after if self.cut_after is not None else len(payload)
        self.cut_after = None  # only the first GET is cut
        for offset in range(0, min(limit, len(payload)), _PIECE):
            handler.wfile.write(payload[offset : min(offset + _PIECE, limit)])
            handler.wfile.flush()
            if self.delay_s:
                time.sleep(self.delay_s)
        # HTTP/1.0: the connection closes here, so a cut body is short of its Content-Length.
        handler.close_connection = True


def point_hub_client_at(monkeypatch: object, url: str) -> None:
    """What HF_ENDPOINT does when set before huggingface_hub is imported, for a process that has
    imported it already: the endpoint and the download URL template both read it at import."""
    from huggingface_hub import constants

    monkeypatch.setenv("HF_ENDPOINT", url)  # type: ignore[attr-defined]
    monkeypatch.setattr(constants, "ENDPOINT", url)  # type: ignore[attr-defined]
    template = url + "/{repo_id}/resolve/{revision}/{filename}"
    monkeypatch.setattr(constants, "HUGGINGFACE_CO_URL_TEMPLATE", template)  # type: ignore[attr-defined]

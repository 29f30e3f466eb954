"""A tiny OpenAI-compatible server for the failures a real one will not produce on demand: HTTP
500, a stream cut in the middle, a slow answer, a line that is not JSON, text where a JSON schema
was asked, a reply that streams a piece every `piece_s` (a model still writing when Stop comes).
Standard library only; it listens on a free loopback port in a thread.

What it says to a chat completion depends on `mode`; `reply(body)` scripts the text of a normal
answer (the request's JSON body in, the reply's text out).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODES = ("ok", "500", "cut", "slow", "garbage", "trickle")


class StubServer:
    def __init__(self, mode: str = "ok", reply: Callable[[dict[str, Any]], str] | None = None) -> None:
        assert mode in MODES, mode
        self.mode = mode
        self.reply = reply or (lambda body: "Hello from the stub.")
        self.requests: list[dict[str, Any]] = []  # bodies of the chat completions received
        self.headers: list[dict[str, str]] = []
        self.slow_s = 3.0
        self.piece_s = 0.5
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> StubServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def _chunk(text: str = "", finish: str | None = None) -> bytes:
    event = {"choices": [{"index": 0, "delta": {"content": text} if text else {}, "finish_reason": finish}]}
    return f"data: {json.dumps(event)}\n\n".encode()


def _handler_for(stub: StubServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # quiet test output
            pass

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            if self.path.rstrip("/").endswith("/models"):
                self._send(200, {"object": "list", "data": [{"id": "stub-coder-0.5b", "object": "model"}]})
            else:
                self._send(404, {"error": "not found"})

        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            stub.requests.append(body)
            stub.headers.append(dict(self.headers))
            if stub.mode == "500":
                self._send(500, {"error": {"message": "CUDA error: out of memory"}})
                return
            if stub.mode == "slow":
                time.sleep(stub.slow_s)
            text = stub.reply(body)
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            pieces = [text[i : i + 4] for i in range(0, len(text), 4)] or [""]
            if stub.mode == "cut":  # half the reply, then the connection drops mid-body
                for piece in pieces[: max(1, len(pieces) // 2)]:
                    self._write_chunk(_chunk(piece))
                self.wfile.flush()
                self.close_connection = True
                return
            if stub.mode == "garbage":
                self._write_chunk(b"data: <html>Bad Gateway</html>\n\n")
            for piece in pieces:
                if stub.mode == "trickle":
                    time.sleep(stub.piece_s)
                try:
                    self._write_chunk(_chunk(piece))
                    self.wfile.flush()
                except OSError:  # the client stopped reading: a Stop closes the stream
                    self.close_connection = True
                    return
            self._write_chunk(_chunk(finish="stop"))
            self._write_chunk(b"data: [DONE]\n\n")
            self.wfile.write(b"0\r\n\r\n")

        def _write_chunk(self, data: bytes) -> None:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler

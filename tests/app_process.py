"""Start `python app.py` as a user would, in a subprocess, and wait for its page."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.child_process import free_port, stop
from gui.http_guard import TOKEN_HEADER, cookie_name
from gui.startup_splash import SPLASH_HEADER

ROOT = Path(__file__).resolve().parent.parent


# Tests of the app's mechanics run on the bundled 135M model: it loads in a fraction of a second.
# A test of the default choice itself passes fast_model=False.
FAST_MODEL = ("--model", "smollm2-135m")


def _model_args(args: tuple[str, ...], fast_model: bool) -> tuple[str, ...]:
    return FAST_MODEL if fast_model and "--model" not in args else ()


def run_app(*args: str, timeout: float = 600, fast_model: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "app.py", *_model_args(args, fast_model), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


@dataclass
class RunningApp:
    url: str  # the address the app printed, with this launch's key: what a browser opens
    base_url: str  # the same without the key
    token: str
    port: int
    process: subprocess.Popen[str]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    @property
    def cookies(self) -> dict[str, str]:
        """The cookie the page gets after opening `url` (sent to `page_url`'s host only)."""
        return {cookie_name(self.port): self.token}

    @property
    def page_url(self) -> str:
        """Where the browser's tab ends up: `url`'s own host (this launch's name), without the key."""
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}/"

    @property
    def page_host(self) -> str:
        """The Host header of the page's own requests: this launch's name and port."""
        return urlsplit(self.url).netloc

    def client(self, **kwargs: object) -> Any:
        """A gradio_client.Client that drives the app as a script does (with the key's header: the
        page's cookie counts only under this launch's own host name, which Python cannot resolve)."""
        from gradio_client import Client

        kwargs.setdefault("verbose", False)
        # httpx's 5 s default timed out fetching the page's config on a loaded machine: a deadline
        # here is for a hung server, not a slow one.
        kwargs.setdefault("headers", {TOKEN_HEADER: self.token})
        return Client(self.base_url, httpx_kwargs={"timeout": 300}, **kwargs)  # type: ignore[arg-type]


_PRINTED_URL = re.compile(r"LocalCrew on (http://\S+\?token=(\S+)) ")


@contextlib.contextmanager
def serve_app(
    *args: str,
    tmp_path: Path,
    startup_timeout: float = 300,  # a hang, not a slow start: a loaded CI machine took over 60 s
    fast_model: bool = True,
    env: dict[str, str] | None = None,
) -> Iterator[RunningApp]:
    """The app on a free port, with its own config dir and (unless given) a fresh workspace."""
    port = free_port()
    env = dict(os.environ, LOCALCREW_CONFIG_DIR=str(tmp_path / "config"), **(env or {}))
    if "--workspace" not in args:
        workspace = tmp_path / "workspace"
        workspace.mkdir(exist_ok=True)
        args = (*args, "--workspace", str(workspace))
    log_path = tmp_path / f"app-{port}.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "app.py",
                "--no-browser",
                "--port",
                str(port),
                *_model_args(args, fast_model),
                *args,
            ],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
            env=env,
        )
    base_url = f"http://127.0.0.1:{port}/"
    app = RunningApp(base_url, base_url, "", port, process, log_path)
    try:
        deadline = time.monotonic() + startup_timeout
        while True:
            if process.poll() is not None:
                raise AssertionError(f"app exited with {process.returncode}:\n{app.log()}")
            printed = _PRINTED_URL.search(app.log())
            if printed:  # the key is printed before the server starts; until then the splash answers
                app.url, app.token = printed.group(1), printed.group(2)
                request = urllib.request.Request(base_url, headers={TOKEN_HEADER: app.token})
                with contextlib.suppress(OSError), urllib.request.urlopen(request, timeout=2) as response:
                    if response.status == 200 and not response.headers.get(SPLASH_HEADER):
                        break  # the IDE itself, not the start-up status page
            if time.monotonic() > deadline:
                raise AssertionError(f"app did not serve within {startup_timeout} s:\n{app.log()}")
            time.sleep(0.25)
        yield app
    finally:
        stop(process)

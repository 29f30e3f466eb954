"""Start llama-cpp-python's OpenAI-compatible server on a free loopback port, for the backend
benchmark and the tests (`pip install 'llama-cpp-python[server]'`; requirements-dev.txt has it).

The server is a child process on 127.0.0.1 only; it is stopped (and its output kept for the
error message) when the `with` block ends. It runs under models.llama_cpu_guard, as the app's own
engine does (llama.cpp's AMX repacking crashes on CPUs that report AMX).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from bench.child_process import free_port, stop

START_TIMEOUT_S = 90.0
REPO = Path(__file__).resolve().parents[1]  # where `-m models.llama_cpu_guard` is found


@contextlib.contextmanager
def llama_server(model: Path, *, n_ctx: int = 4096, threads: int | None = None) -> Iterator[str]:
    """The server's base URL (http://127.0.0.1:PORT/v1) while it runs."""
    port = free_port()
    command = [
        sys.executable, "-m", "models.llama_cpu_guard", "llama_cpp.server",
        "--model", str(model), "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx),
        # By default a new request interrupts the one being streamed; several crew runs must queue.
        "--interrupt_requests", "False",
    ]  # fmt: skip
    if threads:
        command += ["--n_threads", str(threads)]
    url = f"http://127.0.0.1:{port}/v1"
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ), cwd=REPO
        )
        try:
            _wait_until_up(url, process, log)
            yield url
        finally:
            stop(process)


def _wait_until_up(url: str, process: subprocess.Popen, log: object) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    # No proxy: the server is on loopback, and nothing else may be contacted.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log.seek(0)  # type: ignore[attr-defined]
            tail = log.read()[-2000:].decode(errors="replace")  # type: ignore[attr-defined]
            raise RuntimeError(f"llama_cpp.server exited with {process.returncode}:\n{tail}")
        try:
            with opener.open(f"{url}/models", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"llama_cpp.server did not answer at {url} within {START_TIMEOUT_S:g} s")

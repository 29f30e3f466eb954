"""Child servers of the benchmarks and tests (the app, llama_cpp.server): a free port, a stop."""

from __future__ import annotations

import socket
import subprocess


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def stop(process: subprocess.Popen, grace_s: float = 10.0) -> None:
    """SIGTERM, and SIGKILL if it has not exited within grace_s; returns once it is gone."""
    process.terminate()
    try:
        process.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()

"""Start-up time of the IDE, median of N cold starts of `python app.py --no-browser`:
page_s: to the first HTTP 200 on the app's URL (the start-up status page, up before Gradio loads);
ide_s: to the first HTTP 200 of the IDE itself (Gradio), asked with this launch's key;
ready_s: to "model ready" (the line the app prints when the model has loaded).

python -m bench.startup [--runs 5] [--model ID|PATH] [--no-warm-up] [--json]
                                               (target: page <= 5 s on the 2-core dev machine)

Every launch has its own key: the app prints its address as `LocalCrew on http://...?token=KEY`,
and Gradio's routes answer 403 without it. The bench reads the key from that line and sends it as
the X-LocalCrew-Token header, as a script would (the status page before it needs none).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from bench.child_process import free_port, stop
from gui.http_guard import TOKEN_HEADER
from gui.startup_splash import SPLASH_HEADER

ROOT = Path(__file__).resolve().parent.parent
READY_MARK = " ready ("  # "<model> ready (CPU only, loaded in 0.9 s)"
PRINTED_URL = re.compile(r"LocalCrew on (http://\S+)\?token=(\S+)")  # "LocalCrew on http://…/?token=KEY — …"


@dataclass
class AppOutput:
    """What the app printed, read on a thread while the bench polls its port."""

    started: float
    lines: list[str] = field(default_factory=list)
    token: str | None = None
    ready_s: float | None = None

    def read(self, stream: Iterable[str]) -> None:
        for line in stream:
            self.lines.append(line)
            if self.token is None and (printed := PRINTED_URL.search(line)):
                self.token = printed.group(2)
            if READY_MARK in line and self.ready_s is None:
                self.ready_s = time.perf_counter() - self.started

    def tail(self, n: int = 15) -> str:
        return "".join(self.lines[-n:])


def _status(url: str, token: str | None) -> tuple[int, bool] | None:
    """(HTTP status, served by the start-up status page) or None when nothing answers yet."""
    headers = {TOKEN_HEADER: token} if token else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=1) as response:
            return response.status, bool(response.headers.get(SPLASH_HEADER))
    except urllib.error.HTTPError as exc:
        return exc.code, bool(exc.headers.get(SPLASH_HEADER))
    except OSError:
        return None


def app_command(port: int, workspace: Path, model: str | None) -> list[str]:
    command = [sys.executable, "app.py", "--no-browser", "--port", str(port), "--workspace", str(workspace)]
    return command + (["--model", model] if model else [])


def one_start(timeout_s: float = 120, model: str | None = None) -> tuple[float, float, float]:
    """(page_s, ide_s, ready_s) for one start of the app in a fresh workspace and config dir."""
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp) / "workspace"
        workspace.mkdir()
        port = free_port()
        url = f"http://127.0.0.1:{port}/"
        env = dict(os.environ, LOCALCREW_CONFIG_DIR=str(Path(tmp) / "config"))
        started = time.perf_counter()
        process = subprocess.Popen(
            app_command(port, workspace, model),
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        output = AppOutput(started)
        threading.Thread(target=output.read, args=(process.stdout,), daemon=True).start()
        page_s = ide_s = None
        last_status: int | None = None
        try:
            deadline = started + timeout_s
            while time.perf_counter() < deadline and (ide_s is None or output.ready_s is None):
                if process.poll() is not None:
                    raise RuntimeError(f"app exited with {process.returncode}:\n{output.tail()}")
                answer = _status(url, output.token) if ide_s is None else None
                if answer is not None:
                    last_status, from_splash = answer
                    now = time.perf_counter() - started
                    if last_status == 200:
                        page_s = page_s or now
                        if not from_splash:
                            ide_s = now
                time.sleep(0.05)
            if page_s is None or ide_s is None or output.ready_s is None:
                raise RuntimeError(
                    f"not ready within {timeout_s} s (page {page_s}, IDE {ide_s}, model ready "
                    f"{output.ready_s}, last HTTP status {last_status}, key read: {output.token is not None})"
                    f"; the app printed:\n{output.tail()}"
                )
            return page_s, ide_s, output.ready_s
        finally:
            stop(process)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.startup", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--model", default=None, help="catalog id or .gguf path (default: the app's choice)")
    parser.add_argument(
        "--no-warm-up", action="store_true", help="skip the first, unmeasured start that fills the file cache"
    )
    parser.add_argument("--timeout", type=float, default=120, help="seconds one start may take")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    load_before = os.getloadavg()
    if not args.no_warm_up:
        one_start(args.timeout, args.model)  # warm the OS file cache once, like every launch after the first
    pages, ides, readies = [], [], []
    for run in range(1, args.runs + 1):
        page_s, ide_s, ready_s = one_start(args.timeout, args.model)
        pages.append(page_s)
        ides.append(ide_s)
        readies.append(ready_s)
        print(f"run {run}: page {page_s:.2f} s, IDE {ide_s:.2f} s, model ready {ready_s:.2f} s", flush=True)
    load_after = os.getloadavg()
    result = {
        "bench": "startup",
        "date": datetime.date.today().isoformat(),
        "model": args.model,
        "page_s": round(statistics.median(pages), 2),
        "ide_s": round(statistics.median(ides), 2),
        "ready_s": round(statistics.median(readies), 2),
        "page_s_all": [round(s, 2) for s in pages],
        "ide_s_all": [round(s, 2) for s in ides],
        "ready_s_all": [round(s, 2) for s in readies],
        "runs": args.runs,
        "page_target_s": 5.0,
        "load_average_1m": round(load_after[0], 2),  # kept for older readers of this line
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
        "cpu_count": os.cpu_count(),
    }
    print(
        f"median: page {result['page_s']} s (target <= 5 s), IDE {result['ide_s']} s, "
        f"model ready {result['ready_s']} s; load average before {result['load_average_before']}, "
        f"after {result['load_average_after']}"
    )
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

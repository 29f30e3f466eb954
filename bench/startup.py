"""Start-up time of the IDE, median of N cold starts of `python app.py --no-browser`:
page_s: to the first HTTP 200 on the app's URL (the start-up status page, up before Gradio loads);
ide_s: to the first HTTP 200 of the IDE itself (Gradio);
ready_s: to "model ready" (the line the app prints when the model has loaded).

python -m bench.startup [--runs 5] [--json]     (target: page <= 5 s on the 2-core dev machine)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from bench.child_process import free_port, stop
from gui.startup_splash import SPLASH_HEADER

ROOT = Path(__file__).resolve().parent.parent
READY_MARK = " ready ("  # "<model> ready (CPU only, loaded in 0.9 s)"


def one_start(timeout_s: float = 120) -> tuple[float, float, float]:
    """(page_s, ide_s, ready_s) for one start of the app in a fresh workspace and config dir."""
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp) / "workspace"
        workspace.mkdir()
        port = free_port()
        env = dict(os.environ, LOCALCREW_CONFIG_DIR=str(Path(tmp) / "config"))
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "app.py", "--no-browser", "--port", str(port), "--workspace", str(workspace)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        ready_at: list[float] = []

        def watch_output() -> None:
            assert process.stdout is not None
            for line in process.stdout:
                if READY_MARK in line and not ready_at:
                    ready_at.append(time.perf_counter() - started)

        threading.Thread(target=watch_output, daemon=True).start()
        page_s = ide_s = None
        try:
            deadline = started + timeout_s
            while time.perf_counter() < deadline and (ide_s is None or not ready_at):
                if process.poll() is not None:
                    raise RuntimeError(f"app exited with {process.returncode}")
                if ide_s is None:
                    try:
                        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as response:
                            if response.status == 200:
                                now = time.perf_counter() - started
                                page_s = page_s or now
                                if not response.headers.get(SPLASH_HEADER):
                                    ide_s = now
                    except OSError:
                        pass
                time.sleep(0.05)
            if page_s is None or ide_s is None or not ready_at:
                raise RuntimeError(f"not ready within {timeout_s} s")
            return page_s, ide_s, ready_at[0]
        finally:
            stop(process)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args(argv)
    one_start()  # warm the OS file cache once, like every launch after the first
    pages, ides, readies = [], [], []
    for run in range(1, args.runs + 1):
        page_s, ide_s, ready_s = one_start()
        pages.append(page_s)
        ides.append(ide_s)
        readies.append(ready_s)
        print(f"run {run}: page {page_s:.2f} s, IDE {ide_s:.2f} s, model ready {ready_s:.2f} s", flush=True)
    result = {
        "page_s": round(statistics.median(pages), 2),
        "ide_s": round(statistics.median(ides), 2),
        "ready_s": round(statistics.median(readies), 2),
        "runs": args.runs,
        "page_target_s": 5.0,
        "load_average_1m": round(os.getloadavg()[0], 2),
    }
    print(
        f"median: page {result['page_s']} s (target <= 5 s), IDE {result['ide_s']} s, "
        f"model ready {result['ready_s']} s"
    )
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

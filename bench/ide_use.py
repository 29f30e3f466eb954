"""A user in chromium: the IDE launched on a project, requests sent through the page, held runs
accepted or not, Undo and Redo from the Last run tab; after each step, what the user sees and what
is on disk (git status, the project's tests, an entry point's output).

    python -m bench.ide_use --workspace /tmp/proj --model qwen2.5-coder-1.5b-q4_k_m \\
        --request "The test test_total fails, fix it." --request "Also ..." --accept --undo-after 1

One harness with flags in place of the copies kept beside earlier results. It drives the page by
the element ids the IDE gives (#request, #send, #chat, #review-*, #undo, #redo); it needs Debian's
chromium and playwright (the test tools). Ends with one JSON line: each step's seconds and state.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DONE = "Done in"


@dataclass
class Project:
    path: Path
    entry: str | None  # a script to run after each step ("report.py"), or None
    python: str = sys.executable

    def sh(self, *cmd: str) -> str:
        return subprocess.run(list(cmd), cwd=self.path, capture_output=True, text=True).stdout.strip()

    def tests(self) -> str:
        run = subprocess.run(
            [self.python, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
            cwd=self.path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        lines = run.stdout.strip().splitlines()
        return lines[-1] if lines else f"pytest exit {run.returncode}"

    def entry_output(self) -> str:
        if not self.entry:
            return ""
        run = subprocess.run(
            [self.python, self.entry], cwd=self.path, capture_output=True, text=True, timeout=60
        )
        return (run.stdout or run.stderr).strip()[-160:]

    def state(self) -> dict[str, str]:
        return {
            "git": self.sh("git", "status", "--short"),
            "tests": self.tests(),
            "entry": self.entry_output(),
        }


@dataclass
class Log:
    steps: list[dict[str, Any]] = field(default_factory=list)

    def step(self, what: str, seconds: float, project: Project, **seen: str) -> None:
        record = {"step": what, "seconds": round(seconds, 1), **seen, **project.state()}
        self.steps.append(record)
        print(json.dumps(record, indent=1), flush=True)


def launch(args: argparse.Namespace) -> tuple[subprocess.Popen, str]:
    cmd = [
        sys.executable,
        "app.py",
        "--no-browser",
        "--port",
        str(args.port),
        "--workspace",
        str(args.workspace),
    ]
    if args.model:
        cmd += ["--model", args.model]
    env = dict(os.environ, LOCALCREW_CONFIG_DIR=str(args.config_dir))
    log = args.app_log.open("w")  # noqa: SIM115  (open for the app's whole life)
    app = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True, env=env)
    assert app.stdout is not None
    for line in app.stdout:
        # The printed address names this launch's own host (lc-<random>.localhost), which chromium resolves.
        if found := re.search(rf"LocalCrew on (http://\S+:{args.port}/\S*)", line):
            return app, found.group(1)
    raise SystemExit(f"the app ended before printing its address; see {args.app_log}")


def send(page: Any, request: str, n: int) -> tuple[str, float]:
    started = time.time()
    page.fill("#request textarea", request)
    page.click("#send")
    page.wait_for_function(
        f"(document.querySelector('#chat').innerText.match(/{DONE}/g)||[]).length >= {n}", timeout=3_000_000
    )
    time.sleep(2)
    chat = page.locator("#chat").inner_text()
    return chat[chat.rfind(DONE) - 1200 :], time.time() - started


def accept_held(page: Any) -> str:
    page.get_by_role("tab", name="Review").click()
    time.sleep(2)
    page.click("#review-accept-all")
    page.wait_for_function(
        "/Accepted|Not accepted/.test(document.querySelector('#review-message').innerText)", timeout=120_000
    )
    message = page.locator("#review-message").inner_text()
    page.get_by_role("tab", name="Code").click()
    return message


def undo_or_redo(page: Any, button: str) -> str:
    page.get_by_role("tab", name="Last run").click()
    time.sleep(2)
    before = page.locator("#undo-message").inner_text()
    page.click(f"#{button}")
    page.wait_for_function(
        "old => { const t = document.querySelector('#undo-message').innerText;"
        " return t !== old && /Undid|Redid|deletes|Nothing|failed|conflict/i.test(t)"
        " && !/queue:|processing/i.test(t); }",
        arg=before,
        timeout=120_000,
    )
    message = page.locator("#undo-message").inner_text()
    if "deletes" in message.lower() and page.locator("#undo-confirm").is_visible():
        page.click("#undo-confirm")
        time.sleep(4)
        message = page.locator("#undo-message").inner_text()
    page.get_by_role("tab", name="Code").click()
    return message


def drive(args: argparse.Namespace, page: Any, project: Project, log: Log) -> None:
    for n, request in enumerate(args.request, start=1):
        chat, seconds = send(page, request, n)
        log.step(f"request {n}: {request}", seconds, project, chat_end=chat[-700:])
        if args.accept and "Held for review" in chat:
            started = time.time()
            log.step(f"accept {n}", time.time() - started, project, review=accept_held(page))
        if n in args.undo_after:
            for button in ("undo", "redo") if args.redo else ("undo",):
                started = time.time()
                message = undo_or_redo(page, button)
                log.step(f"{button} after {n}", time.time() - started, project, message=message)
    if args.screenshot:
        page.screenshot(path=str(args.screenshot), full_page=True)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--workspace", type=Path, required=True, help="the project (under git, with its tests)"
    )
    parser.add_argument("--request", action="append", required=True, help="a request, in order (repeat)")
    parser.add_argument("--model", help="a catalog id or .gguf path (default: the app's choice)")
    parser.add_argument("--entry", help="a script of the project to run after each step (e.g. main.py)")
    parser.add_argument("--accept", action="store_true", help="accept every run held for review")
    parser.add_argument("--undo-after", type=int, action="append", default=[], help="Undo after request N")
    parser.add_argument("--redo", action="store_true", help="Redo after each Undo")
    parser.add_argument("--port", type=int, default=7890)
    parser.add_argument("--config-dir", type=Path, default=Path("/tmp/localcrew-ide-use-config"))
    parser.add_argument("--app-log", type=Path, default=Path("/tmp/localcrew-ide-use-app.log"))
    parser.add_argument("--screenshot", type=Path, help="a full-page screenshot at the end")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    args = parse_args(argv)
    project, log = Project(args.workspace, args.entry), Log()
    log.step("before", 0.0, project)
    app, url = launch(args)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
            )
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            page.goto(url)
            page.wait_for_selector("#request textarea", timeout=600_000)
            drive(args, page, project, log)
            browser.close()
    finally:
        app.terminate()
    print(json.dumps({"date": time.strftime("%Y-%m-%d"), "model": args.model, "steps": log.steps}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Take the README's screenshots of the IDE's main states, at 1366x768 in headless chromium.

    .venv/bin/python -m docs.take_screenshots [--model ID]

It starts the app on a throwaway copy of a small project (the bundled model unless --model names
another; a bigger model makes a better edit and takes minutes), sends one request, and saves:
    docs/screenshot-chat-run.png        the chat after the run, with the sidebar's timeline
    docs/screenshot-run-review.png      the Last run tab: the run's diff, coloured
    docs/screenshot-undo-confirm.png    Undo of that run asking before it deletes a file it created
    docs/screenshot-editor-unsaved.png  the editor with an unsaved edit
Nothing here is a test: the tests that assert these states are tests/test_gui_*.py.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

from tests.app_process import serve_app
from tests.test_gui_browser import CHROMIUM_ARGS, chromium_path

DOCS = Path(__file__).resolve().parent
SCREEN = {"width": 1366, "height": 768}
TODO = '''"""A tiny to-do list."""

ITEMS: list[str] = []


def add(item: str) -> None:
    ITEMS.append(item)


def remove(item: str) -> None:
    ITEMS.remove(item)


def count() -> int:
    return len(ITEMS)
'''
REQUEST = "Write greet.py with a function greet(name) that returns 'Hello, ' + name, and print greet('Ann')."


def _project(root: Path) -> Path:
    workspace = root / "workspace"
    workspace.mkdir()
    (workspace / "todo.py").write_text(TODO)
    (workspace / "main.py").write_text("from todo import add, count\n\nadd('milk')\nprint(count())\n")
    (root / "config").mkdir()
    (root / "config" / "settings.json").write_text('{"rounds": 1}')
    return workspace


def _shots(page: Any) -> None:
    page.fill("#request textarea", REQUEST)
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('#chat').innerText.includes('Done in')", timeout=900_000)
    page.wait_for_timeout(1500)
    page.screenshot(path=str(DOCS / "screenshot-chat-run.png"))

    page.get_by_role("tab", name="Last run").click()
    page.wait_for_function("document.querySelector('#diff').innerText.trim() !== ''", timeout=30_000)
    page.locator("#diff").scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    page.screenshot(path=str(DOCS / "screenshot-run-review.png"))
    page.evaluate("window.scrollTo(0, 0)")

    page.click("#undo")
    page.wait_for_selector("#undo-confirm", state="visible", timeout=30_000)
    page.wait_for_timeout(500)
    page.screenshot(path=str(DOCS / "screenshot-undo-confirm.png"))
    page.click("#undo-keep")

    page.get_by_role("tab", name="Editor").click()
    row = page.locator("#files li", has_text="todo.py").first
    row.get_by_text("todo.py", exact=True).click()
    opened = "document.querySelector('#open-path textarea, #open-path input').value === 'todo.py'"
    try:
        page.wait_for_function(opened, timeout=5_000)
    except Exception:  # noqa: BLE001 - Playwright's TimeoutError: this tree opens on its checkbox
        row.locator("input[type=checkbox]").first.click()
        page.wait_for_function(opened, timeout=30_000)
    page.click("#editor .cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.type("\n\ndef clear() -> None:\nITEMS.clear()")  # the editor indents the body
    page.wait_for_function("document.querySelector('#unsaved').innerText.includes('unsaved')", timeout=15_000)
    page.screenshot(path=str(DOCS / "screenshot-editor-unsaved.png"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="a catalog id or .gguf path (default: the bundled model)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    extra = ("--model", args.model) if args.model else ()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _project(root)
        serving = serve_app(*extra, tmp_path=root, fast_model=not args.model, startup_timeout=300)
        with serving as app, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            try:
                page = browser.new_context(viewport=SCREEN).new_page()
                page.goto(app.url)
                page.wait_for_selector("#request textarea", timeout=60_000)
                _shots(page)
            finally:
                browser.close()
    print("saved:", *sorted(p.name for p in DOCS.glob("screenshot-*.png")))


if __name__ == "__main__":
    main()

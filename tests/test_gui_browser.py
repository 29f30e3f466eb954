"""The IDE in a real browser: Debian chromium driven by Playwright, on the real model and crew.

`./launch.sh test` installs chromium from Debian (Playwright cannot download browsers here).
Set LOCALCREW_SCREENSHOT=path.png to keep the screenshot (the README's comes from this test).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.app_process import RunningApp, serve_app

HANG_MS = 240_000  # a wait on the page that only a hang outlasts, even on a loaded CI machine
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
# Each text of the retrieved context's header row, with the lines it is laid out on.
HEADER_LINES_JS = """() => {
  const walker = document.createTreeWalker(document.querySelector('#context thead'), NodeFilter.SHOW_TEXT);
  const out = [];
  while (walker.nextNode()) {
    const text = walker.currentNode;
    if (!text.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(text);
    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
    out.push([text.textContent.trim(), tops.size]);
  }
  return out;
}"""


def chromium_path() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("chromium is not installed: `./launch.sh test` installs it (apt-get install chromium)")
    return found


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningApp]:
    root = tmp_path_factory.mktemp("browser")
    workspace = root / "workspace"
    workspace.mkdir()
    (workspace / "calc.py").write_text('def add(a, b):\n    """Add two numbers."""\n    return a + b\n')
    (root / "config").mkdir()
    (root / "config" / "settings.json").write_text(json.dumps({"rounds": 1}))
    with serve_app(tmp_path=root) as running:
        running.workspace = workspace  # type: ignore[attr-defined]
        yield running


def test_a_request_in_the_browser_fills_the_sidebar_offline(app: RunningApp, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    requested: list[str] = []
    screenshot = Path(os.environ.get("LOCALCREW_SCREENSHOT") or tmp_path / "ide.png")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 1000})
            page.set_default_timeout(HANG_MS)  # clicks too: one waits for its button to hold still
            page.on("request", lambda request: requested.append(request.url))
            page.goto(app.url)
            page.wait_for_selector("#request textarea", timeout=180_000)
            page.fill("#request textarea", "Write hello.py that prints hello world.")
            page.click("#send")
            page.wait_for_selector("#timeline .lc-call", timeout=240_000)
            page.wait_for_selector("#context [role=gridcell]:has-text('calc.py:')", timeout=180_000)
            page.wait_for_function(
                "document.querySelector('#chat').innerText.includes('Done in')", timeout=240_000
            )
            assert page.locator("#chat").inner_text().count("Tool: write_file") >= 1
            # The tree re-lists after the run (Gradio's explorer would keep its first listing). The
            # files are whichever the model wrote (hello.py, or a name the plan added).
            workspace: Path = app.workspace  # type: ignore[attr-defined]
            written = {p.relative_to(workspace).parts[0] for p in workspace.rglob("*.py")}  # top-level names
            written -= {"calc.py", ".localcrew"}
            assert written, "the crew wrote no Python file"
            page.wait_for_function(
                "names => names.every(n => document.querySelector('#files').innerText.includes(n))",
                arg=sorted(written),
                timeout=180_000,
            )
            page.screenshot(path=str(screenshot))
            # At 1366 px the sidebar's column headers broke mid-word ("file:li / nes", issue 58):
            # each header's text is on one line.
            page.set_viewport_size({"width": 1366, "height": 768})
            headers = page.evaluate(HEADER_LINES_JS)
            assert "file:lines" in dict(headers) and all(n <= 1 for _, n in headers), headers
            page.set_viewport_size({"width": 1600, "height": 1000})

            page.locator("#context [role=gridcell]:has-text('calc.py:')").first.click()
            page.wait_for_function(
                "document.querySelector('#open-path textarea, #open-path input').value === 'calc.py'",
                timeout=180_000,
            )
            assert "def add" in page.locator("#editor").inner_text()

            # A path typed into the File box opens with Enter.
            crew_file = next(
                p
                for p in sorted(workspace.rglob("*.py"))
                if ".localcrew" not in p.parts and p.name != "calc.py"
            )
            first_line = next(line for line in crew_file.read_text().splitlines() if line.strip()).strip()
            path_box = page.locator("#open-path textarea, #open-path input").first
            path_box.fill(crew_file.relative_to(workspace).as_posix())
            path_box.press("Enter")
            page.wait_for_function(
                "line => document.querySelector('#editor').innerText.includes(line)",
                arg=first_line,
                timeout=180_000,
            )

            # New conversation empties the chat (the crew's memory of it is tested below the page).
            page.click("#clear-chat")
            page.wait_for_function(
                "!document.querySelector('#chat').innerText.includes('Done in')", timeout=180_000
            )
            assert "Write hello.py" not in page.locator("#chat").inner_text()

            # Another workspace (Settings → Save): the sidebar must not keep this one's tool calls
            # and retrieved rows (a row opens its path, which the other workspace may not have).
            other = tmp_path / "other-workspace"
            other.mkdir()
            (other / "notes.py").write_text("NOTES = []\n")
            page.get_by_role("tab", name="Settings").click()
            page.locator("#workspace textarea, #workspace input").first.fill(str(other))
            page.click("#save-settings")
            page.wait_for_function(
                "document.querySelector('#settings-message').innerText.includes('Saved')", timeout=180_000
            )
            page.wait_for_function(
                "!document.querySelector('#timeline .lc-call')"
                " && !document.querySelector('#context').innerText.includes('calc.py:')",
                timeout=180_000,
            )
        finally:
            browser.close()
    assert screenshot.stat().st_size > 20_000
    local = LOCAL_HOSTS | {urlparse(app.page_url).hostname}  # the launch's own lc-….localhost name
    other_hosts = {urlparse(url).hostname for url in requested} - local - {None}
    assert not other_hosts, f"the page called out to {other_hosts}"
    assert any(urlparse(url).hostname in local for url in requested)

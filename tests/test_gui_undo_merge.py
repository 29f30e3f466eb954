"""Undo that merges, in Debian's chromium on the real app (issue 40 item 4): the user edits a file in
the editor after two runs changed it, then undoes the earlier run: only that run's change goes,
the hand edit and the later run's change stay. Choosing a run shows that run's own diff; after
Redo the chooser shows the redone run; Reject asks before it deletes a file the run created; a
file opens by a click on its name. The runs are recorded as the crew records them, without a
model."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.app_process import RunningApp, serve_app
from tests.test_gui_browser import CHROMIUM_ARGS, HANG_MS, chromium_path
from tests.test_gui_undo_chosen import _run

ORIGINAL = "def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n"
VALIDATED = ORIGINAL.replace(
    "    return w * h", "    if w < 0:\n        raise ValueError('w')\n    return w * h"
)
WITH_SQUARE = VALIDATED + "\n\ndef square(s):\n    return s * s\n"
PATH_BOX = "#open-path textarea, #open-path input"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningApp]:
    root = tmp_path_factory.mktemp("undo-merge")
    workspace = root / "workspace"
    workspace.mkdir()
    (workspace / "shapes.py").write_text(ORIGINAL)
    _run(workspace, "Validate w in area", {"shapes.py": VALIDATED})
    _run(workspace, "Add square", {"shapes.py": WITH_SQUARE, "notes.txt": "square added\n"})
    with serve_app(tmp_path=root) as running:
        running.workspace = workspace  # type: ignore[attr-defined]
        yield running


def _wait_text(page: Any, selector: str, text: str, timeout: int = 180_000) -> None:
    page.wait_for_function(
        "([sel, text]) => document.querySelector(sel).innerText.includes(text)",
        arg=[selector, text],
        timeout=timeout,
    )


def _choose_run(page: Any, label: str) -> None:
    page.click("#run-choice input")
    page.get_by_role("option", name=label, exact=False).first.click()


def test_undo_of_an_earlier_run_after_a_hand_edit_keeps_the_hand_edit(app: RunningApp) -> None:
    from playwright.sync_api import sync_playwright

    workspace: Path = app.workspace  # type: ignore[attr-defined]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
            page.set_default_timeout(HANG_MS)  # clicks too: one waits for its button to hold still
            page.goto(app.url)
            page.wait_for_selector("#request textarea", timeout=180_000)
            # A click on the name opens the file (it once took the checkbox).
            page.locator("#files li", has_text="shapes.py").first.get_by_text("shapes.py", exact=True).click()
            page.wait_for_function(
                f"document.querySelector('{PATH_BOX}').value === 'shapes.py'", timeout=180_000
            )
            page.click("#editor .cm-content")
            page.keyboard.press("Control+End")
            page.keyboard.type("MINE = 1")  # on the empty line after the last newline
            page.keyboard.press("Control+s")
            _wait_text(page, "#file-message", "Saved")
            hand_edited = WITH_SQUARE + "MINE = 1"
            assert (workspace / "shapes.py").read_text() == hand_edited

            page.get_by_role("tab", name="Last run").click()
            _choose_run(page, "Validate w in area")
            _wait_text(page, "#diff", "Validate w in area")  # that run's diff, not the last one's
            diff = page.locator("#diff").inner_text()
            assert "raise ValueError" in diff and "def square" not in diff

            page.click("#undo")
            _wait_text(page, "#undo-message", "Undid")
            assert "later edits stay" in page.locator("#undo-message").inner_text()
            assert (workspace / "shapes.py").read_text() == hand_edited.replace(VALIDATED, ORIGINAL)
            assert (workspace / "notes.txt").read_text() == "square added\n"

            _choose_run(page, "undone")
            page.click("#redo")
            _wait_text(page, "#undo-message", "Redid")
            assert (workspace / "shapes.py").read_text() == hand_edited
            page.wait_for_function(  # the chooser follows the redone run
                "document.querySelector('#run-choice input').value.includes('Validate w in area')",
                timeout=180_000,
            )
        finally:
            browser.close()


def test_reject_asks_before_deleting_a_file_the_run_created(app: RunningApp) -> None:
    from playwright.sync_api import sync_playwright

    workspace: Path = app.workspace  # type: ignore[attr-defined]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
            page.set_default_timeout(HANG_MS)  # clicks too: one waits for its button to hold still
            page.goto(app.url)
            page.wait_for_selector("#request textarea", timeout=180_000)
            page.get_by_role("tab", name="Last run").click()
            page.click("#reject-file input")
            page.get_by_role("option", name="notes.txt").click()
            page.click("#reject")
            _wait_text(page, "#undo-message", "deletes")
            assert (workspace / "notes.txt").exists()  # asking changed nothing
            assert "Delete 1 and reject" in page.locator("#undo-confirm").inner_text()
            page.click("#undo-confirm")
            _wait_text(page, "#undo-message", "Rejected")
            assert not (workspace / "notes.txt").exists()
        finally:
            browser.close()


def test_the_redo_api_still_answers_its_message_alone(app: RunningApp) -> None:
    answer = app.client().predict(None, api_name="/redo")
    assert isinstance(answer, str) and answer.startswith(("Redid", "Nothing to redo"))

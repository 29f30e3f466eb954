"""Undo of a chosen run in Debian's chromium on the real app: the Last run tab lists the runs, Undo
of an older run says which files it restores and deletes and asks before deleting; "Keep
everything" changes nothing; the yes undoes only that run (the later run and the user's own file
stay); Redo brings it back. The runs are recorded as the crew records them, without a model."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.app_process import RunningApp, serve_app
from tests.test_gui_browser import CHROMIUM_ARGS, HANG_MS, chromium_path


def _run(workspace: Path, label: str, writes: dict[str, str]) -> None:
    from tools.run_snapshot import RunSnapshots
    from tools.workspace_files import WorkspaceFiles

    snaps = RunSnapshots(workspace)
    run_id = snaps.begin_run(label)
    files = WorkspaceFiles(workspace, before_write=snaps.record_write)
    for rel, text in writes.items():
        files.write_text(rel, text)
    snaps.end_run(run_id)


def _tree(workspace: Path) -> dict[str, bytes]:
    return {
        p.relative_to(workspace).as_posix(): p.read_bytes()
        for p in sorted(workspace.rglob("*"))
        if p.is_file() and ".localcrew" not in p.relative_to(workspace).parts
    }


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningApp]:
    root = tmp_path_factory.mktemp("undo-chosen")
    workspace = root / "workspace"
    workspace.mkdir()
    (workspace / "a.py").write_text("a = 1\n")
    (workspace / "b.py").write_text("b = 1\n")
    _run(
        workspace, "Change a and add helper.py", {"a.py": "a = 2\n", "helper.py": "def h():\n    return 1\n"}
    )
    _run(workspace, "Change b", {"b.py": "b = 2\n"})
    (workspace / "mine.py").write_text("MINE = 1\n")  # the user's own file, added after both runs
    with serve_app(tmp_path=root) as running:
        running.workspace = workspace  # type: ignore[attr-defined]
        yield running


def _message_includes(page: Any, text: str) -> None:
    page.wait_for_function(
        f"document.querySelector('#undo-message').innerText.includes({text!r})", timeout=180_000
    )


def test_undo_of_an_older_run_asks_before_deleting_and_redo_brings_it_back(app: RunningApp) -> None:
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
            page.click("#run-choice input")
            options = page.get_by_role("option")
            assert "Change b" in options.nth(0).inner_text()  # newest first
            page.get_by_role("option", name="Change a and add helper.py", exact=False).click()
            before = _tree(workspace)

            page.click("#undo")
            _message_includes(page, "Deletes")
            message = page.locator("#undo-message").inner_text()
            assert "helper.py" in message and "a.py" in message and "mine.py" not in message
            assert page.locator("#undo-confirm").is_visible()
            assert _tree(workspace) == before  # asking changes nothing
            page.click("#undo-keep")
            _message_includes(page, "Nothing was undone")
            assert _tree(workspace) == before and not page.locator("#undo-confirm").is_visible()

            page.click("#undo")
            _message_includes(page, "Deletes")
            page.click("#undo-confirm")
            _message_includes(page, "Undid")
            assert _tree(workspace) == {"a.py": b"a = 1\n", "b.py": b"b = 2\n", "mine.py": b"MINE = 1\n"}

            page.click("#run-choice input")
            page.get_by_role("option", name="undone", exact=False).click()
            page.click("#redo")
            _message_includes(page, "Redid")
            assert _tree(workspace) == before
        finally:
            browser.close()

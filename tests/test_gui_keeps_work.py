"""The page keeps the user's work and the conversation, in Debian's chromium on the real app: the chat
after a reload, Ctrl+S and the unsaved marker, unsaved edits when another file is opened, a waiting
request that its tab withdraws, and Send on screen at 1366x768. One server for the module.

Set LOCALCREW_SCREENSHOT_IDE=path.png to keep the 1366x768 screenshot taken after the run
(docs/screenshot-ide.png comes from it).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.app_process import RunningApp, serve_app
from tests.stub_openai_server import StubServer
from tests.test_gui_browser import CHROMIUM_ARGS, HANG_MS, chromium_path

CALC = 'def add(a, b):\n    """Add two numbers."""\n    return a + b\n'
SMALL_SCREEN = {"width": 1366, "height": 768}
PATH_BOX = "#open-path textarea, #open-path input"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningApp]:
    root = tmp_path_factory.mktemp("keeps")
    workspace = root / "workspace"
    workspace.mkdir()
    (workspace / "calc.py").write_text(CALC)
    (workspace / "notes.py").write_text("NOTES = []\n")
    (root / "config").mkdir()
    (root / "config" / "settings.json").write_text(json.dumps({"rounds": 1}))
    with serve_app(tmp_path=root) as running:
        running.workspace = workspace  # type: ignore[attr-defined]
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


_CONSOLE: dict[int, list[str]] = {}  # each page's console messages, for a failure's report
_OPEN: list[Any] = []  # this test's browser contexts


@pytest.fixture(autouse=True)
def _close_pages() -> Iterator[None]:
    """Each page polls the server on timers: left open, a module's pages loaded the machine for
    every later test (five renderers at once in a fresh clone's suite)."""
    yield
    while _OPEN:
        _OPEN.pop().close()


def _page(browser: Any, app: RunningApp) -> Any:
    context = browser.new_context(viewport=SMALL_SCREEN)  # its own context: its own session
    _OPEN.append(context)
    page = context.new_page()
    lines = _CONSOLE.setdefault(id(page), [])
    page.on("console", lambda message: lines.append(f"{message.type}: {message.text}"[:300]))
    page.set_default_timeout(HANG_MS)  # clicks too: one waits for its button to hold still
    page.goto(app.url)
    page.wait_for_selector("#request textarea", timeout=180_000)
    return page


def _wait_for(page: Any, script: str, timeout: float) -> None:
    """page.wait_for_function, whose timeout says what the page showed: on a loaded CI machine a
    bare timeout does not say whether the run ended, the page lost its server, or it was slow."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(script, timeout=timeout)
    except PlaywrightTimeout as timed_out:
        shown = {
            sel: page.locator(sel).inner_text(timeout=5_000)[-600:]
            for sel in ("#run-line", "#status", "#chat")
        }
        console = "\n".join(_CONSOLE.get(id(page), [])[-20:])
        raise AssertionError(
            f"waited {timeout / 1000:g} s for {script}\n{shown}\nconsole:\n{console}"
        ) from timed_out


def _workspace(app: RunningApp) -> Path:
    return app.workspace  # type: ignore[attr-defined]


def _open(page: Any, name: str) -> None:
    """Open a file from the tree: its name, or its checkbox where a name click does not open it."""
    row = page.locator("#files li", has_text=name).first
    row.get_by_text(name, exact=True).click()
    try:
        page.wait_for_function(f"document.querySelector('{PATH_BOX}').value === {name!r}", timeout=3_000)
    except Exception:  # noqa: BLE001 - Playwright's TimeoutError; the tree may open on its checkbox only
        row.locator("input[type=checkbox]").first.click()
        page.wait_for_function(f"document.querySelector('{PATH_BOX}').value === {name!r}", timeout=180_000)
    # The path shows before the open is handled: typing then raced the file's text arriving in the
    # editor (the fresh clone's suite lost "# mine, not " that way). Gradio's "processing" sits in
    # the unsaved marker until the open is done; a file just opened has nothing unsaved.
    page.wait_for_function("document.querySelector('#unsaved').innerText.trim() === ''", timeout=180_000)


def _type_at_end(page: Any, text: str) -> None:
    page.click("#editor .cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.type(text)


def _editor_text(page: Any) -> str:
    return page.evaluate(
        "[...document.querySelectorAll('#editor .cm-line')].map(l => l.textContent).join('\\n')"
    )


def test_send_and_save_are_on_screen_at_1366x768(app: RunningApp, browser: Any) -> None:
    page = _page(browser, app)
    box = page.locator("#send").bounding_box()
    assert box is not None and box["y"] + box["height"] <= SMALL_SCREEN["height"], box
    assert page.locator("#send").is_visible() and page.locator("#keys-hint").is_visible()
    assert "Shift+Enter" in page.locator("#keys-hint").inner_text()
    save = page.locator("#save").bounding_box()
    assert save is not None and save["y"] + save["height"] <= SMALL_SCREEN["height"], save
    editor = page.locator("#editor").bounding_box()
    assert editor is not None and editor["x"] > box["x"]  # the editor sits beside the chat, not below


def test_a_page_opened_after_a_save_shows_the_saved_settings(app: RunningApp, browser: Any) -> None:
    """The page is built at launch: a page opened later must show what was saved since, or its
    next Save writes the launch's values back over it."""
    from agents.crew_profile import list_profiles

    name, folder = list_profiles()[0], str(app.workspace)  # type: ignore[attr-defined]
    client = app.client()
    assert "Saved" in client.predict(folder, 1, 0.0, 4242, False, "always", name, api_name="/save_settings")
    try:
        page = _page(browser, app)
        page.get_by_role("tab", name="Settings").click()
        page.wait_for_selector("#crew-profile input")
        _wait_for(page, f"document.querySelector('#crew-profile input').value.includes('{name}')", 60_000)
        assert page.locator("#seed input").input_value() == "4242"
        assert page.locator("#review-mode input:checked").get_attribute("value") == "always"
    finally:
        client.predict(folder, 1, 0.0, 42, False, "auto", "", api_name="/save_settings")


def test_a_page_opened_after_a_model_load_shows_that_load(app: RunningApp, browser: Any) -> None:
    client = app.client()
    loaded = client.predict("smollm2-135m", "", 1536, "q8_0", "auto", api_name="/load_model")
    assert "Not loaded" not in loaded and "failed" not in loaded, loaded
    try:
        page = _page(browser, app)
        page.get_by_role("tab", name="Model").click()
        _wait_for(page, "document.querySelector('#n-ctx input').value === '1536'", 60_000)
        assert page.locator("#kv-type input").input_value() == "q8_0"
    finally:
        client.predict("smollm2-135m", "", 0, "f16", "auto", api_name="/load_model")


def test_ctrl_s_saves_and_the_unsaved_marker_clears(app: RunningApp, browser: Any) -> None:
    page = _page(browser, app)
    _open(page, "notes.py")
    # Gradio shows "processing | 0.6/1.4s" in the marker while the open is still handled.
    page.wait_for_function("document.querySelector('#unsaved').innerText.trim() === ''", timeout=180_000)
    _type_at_end(page, "# saved with ctrl+s")
    page.wait_for_function(
        "document.querySelector('#unsaved').innerText.includes('unsaved')", timeout=180_000
    )
    marker = page.locator("#unsaved .lc-unsaved").bounding_box()
    editor = page.locator("#editor").bounding_box()
    assert marker and editor and marker["x"] + marker["width"] <= editor["x"] + editor["width"]  # not cut off
    page.keyboard.press("Control+s")
    page.wait_for_function(
        "document.querySelector('#file-message').innerText.includes('Saved')", timeout=180_000
    )
    page.wait_for_function("document.querySelector('#unsaved').innerText.trim() === ''", timeout=180_000)
    # Exactly what the editor held: the final newline of the opened text stays (Gradio's Code dropped it).
    assert (_workspace(app) / "notes.py").read_text() == "NOTES = []\n# saved with ctrl+s"


def test_unsaved_edits_survive_opening_another_file(app: RunningApp, browser: Any) -> None:
    page = _page(browser, app)
    _open(page, "calc.py")
    _open(page, "notes.py")  # nothing typed: another file opens at once
    _type_at_end(page, "# mine, not saved")
    page.locator("#files li", has_text="calc.py").first.locator("input[type=checkbox]").first.click()
    page.wait_for_function(
        "document.querySelector('#file-message').innerText.includes('was not opened')", timeout=180_000
    )
    assert page.locator(PATH_BOX).first.input_value() == "notes.py"
    assert "# mine, not saved" in _editor_text(page)
    assert "unsaved" in page.locator("#unsaved").inner_text()
    assert (
        "# mine, not saved" not in (_workspace(app) / "notes.py").read_text()
    )  # nor written behind the back
    page.click("#discard-open")  # the explicit way to drop them
    page.wait_for_function(f"document.querySelector('{PATH_BOX}').value === 'calc.py'", timeout=180_000)
    page.wait_for_function("document.querySelector('#unsaved').innerText.trim() === ''", timeout=180_000)
    assert "def add" in _editor_text(page)


def test_the_editor_takes_no_typing_while_a_file_is_being_opened(app: RunningApp, browser: Any) -> None:
    """Keys typed between a click on a file and its text arriving went into the old text, which the
    new file's text then replaced: lost unseen. The editor is locked in the browser meanwhile."""
    page = _page(browser, app)
    _open(page, "calc.py")
    page.evaluate(
        """() => { window.lcLocked = false; const editor = document.querySelector('#editor');
        new MutationObserver(() => { window.lcLocked ||= editor.classList.contains('lc-opening'); })
            .observe(editor, {attributes: true, attributeFilter: ['class']}); }"""
    )
    _open(page, "notes.py")
    page.wait_for_function("!document.querySelector('#editor').classList.contains('lc-opening')")
    assert page.evaluate("window.lcLocked"), "opening a file never locked the editor"
    opened = _editor_text(page)
    assert "NOTES" in opened
    # What the lock does while an open is on its way (an open here is too quick to type into).
    page.evaluate("document.querySelector('#editor').classList.add('lc-opening')")
    _type_at_end(page, "# typed while opening")
    page.keyboard.press("Enter")
    assert _editor_text(page) == opened, "the locked editor took typing"
    page.evaluate("document.querySelector('#editor').classList.remove('lc-opening')")
    _type_at_end(page, "# typed after")
    assert "# typed after" in _editor_text(page)
    page.wait_for_function("document.querySelector('#unsaved').innerText.includes('unsaved')")


@pytest.fixture
def held_app(tmp_path: Path) -> Iterator[RunningApp]:
    """The app on a server whose model answers only when the test releases it: with the bundled
    model the first tab's run could end before the second tab sent (CI, 2026-11-29: the second
    request then ran at once and "1 ahead" never showed)."""
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "calc.py").write_text(CALC)
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.json").write_text(json.dumps({"rounds": 1}))
    release = threading.Event()

    def reply(body: dict[str, Any]) -> str:
        release.wait(600)
        return f"```python\n# calc.py\n{CALC}\n\ndef sub(a, b):\n    return a - b\n```\n"

    with StubServer("ok", reply=reply) as stub:
        backend = ("--backend", "openai", "--base-url", stub.url)
        with serve_app(*backend, tmp_path=tmp_path, fast_model=False) as running:
            running.workspace = workspace  # type: ignore[attr-defined]
            running.release = release  # type: ignore[attr-defined]
            yield running
        release.set()


def test_a_run_shows_its_round_a_second_tab_withdraws_its_waiting_request_and_a_reload_keeps_the_chat(
    held_app: RunningApp, browser: Any
) -> None:
    app = held_app
    workspace = _workspace(app)
    first, second = _page(browser, app), _page(browser, app)
    _open(first, "calc.py")
    first.fill("#request textarea", "Add a function sub(a, b) to calc.py that returns a - b.")
    first.click("#send")
    _wait_for(first, "document.querySelector('#run-line').innerText.includes('round 1 of 1')", HANG_MS)
    assert "Running" in first.locator("#run-line").inner_text()  # with the elapsed time

    second.fill("#request textarea", "Write never.py")
    second.press("#request textarea", "Shift+Enter")  # a new line, not a send
    second.type("#request textarea", "that prints no.")
    assert second.locator("#request textarea").input_value() == "Write never.py\nthat prints no."
    second.press("#request textarea", "Enter")  # Enter sends
    second.wait_for_function(
        "document.querySelector('#run-line').innerText.includes('1 ahead')", timeout=180_000
    )
    assert "1 ahead" in second.locator("#chat").inner_text()
    second.click("#cancel-queued")
    second.wait_for_function(
        "document.querySelector('#request textarea').value === 'Write never.py\\nthat prints no.'",
        timeout=180_000,
    )
    # (Its chat then follows the first tab's run, re-read from the store: the withdrawn bubble goes.)
    app.release.set()  # type: ignore[attr-defined]  # the model answers: the first run ends

    first.wait_for_function("document.querySelector('#chat').innerText.includes('Done in')", timeout=600_000)
    time.sleep(2)  # the editor and tree refresh after the run
    assert not (workspace / "never.py").exists()
    # After the run the editor shows what is on disk (the crew's text, if it changed calc.py).
    first.wait_for_function(
        "want => [...document.querySelectorAll('#editor .cm-line')].map(l => l.textContent).join('\\n')"
        ".trim() === want",
        arg=(workspace / "calc.py").read_text().strip(),
        timeout=180_000,
    )
    screenshot = os.environ.get("LOCALCREW_SCREENSHOT_IDE")
    if screenshot:
        first.screenshot(path=screenshot)

    first.reload()
    first.wait_for_selector("#request textarea", timeout=180_000)
    first.wait_for_function("document.querySelector('#chat').innerText.includes('Done in')", timeout=180_000)
    chat = first.locator("#chat").inner_text()
    assert "Add a function sub(a, b)" in chat
    assert "never.py" not in chat  # a withdrawn request is not part of the conversation
    stored = json.loads((workspace / ".localcrew" / "chat.json").read_text())
    assert stored["messages"][0] == {
        "role": "user",
        "content": "Add a function sub(a, b) to calc.py that returns a - b.",
    }

    first.click("#clear-chat")
    first.wait_for_function("!document.querySelector('#chat').innerText.includes('Done in')", timeout=180_000)
    first.reload()
    first.wait_for_selector("#request textarea", timeout=180_000)
    time.sleep(1)
    assert "Done in" not in first.locator("#chat").inner_text()
    assert (workspace / "calc.py").exists()  # Clear chat touches no file


def _story() -> str:
    return " ".join(f"Chapter {n} begins." for n in range(2000))


@pytest.fixture
def writing_app(tmp_path: Path) -> Iterator[RunningApp]:
    """The app on a server whose model is still writing when Stop comes (a piece each half
    second for an hour): the real model may finish first on a loaded machine, and then no Stop
    can be seen to stop anything. The story never repeats itself: a looping reply is cut by the
    repetition guard after 320 characters, and the run would end before a loaded test clicks."""
    (tmp_path / "workspace").mkdir()
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.json").write_text(json.dumps({"rounds": 1}))
    with StubServer("trickle", reply=lambda body: _story()) as stub:
        backend = ("--backend", "openai", "--base-url", stub.url)
        with serve_app(*backend, tmp_path=tmp_path, fast_model=False) as running:
            running.workspace = tmp_path / "workspace"  # type: ignore[attr-defined]
            yield running


def test_a_run_goes_on_through_a_reload_and_the_reloaded_page_can_stop_it(
    writing_app: RunningApp, browser: Any
) -> None:
    app = writing_app
    page = _page(browser, app)
    page.fill("#request textarea", "Write a long story generator in story.py.")
    page.click("#send")
    _wait_for(page, "document.querySelector('#run-line').innerText.includes('round 1')", HANG_MS)
    # The clock ticks in the page, between the server's updates of the line.
    clock = "(document.querySelector('#run-line .lc-clock') || {}).textContent || ''"
    shown = page.evaluate(clock)
    _wait_for(page, f"/^\\d+:\\d\\d$/.test({clock}) && {clock} !== {json.dumps(shown)}", HANG_MS)
    # A second Send in the same tab during the run queues (it was dropped) and can be withdrawn.
    page.fill("#request textarea", "Write second.py that prints 2.")
    page.press("#request textarea", "Enter")
    _wait_for(
        page,
        "document.querySelector('#run-line').innerText.includes('1 more of your requests waiting')",
        HANG_MS,
    )
    page.click("#cancel-queued")
    _wait_for(
        page, "!document.querySelector('#run-line').innerText.includes('more of your requests')", HANG_MS
    )
    # The withdrawn text is back in the box: nothing typed is lost.
    _wait_for(
        page,
        "document.querySelector('#request textarea').value === 'Write second.py that prints 2.'",
        HANG_MS,
    )
    page.reload()  # the page's stream closes; the run must not end with it
    page.wait_for_selector("#request textarea", timeout=180_000)
    _wait_for(page, "document.querySelector('#run-line').innerText.includes('before a reload')", HANG_MS)
    assert "Write a long story generator" in page.locator("#chat").inner_text()
    page.click("#stop")  # the reloaded page is another session, yet its Stop reaches the run
    _wait_for(page, "document.querySelector('#chat').innerText.includes('Stopped by the user')", HANG_MS)
    _wait_for(page, "!document.querySelector('#status').innerText.includes('crew running')", HANG_MS)
    assert not (_workspace(app) / "second.py").exists()  # the withdrawn request never ran


def test_reject_one_file_of_the_last_run_then_undo_and_redo_in_the_last_run_tab(
    app: RunningApp, browser: Any
) -> None:
    from tools.run_snapshot import RunSnapshots
    from tools.workspace_files import WorkspaceFiles

    workspace = _workspace(app)
    (workspace / "keep.py").write_text("KEEP = 1\n")
    (workspace / "alpha.py").write_text("A = 1\n")
    # A run as the crew records one (its writes journaled), without a model: exact and fast.
    snaps = RunSnapshots(workspace)
    run_id = snaps.begin_run("change alpha and add beta")
    files = WorkspaceFiles(workspace, before_write=snaps.record_write)
    files.write_text("alpha.py", "A = 2\n")
    files.write_text("beta.py", "B = 1\n")
    snaps.end_run(run_id)

    page = _page(browser, app)
    page.get_by_role("tab", name="Last run").click()
    page.wait_for_function("document.querySelector('#diff').innerText.includes('beta.py')", timeout=180_000)
    page.click("#reject-file input")
    page.get_by_role("option", name="beta.py").click()
    page.click("#reject")
    page.wait_for_function(  # beta.py was made by the run: rejecting deletes it, so it asks first
        "document.querySelector('#undo-message').innerText.includes('deletes')", timeout=180_000
    )
    assert (workspace / "beta.py").exists()
    page.click("#undo-confirm")
    page.wait_for_function(
        "document.querySelector('#undo-message').innerText.includes('Rejected')", timeout=180_000
    )
    assert not (workspace / "beta.py").exists() and (workspace / "alpha.py").read_text() == "A = 2\n"
    page.click("#undo")
    page.wait_for_function(
        "document.querySelector('#undo-message').innerText.includes('Undid')", timeout=180_000
    )
    assert (workspace / "alpha.py").read_text() == "A = 1\n" and (workspace / "keep.py").exists()
    page.click("#redo")
    page.wait_for_function(
        "document.querySelector('#undo-message').innerText.includes('Redid')", timeout=180_000
    )
    assert (workspace / "alpha.py").read_text() == "A = 2\n" and not (workspace / "beta.py").exists()

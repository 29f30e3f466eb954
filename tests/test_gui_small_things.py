"""Issue 40 item 5's smaller things, below the page: a request quoted in a message is cut at about
200 characters; the run clock is drawn from wall time for the browser to tick; a reloaded page gets
the sidebar of the live or last run; a click on a file's name opens it (a folder's does nothing)
and shows the Editor; an empty chat shows an example request."""

from __future__ import annotations

import re
import time
from pathlib import Path
from types import SimpleNamespace

import gradio as gr

from gui.crew_chat_wiring import CrewChat
from gui.crew_session import LiveRun, Progress, Ticket
from gui.editor_wiring import NO_CHANGE, SHOW_EDITOR, EditorFiles
from gui.markdown_text import QUOTE_CHARS, quoted
from gui.page_layout import EMPTY_CHAT
from gui.run_view import RunView, TimelineRow


def test_a_long_request_is_quoted_cut() -> None:
    text = quoted("Write " + "x" * 5000)
    assert len(text) <= QUOTE_CHARS + 2 and text.endswith("…'")
    assert quoted("Fix __len__") == "'Fix \\_\\_len\\_\\_'"  # short ones as they were


def test_the_run_clock_carries_the_wall_time_it_started() -> None:
    progress = Progress(started=time.monotonic() - 75)
    line = progress.line()
    start = float(re.search(r'data-start="([\d.]+)"', line).group(1))  # type: ignore[union-attr]
    assert abs(time.time() - 75 - start) < 2 and ">1:15</span>" in line
    assert progress.text() == "Running 1:15"  # the plain text stays plain


def test_a_reloaded_page_gets_the_last_runs_sidebar(tmp_path: Path) -> None:
    view = RunView("add a test")
    view.timeline.append(TimelineRow("c1", "coder", "write_file", '{"path": "t.py"}', "done"))
    state = SimpleNamespace(session=SimpleNamespace(live=LiveRun(view, Ticket("tab"))), workspace=tmp_path)
    chat = CrewChat(state)  # type: ignore[arg-type]
    chat._live_workspace = tmp_path  # as run() records it once the request holds the model
    loaded = chat.load_chat(SimpleNamespace(session_hash="tab"))  # type: ignore[arg-type]
    assert "write_file" in loaded[2]
    state.workspace = tmp_path / "another"  # another workspace: that run's sidebar is not shown
    assert "write_file" not in chat.load_chat(SimpleNamespace(session_hash="tab"))[2]  # type: ignore[arg-type]


def test_a_click_on_a_name_opens_the_file_and_shows_the_editor(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text("X = 1\n")
    files = EditorFiles(SimpleNamespace(workspace=tmp_path))  # type: ignore[arg-type]
    clicked = files.open_clicked("", "", None, gr.SelectData(None, {"index": [0], "value": "pkg/mod.py"}))
    assert clicked[1] == "pkg/mod.py" and clicked[4] == "X = 1\n" and clicked[-1] == SHOW_EDITOR
    folder = files.open_clicked("", "", None, gr.SelectData(None, {"index": [0], "value": "pkg"}))
    assert folder[:-1] == NO_CHANGE


def test_an_empty_chat_shows_an_example_request() -> None:
    assert "For example" in EMPTY_CHAT and "fizzbuzz.py" in EMPTY_CHAT


def test_the_run_line_is_sent_again_only_when_more_than_its_drawing_time_changed() -> None:
    progress = Progress(started=time.monotonic() - 5)
    session = SimpleNamespace(waiting_count=lambda owner=None: 0, progress=progress)
    chat = CrewChat(SimpleNamespace(session=session))  # type: ignore[arg-type]
    running = Ticket("tab", state="running")
    first, _ = chat.queue_state("tab", running)
    time.sleep(0.01)
    assert chat.queue_state("tab", running, first)[0] is first  # the page's clock ticks by itself
    progress.round, progress.rounds = 2, 3
    later, _ = chat.queue_state("tab", running, first)
    assert later != first and "round 2 of 3" in later


def test_a_watching_page_is_shown_the_runs_end_once_however_late_its_tick(tmp_path: Path) -> None:
    live = LiveRun(RunView("write a story"), Ticket("first-tab"))
    session = SimpleNamespace(
        live=live, progress=Progress(), waiting_count=lambda owner=None: 0, seen=lambda owner: None
    )
    chat = CrewChat(SimpleNamespace(session=session, workspace=tmp_path))  # type: ignore[arg-type]
    watching, later = SimpleNamespace(session_hash="second-tab"), SimpleNamespace(session_hash="third-tab")
    assert "Running" in chat.watch(watching)[1]  # type: ignore[arg-type]
    live.finished_at = time.monotonic() - 60  # the run ended a minute before this tab's next tick
    assert chat.watch(watching)[1] == ""  # type: ignore[arg-type]  # the line no longer says "Running"
    assert all(value == gr.skip() for value in chat.watch(watching))  # type: ignore[arg-type]
    # A page loaded after the end has the chat from its load: a tick must not bring it back after
    # the user cleared it.
    assert all(value == gr.skip() for value in chat.watch(later))  # type: ignore[arg-type]


def test_a_reloaded_page_says_a_request_it_sent_before_still_waits(tmp_path: Path) -> None:
    # The request waits under the page's old session, which a reload forgets (issue 58).
    live = LiveRun(RunView("write a story"), Ticket("first-tab"))
    waiting = {"old-page": 1}
    session = SimpleNamespace(
        live=live,
        progress=Progress(),
        waiting_count=lambda owner=None: sum(waiting.values()) if owner is None else waiting.get(owner, 0),
        seen=lambda owner: None,
    )
    chat = CrewChat(SimpleNamespace(session=session, workspace=tmp_path))  # type: ignore[arg-type]
    line = chat.watch(SimpleNamespace(session_hash="reloaded-page"))[1]  # type: ignore[arg-type]
    assert "Running" in line and "1 more waiting" in line

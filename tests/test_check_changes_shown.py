"""A program the crew runs as a check changes the workspace only through the sandbox's copy; what it
applied, deleted and what the sandbox refused to apply reach the page: the check's chat turn and its
timeline row name them (real sandbox, no model)."""

from __future__ import annotations

from pathlib import Path

from agents.events import CheckRun, EventBus
from agents.run.crew_tools import ToolContext, run_check
from gui.run_view import RunView
from gui.sidebar_html import timeline_html
from tools.sandbox import RunLimits
from tools.workspace_files import WorkspaceFiles

PROGRAM = """
import os
open("out.txt", "w").write("made by the program\\n")
os.remove("old.txt")
os.symlink("/etc/hostname", "sneaky_link")
print("done")
"""


def test_what_a_program_changed_and_what_was_refused_shows_in_the_chat_and_the_timeline(
    tmp_path: Path,
) -> None:
    (tmp_path / "prog.py").write_text(PROGRAM)
    (tmp_path / "old.txt").write_text("old\n")
    context = ToolContext(WorkspaceFiles(tmp_path), EventBus(), RunLimits(wall_s=10.0))
    run_check(context, "python", "prog.py")
    [event] = [e for e in context.bus.history if isinstance(e, CheckRun)]
    assert event.applied == ["out.txt"] and event.deleted == ["old.txt"]
    assert len(event.refused) == 1 and event.refused[0].startswith("sneaky_link")
    assert not (tmp_path / "sneaky_link").exists()  # the sandbox really kept it out

    view = RunView("run prog.py")
    view.apply(event)
    message = view.messages[-1]
    assert message["metadata"]["title"].endswith("changes not applied")
    assert "Not applied to the workspace (1): sneaky_link" in message["content"]
    assert "The program changed: out.txt" in message["content"]
    assert "The program deleted: old.txt" in message["content"]
    sidebar = timeline_html(view.timeline)
    assert "Not applied to the workspace (1): sneaky_link" in sidebar


def test_a_program_that_changed_nothing_adds_no_line() -> None:
    view = RunView("x")
    view.apply(
        CheckRun(command="python a.py", exit_code=0, passed=True, limit_hit=None, duration_s=0.1,
                 stdout_tail="hi", stderr_tail="")
    )  # fmt: skip
    assert view.messages[-1]["metadata"]["title"] == "Check: python a.py passed"
    assert (
        "Not applied" not in view.messages[-1]["content"] and "program changed" not in view.timeline[0].result
    )


def test_changes_requested_after_a_failed_check_names_the_check_not_nothing() -> None:
    from agents.events import ReviewVerdict

    view = RunView("x")
    view.apply(
        CheckRun(command="python a.py", exit_code=1, passed=False, limit_hit=None, duration_s=0.1,
                 stdout_tail="", stderr_tail="NameError")
    )  # fmt: skip
    view.apply(ReviewVerdict(round=1, approved=False, fixes=[]))
    assert view.messages[-1]["content"] == "**Round 1:** not done yet:\n- a check failed: its output is above"
    view.apply(ReviewVerdict(round=2, approved=False, fixes=[]))  # no check failed this round
    assert view.messages[-1]["content"].endswith("- (no fix named)")

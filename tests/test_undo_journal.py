"""Undo takes back only the paths the run itself wrote (issue 57): the coder's writes and what a
sandboxed program's apply-back wrote are journaled, so a file the user saved in the editor while
the run went on keeps the user's edit after Undo."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from tests.test_sandbox_staging import staged
from tools.run_snapshot import RunSnapshots, UndoConflictError, journal_applied
from tools.sandbox import run_python
from tools.workspace_files import WorkspaceFiles

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="staging uses Linux user namespaces"
)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "notes.py").write_text("# the user's notes\n")
    (root / "code.py").write_text("def f():\n    return 1\n")
    (root / "sub").mkdir()
    return root


def program(folder: Path, code: str) -> str:
    (folder / "p.py").write_text(textwrap.dedent(code))
    return "p.py"


@linux_only
def test_an_edit_saved_during_the_run_survives_undo(ws: Path) -> None:
    snaps = RunSnapshots(ws)
    run_id = snaps.begin_run("change f and make out.txt")
    coder = WorkspaceFiles(ws, before_write=snaps.record_write)
    coder.write_text("code.py", "def f():\n    return 2\n")
    rel = program(ws / "sub", "open('out.txt', 'w').write('made\\n')\n")
    result = run_python(ws / "sub", rel)
    assert result.exit_code == 0, result.stderr_tail
    (ws / "notes.py").write_text("# the user's notes\n# saved while the run went on\n")  # the editor
    snaps.end_run(run_id)
    undone = snaps.undo(run_id)
    assert (ws / "notes.py").read_text() == "# the user's notes\n# saved while the run went on\n"
    assert (ws / "code.py").read_text() == "def f():\n    return 1\n"
    if staged():  # apply-back journaled sub/out.txt: the undo takes it out
        assert not (ws / "sub" / "out.txt").exists() and "sub/out.txt" in undone.deleted
    assert "notes.py" not in undone.restored
    assert "notes.py" not in (snaps.runs()[0].changed or [])


def test_a_run_whose_program_wrote_the_workspace_itself_is_undone_whole(ws: Path) -> None:
    """Without staging (macOS, Windows) a program writes the workspace itself: no journal names all
    the run changed, and undo takes back the whole difference, as before the journals."""
    snaps = RunSnapshots(ws)
    run_id = snaps.begin_run("run a program")
    (ws / "written.txt").write_text("by the program\n")
    journal_applied(ws, [], complete=False)
    snaps.end_run(run_id)
    snaps.undo(run_id)
    assert not (ws / "written.txt").exists()


def test_apply_back_journals_into_the_run_in_progress_only(ws: Path, tmp_path: Path) -> None:
    snaps = RunSnapshots(ws)
    run_id = snaps.begin_run("run")
    journal_applied(ws / "sub", ["a.txt", "b/c.txt"])
    elsewhere = tmp_path / "other"
    elsewhere.mkdir()
    journal_applied(elsewhere, ["x.txt"])  # no run there: nothing journaled, nothing made
    assert not (elsewhere / ".localcrew").exists()
    log = ws / ".localcrew" / "snapshots" / "runs" / run_id / "applied.log"
    assert [json.loads(line) for line in log.read_text().splitlines()] == ["sub/a.txt", "sub/b/c.txt"]
    snaps.end_run(run_id)
    journal_applied(ws, ["late.txt"])  # the run has ended: not its write
    assert "late.txt" not in log.read_text()


# ---------- the user's edit and the run's write on the same file ----------


def test_an_edit_saved_during_the_run_after_its_write_is_merged_not_wiped(ws: Path) -> None:
    """The run wrote code.py, then the user saved code.py (another line) before the run ended: the
    journal knew only the path, so Undo put the file back to before the run and the edit was gone."""
    (ws / "code.py").write_text("def f():\n    return 1\n\n\ndef g():\n    return 'g'\n")
    snaps = RunSnapshots(ws)
    run_id = snaps.begin_run("change f")
    WorkspaceFiles(ws, before_write=snaps.record_write).write_text(
        "code.py", "def f():\n    return 2\n\n\ndef g():\n    return 'g'\n"
    )
    (ws / "code.py").write_text("def f():\n    return 2\n\n\ndef g():\n    return 'mine'\n")  # the editor
    snaps.end_run(run_id)
    undone = snaps.undo(run_id)
    assert (ws / "code.py").read_text() == "def f():\n    return 1\n\n\ndef g():\n    return 'mine'\n"
    assert undone.merged == ["code.py"] and "merged with later edits (code.py)" in undone.summary()


def test_an_edit_during_the_run_on_the_lines_it_wrote_stops_the_undo_and_stays(ws: Path) -> None:
    snaps = RunSnapshots(ws)
    run_id = snaps.begin_run("change f")
    WorkspaceFiles(ws, before_write=snaps.record_write).write_text("code.py", "def f():\n    return 2\n")
    mine = "def f():\n    return 3  # mine\n"
    (ws / "code.py").write_text(mine)
    snaps.end_run(run_id)
    with pytest.raises(UndoConflictError, match=r"code\.py \(line 2\)"):
        snaps.undo(run_id)
    assert (ws / "code.py").read_text() == mine  # nothing changed: the user's bytes are where they were


def test_a_version_saved_during_the_run_that_the_run_then_wrote_over_is_what_undo_puts_back(ws: Path) -> None:
    """The user saved code.py while the run went on, and the run's write then replaced it: the user's
    bytes were in no snapshot, and Undo put back the file from before the run."""
    snaps = RunSnapshots(ws)
    run_id = snaps.begin_run("change f")
    mine = "def f():\n    return 1  # checked by hand\n"
    (ws / "code.py").write_text(mine)  # the editor, before the coder's write
    WorkspaceFiles(ws, before_write=snaps.record_write).write_text("code.py", "def f():\n    return 2\n")
    snaps.end_run(run_id)
    for _ in range(2):  # each later run prunes the store's objects: the user's version outlives it
        other = snaps.begin_run("later")
        snaps.end_run(other)
    undone = snaps.undo(run_id)
    assert (ws / "code.py").read_text() == mine
    assert undone.yours == ["code.py"] and "as you saved them during the run" in undone.summary()
    snaps.redo(run_id)
    assert (ws / "code.py").read_text() == "def f():\n    return 2\n"


@linux_only
def test_a_file_applied_back_then_edited_during_the_run_is_kept_and_named(ws: Path) -> None:
    if not staged():
        pytest.skip("without staging the program writes the workspace itself: undo takes back all")
    snaps = RunSnapshots(ws)
    run_id = snaps.begin_run("make out.txt")
    result = run_python(ws / "sub", program(ws / "sub", "open('out.txt', 'w').write('made\\n')\n"))
    assert result.exit_code == 0 and "out.txt" in result.applied, result
    (ws / "sub" / "out.txt").write_text("made\nand my notes\n")  # the user, before the run ended
    snaps.end_run(run_id)
    undone = snaps.undo(run_id)
    assert (ws / "sub" / "out.txt").read_text() == "made\nand my notes\n"
    assert any(line.startswith("sub/out.txt: changed again after the run") for line in undone.not_restored)
    assert "could not be restored" in undone.summary()

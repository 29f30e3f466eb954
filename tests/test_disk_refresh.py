"""After a crew run the Undo chooser moves to the new run; after an undo that only asked, it stays."""

from pathlib import Path
from types import SimpleNamespace

import gradio as gr

from gui.disk_refresh import DiskRefresh
from tools.run_snapshot import RunSnapshots
from tools.workspace_files import WorkspaceFiles


def _run(workspace: Path, label: str, rel: str, text: str) -> str:
    snaps = RunSnapshots(workspace)
    run_id = snaps.begin_run(label)
    WorkspaceFiles(workspace, before_write=snaps.record_write).write_text(rel, text)
    snaps.end_run(run_id)
    return run_id


def _chosen(outputs: tuple) -> str | None:
    return outputs[-1].value  # the run chooser is the last output


def test_the_chooser_follows_a_new_run_and_keeps_a_choice_otherwise(tmp_path: Path) -> None:
    first = _run(tmp_path, "first", "a.py", "a = 1\n")
    second = _run(tmp_path, "second", "b.py", "b = 1\n")
    state = SimpleNamespace(workspace=tmp_path)
    code = SimpleNamespace(
        editor=SimpleNamespace(
            **{n: None for n in ("editor", "baseline", "opened", "file_message", "unsaved")}
        ),
        last_run=SimpleNamespace(run_choice=None, diff=None, reject_choice=None),
        explorer=None,
    )
    with gr.Blocks():
        disk = DiskRefresh(state, code)  # type: ignore[arg-type]
        request = SimpleNamespace(session_hash="s")
        # The chooser still shows the first run, as it did when that run was the newest.
        assert _chosen(disk.after_a_run("", "", None, first, request)) == second  # type: ignore[arg-type]
        assert _chosen(disk.after_disk_changes("", "", None, first, request)) == first  # type: ignore[arg-type]

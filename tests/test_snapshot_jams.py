"""Snapshots and undo that a hostile program cannot jam (issue 42): a tree whose paths are longer
than PATH_MAX, names at the length limit or not UTF-8, a torn record in the store, and an undo
killed with -9 half-way (the next undo cleans up its temporary file and finishes the job)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tools.run_snapshot import RunSnapshots, SnapshotError, journal_applied
from tools.workspace_files import WorkspaceFiles

REPO = Path(__file__).resolve().parents[1]
LONG = 250  # twenty folders of this make a path over PATH_MAX (4096)


def deep_tree(root: Path, levels: int = 20, content: bytes = b"deep\n") -> list[str]:
    """Nested folders of 250-character names and a file at the bottom, made through fds (their
    full path is too long for any path call). Returns the names, top first."""
    names = [f"{i:02d}" + "d" * (LONG - 2) for i in range(levels)]
    fd = os.open(root, os.O_RDONLY)
    try:
        for name in names:
            os.mkdir(name, dir_fd=fd)
            child = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = child
        out = os.open("bottom.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(out, content)
        os.close(out)
    finally:
        os.close(fd)
    return names


def user_entries(root: Path) -> dict[str, bytes | None]:
    """Every entry but the store, by fd walk (paths may be too long): file bytes, None for folders."""
    found: dict[str, bytes | None] = {}
    stack = [("", os.open(root, os.O_RDONLY))]
    while stack:
        rel, fd = stack.pop()
        for entry in sorted(os.listdir(fd)):
            if not rel and entry == ".localcrew":
                continue
            path = f"{rel}/{entry}" if rel else entry
            st = os.stat(entry, dir_fd=fd, follow_symlinks=False)
            if stat.S_ISDIR(st.st_mode):
                found[path] = None
                stack.append((path, os.open(entry, os.O_RDONLY, dir_fd=fd)))
            else:
                handle = os.open(entry, os.O_RDONLY, dir_fd=fd)
                found[path] = os.read(handle, 1 << 20)
                os.close(handle)
        os.close(fd)
    return found


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.py").write_text("a = 1\n")
    return root


def test_a_tree_deeper_than_path_max_is_saved_undone_and_blocks_no_later_run(ws: Path) -> None:
    snaps = RunSnapshots(ws)
    before = user_entries(ws)
    run_id = snaps.begin_run("a program writes a very deep tree")
    names = deep_tree(ws)  # as a check's program applied back would, journaling what it wrote
    journal_applied(ws, ["/".join([*names, "bottom.txt"]), "a.py"])
    (ws / "a.py").write_text("a = 2\n")
    snaps.end_run(run_id)
    assert len("/".join(names)) > 4096

    later = snaps.begin_run("the next run")  # failed with "File name too long" before
    snaps.end_run(later)
    plan = snaps.undo_plan(run_id)
    assert names[0] + "/" in plan.delete and plan.restore == ["a.py"]
    snaps.undo(run_id, allow_delete=plan.delete)
    assert user_entries(ws) == before

    result = snaps.redo(run_id)  # and back: every level and the file at the bottom
    assert f"{names[0]}/" in result.restored
    assert user_entries(ws)["/".join([*names, "bottom.txt"])] == b"deep\n"


def test_a_deep_tree_changed_by_a_run_is_put_back_byte_for_byte(ws: Path) -> None:
    names = deep_tree(ws, content=b"the user's own\n")
    snaps = RunSnapshots(ws)
    before = user_entries(ws)
    run_id = snaps.begin_run("edits the deep file")
    journal_applied(ws, ["/".join([*names, "bottom.txt"])])  # as apply-back journals a deletion
    fd = os.open(ws, os.O_RDONLY)
    for name in names:
        child = os.open(name, os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = child
    os.unlink("bottom.txt", dir_fd=fd)
    os.close(fd)
    snaps.end_run(run_id)
    snaps.undo(run_id)
    assert user_entries(ws) == before


def test_too_deep_folders_are_skipped_and_named_not_fatal(ws: Path) -> None:
    from tools.snapshot_fs import MAX_DEPTH

    fd = os.open(ws, os.O_RDONLY)
    for _ in range(MAX_DEPTH + 5):
        os.mkdir("d", dir_fd=fd)
        child = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = child
    os.close(fd)
    snaps = RunSnapshots(ws)
    run_id = snaps.begin_run("deep")
    snaps.end_run(run_id)
    info = snaps.last_run()
    assert info is not None
    assert any("deeper than" in why for why in info.skipped.values())


ODD_NAMES = ["n" * 255, "new\nline.py", "-rf", "sp ace", "back\\slash", os.fsdecode(b"latin\xe9.txt")]


def test_odd_names_are_saved_and_put_back(ws: Path) -> None:
    for name in ODD_NAMES:
        (ws / name).write_bytes(b"original " + os.fsencode(name)[:20] + b"\n")
    snaps = RunSnapshots(ws)
    before = user_entries(ws)
    run_id = snaps.begin_run("rewrites every odd name")
    journal_applied(ws, [*ODD_NAMES, "m" * 255])  # as apply-back journals what it wrote
    for name in ODD_NAMES:
        (ws / name).write_bytes(b"rewritten\n")
    (ws / ("m" * 255)).write_bytes(b"made by the run\n")
    snaps.end_run(run_id)
    result = snaps.undo(run_id)
    assert result.not_restored == []  # the 255-character name once failed (its temp name was longer)
    assert user_entries(ws) == before


def test_a_torn_record_or_a_stray_object_does_not_stop_later_runs(ws: Path) -> None:
    snaps = RunSnapshots(ws)
    first = snaps.begin_run("first")
    snaps.end_run(first)
    torn = snaps.store / "runs" / "20990101T000000000000Z-abcdef"
    torn.mkdir()
    (torn / "meta.json").write_text(json.dumps({"label": "no id"}))
    (snaps.store / "objects" / "stray").write_text("not a bucket")
    assert [info.id for info in snaps.runs()] == [first]
    second = snaps.begin_run("second")
    journal_applied(ws, ["a.py"])
    (ws / "a.py").write_text("a = 3\n")
    snaps.end_run(second)
    snaps.undo()
    assert (ws / "a.py").read_text() == "a = 1\n"


def test_a_failed_snapshot_leaves_no_half_made_run(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    snaps = RunSnapshots(ws)

    def broken() -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(snaps, "_snapshot", broken)
    with pytest.raises(SnapshotError, match="No space left"):
        snaps.begin_run("disk full")
    assert not list((snaps.store / "runs").iterdir())
    monkeypatch.undo()
    run_id = snaps.begin_run("after the disk was freed")
    snaps.end_run(run_id)
    assert snaps.last_run() is not None and snaps.last_run().id == run_id


KILLED_UNDO = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    from tools.run_snapshot import RunSnapshots

    real_replace = os.replace
    def replace(src, dst, *args, **kwargs):
        # The moment a restored file's temp copy is about to be renamed over it: killed.
        if os.path.basename(os.fsdecode(dst)) == "a.py":
            os.kill(os.getpid(), 9)
        return real_replace(src, dst, *args, **kwargs)
    os.replace = replace
    RunSnapshots(Path(sys.argv[1])).undo()
    """
)


@pytest.mark.parametrize("trial", range(3))
def test_an_undo_killed_half_way_is_cleaned_up_and_finished_by_the_next(ws: Path, trial: int) -> None:
    (ws / "b.py").write_text("b = 1\n")
    snaps = RunSnapshots(ws)
    before = user_entries(ws)
    run_id = snaps.begin_run("changes both")
    files = WorkspaceFiles(ws, before_write=snaps.record_write)
    files.write_text("a.py", "a = 2\n")
    files.write_text("b.py", "b = 2\n")
    snaps.end_run(run_id)
    after = user_entries(ws)

    killed = subprocess.run([sys.executable, "-c", KILLED_UNDO, str(ws)], cwd=REPO, timeout=60)
    assert killed.returncode == -9
    assert len(user_entries(ws)) > len(before)  # its temp copy of a.py is left

    RunSnapshots(ws).undo()
    assert user_entries(ws) == before  # no temp file, both files back
    RunSnapshots(ws).redo()
    assert user_entries(ws) == after  # Redo returns to the tree from before the killed undo


def test_the_undo_after_a_killed_one_reports_what_is_true(ws: Path) -> None:
    """The killed undo had deleted the files the run made: the next one said they "could not be
    restored" although the tree was right. It names them as deleted now, and nothing as failed."""
    (ws / "bin.dat").write_bytes(b"\x00\xff old")
    snaps = RunSnapshots(ws)
    before = user_entries(ws)
    run_id = snaps.begin_run("changes and makes files")
    files = WorkspaceFiles(ws, before_write=snaps.record_write)
    files.write_text("a.py", "a = 2\n")
    for n in range(3):
        files.write_text(f"new{n}.py", "n\n")
    snaps.record_write(ws / "bin.dat")
    (ws / "bin.dat").write_bytes(b"\x00\xff new")  # not text: no merge can take it
    snaps.end_run(run_id)

    killed = subprocess.run([sys.executable, "-c", KILLED_UNDO, str(ws)], cwd=REPO, timeout=60)
    assert killed.returncode == -9
    result = RunSnapshots(ws).undo()
    assert user_entries(ws) == before
    assert result.not_restored == [] and "could not" not in result.summary()
    assert {"new0.py", "new1.py", "new2.py"} <= set(result.deleted)
    assert {"a.py", "bin.dat"} <= set(result.restored)

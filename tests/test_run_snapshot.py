"""tools.run_snapshot: exact undo of a crew run, crash recovery, and a user's git repo untouched."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tools.run_snapshot import MAX_FILE_BYTES, NothingToUndoError, RunSnapshots, journal_applied
from tools.sandbox import RunLimits, run_python
from tools.workspace_files import WorkspaceFiles

REPO = Path(__file__).resolve().parents[1]


def tree_state(root: Path) -> dict[str, tuple]:
    """Every entry except our store and .git: kind, bytes and full mode."""
    state: dict[str, tuple] = {}
    for directory, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in (".localcrew", ".git")]
        for name in dirs + files:
            path = Path(directory, name)
            rel = path.relative_to(root).as_posix()
            st = path.lstat()
            if stat.S_ISLNK(st.st_mode):
                state[rel] = ("link", os.readlink(path))
            elif stat.S_ISDIR(st.st_mode):
                state[rel] = ("dir", stat.S_IMODE(st.st_mode))
            else:
                state[rel] = ("file", path.read_bytes(), stat.S_IMODE(st.st_mode))
    return state


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.txt").write_text("alpha\n")
    (root / "bin.dat").write_bytes(bytes(range(256)) * 40)
    (root / "run.sh").write_text("#!/bin/sh\necho hi\n")
    (root / "run.sh").chmod(0o755)
    (root / "private.key").write_text("k")
    (root / "private.key").chmod(0o600)
    (root / "sub" / "deep").mkdir(parents=True)
    (root / "sub" / "deep" / "x.py").write_text("x = 1\n")
    (root / "emptydir").mkdir()
    os.symlink("a.txt", root / "link")
    return root


def test_undo_restores_everything_exactly(ws: Path) -> None:
    before = tree_state(ws)
    snaps = RunSnapshots(ws)
    run_id = snaps.begin_run("refactor")
    files = WorkspaceFiles(ws, before_write=snaps.record_write)
    files.write_text("a.txt", "changed by the crew\n")
    files.write_text("newdir/nested/new.py", "print('new')\n")
    files.delete("sub/deep/x.py")
    files.delete("sub/deep")
    # Changes no write tool saw, as a program run without staging (macOS, Windows) makes them: it
    # wrote the workspace itself, so the run's journals are incomplete and undo takes back all.
    journal_applied(ws, [], complete=False)
    (ws / "bin.dat").write_bytes(b"\x00garbage\xff")
    (ws / "run.sh").chmod(0o644)
    (ws / "private.key").write_text("leaked")
    (ws / "private.key").chmod(0o644)
    (ws / "link").unlink()
    (ws / "link").write_text("not a link any more")
    (ws / "emptydir").rmdir()
    (ws / "emptydir").write_text("file where a dir was")
    (ws / "sub").chmod(0o700)
    (ws / "created.bin").write_bytes(os.urandom(1000))
    snaps.end_run(run_id)
    assert tree_state(ws) != before

    info = snaps.last_run()
    assert info is not None and info.id == run_id and info.is_finished
    assert info.files_written == ["a.txt", "newdir/nested/new.py", "sub/deep/x.py", "sub/deep"]

    result = snaps.undo()
    assert tree_state(ws) == before
    assert {"created.bin", "newdir/"} <= set(result.deleted)
    assert {"a.txt", "bin.dat", "run.sh", "private.key", "link", "sub/deep/x.py"} <= set(result.restored)
    assert "a.txt" not in result.deleted and not result.not_restored
    assert result.backup.exists()
    assert snaps.last_run() is None


def test_undo_reverts_what_a_sandboxed_program_did(ws: Path) -> None:
    before = tree_state(ws)
    snaps = RunSnapshots(ws)
    snaps.begin_run("run generated code")
    (ws / "prog.py").write_text(
        textwrap.dedent(
            """
            import os, shutil
            open("a.txt", "a").write("appended\\n")
            os.remove("bin.dat")
            shutil.rmtree("sub")
            os.makedirs("build/out")
            open("build/out/result.txt", "w").write("42")
            """
        )
    )
    result = run_python(ws, "prog.py", limits=RunLimits(wall_s=10))
    assert result.exit_code == 0, result.stderr_tail
    assert (ws / "build/out/result.txt").exists() and not (ws / "bin.dat").exists()
    snaps.undo()  # the run was never ended: undo must not care
    assert tree_state(ws) == before


CRASHING_RUN = """
import os, sys, time
from pathlib import Path
from tools.run_snapshot import RunSnapshots
from tools.workspace_files import WorkspaceFiles

ws = Path(sys.argv[1])
snaps = RunSnapshots(ws)
snaps.begin_run("doomed run")
files = WorkspaceFiles(ws, before_write=snaps.record_write)
files.write_text("a.txt", "half-done edit\\n")
files.write_text("created.txt", "new\\n")
files.delete("run.sh")
(ws / "bin.dat").write_bytes(b"overwritten by a program")
print("READY", flush=True)
time.sleep(60)
"""

UNDO_IN_NEW_PROCESS = """
import json, sys
from pathlib import Path
from tools.run_snapshot import RunSnapshots

snaps = RunSnapshots(Path(sys.argv[1]))
info = snaps.last_run()
result = snaps.undo()
print(json.dumps({"label": info.label, "finished": info.finished,
                  "written": info.files_written, "deleted": result.deleted}))
"""


def test_killed_run_is_undone_from_a_new_process(ws: Path) -> None:
    before = tree_state(ws)
    crew = subprocess.Popen(
        [sys.executable, "-c", CRASHING_RUN, str(ws)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert crew.stdout is not None
    assert crew.stdout.readline().strip() == "READY"
    crew.send_signal(signal.SIGKILL)
    crew.wait()
    assert (ws / "a.txt").read_text() == "half-done edit\n"

    undo = subprocess.run(
        [sys.executable, "-c", UNDO_IN_NEW_PROCESS, str(ws)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert undo.returncode == 0, undo.stderr
    report = json.loads(undo.stdout)
    assert report["label"] == "doomed run"
    assert report["finished"] is None
    assert report["written"] == ["a.txt", "created.txt", "run.sh"]
    assert report["deleted"] == ["created.txt"]
    assert tree_state(ws) == before


def test_nothing_to_undo_is_a_clear_error(ws: Path) -> None:
    snaps = RunSnapshots(ws)
    with pytest.raises(NothingToUndoError, match="no crew run has been recorded"):
        snaps.undo()
    snaps.end_run(snaps.begin_run("one"))
    snaps.undo()
    with pytest.raises(NothingToUndoError, match="every recorded run is undone"):
        snaps.undo()


def test_undo_steps_back_one_run_at_a_time(ws: Path) -> None:
    start = tree_state(ws)
    snaps = RunSnapshots(ws)
    first = snaps.begin_run("first")
    journal_applied(ws, ["a.txt"])  # as a program's apply-back journals what it wrote
    (ws / "a.txt").write_text("one\n")
    snaps.end_run(first)
    after_first = tree_state(ws)
    second = snaps.begin_run("second")
    journal_applied(ws, ["a.txt", "b.txt"])
    (ws / "a.txt").write_text("two\n")
    (ws / "b.txt").write_text("b\n")
    snaps.end_run(second)
    assert snaps.undo().run_id == second
    assert tree_state(ws) == after_first
    last = snaps.last_run()
    assert last is not None and last.id == first
    assert snaps.undo().label == "first"
    assert tree_state(ws) == start


def git(ws: Path, *args: str) -> bytes:
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0"}  # status must not refresh the index itself
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=ws,
        env=env,
        capture_output=True,
        check=True,
    )
    return done.stdout


def dot_git_digest(ws: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted((ws / ".git").rglob("*")):
        digest.update(path.relative_to(ws).as_posix().encode())
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def test_users_git_repository_is_untouched(ws: Path) -> None:
    git(ws, "init", "-q")
    (ws / ".gitignore").write_text(".env\n")
    (ws / ".env").write_text("TOKEN=keep-me\n")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "init")
    (ws / "a.txt").write_text("uncommitted edit\n")
    git(ws, "add", "a.txt")  # something staged, so the index differs from HEAD
    (ws / "wip.txt").write_text("untracked\n")
    digest = dot_git_digest(ws)
    head, status = git(ws, "rev-parse", "HEAD"), git(ws, "status", "--porcelain")
    before = tree_state(ws)

    snaps = RunSnapshots(ws)
    run_id = snaps.begin_run("in a repo")
    assert git(ws, "status", "--porcelain") == status  # our store is invisible to git
    for rel in (".env", "a.txt", "new.txt"):
        snaps.record_write(ws / rel)  # the crew's writes, journaled as its write tool does
    (ws / ".env").write_text("TOKEN=clobbered\n")  # ignored by git, still saved by us
    (ws / "a.txt").write_text("crew edit\n")
    (ws / "new.txt").write_text("n\n")
    snaps.end_run(run_id)
    snaps.undo()

    assert tree_state(ws) == before
    assert (ws / ".env").read_text() == "TOKEN=keep-me\n"
    assert git(ws, "rev-parse", "HEAD") == head
    assert git(ws, "status", "--porcelain") == status
    assert dot_git_digest(ws) == digest  # HEAD, index, refs, objects: byte for byte


def test_big_files_are_skipped_reported_and_left_alone(ws: Path) -> None:
    with open(ws / "huge.bin", "wb") as fh:
        fh.truncate(MAX_FILE_BYTES + 1)  # sparse: cheap to make
    snaps = RunSnapshots(ws)
    run_id = snaps.begin_run("big")
    info = snaps.last_run()
    assert info is not None and "huge.bin" in info.skipped
    with open(ws / "huge.bin", "r+b") as fh:
        fh.write(b"changed")
    snaps.end_run(run_id)
    result = snaps.undo()
    assert (ws / "huge.bin").exists()
    assert any(item.startswith("huge.bin: changed") for item in result.not_restored)
    assert result.summary().endswith("1 could not be restored")


def test_unchanged_files_are_not_copied_again(ws: Path) -> None:
    snaps = RunSnapshots(ws)
    snaps.end_run(snaps.begin_run("first"))
    objects = sorted((ws / ".localcrew/snapshots/objects").rglob("*"))
    snaps.end_run(snaps.begin_run("second"))
    assert sorted((ws / ".localcrew/snapshots/objects").rglob("*")) == objects
    (ws / "a.txt").write_text("different\n")
    snaps.end_run(snaps.begin_run("third"))
    assert len(list((ws / ".localcrew/snapshots/objects").rglob("*"))) > len(objects)


def test_record_write_only_inside_a_run_and_inside_the_workspace(ws: Path, tmp_path: Path) -> None:
    snaps = RunSnapshots(ws)
    snaps.record_write(ws / "a.txt")  # no run yet: ignored
    run_id = snaps.begin_run("journal")
    with pytest.raises(Exception, match="outside the workspace"):
        snaps.record_write(tmp_path / "elsewhere.txt")
    snaps.record_write(ws / "a.txt")
    snaps.record_write(ws / "a.txt")
    info = snaps.last_run()
    assert info is not None and info.id == run_id
    assert info.files_written == ["a.txt"]
    assert not info.is_finished


def test_last_run_diff_shows_what_the_run_changed(ws: Path) -> None:
    snaps = RunSnapshots(ws)
    assert snaps.last_run_diff() == (None, "")
    (ws / "keep.py").write_text("x = 1\n")
    files = WorkspaceFiles(ws, before_write=snaps.record_write)
    run_id = snaps.begin_run("edit")
    files.write_text("keep.py", "x = 2\n")
    files.write_text("new.py", "print('hi')\n")
    snaps.end_run(run_id)
    info, diff = snaps.last_run_diff()
    assert info is not None and info.id == run_id
    assert "-x = 1\n+x = 2\n" in diff
    assert "--- /dev/null\n+++ b/new.py" in diff and "+print('hi')" in diff
    snaps.undo()
    assert snaps.last_run_diff() == (None, "")


def test_undo_after_the_run_keeps_the_users_later_work(ws: Path) -> None:
    """Files added or edited by hand after a run stay; only what the run changed is put back."""
    snaps = RunSnapshots(ws)
    files = WorkspaceFiles(ws, before_write=snaps.record_write)
    run_id = snaps.begin_run("edit")
    files.write_text("a.txt", "alpha, changed by the run\n")
    files.write_text("sub/deep/x.py", "x = 2\n")
    files.write_text("new/made.py", "print('made')\n")
    files.write_text("gone.py", "print('the user edits this next')\n")
    snaps.end_run(run_id)
    # The user's own work after the run.
    (ws / "mine.txt").write_text("typed by hand\n")
    (ws / "new" / "notes.md").write_text("mine too\n")
    (ws / "gone.py").write_text("print('edited by the user')\n")

    result = snaps.undo()

    assert (ws / "a.txt").read_text() == "alpha\n" and (ws / "sub/deep/x.py").read_text() == "x = 1\n"
    assert not (ws / "new" / "made.py").exists()
    assert (ws / "mine.txt").read_text() == "typed by hand\n"
    assert (ws / "new" / "notes.md").read_text() == "mine too\n"
    assert (ws / "gone.py").read_text() == "print('edited by the user')\n"
    assert result.deleted == ["new/made.py"]
    assert any(line.startswith("gone.py: changed again after the run") for line in result.not_restored)
    assert "a.txt" in result.summary() and "new/made.py" in result.summary()


def test_undo_removes_the_folders_a_run_made_when_nothing_else_is_in_them(ws: Path) -> None:
    before = tree_state(ws)
    snaps = RunSnapshots(ws)
    files = WorkspaceFiles(ws, before_write=snaps.record_write)
    run_id = snaps.begin_run("folders")
    files.write_text("pkg/inner/mod.py", "y = 1\n")
    snaps.end_run(run_id)
    snaps.undo()
    assert tree_state(ws) == before


def test_a_run_knows_which_paths_it_changed(ws: Path) -> None:
    snaps = RunSnapshots(ws)
    files = WorkspaceFiles(ws, before_write=snaps.record_write)
    same = snaps.begin_run("write a.txt back as it was")
    files.write_text("a.txt", "alpha\n")
    assert snaps.runs()[0].changed is None  # not ended: not known yet
    snaps.end_run(same)
    edit = snaps.begin_run("edit a.txt, add b.txt")
    files.write_text("a.txt", "beta\n")
    files.write_text("b.txt", "new\n")
    snaps.end_run(edit)
    by_id = {info.id: info for info in snaps.runs()}
    assert by_id[same].files_written == ["a.txt"] and by_id[same].changed == []
    assert by_id[edit].changed == ["a.txt", "b.txt"]

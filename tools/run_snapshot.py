"""Snapshot the workspace before a crew run, and undo the run exactly.

Why a content-addressed copy store under WORKSPACE/.localcrew/snapshots/ and not git:
- git keeps only the executable bit, and we must restore modes exactly (0600 stays 0600);
- `git add` obeys the workspace's .gitignore (and global excludes), so ignored files such as
  `.env` or build outputs would not be saved, yet a run can overwrite them;
- nested repositories become gitlinks, and any git call near the user's repository risks
  touching their index or HEAD; this store never runs git and never reads or writes `.git`;
- it needs no external program, so it works the same on every platform.

Layout:
    objects/ab/cdef...        file contents, named by SHA-256 (shared between runs)
    runs/<id>/manifest.json   the whole tree before the run: files (sha, mode), symlinks,
                              directories (mode) and what was skipped and why
    runs/<id>/meta.json       label, start and end times, undone flag; written last, it is
                              the commit point of begin_run (a run without it never started)
    runs/<id>/journal.log     paths the crew's write tool touched (one JSON string a line)
    runs/<id>/applied.log     paths a sandboxed program's apply-back wrote, deleted or made
    runs/<id>/wrote.log       {"path", "sha"}: the bytes the run itself wrote there (null: deleted)
    runs/<id>/yours.log       {"path", "sha", "mode", "size"}: what the user had saved at a path
                              during the run, which the run's write then replaced
    runs/<id>/unjournaled     a program wrote the workspace itself: the journals are not all
    active.json               the run in progress, where apply-back journals (tools/sandbox)
    runs/<id>/before_undo.json  the tree just before an undo, so an undo can be inspected
    runs/<id>/undo_aim.json     the tree that undo aimed for, so redo touches only what it changed
    statcache.json            (size, mtime, ctime, inode) -> sha, to skip re-hashing
                              unchanged files on the next snapshot

Because the snapshot is the whole tree before the run, undo also reverts what programs run in
the sandbox changed, not only what went through the write tool. Undo takes back only the paths
the run's journals name (the write tool's and apply-back's): a file the user saved in the editor
while the run went on is not the run's change, and stays. Where a program wrote the workspace
itself (no staging: macOS, Windows), the journals are incomplete and the run's change is the
whole difference between before and after, as before the journals. Where the user and the run
both wrote a file during the run, undo does not take the user's edit away silently: an edit saved
after the run's write is merged (the run's change taken out) or stops the undo as a conflict, as
for edits after the run; a version the run wrote over is what undo puts back, and says so (the
run's own bytes and the user's are both kept in the store). And because every object,
manifest and meta file is fsynced before begin_run returns, a run killed at any point can be
undone from a fresh process. Skipped (never saved, never deleted by undo): `.git`,
`.localcrew`, venvs, `node_modules`, caches (see SKIP_DIRS), files over 20 MB, and special
files; a skipped file that changed is reported in `UndoResult.not_restored`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import hashlib
import io
import json
import os
import secrets
import shutil
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

from tools.atomic_files import FileLock, atomic_write, fsync_dir
from tools.confined_fs import READ_FLAGS, ConfinedRoot, Dir, WorkspaceError, split_rel
from tools.snapshot_fs import Found, open_root, walk
from tools.snapshot_restore import (
    Done,
    RestoreLog,
    Restorer,
    put_back_dirs,
    put_back_entries,
    recover,
    remove_created,
    report_skipped,
)
from tools.text_merge import decoded, merge3
from tools.workspace_files import SKIP_DIRS, unified_diff

MAX_FILE_BYTES = 20 * 1024 * 1024
KEEP_RUNS = 20  # older runs (and objects only they use) are pruned
STATCACHE_STABLE_NS = 2_000_000_000  # files changed this recently are always re-hashed
RESTORE_LOG = "restoring.log"  # an undo, redo or reject in progress (tools/snapshot_restore.py)
ACTIVE = "active.json"  # {"run": id} of the run in progress, for journal_applied
APPLIED_LOG = "applied.log"
WROTE_LOG = "wrote.log"
YOURS_LOG = "yours.log"
UNJOURNALED = "unjournaled"


def _shown(label: str, limit: int = 200) -> str:
    """A run's request in a message: quoted, and cut when long (a request can be a pasted file)."""
    return repr(label if len(label) <= limit else label[: limit - 1] + "…")


class SnapshotError(RuntimeError):
    """A snapshot or undo could not be done; the message says why."""


class NothingToUndoError(SnapshotError):
    pass


@dataclass(frozen=True)
class UndoPlan:
    """What undoing one run would do now, said before it is done (the page asks before deleting)."""

    run_id: str
    label: str
    restore: list[str]  # put back as they were before the run
    delete: list[str]  # the run created them (a folder ends in /): removed; Redo brings them back
    kept: list[str]  # "path: why" for the run's paths left as they are now
    whole_tree: bool = False  # the run never ended: the whole workspace goes back to before it
    merged: list[str] = field(default_factory=list)  # changed again since: the run's change taken out


class UndoConflictError(SnapshotError):
    """Undoing (or redoing) the run would meet later edits of the same lines; nothing was changed."""

    def __init__(self, label: str, conflicts: list[str], action: str = "undo") -> None:
        super().__init__(
            f"{action} of {_shown(label)} not done: the run's change and a later edit touch the same"
            f" lines in {'; '.join(conflicts)}"
            + ". Nothing was changed. Edit those lines by hand, or undo the later run first."
        )
        self.label, self.conflicts = label, conflicts


class RejectNeedsConfirmationError(SnapshotError):
    """Rejecting the file would delete it (the run created it); nothing was changed."""

    def __init__(self, rel: str, label: str) -> None:
        super().__init__(f"rejecting {rel} would delete it (the run {_shown(label)} made it); not confirmed")
        self.rel = rel


class UndoNeedsConfirmationError(SnapshotError):
    """The undo would delete files the caller did not agree to delete; nothing was changed."""

    def __init__(self, plan: UndoPlan) -> None:
        super().__init__(f"undoing {_shown(plan.label)} would delete {', '.join(plan.delete)}; not confirmed")
        self.plan = plan


@dataclass(frozen=True)
class RunInfo:
    id: str
    label: str
    started: float  # epoch seconds
    finished: float | None  # None: still running, or crashed/killed
    files_written: list[str]  # journaled by the write tool, first-write order
    undone: bool = False
    skipped: dict[str, str] = field(default_factory=dict)  # path -> why it was not saved
    undone_at: float = 0.0  # epoch seconds of the undo (0: not undone), so Redo takes the latest
    changed: list[str] | None = None  # paths whose content the run changed; None: not known (not ended)
    asked: str = ""  # the request the run answered with a question ('' if it asked none)
    held: bool = False  # its change was taken out to wait in the Review tab (undone, by the IDE)
    followed: list[str] = field(default_factory=list)  # a follow-up's earlier files (it may write none)

    @property
    def is_finished(self) -> bool:
        return self.finished is not None


@dataclass(frozen=True)
class UndoResult:
    run_id: str
    label: str
    restored: list[str]  # modified or deleted by the run: put back
    deleted: list[str]  # created by the run: removed
    not_restored: list[str]  # "path: why" for what could not be put back
    backup: Path  # manifest of the tree as it was just before this undo
    merged: list[str] = field(default_factory=list)  # the later edits kept, the run's change out
    yours: list[str] = field(default_factory=list)  # put back as the user saved them during the run

    def summary(self) -> str:
        def named(paths: list[str]) -> str:
            shown = ", ".join(paths[:10]) + (f" and {len(paths) - 10} more" if len(paths) > 10 else "")
            return f" ({shown})" if paths else ""

        text = (
            f"undid {_shown(self.label)}: {len(self.restored)} restored{named(self.restored)}, "
            f"{len(self.deleted)} deleted{named(self.deleted)}"
        )
        if self.merged:
            text += f"; merged with later edits{named(self.merged)}"
        if self.yours:
            text += f"; put back as you saved them during the run, which it wrote over{named(self.yours)}"
        if self.not_restored:
            text += f", {len(self.not_restored)} could not be restored"
        return text


@dataclass
class _Tree:
    files: dict[str, list] = field(default_factory=dict)  # rel -> [sha, mode, size]
    links: dict[str, str] = field(default_factory=dict)  # rel -> link target
    dirs: dict[str, int] = field(default_factory=dict)  # rel -> mode
    skipped: dict[str, dict] = field(default_factory=dict)  # rel -> {reason, size, mtime_ns}

    def to_json(self) -> dict:
        return {
            "version": 1,
            "files": self.files,
            "links": self.links,
            "dirs": self.dirs,
            "skipped": self.skipped,
        }

    @classmethod
    def from_json(cls, data: dict) -> _Tree:
        return cls(data["files"], data["links"], data["dirs"], data["skipped"])


def _changed_paths(before: _Tree, after: _Tree) -> list[str]:
    """Paths that differ between two trees (content, mode or presence); a run that wrote a file
    back as it was changed nothing."""
    changed = set()
    for kind in ("files", "links", "dirs", "skipped"):
        old, new = getattr(before, kind), getattr(after, kind)
        changed |= {rel for rel in old.keys() | new.keys() if old.get(rel) != new.get(rel)}
    return sorted(changed)


class RunSnapshots:
    """Per-workspace run history: begin_run / record_write / end_run, then undo."""

    def __init__(self, workspace: Path | str):
        self.workspace = Path(os.path.realpath(workspace))
        if not self.workspace.is_dir():
            raise SnapshotError(f"workspace {str(workspace)!r} is not a directory")
        self.store = self.workspace / ".localcrew" / "snapshots"
        self._active: str | None = None
        self._journaled: set[str] = set()
        self._before: _Tree | None = None  # the run in progress's snapshot
        self._wrote: dict[str, str | None] = {}  # rel -> sha of the run's last write there (None: deleted)
        self._recovered: dict | None = None  # the record of a restore the last lock cleaned up after

    # -- public API --------------------------------------------------------------------------

    def begin_run(self, label: str) -> str:
        """Snapshot the workspace; returns the run id once the snapshot is durable."""
        with self._locked():
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
            run_id = f"{stamp}-{secrets.token_hex(3)}"
            run_dir = self.store / "runs" / run_id
            try:
                run_dir.mkdir(parents=True)
                tree = self._snapshot()
                _write_json(run_dir / "manifest.json", tree.to_json())
                (run_dir / "journal.log").touch()
                meta = {"id": run_id, "label": label, "started": time.time(), "finished": None}
                meta["journal"] = True  # every writer journals: undo may trust the journals
                _write_json(run_dir / "meta.json", meta)  # commit point
                _write_json(self.store / ACTIVE, {"run": run_id}, durable=False)
                # The run directory and, the first time, the store's own directories.
                for directory in (run_dir, run_dir.parent, self.store, self.store.parent):
                    fsync_dir(directory)
            except (OSError, ValueError) as exc:
                # Nothing half-made stays behind to trip the next run; the caller says why.
                shutil.rmtree(run_dir, ignore_errors=True)
                raise SnapshotError(f"could not snapshot {self.workspace}: {exc}") from exc
        self._active = run_id
        self._journaled = set()
        self._before, self._wrote = tree, {}
        return run_id

    def record_write(self, path: Path) -> Callable[[bytes | None], None] | None:
        """Journal a path about to be written (use as WorkspaceFiles' before_write hook). What is
        there now, when the run did not leave it so (the user saved it during the run), is saved
        first; the function returned records the run's own bytes once they are written."""
        if self._active is None:
            return None  # not inside a run: nothing to attribute the write to
        real = Path(os.path.realpath(path))
        try:
            rel = real.relative_to(self.workspace).as_posix()
        except ValueError:
            raise SnapshotError(f"{path} is outside the workspace {self.workspace}") from None
        run_dir = self.store / "runs" / self._active
        if rel not in self._journaled:
            with open(run_dir / "journal.log", "a", encoding="utf-8") as fh:
                fh.write(json.dumps(rel) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
            self._journaled.add(rel)
        self._save_yours(run_dir, rel)

        def written(data: bytes | None) -> None:
            if data is not None and len(data) > MAX_FILE_BYTES:
                return  # not saved by any snapshot either: undo names it as skipped
            sha = None if data is None else self._store_bytes(data)
            _append(run_dir / WROTE_LOG, json.dumps({"path": rel, "sha": sha}) + "\n")
            self._wrote[rel] = sha

        return written

    def _save_yours(self, run_dir: Path, rel: str) -> None:
        """Save the file at `rel` as it is now if neither the snapshot nor the run's own last write
        left it so: the user saved it during the run, and the run is about to write over it."""
        if rel in self._wrote:
            left = self._wrote[rel]
        else:
            left = (self._before.files.get(rel) or [None])[0] if self._before is not None else None
        try:
            data, st = ConfinedRoot(self.workspace).read_bytes(
                split_rel(rel), MAX_FILE_BYTES + 1, follow=False, rel=rel
            )
        except (OSError, WorkspaceError):
            return  # nothing there (or not a plain file): no bytes of the user's to lose
        if len(data) > MAX_FILE_BYTES or hashlib.sha256(data).hexdigest() == left:
            return
        sha = self._store_bytes(data)
        entry = {"path": rel, "sha": sha, "mode": stat.S_IMODE(st.st_mode), "size": len(data)}
        _append(run_dir / YOURS_LOG, json.dumps(entry) + "\n")

    def end_run(self, run_id: str) -> None:
        """Mark the run finished, and prune old runs."""
        with self._locked():
            meta_path = self.store / "runs" / run_id / "meta.json"
            if not meta_path.exists():
                raise SnapshotError(f"no run {run_id!r} in {self.store}")
            # What the run left: undo then reverts only what the run changed, and leaves the user's
            # later work alone.
            after = self._snapshot()
            before = _Tree.from_json(json.loads((meta_path.parent / "manifest.json").read_text("utf-8")))
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            own = _journaled(meta_path.parent) if meta.get("journal") else None
            if own is not None:
                after = self._as_the_run_wrote(meta_path.parent, _journaled_only(before, after, own))
            _write_json(meta_path.parent / "after.json", after.to_json())
            meta["finished"] = time.time()
            meta["changed"] = _changed_paths(before, after)
            _write_json(meta_path, meta)
            with contextlib.suppress(OSError, ValueError):
                if json.loads((self.store / ACTIVE).read_text("utf-8")).get("run") == run_id:
                    (self.store / ACTIVE).unlink()
            self._prune()
        if self._active == run_id:
            self._active = None

    def mark_asked(self, run_id: str, request: str) -> None:
        """Record that the run asked the user a question about `request` instead of writing: the
        next run reads its request as the answer to it."""
        self._mark(run_id, "asked", request)

    def mark_followed(self, run_id: str, files: list[str]) -> None:
        """Record the earlier run's files this follow-up was about: a follow-up of it that wrote
        nothing ("Add that test again") follows the same files. None: nothing is recorded."""
        if files:
            self._mark(run_id, "followed", list(files))

    def mark_held(self, run_id: str) -> None:
        """Record that the run's change was taken out to wait in the Review tab: the run list says
        "held for review", not "undone" (the user undid nothing)."""
        self._mark(run_id, "held", True)

    def _mark(self, run_id: str, key: str, value: object) -> None:
        with self._locked():
            meta_path = self.store / "runs" / run_id / "meta.json"
            if not meta_path.exists():
                raise SnapshotError(f"no run {run_id!r} in {self.store}")
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            meta[key] = value
            _write_json(meta_path, meta)

    def last_run(self) -> RunInfo | None:
        """The most recent run that has not been undone (what undo() would undo)."""
        for run_id in self._run_ids_newest_first():
            info = self._info(run_id)
            if info is not None and not info.undone:
                return info
        return None

    def runs(self) -> list[RunInfo]:
        """Every recorded run, newest first, undone ones too (to choose one to undo or redo)."""
        return [info for info in map(self._info, self._run_ids_newest_first()) if info is not None]

    def undo_plan(self, run_id: str | None = None) -> UndoPlan:
        """What undo(run_id) would restore and delete now; changes nothing in the workspace."""
        with self._locked():
            info = self._undo_choice(run_id)
            current = self._snapshot()
            aim = self._undo_aim(info, current)
            return _plan(info, aim, current)

    def undo(self, run_id: str | None = None, *, allow_delete: list[str] | None = None) -> UndoResult:
        """Put back what one run changed (the last not undone run when run_id is None): only the
        paths it changed that nobody changed since; files it did not create are never deleted.
        `allow_delete`: the deletions the user agreed to (from undo_plan); if the undo would now
        delete anything else, UndoNeedsConfirmationError is raised and nothing is changed.
        None: no confirmation asked (the command line's undo)."""
        with self._locked():
            info = self._undo_choice(run_id)
            run_dir = self.store / "runs" / info.id
            current = self._snapshot()  # also saves what the undo overwrites
            aim = self._undo_aim(info, current)
            if allow_delete is not None:
                plan = _plan(info, aim, current)
                if set(plan.delete) - set(allow_delete):
                    raise UndoNeedsConfirmationError(plan)
            backup = run_dir / "before_undo.json"
            resumed = (self._recovered or {}).get("run") == info.id and backup.exists()
            if not resumed:  # an undo killed half-way keeps the tree from before it, for Redo
                _write_json(backup, current.to_json())
            _write_json(run_dir / "undo_aim.json", aim.tree.to_json())
            result = self._restore(aim.tree, current, info, backup, "undo")
            result.not_restored.extend(aim.kept)
            yours = [rel for rel in aim.yours if rel in result.restored]
            result = dataclasses.replace(result, merged=aim.merged, yours=yours)
            if resumed:  # what the killed undo had done counts: the report says the tree is back
                earlier = _Tree.from_json(json.loads(backup.read_text("utf-8")))
                result = _with_killed_part(result, earlier, current)
            meta_path = run_dir / "meta.json"
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            meta["undone"] = time.time()
            _write_json(meta_path, meta)
        if self._active == info.id:
            self._active = None
        return result

    def _undo_choice(self, run_id: str | None) -> RunInfo:
        if run_id is None:
            info = self.last_run()
            if info is not None:
                return info
            if any(self._info(r) for r in self._run_ids_newest_first()):
                raise NothingToUndoError("nothing to undo: every recorded run is undone")
            raise NothingToUndoError(f"nothing to undo: no crew run has been recorded in {self.workspace}")
        chosen = self._info(run_id) if _is_run_id(run_id) else None
        if chosen is None:
            raise SnapshotError(f"no run {run_id!r} in this workspace's history")
        if chosen.undone:
            raise NothingToUndoError(
                f"nothing to undo: {_shown(chosen.label)} is already undone (Redo brings it back)"
            )
        return chosen

    def _undo_aim(self, info: RunInfo, current: _Tree) -> _Aim:
        """What an undo of `info` aims for (see _Aim); UndoConflictError where the run's change
        and a later edit touch the same lines."""
        run_dir = self.store / "runs" / info.id
        before = _Tree.from_json(json.loads((run_dir / "manifest.json").read_text("utf-8")))
        before, yours = self._with_yours(run_dir, before)
        aim = self._undo_aim_from(info, run_dir, before, current)
        return dataclasses.replace(aim, yours=yours)

    def _undo_aim_from(self, info: RunInfo, run_dir: Path, before: _Tree, current: _Tree) -> _Aim:
        after_path = run_dir / "after.json"
        if after_path.exists():
            after = _Tree.from_json(json.loads(after_path.read_text("utf-8")))
            return self._merged_aim(info, before, after, current, "undo")
        newest = next((r for r in self._run_ids_newest_first() if self._info(r) is not None), None)
        if newest == info.id:  # killed before it ended, nothing after it: the whole tree goes back
            return _Aim(before, [], whole=True)
        # Killed, and later runs came: only what its write tool journaled is known to be its own.
        after = _Tree(dict(before.files), dict(before.links), dict(before.dirs), dict(before.skipped))
        for rel in info.files_written:
            for kind in ("files", "links", "skipped"):
                getattr(after, kind).pop(rel, None)
                if rel in getattr(current, kind):
                    getattr(after, kind)[rel] = getattr(current, kind)[rel]
        return self._merged_aim(info, before, after, current, "undo")

    def _merged_aim(self, info: RunInfo, before: _Tree, after: _Tree, current: _Tree, action: str) -> _Aim:
        """Undo `before` -> `after` on `current`: files changed again since get the reverse of the
        run's change as a three-way merge. A conflict stops an undo (nothing is changed); a redo
        keeps such a file as it is and names it, as it always did."""
        merger = _Merger(self)
        tree, kept = _only_run_changes(before, after, current, merger)
        if merger.conflicts and action == "undo":
            raise UndoConflictError(info.label, merger.conflicts, action)
        return _Aim(tree, kept, merged=merger.merged)

    def _object_bytes(self, sha: str) -> bytes | None:
        try:
            return self._object(sha).read_bytes()
        except OSError:
            return None

    def _object_text(self, sha: str) -> str | None:
        try:
            return decoded(self._object(sha).read_bytes())
        except OSError:
            return None

    def _as_the_run_wrote(self, run_dir: Path, after: _Tree) -> _Tree:
        """`after` with each path the run wrote as the run's own last write left it: what the user
        saved there since (during the run) is then a later edit, which undo merges or names,
        instead of a part of the run's change that undo would take away."""
        for rel, entry in _logged(run_dir / WROTE_LOG).items():
            sha, now = entry["sha"], after.files.get(rel)
            if sha is None:  # the run deleted it; a file there now is the user's
                if now is not None:
                    after.files.pop(rel)
                continue
            if (now is None or now[0] != sha) and self._object(sha).exists():
                for kind in ("links", "skipped"):
                    getattr(after, kind).pop(rel, None)
                after.files[rel] = [sha, now[1] if now else 0o644, self._object(sha).stat().st_size]
        return after

    def _with_yours(self, run_dir: Path, before: _Tree) -> tuple[_Tree, list[str]]:
        """`before` with each version of the user's that the run wrote over (saved during the run):
        undoing the run's write puts that back, not what was there before the run."""
        yours = []
        for rel, entry in _logged(run_dir / YOURS_LOG).items():
            if not (isinstance(entry.get("mode"), int) and isinstance(entry.get("size"), int)):
                continue  # a torn record
            if entry["sha"] and self._object(entry["sha"]).exists():
                for kind in ("links", "skipped"):
                    getattr(before, kind).pop(rel, None)
                before.files[rel] = [entry["sha"], entry["mode"], entry["size"]]
                yours.append(rel)
        return before, yours

    def last_run_diff(self, max_file_bytes: int = 200_000) -> tuple[RunInfo | None, str]:
        """The last (not undone) run and a unified diff of its files: saved before vs on disk now."""
        info = self.last_run()
        if info is None:
            return None, ""
        try:
            manifest = json.loads((self.store / "runs" / info.id / "manifest.json").read_text("utf-8"))
        except (OSError, ValueError):
            return info, ""
        before = _Tree.from_json(manifest)
        parts = []
        for rel in info.files_written:
            entry = before.files.get(rel)
            old = _read_text_or_none(self._object(entry[0]), max_file_bytes) if entry else None
            try:
                new = _read_workspace_text(self.workspace, rel, max_file_bytes)
            except WorkspaceError as exc:
                # A program may have swapped the file for a link, a fifo or a hard link: say so,
                # and show nothing of what it points to.
                parts.append(f"--- a/{rel}\n+++ b/{rel}\n(not shown: {exc})\n")
                continue
            parts.append(unified_diff(rel, old, new))
        return info, "".join(parts)

    def run_diff(self, run_id: str, max_file_bytes: int = 200_000) -> tuple[RunInfo | None, str]:
        """The chosen run and a unified diff of what it changed: as before it vs as it left the
        files (the last not undone run: vs on disk now, as last_run_diff, so a Reject shows)."""
        info = self._info(run_id) if _is_run_id(run_id) else None
        last = self.last_run()
        if info is not None and last is not None and last.id == info.id:
            return self.last_run_diff(max_file_bytes)
        if info is None or not info.is_finished:
            return info, ""  # a run killed before it ended left no record of its end
        run_dir = self.store / "runs" / info.id
        try:
            before = _Tree.from_json(json.loads((run_dir / "manifest.json").read_text("utf-8")))
            after = _Tree.from_json(json.loads((run_dir / "after.json").read_text("utf-8")))
        except (OSError, ValueError, KeyError):
            return info, ""
        parts = []
        for rel in info.changed or []:
            if rel not in before.files and rel not in after.files:
                continue  # a folder, a link or a skipped file: no text to show
            old, new = (
                _read_text_or_none(self._object(tree.files[rel][0]), max_file_bytes)
                if rel in tree.files
                else None
                for tree in (before, after)
            )
            parts.append(unified_diff(rel, old, new))
        return info, "".join(parts)

    def changed_texts(self, run_id: str) -> list[tuple[str, str | None, str | None]] | None:
        """(path, text before, text after; None: no such file) of every path a finished run
        changed, for staging it; None when one of them is not plain UTF-8 text (a link, a folder,
        a binary or skipped file), which only the run's own undo can take back exactly."""
        info = self._info(run_id) if _is_run_id(run_id) else None
        if info is None or not info.is_finished or info.undone:
            return None
        run_dir = self.store / "runs" / info.id
        try:
            before = _Tree.from_json(json.loads((run_dir / "manifest.json").read_text("utf-8")))
            after = _Tree.from_json(json.loads((run_dir / "after.json").read_text("utf-8")))
        except (OSError, ValueError, KeyError):
            return None
        changes: list[tuple[str, str | None, str | None]] = []
        for rel in info.changed or []:
            if not any(rel in tree.files for tree in (before, after)) and any(
                rel in tree.dirs for tree in (before, after)
            ):
                continue  # a folder: writing its files makes it, undo removes it
            texts = [
                self._object_text(tree.files[rel][0]) if rel in tree.files else None
                for tree in (before, after)
            ]
            for tree, text in zip((before, after), texts, strict=True):
                other = rel in tree.links or rel in tree.dirs or rel in tree.skipped
                if other or (rel in tree.files and text is None):
                    return None
            if texts != [None, None]:
                changes.append((rel, texts[0], texts[1]))
        return changes

    def reject_file(self, rel: str, *, confirm_delete: bool | None = None) -> str:
        """Put back one file the last run wrote as it was before the run (remove it if the run made
        it); the run's other files and the user's work stay. Returns what was done. A file changed
        again since the run gets the reverse of the run's change merged in; where both changed the
        same lines it is refused, as undo refuses: the user's later edits are not dropped.
        `confirm_delete`: False asks before removing a file the run created
        (RejectNeedsConfirmationError, nothing changed); True: the user agreed; None: no asking."""
        with self._locked():
            info = self.last_run()
            if info is None:
                raise NothingToUndoError("nothing to reject: no crew run to review")
            if rel not in info.files_written:
                raise SnapshotError(f"{rel} is not a file the last run wrote")
            run_dir = self.store / "runs" / info.id
            before = _Tree.from_json(json.loads((run_dir / "manifest.json").read_text("utf-8")))
            if rel in before.links or rel in before.skipped:
                raise SnapshotError(f"{rel} was not saved as a file before the run; not touched")
            after_path = run_dir / "after.json"
            after = (
                _Tree.from_json(json.loads(after_path.read_text("utf-8"))) if after_path.exists() else None
            )
            log = RestoreLog(self.store / RESTORE_LOG)
            with contextlib.closing(open_root(self.workspace)) as root:
                restorer = Restorer(root, self._object, log)
                entry = self._rejected(rel, before, after, restorer)
                if entry is None and confirm_delete is False:
                    raise RejectNeedsConfirmationError(rel, info.label)
                log.begin(info.id, "reject")
                if entry is not None:
                    restorer.write_back(rel, entry[0], entry[1])
                    merged = entry != before.files.get(rel)
                    done = f"{rel}: " + ("the run's change taken out, later edits kept" if merged
                                         else "put back as it was before the run")  # fmt: skip
                else:
                    restorer.unlink(rel)
                    done = f"{rel}: removed (the run created it)"
                root.fsync()
            log.end()
        return done

    def _rejected(self, rel: str, before: _Tree, after: _Tree | None, restorer: Restorer) -> list | None:
        """What Reject puts at rel: a files entry, or None to remove it (the run created it)."""
        try:
            st = restorer.lstat(rel)
        except OSError:
            raise SnapshotError(f"{rel} goes through a symbolic link; not touched") from None
        if st is not None and stat.S_ISLNK(st.st_mode):
            raise SnapshotError(f"{rel} goes through a symbolic link; not touched")
        fd = restorer.open_regular(rel) if st is not None else None
        now = None if fd is None else [self._store_fd(fd, set()), stat.S_IMODE(st.st_mode), st.st_size]
        entry = before.files.get(rel)
        was = None if after is None else after.files.get(rel)
        if after is None or (was or [None])[0] == (now or [None])[0]:
            return entry
        merger = _Merger(self)
        merged = merger(rel, was, now, entry) if was and now and entry else None
        if merged is None:
            where = (
                f", on the same lines as the run's change ({merger.conflicts[0]})" if merger.conflicts else ""
            )
            raise SnapshotError(f"{rel} changed again after the run{where}; kept as it is")
        return merged

    def redo(self, run_id: str | None = None) -> UndoResult:
        """Bring back the changes of an undone run (None: the run undone last); files changed since
        the undo stay as they are (and are named in not_restored)."""
        with self._locked():
            undone = [info for info in self.runs() if info.undone]
            if run_id is not None:
                undone = [info for info in undone if info.id == run_id]
            info = max(undone, key=lambda i: i.undone_at, default=None)
            if info is None:
                raise NothingToUndoError(
                    "nothing to redo: no run is undone"
                    if run_id is None
                    else "nothing to redo: that run is not undone"
                )
            run_dir = self.store / "runs" / info.id
            try:
                manifest = _Tree.from_json(json.loads((run_dir / "manifest.json").read_text("utf-8")))
                undone_from = _Tree.from_json(json.loads((run_dir / "before_undo.json").read_text("utf-8")))
            except (OSError, ValueError, KeyError) as exc:
                why = f"the undo of {_shown(info.label)} left no record to redo from: {exc}"
                raise SnapshotError(why) from exc
            # What the undo aimed at, computed as undo() did, so redo touches only what it changed.
            left_by_undo = manifest
            aim_path, after_path = run_dir / "undo_aim.json", run_dir / "after.json"
            if aim_path.exists():  # what the undo aimed for, as it recorded it
                left_by_undo = _Tree.from_json(json.loads(aim_path.read_text("utf-8")))
            elif after_path.exists():  # an undo from before that record: computed as undo() did
                after = _Tree.from_json(json.loads(after_path.read_text("utf-8")))
                left_by_undo = _only_run_changes(manifest, after, undone_from, None)[0]
            current = self._snapshot()
            aim = self._merged_aim(info, undone_from, left_by_undo, current, "redo")
            result = self._restore(aim.tree, current, info, run_dir / "before_undo.json", "redo")
            result.not_restored.extend(k for k in aim.kept if k.split(":", 1)[0] in info.files_written)
            result = dataclasses.replace(result, merged=aim.merged)
            meta_path = run_dir / "meta.json"
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            meta.pop("undone", None)
            _write_json(meta_path, meta)
        return result

    # -- snapshot ----------------------------------------------------------------------------

    def _snapshot(self) -> _Tree:
        """Walk the workspace (by folder handle: no path is too long) and save every file's
        content; durable when it returns. What cannot be read is skipped and named, never fatal."""
        started_ns = time.time_ns()
        tree = _Tree()
        cache = self._load_statcache()
        new_cache: dict[str, list] = {}
        touched_dirs: set[Path] = set()
        (self.store / "tmp").mkdir(parents=True, exist_ok=True)

        def report(rel: str, why: str) -> None:
            tree.skipped[rel] = {"reason": why}

        with contextlib.closing(open_root(self.workspace)) as root:
            for found in walk(root, _skip_dir, report):
                st = found.st
                if stat.S_ISDIR(st.st_mode):
                    tree.dirs[found.rel] = stat.S_IMODE(st.st_mode)
                elif stat.S_ISLNK(st.st_mode):
                    try:
                        tree.links[found.rel] = found.folder.readlink(found.name)
                    except OSError as exc:
                        report(found.rel, f"unreadable link: {exc.strerror or exc}")
                elif not stat.S_ISREG(st.st_mode):
                    report(found.rel, "not a regular file")
                elif st.st_size > MAX_FILE_BYTES:
                    tree.skipped[found.rel] = {
                        "reason": f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MB",
                        "size": st.st_size,
                        "mtime_ns": st.st_mtime_ns,
                    }
                else:
                    self._save_file(found, tree, cache, new_cache, touched_dirs, started_ns)
        for directory in touched_dirs:
            fsync_dir(directory)
        _write_json(self.store / "statcache.json", new_cache, durable=False)
        return tree

    def _save_file(
        self, found: Found, tree: _Tree, cache: dict, new_cache: dict, touched: set[Path], started_ns: int
    ) -> None:
        st, rel = found.st, found.rel
        key = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
        cached = cache.get(rel)
        if cached and cached[:4] == key and self._object(cached[4]).exists():
            sha = cached[4]
        else:
            try:
                fd = found.folder.open(found.name, READ_FLAGS)
                sha = self._store_fd(fd, touched)
            except OSError as exc:
                tree.skipped[rel] = {"reason": f"unreadable: {exc.strerror or exc}"}
                return
        tree.files[rel] = [sha, stat.S_IMODE(st.st_mode), st.st_size]
        # Racy-clean rule (as in git): trust the stat key only for files not just changed.
        if started_ns - st.st_mtime_ns > STATCACHE_STABLE_NS:
            new_cache[rel] = [*key, sha]

    def _store_fd(self, fd: int, touched_dirs: set[Path]) -> str:
        """Save what the open file holds (closed here) under its SHA-256; returns the SHA."""
        with os.fdopen(fd, "rb") as src:
            if not stat.S_ISREG(os.fstat(src.fileno()).st_mode):
                raise OSError(errno.EINVAL, "not a regular file")
            return self._store_stream(src, touched_dirs)

    def _store_bytes(self, data: bytes) -> str:
        touched: set[Path] = set()
        sha = self._store_stream(io.BytesIO(data), touched)
        for directory in touched:
            fsync_dir(directory)
        return sha

    def _store_stream(self, src: BinaryIO, touched_dirs: set[Path]) -> str:
        digest = hashlib.sha256()
        (self.store / "tmp").mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.store / "tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                while chunk := src.read(1 << 20):
                    digest.update(chunk)
                    out.write(chunk)
                sha = digest.hexdigest()
                dest = self._object(sha)
                if dest.exists():
                    return sha  # finally removes the temp copy
                out.flush()
                os.fsync(out.fileno())
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.replace(tmp, dest)
            touched_dirs.update((dest.parent, dest.parent.parent))  # new bucket entries too
            return sha
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)

    def _object(self, sha: str) -> Path:
        return self.store / "objects" / sha[:2] / sha[2:]

    def _load_statcache(self) -> dict[str, list]:
        try:
            return json.loads((self.store / "statcache.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    # -- undo --------------------------------------------------------------------------------

    def _restore(self, target: _Tree, current: _Tree, info: RunInfo, backup: Path, action: str) -> UndoResult:
        """Make the workspace `target` where it differs from `current` (see tools/snapshot_restore)."""
        log = RestoreLog(self.store / RESTORE_LOG)
        log.begin(info.id, action)
        with contextlib.closing(open_root(self.workspace)) as root:
            restorer = Restorer(root, self._object, log)
            done = Done()
            remove_created(restorer, target, current, done)
            put_back_dirs(restorer, target, done)
            put_back_entries(restorer, target, current, done)
            report_skipped(restorer, target, done)
            root.fsync()
        log.end()  # only once all is done: an interrupted restore is cleaned up by the next one
        return UndoResult(info.id, info.label, done.restored, done.deleted, done.not_restored, backup)

    # -- bookkeeping -------------------------------------------------------------------------

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self.store.mkdir(parents=True, exist_ok=True)
        ignore = self.store.parent / ".gitignore"
        if not ignore.exists():
            # Keeps `git status` of a workspace repository unchanged by our store.
            ignore.write_text("*\n", encoding="utf-8")
        with FileLock(self.store / "lock"):
            self._recovered = None
            if (self.store / RESTORE_LOG).exists():  # an undo, redo or reject was killed half-way
                with contextlib.closing(open_root(self.workspace)) as root:
                    self._recovered = recover(self.store / RESTORE_LOG, root)
            yield

    def _run_ids_newest_first(self) -> list[str]:
        runs = self.store / "runs"
        if not runs.is_dir():
            return []
        return sorted((p.name for p in runs.iterdir() if p.is_dir()), reverse=True)

    def _info(self, run_id: str) -> RunInfo | None:
        run_dir = self.store / "runs" / run_id
        try:
            meta = json.loads((run_dir / "meta.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # begin_run did not complete: the run never started
        written: list[str] = []
        with contextlib.suppress(OSError):
            for line in (run_dir / "journal.log").read_text(encoding="utf-8").splitlines():
                with contextlib.suppress(ValueError):
                    rel = json.loads(line)
                    if rel not in written:
                        written.append(rel)
        skipped: dict[str, str] = {}
        with contextlib.suppress(OSError, ValueError, KeyError):
            manifest = json.loads((run_dir / "manifest.json").read_text(encoding="utf-8"))
            skipped = {rel: why["reason"] for rel, why in manifest["skipped"].items()}
        if not isinstance(meta, dict) or not isinstance(meta.get("id"), str) or "started" not in meta:
            return None  # a record torn or tampered with: not a run
        return RunInfo(
            id=meta["id"],
            label=meta["label"],
            started=meta["started"],
            finished=meta["finished"],
            files_written=written,
            undone=bool(meta.get("undone")),
            skipped=skipped,
            undone_at=float(meta.get("undone") or 0.0),
            changed=meta.get("changed"),
            asked=meta.get("asked") if isinstance(meta.get("asked"), str) else "",
            held=meta.get("held") is True,
            followed=[f for f in meta.get("followed") or [] if isinstance(f, str)],
        )

    def _prune(self) -> None:
        """Keep the newest KEEP_RUNS runs and the objects they reference."""
        ids = self._run_ids_newest_first()
        for run_id in ids:
            if not (self.store / "runs" / run_id / "meta.json").exists():
                shutil.rmtree(self.store / "runs" / run_id, ignore_errors=True)  # torn begin
        for run_id in [r for r in ids if self._info(r) is not None][KEEP_RUNS:]:
            shutil.rmtree(self.store / "runs" / run_id, ignore_errors=True)
        live: set[str] = set()
        for run_dir in (self.store / "runs").iterdir():
            # after.json: the base of an undo's merge; undo_aim.json: the base of a redo's.
            for name in ("manifest.json", "before_undo.json", "after.json", "undo_aim.json"):
                with contextlib.suppress(OSError, ValueError, KeyError):
                    data = json.loads((run_dir / name).read_text(encoding="utf-8"))
                    live.update(entry[0] for entry in data["files"].values())
            for name in (WROTE_LOG, YOURS_LOG):  # the user's bytes a run wrote over; a run's own
                live.update(entry["sha"] for entry in _logged(run_dir / name).values() if entry["sha"])
        shutil.rmtree(self.store / "tmp", ignore_errors=True)  # copies torn by a crash
        objects = self.store / "objects"
        if objects.is_dir():
            for bucket in objects.iterdir():
                with contextlib.suppress(OSError):  # a stray entry must not fail every later run
                    for obj in bucket.iterdir():
                        if bucket.name + obj.name not in live:
                            obj.unlink()


@dataclass
class _Aim:
    """What an undo aims for: the tree, the run's paths kept as they are now (with why), whether
    the whole tree goes back (a run that never ended and is the newest), and the files merged."""

    tree: _Tree
    kept: list[str]
    whole: bool = False
    merged: list[str] = field(default_factory=list)
    yours: list[str] = field(default_factory=list)  # aimed at as the user saved them during the run


class _Merger:
    """merge(rel, base, ours, theirs) for _only_run_changes: the files entry with the change
    base -> theirs applied to ours (stored), or None (not text, or a conflict, noted)."""

    def __init__(self, snaps: RunSnapshots) -> None:
        self.snaps = snaps
        self.merged: list[str] = []
        self.conflicts: list[str] = []

    def __call__(self, rel: str, base: list, ours: list, theirs: list) -> list | None:
        texts = [self.snaps._object_text(entry[0]) for entry in (base, ours, theirs)]
        if any(text is None for text in texts):
            return None
        result = merge3(*texts)  # type: ignore[arg-type]
        if result.text is None:
            self.conflicts.append(f"{rel} ({result.where()})")
            return None
        mode = theirs[1] if ours[1] == base[1] else ours[1]  # a later mode change stays too
        data = result.text.encode("utf-8")
        if data == self.snaps._object_bytes(ours[0]) and mode == ours[1]:
            return list(ours)  # nothing of the run's change is left in it
        self.merged.append(rel)
        return [self.snaps._store_bytes(data), mode, len(data)]


def _entry(tree: _Tree, rel: str) -> tuple[str, object]:
    if rel in tree.files:
        return "file", tuple(tree.files[rel][:2])  # content and mode
    if rel in tree.links:
        return "link", tree.links[rel]
    if rel in tree.skipped:
        return "skipped", None
    return "absent", None


def _plan(info: RunInfo, planned: _Aim, current: _Tree) -> UndoPlan:
    """What _restore(aim, current) will put back and delete, as _restore decides it."""
    aim = planned.tree
    delete = [
        rel
        for rel in sorted(set(current.files) | set(current.links) | set(current.skipped))
        if rel not in aim.files and rel not in aim.links and rel not in aim.skipped
        and rel not in current.dirs and rel != "."
    ]  # fmt: skip
    delete += [rel + "/" for rel in sorted(set(current.dirs) - set(aim.dirs))]
    restore = [
        rel for rel, entry in sorted(aim.files.items()) if (current.files.get(rel) or [])[:2] != entry[:2]
    ]
    restore += [rel for rel, target in sorted(aim.links.items()) if current.links.get(rel) != target]
    restore += [rel + "/" for rel in sorted(set(aim.dirs) - set(current.dirs))]
    restore = [rel for rel in restore if rel not in planned.merged]
    return UndoPlan(info.id, info.label, restore, delete, list(planned.kept), planned.whole, planned.merged)


def _with_killed_part(result: UndoResult, earlier: _Tree, current: _Tree) -> UndoResult:
    """`result` with what an undo killed half-way had already done (from the tree just before it,
    `earlier`, to `current`) named too: deleted, or put back."""
    deleted, restored = list(result.deleted), list(result.restored)
    paths: set[str] = set()
    for tree in (earlier, current):
        paths |= set(tree.files) | set(tree.links) | set(tree.skipped)
    for rel in sorted(paths):
        if rel in deleted or rel in restored or _entry(earlier, rel) == _entry(current, rel):
            continue
        (restored if _entry(current, rel)[0] != "absent" else deleted).append(rel)
    return dataclasses.replace(result, deleted=deleted, restored=restored)


def _is_run_id(run_id: str) -> bool:
    # A run id names a folder of the store: nothing that could climb out of it.
    return bool(run_id) and "/" not in run_id and "\\" not in run_id and run_id not in (".", "..")


def _only_run_changes(
    before: _Tree, after: _Tree, current: _Tree, merge: Callable[[str, list, list, list], list | None] | None
) -> tuple[_Tree, list[str]]:
    """The tree undo aims for: `before` where the run changed a path and nobody touched it since;
    `current` everywhere else (the user's own files, edits and additions after the run stay).
    A file changed again since the run gets merge(rel, after, current, before) where that gives
    one (the reverse of the run's change applied to it). Also the run's paths kept as they are
    now, with why."""
    target = _Tree(dict(current.files), dict(current.links), dict(current.dirs), dict(current.skipped))
    kept: list[str] = []
    paths = set(before.files) | set(before.links) | set(after.files) | set(after.links) | set(after.skipped)
    for rel in sorted(paths):
        if _entry(before, rel) == _entry(after, rel):
            continue  # the run did not change it
        if _entry(current, rel) == _entry(before, rel):
            continue  # already as before the run (an undo killed half-way put it back): nothing kept
        if _entry(after, rel) != _entry(current, rel):
            both = rel in before.files and rel in after.files and rel in current.files
            merged = (
                merge(rel, after.files[rel], current.files[rel], before.files[rel])
                if merge and both
                else None
            )
            if merged is not None:
                target.files[rel] = merged
            else:
                kept.append(f"{rel}: changed again after the run; kept as it is now")
            continue
        target.files.pop(rel, None)
        target.links.pop(rel, None)
        if rel not in before.skipped:  # a big file the run made goes; one that was there stays
            target.skipped.pop(rel, None)
        if rel in before.files:
            target.files[rel] = before.files[rel]
        elif rel in before.links:
            target.links[rel] = before.links[rel]
    # Folders the run made go if nothing else is in them (deepest first, so a parent sees its
    # emptied children gone).
    for rel in sorted(set(after.dirs) - set(before.dirs), key=lambda r: -r.count("/")):
        inside = rel + "/"
        if not any(
            p.startswith(inside) for p in (*target.files, *target.links, *target.skipped, *target.dirs)
        ):
            target.dirs.pop(rel, None)
    target.skipped.update(before.skipped)  # so that a saved-nothing file the run changed is reported
    for rel, mode in before.dirs.items():  # folders the run removed, or whose mode it changed
        if rel not in target.dirs or (
            after.dirs.get(rel) != mode and current.dirs.get(rel) == after.dirs.get(rel)
        ):
            target.dirs[rel] = mode
    return target, kept


def journal_applied(
    workspace: Path | str, paths: list[str], complete: bool = True, written: tuple[str, ...] | list[str] = ()
) -> None:
    """Journal what a sandboxed program's apply-back wrote, deleted or made in `workspace`, into
    the run in progress there (none: nothing to attribute it to). `complete` False: the program
    wrote the workspace itself, so no journal names all the run did; undo then takes back the
    whole difference, as it did before journals. `written`: the files among `paths` it wrote,
    whose bytes are saved now, just applied, as the run's own (a later save is the user's)."""
    folder = Path(os.path.realpath(workspace))
    # The program may have run in a folder of the workspace: its paths are journaled from the top.
    top = next((up for up in (folder, *folder.parents) if _own_store(up)), None)
    if top is None:
        return
    store = top / ".localcrew" / "snapshots"
    inner = folder.relative_to(top).as_posix()
    lines = "".join(json.dumps(rel if inner == "." else f"{inner}/{rel}") + "\n" for rel in paths)
    try:
        run_id = json.loads((store / ACTIVE).read_text("utf-8")).get("run")
        run_dir = store / "runs" / run_id
        meta = json.loads((run_dir / "meta.json").read_text("utf-8"))
    except (OSError, ValueError, TypeError, AttributeError):
        return
    if not _is_run_id(run_id) or meta.get("finished") is not None:
        return
    try:
        _append(run_dir / (APPLIED_LOG if complete else UNJOURNALED), lines)
    except OSError:
        with contextlib.suppress(OSError):
            _append(run_dir / UNJOURNALED, "")  # a path may be missing: trust no journal
        return
    snaps = RunSnapshots(top)
    for rel in written:
        full = rel if inner == "." else f"{inner}/{rel}"
        with contextlib.suppress(OSError, WorkspaceError, SnapshotError):
            data, _ = ConfinedRoot(top).read_bytes(split_rel(full), MAX_FILE_BYTES + 1, follow=False)
            if len(data) <= MAX_FILE_BYTES:
                entry = {"path": full, "sha": snaps._store_bytes(data)}
                _append(run_dir / WROTE_LOG, json.dumps(entry) + "\n")


def _logged(path: Path) -> dict[str, dict]:
    """The last entry for each path of a JSON-lines log of {"path", "sha", ...} (torn lines skipped)."""
    last: dict[str, dict] = {}
    with contextlib.suppress(OSError):
        for line in path.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(ValueError, TypeError, AttributeError):
                entry = json.loads(line)
                sha = entry.get("sha")
                if isinstance(entry.get("path"), str) and (sha is None or isinstance(sha, str)):
                    last[entry["path"]] = entry
    return last


def _own_store(folder: Path) -> bool:
    """A snapshot store with a run in progress, ours (not one planted in a shared /tmp)."""
    try:
        st = os.lstat(folder / ".localcrew" / "snapshots" / ACTIVE)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid()


def _append(path: Path, text: str) -> None:
    """Append durably, never through a link."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o600)
    try:
        data = memoryview(text.encode("utf-8"))
        while data:
            data = data[os.write(fd, data) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def _journaled(run_dir: Path) -> set[str] | None:
    """Every path the run's journals name; None when they do not name all it wrote."""
    if (run_dir / UNJOURNALED).exists():
        return None
    paths: set[str] = set()
    for name in ("journal.log", APPLIED_LOG):
        with contextlib.suppress(FileNotFoundError):
            for line in (run_dir / name).read_text(encoding="utf-8").splitlines():
                with contextlib.suppress(ValueError):
                    rel = json.loads(line)
                    if isinstance(rel, str):
                        paths.add(rel)
    return paths


def _journaled_only(before: _Tree, after: _Tree, own: set[str]) -> _Tree:
    """The tree the run left, counting only its journaled paths (and the folders holding them);
    everywhere else as before the run: what the user saved meanwhile is not the run's change."""
    holders = {"/".join(rel.split("/")[:end]) for rel in own for end in range(1, rel.count("/") + 1)}
    result = _Tree(dict(before.files), dict(before.links), dict(before.dirs), dict(before.skipped))
    for kind in ("files", "links", "dirs", "skipped"):
        left, now = getattr(result, kind), getattr(after, kind)
        for rel in own | holders:
            left.pop(rel, None)
            if rel in now:
                left[rel] = now[rel]
    return result


def _read_text_or_none(path: Path, max_bytes: int) -> str | None:
    try:
        with open(path, "rb") as handle:
            return handle.read(max_bytes).decode("utf-8", errors="replace")
    except OSError:
        return None


def _read_workspace_text(workspace: Path, rel: str, max_bytes: int) -> str | None:
    """A crew-written file as it is now: never through a link, never blocking on a fifo, never
    a hard-linked file (tools.confined_fs); None when it is gone. WorkspaceError says why not."""
    try:
        data, _ = ConfinedRoot(workspace).read_bytes(split_rel(rel), max_bytes, follow=False, rel=rel)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise WorkspaceError(f"cannot read {rel!r}: {exc.strerror or exc}") from None
    return data.decode("utf-8", errors="replace")


def _skip_dir(name: str, folder: Dir) -> bool:
    """Folders never saved: SKIP_DIRS (our store, .git, caches) and virtual environments."""
    if name in SKIP_DIRS:
        return True
    try:
        folder.lstat("pyvenv.cfg")
    except OSError:
        return False
    return True


def _write_json(path: Path, data: dict, durable: bool = True) -> None:
    atomic_write(path, json.dumps(data), durable=durable)

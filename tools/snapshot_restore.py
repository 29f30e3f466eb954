"""Putting a saved tree back into the workspace, for undo, redo and reject (tools/run_snapshot.py).

Every change goes through folder handles (tools/snapshot_fs.py), so paths longer than PATH_MAX
are no obstacle and a link a program left on the way is never followed out of the workspace.

A file is written back as a temporary file beside it, then renamed over it. A kill in between
(kill -9 of the IDE mid-undo) would leave that temporary file in the user's folder, so each
restore first records, in the store, its temp names' unique prefix and each folder it is about to
use; the next restore (or run) removes what such a record names (only names with that random
prefix, never the user's files), then forgets the record.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from tools.confined_fs import O_BINARY, O_CLOEXEC, READ_FLAGS, Dir
from tools.snapshot_fs import chmod_dir, open_dir, parent_of, remove_tree, symlink

TEMP_PREFIX = ".lcundo-"


class RestoreLog:
    """The record of one restore in progress: its temp prefix and the folders it wrote temps in."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.token = secrets.token_hex(8)
        self._dirs: set[str] = set()

    def begin(self, run_id: str, action: str) -> None:
        self._append({"run": run_id, "action": action, "token": self.token})

    def temp_name(self, rel_dir: str) -> str:
        if rel_dir not in self._dirs:
            self._append({"dir": rel_dir})  # before the temp exists: a kill can leave none unrecorded
            self._dirs.add(rel_dir)
        return f"{TEMP_PREFIX}{self.token}-{secrets.token_hex(4)}.tmp"

    def end(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def _append(self, record: dict) -> None:
        with open(self.path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(record) + "\n")
            fh.flush()
            os.fsync(fh.fileno())


def recover(log_path: Path, root: Dir) -> dict | None:
    """Remove the temp files an interrupted restore left; returns its record (run, action) or None."""
    try:
        lines = log_path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return None
    records = []
    for line in lines:
        with contextlib.suppress(ValueError):
            records.append(json.loads(line))
    head = next((r for r in records if "token" in r), None)
    if head is not None:
        prefix = f"{TEMP_PREFIX}{head['token']}-"
        for rel_dir in {r["dir"] for r in records if isinstance(r.get("dir"), str)}:
            with contextlib.suppress(OSError):
                _remove_temps(root, rel_dir, prefix)
    log_path.unlink()
    return head


def _remove_temps(root: Dir, rel_dir: str, prefix: str) -> None:
    with open_dir(root, rel_dir.split("/") if rel_dir else []) as d:
        for entry in d.entries():
            if entry.name.startswith(prefix) and entry.kind == "file":
                d.unlink(entry.name)


class Restorer:
    """Workspace changes by relative path, each through its parent folder's handle."""

    def __init__(self, root: Dir, object_path: Callable[[str], Path], log: RestoreLog) -> None:
        self.root = root
        self.object_path = object_path
        self.log = log

    def lstat(self, rel: str) -> os.stat_result | None:
        try:
            with parent_of(self.root, rel) as (d, name):
                return d.lstat(name)
        except (FileNotFoundError, NotADirectoryError):
            return None

    def is_dir(self, rel: str) -> bool:
        st = self.lstat(rel)
        return st is not None and stat.S_ISDIR(st.st_mode)

    def unlink(self, rel: str) -> None:
        with parent_of(self.root, rel) as (d, name), contextlib.suppress(FileNotFoundError):
            d.unlink(name)

    def remove_dir(self, rel: str) -> None:
        with parent_of(self.root, rel) as (d, name):
            remove_tree(d, name)

    def remove_any(self, rel: str) -> None:
        """Whatever is at rel (a folder with all in it): gone."""
        if self.is_dir(rel):
            self.remove_dir(rel)
        elif self.lstat(rel) is not None:
            self.unlink(rel)

    def mkdir(self, rel: str) -> None:
        with parent_of(self.root, rel) as (d, name):
            d.mkdir(name)

    def chmod_dir(self, rel: str, mode: int) -> None:
        with open_dir(self.root, rel.split("/")) as d:
            chmod_dir(d, mode)

    def symlink(self, rel: str, target: str) -> None:
        with parent_of(self.root, rel) as (d, name):
            symlink(d, target, name)

    def write_back(self, rel: str, sha: str, mode: int) -> None:
        """The saved content `sha` at rel, with `mode`, in one rename (a folder there goes first)."""
        source = self.object_path(sha)
        if not source.exists():
            raise OSError(f"saved content {sha[:12]} is missing from the snapshot store")
        with parent_of(self.root, rel) as (d, name):
            with contextlib.suppress(FileNotFoundError):
                if stat.S_ISDIR(d.lstat(name).st_mode):
                    remove_tree(d, name)
            tmp = self.log.temp_name(rel.rpartition("/")[0])
            fd = d.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_CLOEXEC | O_BINARY, 0o600)
            try:
                with os.fdopen(fd, "wb") as out, open(source, "rb") as src:
                    shutil.copyfileobj(src, out, 1 << 20)
                    out.flush()
                    if hasattr(os, "fchmod"):
                        os.fchmod(out.fileno(), mode)
                    os.fsync(out.fileno())
                if not hasattr(os, "fchmod"):
                    os.chmod(os.path.join(str(d.handle), tmp), mode)
                d.rename(tmp, name)
            except BaseException:
                with contextlib.suppress(OSError):
                    d.unlink(tmp)
                raise

    def open_regular(self, rel: str) -> int | None:
        """A read-only fd of the regular file at rel (never through a link); None if there is none."""
        try:
            with parent_of(self.root, rel) as (d, name):
                fd = d.open(name, READ_FLAGS)
        except OSError:
            return None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            return None
        return fd

    def fsync_root(self) -> None:
        self.root.fsync()


class Tree(Protocol):
    files: dict[str, list]  # rel -> [sha, mode, size]
    links: dict[str, str]
    dirs: dict[str, int]
    skipped: dict[str, dict]


@dataclass
class Done:
    restored: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    not_restored: list[str] = field(default_factory=list)


def remove_created(r: Restorer, target: Tree, current: Tree, done: Done) -> None:
    """Step 1: remove what the run created, or turned into another kind of entry."""
    for rel in sorted(set(current.files) | set(current.links) | set(current.skipped)):
        if rel in target.skipped or rel in current.dirs or rel == ".":
            continue
        same_kind = (rel in current.files and rel in target.files) or (
            rel in current.links and rel in target.links
        )
        try:
            st = r.lstat(rel)
            if same_kind or st is None or stat.S_ISDIR(st.st_mode):
                continue  # nothing to do, or a folder that could not be read: left alone
            r.unlink(rel)
        except OSError as exc:
            done.not_restored.append(f"{rel}: {exc}")
            continue
        if rel not in target.files and rel not in target.links:
            done.deleted.append(rel)
    for rel in sorted(set(current.dirs) - set(target.dirs), key=len, reverse=True):
        try:
            if r.is_dir(rel):
                r.remove_dir(rel)
                done.deleted.append(rel + "/")
        except OSError as exc:
            done.not_restored.append(f"{rel}/: {exc}")


def put_back_dirs(r: Restorer, target: Tree, done: Done) -> None:
    """Step 2: folders, parents first, writable while they are filled (modes come last)."""
    for rel in sorted(target.dirs, key=lambda p: p.count("/")):
        try:
            st = r.lstat(rel)
            if st is not None and not stat.S_ISDIR(st.st_mode):
                r.unlink(rel)
                st = None
            if st is None:
                r.mkdir(rel)
                done.restored.append(rel + "/")
                st = r.lstat(rel)
            assert st is not None
            r.chmod_dir(rel, stat.S_IMODE(st.st_mode) | stat.S_IRWXU)
        except OSError as exc:
            done.not_restored.append(f"{rel}/: {exc}")


def put_back_entries(r: Restorer, target: Tree, current: Tree, done: Done) -> None:
    """Step 3: files and links whose content, mode or kind differ; then the folders' modes."""
    for rel, (sha, mode, _size) in sorted(target.files.items()):
        now = current.files.get(rel)
        try:
            if now is not None and now[0] == sha and now[1] == mode and r.lstat(rel) is not None:
                continue
            r.write_back(rel, sha, mode)
            done.restored.append(rel)
        except OSError as exc:
            done.not_restored.append(f"{rel}: {exc}")
    for rel, link_target in sorted(target.links.items()):
        if current.links.get(rel) == link_target:
            continue
        try:
            r.remove_any(rel)
            r.symlink(rel, link_target)
            done.restored.append(rel)
        except OSError as exc:
            done.not_restored.append(f"{rel}: {exc}")
    for rel, mode in sorted(target.dirs.items(), key=lambda item: -item[0].count("/")):
        try:
            r.chmod_dir(rel, mode)
        except OSError as exc:
            done.not_restored.append(f"{rel}/: {exc}")
            continue
        if current.dirs.get(rel, mode) != mode and rel + "/" not in done.restored:
            done.restored.append(rel + "/")


def report_skipped(r: Restorer, target: Tree, done: Done) -> None:
    """Step 4: skipped entries cannot be put back; say so when they changed."""
    for rel, was in sorted(target.skipped.items()):
        try:
            st = r.lstat(rel)
        except OSError:
            st = None
        if st is None:
            done.not_restored.append(f"{rel}: deleted, and was not saved ({was['reason']})")
        elif "size" in was and (st.st_size, st.st_mtime_ns) != (was["size"], was["mtime_ns"]):
            done.not_restored.append(f"{rel}: changed, and was not saved ({was['reason']})")

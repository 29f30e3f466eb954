"""Parent side of staging: what the workspace held before a run, and applying back what it wrote.

The program wrote only its staging copy (a tmpfs the launcher hands us as a descriptor). After the
run, with every process of the sandbox gone, we walk that copy with directory descriptors and
apply to the workspace only what a program may change there:

- regular files, new or changed, each with one link (a hard link is refused), within a byte and
  file-count budget, that Undo can take back (`_discovery.not_applied`: visible, no dot-name at
  any depth, outside any folder a tool owns, not bytecode or a .pth, not larger than the
  snapshot saves); written to a temporary name and renamed, so a symlink placed in the
  workspace is replaced, never followed; dated when applied, not when the program said;
- deletions of such files the workspace had before the run and still has unchanged;
- new folders under the same rule.

What the rule leaves out is listed as "made by the program, not applied" (or "deleted by the
program, not applied"), never dropped silently.

Refused, and reported: symlinks (new or changed), FIFOs, sockets and devices, anything named
.git or .localcrew at any depth (a planted repository's hooks would run at the user's next git
command), anything inside a folder git takes for a repository by itself (HEAD + objects/ + refs/)
and other files host tools run on discovery (`_discovery`: .hg, .vscode, .idea, .envrc), a path
that is no longer a plain folder in the workspace, and anything over budget.
Workspace paths are walked one component at a time with O_NOFOLLOW from a descriptor of the
workspace root, so a folder swapped for a symlink cannot redirect a write outside.
"""

from __future__ import annotations

import contextlib
import os
import stat
from dataclasses import dataclass, field

from tools.run_snapshot import MAX_FILE_BYTES
from tools.sandbox import _discovery
from tools.sandbox._launcher import STAGE_WS, send_file
from tools.workspace_files import PROTECTED_DIRS

# Top-level folders bound read-only instead of copied into staging: large and not the program's
# to change (environments, caches), or never the program's to change (PROTECTED_DIRS: git
# history, where a planted hook would run at the user's next commit, and LocalCrew's undo).
BOUND_DIRS = (
    *sorted(PROTECTED_DIRS), ".venv", "venv", "node_modules", ".tox", ".nox", ".mypy_cache", ".ruff_cache"
)  # fmt: skip

# Deeper folders are neither listed nor applied: a recursion limit, and no project needs them.
MAX_DEPTH = 64
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


@dataclass
class Manifest:
    """Regular files (size, mtime_ns), symlinks (target) and folders of the workspace."""

    files: dict[str, tuple[int, int]] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)
    dirs: set[str] = field(default_factory=set)


@dataclass
class Applied:
    written: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # "path: why"
    folders: list[str] = field(default_factory=list)  # made or removed: for the undo journal


def protected(rel: str) -> bool:
    """Never written, made or deleted by applying back (see `_discovery.never_applied`)."""
    return _discovery.never_applied(rel) is not None


def manifest(root: str, skip_top: set[str]) -> Manifest:
    """What the workspace holds now, leaving out the top-level folders bound read-only."""
    found = Manifest()
    fd = os.open(root, DIR_FLAGS)
    try:
        _scan(fd, "", found, skip_top)
    finally:
        os.close(fd)
    return found


def _scan(fd: int, prefix: str, found: Manifest, skip_top: set[str]) -> None:
    with os.scandir(fd) as entries:
        listing = [(entry.name, entry.stat(follow_symlinks=False)) for entry in entries]
    for name, st in listing:
        rel = prefix + name
        if not prefix and name in skip_top and stat.S_ISDIR(st.st_mode):
            continue
        if stat.S_ISREG(st.st_mode):
            found.files[rel] = (st.st_size, st.st_mtime_ns)
        elif stat.S_ISLNK(st.st_mode):
            with contextlib.suppress(OSError):
                found.links[rel] = os.readlink(name, dir_fd=fd)
        elif stat.S_ISDIR(st.st_mode):
            found.dirs.add(rel)
            if rel.count("/") >= MAX_DEPTH:
                continue
            try:
                sub = os.open(name, DIR_FLAGS, dir_fd=fd)
            except OSError:
                continue
            try:
                _scan(sub, rel + "/", found, skip_top)
            finally:
                os.close(sub)


def inside(path: str, folder: str) -> bool:
    return os.path.commonpath([folder, os.path.realpath(path)]) == folder


def bound_names(root: str, python_paths: list[str]) -> set[str]:
    """The top-level names the launcher binds instead of copying (it is given this set)."""
    names = set(BOUND_DIRS)
    for path in python_paths:
        real = os.path.realpath(path)
        if os.path.commonpath([root, real]) == root and real != root:
            names.add(os.path.relpath(real, root).split(os.sep)[0])
    return names


@dataclass
class _Walk:
    """What a walk of the staging copy found that differs from the workspace as it was."""

    before: Manifest
    skip_top: set[str]  # top-level folders bound, not copied: the program could not change them
    copied_at: int  # ctime after this: changed in staging since the copy
    done: Applied = field(default_factory=Applied)
    writes: list[tuple[str, os.stat_result]] = field(default_factory=list)
    new_dirs: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    seen_dirs: set[str] = field(default_factory=lambda: {""})  # still plain folders in staging
    owned_dirs: set[str] = field(default_factory=set)  # venvs found by their marker, in staging

    def owner(self, prefix: str, names: list[str]) -> str | None:
        """The folder `prefix` itself when a tool owns it by its marker (now, or before the run)."""
        marker = _discovery.VENV_MARKER
        if not prefix or (marker not in names and prefix + marker not in self.before.files):
            return None
        self.owned_dirs.add(prefix[:-1])
        return prefix[:-1]

    def refuse(self, rel: str, why: str) -> None:
        refused = self.done.refused
        if len(refused) < 200:
            refused.append(f"{rel}: {why}")
        elif len(refused) == 200:
            refused.append("...: more refused, not listed")

    def walk(self, fd: int, prefix: str, in_repo: bool = False, owned: str | None = None) -> None:
        """Walk one staging folder; `in_repo`: it or a folder above is a git layout (nothing new
        or changed below is applied: it would complete or arm a repository); `owned`: a folder
        a tool owns holds it (a venv by another name than the skip list's)."""
        with os.scandir(fd) as entries:
            listing = [(entry.name, entry.stat(follow_symlinks=False)) for entry in entries]
        in_repo = in_repo or _discovery.looks_like_git_dir([(n, st.st_mode) for n, st in listing])
        owned = owned or self.owner(prefix, [name.lower() for name, _st in listing])
        for name, st in listing:
            rel = prefix + name
            self.seen.add(rel)
            if not prefix and name in self.skip_top:
                continue
            kind = stat.S_IFMT(st.st_mode)
            touched = st.st_ctime_ns > self.copied_at
            if kind == stat.S_IFDIR:
                self._folder(fd, name, rel, in_repo, owned)
            elif kind == stat.S_IFREG:
                old = self.before.files.get(rel)
                if old is not None and old == (st.st_size, st.st_mtime_ns) and not touched:
                    continue
                never = _discovery.never_applied(rel) or (_discovery.GIT_LAYOUT if in_repo else None)
                rule = _discovery.not_applied(rel, owned, st.st_size, MAX_FILE_BYTES)
                if never:
                    self.refuse(rel, never)
                elif rule:
                    self.refuse(rel, f"{_discovery.NOT_APPLIED}: {rule}")
                elif st.st_nlink > 1:
                    self.refuse(rel, "a hard link")
                else:
                    self.writes.append((rel, st))
            elif kind == stat.S_IFLNK:
                if self.before.links.get(rel) is not None and not touched:
                    continue
                self.refuse(rel, "a symlink")
            else:
                what = {stat.S_IFIFO: "a FIFO", stat.S_IFSOCK: "a socket"}.get(kind, "a device")
                self.refuse(rel, what)

    def _folder(self, fd: int, name: str, rel: str, in_repo: bool, owned: str | None) -> None:
        before = self.before
        if protected(rel) and rel not in before.dirs:
            self.refuse(rel, f"a new folder is never applied: {_discovery.never_applied(rel)}")
            return
        rule = _discovery.not_applied(rel, owned, is_dir=True)
        if rule and rel not in before.dirs:  # not made; what the program put in it is listed below
            self.refuse(rel + "/", f"{_discovery.NOT_APPLIED}: {rule}")
        if in_repo and rel not in before.dirs:
            self.refuse(rel, _discovery.GIT_LAYOUT)
            return
        if rel.count("/") >= MAX_DEPTH:
            if rel not in before.dirs:
                self.refuse(rel, "folders nested too deep")
            self.seen.update(f for f in before.files if f.startswith(rel + "/"))  # not deleted
            return
        if rel not in before.dirs and not rule:
            self.new_dirs.append(rel)
        self.seen_dirs.add(rel)
        try:
            sub = os.open(name, DIR_FLAGS, dir_fd=fd)
        except OSError as exc:
            self.refuse(rel, f"unreadable ({exc.strerror})")
            return
        try:
            self.walk(sub, rel + "/", in_repo, owned)
        finally:
            os.close(sub)


def apply_back(
    stage_fd: int,
    root: str,
    before: Manifest,
    staging: dict,
    max_bytes: int,
    max_files: int,
) -> Applied:
    """Apply the staging copy under `stage_fd` (the tmpfs root) to the workspace at `root`."""
    found = _Walk(before, set(staging.get("bound") or ()), int(staging.get("copied_at_ns") or 0))
    refuse, done = found.refuse, found.done
    budget = {"bytes": max_bytes, "files": max_files}
    ws_fd = os.open(STAGE_WS, DIR_FLAGS, dir_fd=stage_fd)
    try:
        found.walk(ws_fd, "")
        root_fd = os.open(root, DIR_FLAGS)
        try:
            for rel in found.new_dirs:
                if _spend(budget, 0, refuse, rel):
                    _make_dirs(root_fd, rel, refuse)
                    done.folders.append(rel)
            for rel, st in found.writes:
                if _spend(budget, st.st_size, refuse, rel):
                    _write_one(ws_fd, root_fd, rel, st, before.files.get(rel), refuse, done)
            if not staging.get("uncopied_more"):  # with a partial list, a missing file may be uncopied
                _apply_deletes(root_fd, found, list(staging.get("uncopied") or ()), budget)
        finally:
            os.close(root_fd)
    finally:
        os.close(ws_fd)
    return done


def _apply_deletes(root_fd: int, found: _Walk, uncopied: list[str], budget: dict) -> None:
    """Delete what the program deleted: files, then folders once empty."""
    before, seen = found.before, found.seen
    gone = [
        rel
        for rel in before.files
        if rel not in seen
        and _under_plain_folder(rel, seen, found.seen_dirs)
        and not protected(rel)
        and not any(rel == u or rel.startswith(u + "/") for u in uncopied)
    ]
    owned = found.owned_dirs | {rel[: -len(_VENV_TAIL)] for rel in before.files if rel.endswith(_VENV_TAIL)}
    kept = []
    for rel in gone:
        holder = next((d for d in owned if rel.startswith(d + "/")), None)
        why = _discovery.not_applied(rel, holder, before.files[rel][0], MAX_FILE_BYTES)
        if why:  # the snapshot did not save it, or the tree does not show it: not Undo's to bring back
            found.refuse(rel, f"deleted by the program, not applied: {why}")
        else:
            kept.append(rel)
    for rel in kept:
        if _spend(budget, 0, found.refuse, rel):
            _delete_one(root_fd, rel, before.files[rel], found.refuse, found.done)
    emptied = (d for d in before.dirs if d not in seen and not protected(d))
    for rel in sorted(emptied, reverse=True):
        parent, name = _open_parent(root_fd, rel, create=False)
        if parent is not None:
            with contextlib.suppress(OSError):
                os.rmdir(name, dir_fd=parent)  # only once empty: never a user's file
                found.done.folders.append(rel)
            os.close(parent)


_VENV_TAIL = "/" + _discovery.VENV_MARKER


def _under_plain_folder(rel: str, seen: set[str], seen_dirs: set[str]) -> bool:
    """Whether the closest ancestor staging still has is a folder (not a symlink or FIFO put
    in its place: then the files below were not deleted, they were hidden, and stay)."""
    parts = rel.split("/")[:-1]
    for end in range(len(parts), 0, -1):
        ancestor = "/".join(parts[:end])
        if ancestor in seen:
            return ancestor in seen_dirs
    return True


def _spend(budget: dict, size: int, refuse, rel: str) -> bool:
    if budget["files"] <= 0 or size > budget["bytes"]:
        refuse(rel, "over the run's budget of files or bytes")
        return False
    budget["files"] -= 1
    budget["bytes"] -= size
    return True


def _open_parent(root_fd: int, rel: str, create: bool) -> tuple[int | None, str]:
    """A descriptor of the folder holding `rel`, walked without following any symlink."""
    parts = rel.split("/")
    fd = os.dup(root_fd)
    try:
        for part in parts[:-1]:
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o755, dir_fd=fd)
            sub = os.open(part, DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = sub
    except OSError:
        os.close(fd)
        return None, parts[-1]
    return fd, parts[-1]


def _make_dirs(root_fd: int, rel: str, refuse) -> None:
    parent, name = _open_parent(root_fd, rel, create=True)
    if parent is None:
        refuse(rel, "its folder is not a plain folder in the workspace")
        return
    try:
        os.mkdir(name, 0o755, dir_fd=parent)
    except FileExistsError:
        try:
            if not stat.S_ISDIR(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode):
                refuse(rel, "something else is at that path in the workspace")
        except OSError:
            pass
    except OSError as exc:
        refuse(rel, exc.strerror or "cannot create")
    finally:
        os.close(parent)


def _unchanged(parent: int, name: str, old: tuple[int, int] | None) -> bool:
    """The workspace still has what it had before the run at this path (nothing, or that file)."""
    try:
        now = os.stat(name, dir_fd=parent, follow_symlinks=False)
    except FileNotFoundError:
        return old is None
    if old is None:
        return False
    return stat.S_ISREG(now.st_mode) and (now.st_size, now.st_mtime_ns) == old


def _current_mode(parent: int, name: str) -> int:
    try:
        return stat.S_IMODE(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode)
    except OSError:
        return 0o644


def _write_one(ws_fd: int, root_fd: int, rel: str, st: os.stat_result, old, refuse, done: Applied) -> None:
    source_dir, name = _open_parent(ws_fd, rel, create=False)
    if source_dir is None:
        refuse(rel, "unreadable in staging")
        return
    parent, _ = _open_parent(root_fd, rel, create=True)
    if parent is None:
        os.close(source_dir)
        refuse(rel, "its folder is not a plain folder in the workspace")
        return
    tmp = f".{name[:200]}.localcrew-{os.urandom(4).hex()}"
    try:
        if not _unchanged(parent, name, old):
            refuse(rel, "changed in the workspace during the run")
            return
        src = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=source_dir)
        try:
            now = os.fstat(src)
            if not stat.S_ISREG(now.st_mode) or now.st_nlink > 1:
                refuse(rel, "not a single-link regular file")
                return
            # The workspace file keeps its permissions (a 600 .env stays 600); only the exec bit
            # follows the program. Never setuid/setgid, whatever the program set.
            base = _current_mode(parent, name) & 0o666 if old is not None else 0o644
            mode = base | ((base & 0o444) >> 2 if now.st_mode & 0o100 else 0)
            dst = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode, dir_fd=parent)
            try:
                send_file(dst, src, now.st_size)
                os.fchmod(dst, mode)  # the umask is not the program's to decide
            finally:
                os.close(dst)
        finally:
            os.close(src)
        # The file keeps the time of applying (it was just made): the program's own date would
        # let a same-size rewrite pass for unchanged, or date a file in 2100.
        os.replace(tmp, name, src_dir_fd=parent, dst_dir_fd=parent)
        done.written.append(rel)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=parent)
        refuse(rel, exc.strerror or "cannot write")
    finally:
        os.close(parent)
        os.close(source_dir)


def _delete_one(root_fd: int, rel: str, old: tuple[int, int], refuse, done: Applied) -> None:
    parent, name = _open_parent(root_fd, rel, create=False)
    if parent is None:
        return  # its folder is gone or was replaced: nothing of ours to delete there
    try:
        if _unchanged(parent, name, old):
            os.unlink(name, dir_fd=parent)
            done.deleted.append(rel)
        else:
            refuse(rel, "deleted by the program but changed in the workspace during the run")
    except OSError as exc:
        refuse(rel, exc.strerror or "cannot delete")
    finally:
        os.close(parent)

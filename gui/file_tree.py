"""The Files tab's tree: Gradio's FileExplorer, listing folders through tools.confined_fs.

Gradio's own `ls` lists with os.listdir on a joined path, so a symlink a program left (to the home
folder, to /) is shown as a folder and expanded into what it points to, and any client can ask it
for `["link"]` directly. Here each folder is opened from the workspace root's fd without following
any link (openat2 RESOLVE_NO_SYMLINKS, or O_NOFOLLOW per component), so a linked folder is never
listed, whoever asks. A link to a regular file inside the workspace is shown as a file, because
opening it goes through WorkspaceFiles, which follows it only inside; any other link (to a folder,
to outside) and fifos, sockets and devices are left out: the tree shows what the editor can open.
"""

from __future__ import annotations

import fnmatch
import os
from typing import Any

import gradio as gr
from gradio import component_meta
from gradio.components.base import server

from tools.confined_fs import ConfinedRoot, WorkspaceError, split_rel
from tools.workspace_files import SKIP_DIRS

# Git's internals, the IDE's own records and the folders tools own (caches, bytecode, environments)
# are not the user's files to open and edit, and no snapshot covers them: the tree shows only what
# a run's Undo covers.
HIDDEN_FOLDERS = SKIP_DIRS


def tree_entries(
    root: str, subdirectory: list[str], glob: str, ignore_glob: str | None
) -> list[dict[str, Any]]:
    """What FileExplorer.ls answers for `subdirectory` (names sent by the browser: untrusted)."""
    fs = ConfinedRoot(root)
    try:
        joined = "/".join(str(name) for name in subdirectory)
        parts = split_rel(joined) if joined.strip("/") else []
        entries = fs.listdir(parts)
    except (OSError, WorkspaceError):
        return []  # a link, a '..', a vanished folder: nothing to show, as Gradio does for errors
    base = os.path.join(str(root), *parts)  # Gradio matches its globs against this full path
    files: list[dict[str, Any]] = []
    folders: list[dict[str, Any]] = []
    for entry in entries:
        if entry.kind == "dir" and entry.name in HIDDEN_FOLDERS:
            continue
        if entry.kind == "dir":
            is_file = False
        elif entry.kind == "file" or (entry.kind == "link" and fs.regular_file_inside([*parts, entry.name])):
            is_file = True
        else:
            continue
        full = os.path.join(base, entry.name)
        valid = fnmatch.fnmatch(full, glob)
        if (is_file and not valid) or (ignore_glob and fnmatch.fnmatch(full, ignore_glob)):
            continue
        (files if is_file else folders).append(
            {"name": entry.name, "type": "file" if is_file else "folder", "valid": valid}
        )
    return folders + files


# Gradio writes a .pyi stub next to the source of every Component subclass at import time (here:
# gui/file_tree.pyi, in a tree that may be read-only); this class adds no events, so needs none.
_write_stub = component_meta.create_or_modify_pyi
component_meta.create_or_modify_pyi = lambda *args, **kwargs: None
try:

    class ConfinedFileExplorer(gr.FileExplorer):
        """gr.FileExplorer whose listing never follows a link (see the module docstring)."""

        is_template = True  # the browser keeps using Gradio's own FileExplorer front end

        @server
        def ls(self, subdirectory: list[str] | None = None) -> list[dict[str, str]] | None:
            return tree_entries(str(self.root_dir), list(subdirectory or []), self.glob, self.ignore_glob)

finally:
    component_meta.create_or_modify_pyi = _write_stub

"""Review before write (issue 40 item 3): a run's changes held aside, accepted or rejected per file
and per hunk, and nothing touches the project until accepted.

A staged set lives under WORKSPACE/.localcrew/staged/<id>/: `staged.json` names each file with
its text before the run (as the run saw it: `base`) and the run's proposal (`proposed`; None for a
file the run deletes, `base` None for one it creates). Accepting writes through WorkspaceFiles
(confined, atomic) inside a RunSnapshots run labelled with the request, so an accepted change is
one Undo away like any run. The user may have edited a file since the run was staged: the chosen
hunks are then merged into the file as it is now (tools/text_merge.py), and a same-lines conflict
is refused with nothing written.

Hunks are difflib's grouped opcodes (three lines of context, as in a unified diff), numbered from
0 per file; accepting some of them applies only those, the rest stay as they were.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from difflib import SequenceMatcher
from pathlib import Path

from tools.atomic_files import FileLock, atomic_write
from tools.run_snapshot import RunSnapshots, SnapshotError
from tools.text_merge import merge3
from tools.workspace_files import WorkspaceError, WorkspaceFiles, unified_diff

MAX_TEXT_BYTES = 2 * 1024 * 1024


class StagingError(RuntimeError):
    """A staged change could not be accepted or read; the message says why. Nothing was written."""


@dataclass(frozen=True)
class Hunk:
    index: int
    old_start: int  # 1-based first line in the base
    old_lines: list[str]
    new_lines: list[str]
    i1: int
    i2: int
    j1: int
    j2: int

    def title(self) -> str:
        """One line to choose the hunk by: where it is and its first changed line."""
        first = next((line.strip() for line in [*self.new_lines, *self.old_lines] if line.strip()), "")
        first = first if len(first) <= 60 else first[:57] + "..."
        mark = "+" if self.new_lines and first in (line.strip() for line in self.new_lines) else "-"
        return f"line {self.old_start}: {mark} {first}" if first else f"line {self.old_start}: blank lines"

    def text(self) -> str:
        removed = "".join(f"-{line}" if line.endswith("\n") else f"-{line}\n" for line in self.old_lines)
        added = "".join(f"+{line}" if line.endswith("\n") else f"+{line}\n" for line in self.new_lines)
        return f"@@ hunk {self.index + 1} at line {self.old_start} @@\n{removed}{added}"


@dataclass(frozen=True)
class StagedFile:
    rel: str
    base: str | None  # None: the run creates it
    proposed: str | None  # None: the run deletes it

    def hunks(self) -> list[Hunk]:
        old, new = _lines(self.base), _lines(self.proposed)
        matcher = SequenceMatcher(None, old, new, autojunk=False)
        hunks = []
        for group in matcher.get_grouped_opcodes(0):
            i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
            hunks.append(Hunk(len(hunks), i1 + 1, old[i1:i2], new[j1:j2], i1, i2, j1, j2))
        return hunks

    def diff(self) -> str:
        return unified_diff(self.rel, self.base, self.proposed)

    def with_hunks(self, chosen: set[int]) -> str:
        """The base with only the chosen hunks of the proposal applied."""
        old, new = _lines(self.base), _lines(self.proposed)
        out, pos = [], 0
        for hunk in self.hunks():
            if hunk.index in chosen:
                out += old[pos : hunk.i1] + new[hunk.j1 : hunk.j2]
                pos = hunk.i2
        return "".join(out + old[pos:])


REVIEW_MODES = ("auto", "always", "never")


def needs_review(mode: str, files: list[StagedFile], reaches_past: Sequence[str] = ()) -> bool:
    """Whether a run's changes wait for review: "always", "never", or "auto" (the default): when
    they change more than one file that existed before the run (edits across files are where runs
    went wrong), or reach past the request (`reaches_past`: why, in words; a one-file run that
    deleted a comment nobody asked about skipped review and left the project worse)."""
    if mode == "never" or not files:
        return False
    return mode == "always" or bool(reaches_past) or sum(1 for f in files if f.base is not None) > 1


def _lines(text: str | None) -> list[str]:
    return (text or "").splitlines(keepends=True)


class StagedChanges:
    """The staged sets of one workspace: stage, list, accept, reject."""

    def __init__(self, workspace: Path | str) -> None:
        self.workspace = Path(workspace)
        self.root = self.workspace / ".localcrew" / "staged"

    def stage(self, label: str, files: list[StagedFile]) -> str:
        """Keep a run's proposal aside; returns its id. The workspace is not touched."""
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        stage_id = f"{stamp}-{secrets.token_hex(3)}"
        record = {
            "label": label,
            "staged": time.time(),
            "files": [{"rel": f.rel, "base": f.base, "proposed": f.proposed} for f in files],
        }
        (self.root / stage_id).mkdir(parents=True)
        atomic_write(self.root / stage_id / "staged.json", json.dumps(record))
        return stage_id

    def pending(self) -> list[tuple[str, str, list[StagedFile]]]:
        """(id, label, files still waiting) of every staged set, newest first."""
        out = []
        for stage_id in sorted((p.parent.name for p in self.root.glob("*/staged.json")), reverse=True):
            with contextlib.suppress(StagingError, KeyError, TypeError):  # a torn record: skipped
                label, files = self._read(stage_id)
                if files:
                    out.append((stage_id, label, files))
        return out

    def _read(self, stage_id: str) -> tuple[str, list[StagedFile]]:
        if "/" in stage_id or stage_id in ("", ".", ".."):
            raise StagingError(f"no staged change {stage_id!r}")
        try:
            record = json.loads((self.root / stage_id / "staged.json").read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise StagingError(f"no staged change {stage_id!r}: {exc}") from exc
        files = [StagedFile(f["rel"], f["base"], f["proposed"]) for f in record["files"]]
        return record["label"], files

    def _write(self, stage_id: str, label: str, files: list[StagedFile], staged: float) -> None:
        if not files:
            shutil.rmtree(self.root / stage_id, ignore_errors=True)  # all decided: nothing waits
            return
        record = {
            "label": label,
            "staged": staged,
            "files": [{"rel": f.rel, "base": f.base, "proposed": f.proposed} for f in files],
        }
        atomic_write(self.root / stage_id / "staged.json", json.dumps(record))

    def accept(self, stage_id: str, rel: str, hunks: list[int] | None = None) -> str:
        """Write the file's proposal (only `hunks` of it when given) into the workspace, as an
        undoable run; the file then leaves the staged set. Returns what was done."""
        self.root.mkdir(parents=True, exist_ok=True)
        with FileLock(self.root / "lock"):
            label, files = self._read(stage_id)
            staged = next((f for f in files if f.rel == rel), None)
            if staged is None:
                raise StagingError(f"{rel} is not waiting in that staged change")
            chosen = set(range(len(staged.hunks()))) if hunks is None else set(hunks)
            done = self._apply(label, staged, chosen)
            rest = [f for f in files if f.rel != rel]
            self._write(stage_id, label, rest, time.time())
        return done

    def reject(self, stage_id: str, rel: str) -> str:
        """Drop the file's proposal; the workspace is not touched."""
        self.root.mkdir(parents=True, exist_ok=True)
        with FileLock(self.root / "lock"):
            label, files = self._read(stage_id)
            if not any(f.rel == rel for f in files):
                raise StagingError(f"{rel} is not waiting in that staged change")
            self._write(stage_id, label, [f for f in files if f.rel != rel], time.time())
        return f"{rel}: rejected; the file was not touched"

    def reject_all(self, stage_id: str) -> str:
        """Drop every file still waiting in the set; the workspace is not touched."""
        self.root.mkdir(parents=True, exist_ok=True)
        with FileLock(self.root / "lock"):
            label, files = self._read(stage_id)
            if not files:
                raise StagingError("nothing of that run waits for review")
            self._write(stage_id, label, [], time.time())
        return ", ".join(f.rel for f in files)

    def _text_now(self, rel: str) -> str | None:
        """The file's text now; None when there is no file. One that cannot be read as text is
        refused: writing over it could lose what the user has there."""
        files = WorkspaceFiles(self.workspace)
        try:
            return files.read_text(rel, max_bytes=MAX_TEXT_BYTES)
        except WorkspaceError as exc:
            try:
                files.lstat(rel)
            except (WorkspaceError, ValueError, OSError):
                return None
            raise StagingError(f"{rel} is there but not readable as text ({exc}); not written") from None

    def _wanted(self, staged: StagedFile, chosen: set[int]) -> str | None:
        """The text to write for the file (None: delete it), the user's edits since merged in."""
        now = self._text_now(staged.rel)
        all_hunks = chosen >= set(range(len(staged.hunks())))
        wanted = staged.proposed if all_hunks else staged.with_hunks(chosen)
        if now != staged.base:  # edited since the run was staged: the chosen change merged in
            if now is None or staged.base is None or wanted is None:
                raise StagingError(f"{staged.rel} changed since the run was staged; not written")
            merged = merge3(staged.base, now, wanted)
            if merged.text is None:
                raise StagingError(
                    f"{staged.rel}: the proposal and your edit since touch the same lines"
                    f" ({merged.where()}); not written"
                )
            wanted = merged.text
        return wanted

    def _write_files(self, run_label: str, texts: dict[str, str | None]) -> None:
        """Write (or delete, for None) each file as one undoable run."""
        snaps = RunSnapshots(self.workspace)
        run_id = snaps.begin_run(run_label)
        try:
            writer = WorkspaceFiles(self.workspace, before_write=snaps.record_write)
            for rel, text in texts.items():
                if text is None:
                    writer.delete(rel)
                else:
                    writer.write_text(rel, text)
        finally:
            snaps.end_run(run_id)

    def _apply(self, label: str, staged: StagedFile, chosen: set[int]) -> str:
        wanted = self._wanted(staged, chosen)
        self._write_files(f"{label} (accepted: {staged.rel})", {staged.rel: wanted})
        if wanted is None:
            return f"{staged.rel}: deleted, as the run proposed"
        total = len(staged.hunks())
        part = "" if chosen >= set(range(total)) else f" ({len(chosen)} of {total} hunks)"
        return f"{staged.rel}: written{part}"

    def accept_all(self, stage_id: str) -> str:
        """Every file still waiting in the set, whole, as one undoable run: all written, or none
        (a file the user edited since on the same lines stops them all). Returns what was done."""
        self.root.mkdir(parents=True, exist_ok=True)
        with FileLock(self.root / "lock"):
            label, files = self._read(stage_id)
            texts = {f.rel: self._wanted(f, set(range(len(f.hunks())))) for f in files}
            self._write_files(f"{label} (accepted: all)", texts)
            self._write(stage_id, label, [], time.time())
        return ", ".join(f"{rel}: {'deleted' if text is None else 'written'}" for rel, text in texts.items())


PastTheRequest = Callable[[list[tuple[str, str | None, str | None]]], list[str]]


def stage_run(
    workspace: Path | str, run_id: str, label: str, mode: str, past: PastTheRequest | None = None
) -> str | None:
    """Review before write, for a run that wrote in place (its checks run on the files): when
    `mode` asks for review of what it changed, its change is staged and the run undone, so the
    project is as it was until the user accepts. Returns what was done for the chat, or None
    when the run's change stays on disk as it is (no review asked, or nothing to stage)."""
    snaps = RunSnapshots(workspace)
    try:
        changes = snaps.changed_texts(run_id)
    except OSError:
        changes = None
    files = [StagedFile(rel, old, new) for rel, old, new in changes or []]
    reasons = past(changes) if past is not None and changes and mode == "auto" else []
    if changes is None or not needs_review(mode, files, reasons):
        return None
    staging = StagedChanges(workspace)
    stage_id = staging.stage(label, files)
    try:
        snaps.undo(run_id)  # deletes only what the run made: its new files and their folders
        with contextlib.suppress(SnapshotError, OSError):  # then the list says "undone": still true
            snaps.mark_held(run_id)
    except (SnapshotError, OSError) as exc:
        shutil.rmtree(staging.root / stage_id, ignore_errors=True)
        return f"Not held for review ({exc}): the change is on disk; Last run → Undo takes it out."
    names = ", ".join(f"`{f.rel}`" for f in files)
    why = f" It reaches past the request: {'; '.join(reasons)}." if reasons else ""
    return (
        f"Held for review: the change to {names} is not in your project yet.{why}"
        " Open the **Review** tab to accept or reject it, whole, file by file or hunk by hunk;"
        " a follow-up request builds on what is accepted."
    )


def pending_note(workspace: Path | str) -> str | None:
    """What to tell a request sent while staged changes wait: it sees those files without them
    (they are not on disk yet), or a follow-up's "it" seems to have lost them. None: nothing waits."""
    waiting = sorted({f.rel for _, _, files in StagedChanges(workspace).pending() for f in files})
    if not waiting:
        return None
    names = ", ".join(waiting[:5]) + (f" and {len(waiting) - 5} more" if len(waiting) > 5 else "")
    return (
        f"Changes to {names} wait in the Review tab: this request sees those files as they are"
        " on disk, without them. Accept them first to build on them."
    )

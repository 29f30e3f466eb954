"""Open and refresh the workspace's code index in the background, so the page never waits for the
embedding model; its state is polled by the status line, and the user can cancel it (a big
workspace can take minutes) and start it again later, where it stopped.

What the index leaves out is decided in tools.code_index (.gitignore, binary files, files over its
size limit); the status says how many it left out and why."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

# The index report's skip reasons, in the user's words.
SKIP_WORDS = {
    "ignored": "ignored by .gitignore or as build/cache folders",
    "too_large": "too large",
    "binary": "binary",
    "undecodable": "not text",
    "symlink": "links",
    "hard_link": "hard links",
    "unreadable": "unreadable",
    "vanished": "gone while indexing",
}


class IndexingCancelledError(Exception):
    """Raised from the progress callback: the index stops after what it already committed."""


def skipped_text(skipped: dict[str, int]) -> str:
    parts = [
        f"{count} {SKIP_WORDS.get(reason, reason)}" for reason, count in sorted(skipped.items()) if count
    ]
    return f"; left out: {', '.join(parts)}" if parts else ""


class WorkspaceIndex:
    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self.status = "Code index: not started."
        self._index: Any = None
        self._error: Exception | None = None
        self._done = threading.Event()
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and not self._done.is_set()

    @property
    def cancelled(self) -> bool:
        return self._done.is_set() and self._cancel.is_set()

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._open_and_update, name="index-warmup", daemon=True)
            self._thread.start()

    def cancel(self) -> str:
        """Stop indexing soon (within a file or so); what is indexed so far is kept."""
        if not self.running:
            return "Indexing is not running."
        self._cancel.set()
        self.status = "Code index: stopping…"
        return "Stopping the indexing; the crew uses text search until you index again."

    def restart(self) -> str:
        """Index again after a cancel or a failure (it resumes where it stopped)."""
        if self.running:
            return "Indexing is already running."
        self._index, self._error, self._thread = None, None, None
        self._done, self._cancel = threading.Event(), threading.Event()
        self.start()
        return "Indexing again; the status line shows its progress."

    def _open_and_update(self) -> None:
        done_files = total_files = 0
        try:
            from tools.code_index import CodeIndex

            self.status = "Code index: loading the embedding model…"
            index = CodeIndex(self.workspace)

            def progress(p: Any) -> None:
                nonlocal done_files, total_files
                done_files, total_files = p.files_done, p.files_total
                if self._cancel.is_set():
                    raise IndexingCancelledError
                self.status = f"Code index: {p.phase} {p.files_done}/{p.files_total} files"

            if self._cancel.is_set():
                raise IndexingCancelledError
            report = index.update(on_progress=progress)
            self._index = index
            self.status = (
                f"Code index: ready ({report.chunks_total} chunks, {report.files_scanned} files"
                f"{skipped_text(report.skipped)})"
            )
        except IndexingCancelledError:
            # Not the half-built index: a retrieval would resume indexing inside the crew's run,
            # which the user just stopped. Text search sees every file.
            self._error = RuntimeError("indexing was cancelled")
            where = f" at {done_files}/{total_files} files" if total_files else ""
            self.status = f"Code index: cancelled{where}; the crew uses text search. Index again resumes it."
        except Exception as exc:  # noqa: BLE001 - the crew falls back to text search and says so
            self._error = exc
            self.status = f"Code index unavailable ({exc}); the crew uses text search."
        finally:
            self._done.set()

    def open(self) -> Any:
        """The opened index (waiting for the warm-up); raises what stopped it from opening."""
        self.start()
        self._done.wait()
        if self._index is None:
            raise self._error or RuntimeError("the code index did not open")
        return self._index

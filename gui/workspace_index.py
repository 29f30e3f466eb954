"""Open and refresh the workspace's code index in the background, so the page never waits for the
embedding model; its state is polled by the status line."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any


class WorkspaceIndex:
    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self.status = "Code index: not started."
        self._index: Any = None
        self._error: Exception | None = None
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._open_and_update, name="index-warmup", daemon=True)
            self._thread.start()

    def _open_and_update(self) -> None:
        try:
            from tools.code_index import CodeIndex

            self.status = "Code index: loading the embedding model…"
            index = CodeIndex(self.workspace)
            self._index = index

            def progress(p: Any) -> None:
                self.status = f"Code index: {p.phase} {p.files_done}/{p.files_total} files"

            report = index.update(on_progress=progress)
            self.status = f"Code index: ready ({report.chunks_total} chunks, {report.files_scanned} files)"
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

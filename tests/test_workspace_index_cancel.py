"""The IDE's background indexing can be cancelled and started again: a cancel stops it at the next
file, the crew then gets no half-built index (it uses text search), and Index again finishes it;
the status line says how far it got and what the index left out. A fake index stands in for the
embedding model, so the test is fast and exact."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import tools.code_index
from gui.workspace_index import WorkspaceIndex


class SlowIndex:
    """Ten files, one every 20 ms, each reported as CodeIndex.update reports progress."""

    instances: list[SlowIndex] = []

    def __init__(self, workspace: Path) -> None:
        self.files_done = 0
        SlowIndex.instances.append(self)

    def update(self, on_progress: Any = None) -> Any:
        while self.files_done < 10:
            time.sleep(0.02)
            self.files_done += 1
            on_progress(SimpleNamespace(files_done=self.files_done, files_total=10, phase="indexing"))
        return SimpleNamespace(chunks_total=30, files_scanned=10, skipped={"ignored": 3, "too_large": 1})


def _until(condition: Any, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_cancel_stops_indexing_the_crew_falls_back_and_index_again_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tools.code_index, "CodeIndex", SlowIndex)
    index = WorkspaceIndex(tmp_path)
    assert index.cancel() == "Indexing is not running."
    index.start()
    _until(lambda: "indexing 2/10" in index.status)
    assert index.running and "Stopping" in index.cancel()
    _until(lambda: not index.running)
    assert index.cancelled and SlowIndex.instances[-1].files_done < 10
    assert "cancelled at" in index.status and "text search" in index.status
    with pytest.raises(RuntimeError, match="cancelled"):
        index.open()  # the crew's retriever then uses text search

    assert "again" in index.restart()
    opened = index.open()
    assert opened.files_done == 10 and not index.cancelled
    assert index.status == (
        "Code index: ready (30 chunks, 10 files; left out: 3 ignored by .gitignore or as build/cache"
        " folders, 1 too large)"
    )


def test_a_crew_waiting_for_the_index_gets_the_fallback_when_it_is_cancelled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tools.code_index, "CodeIndex", SlowIndex)
    index = WorkspaceIndex(tmp_path)
    outcome: list[str] = []

    def crew() -> None:
        try:
            index.open()
            outcome.append("opened")
        except RuntimeError as exc:
            outcome.append(str(exc))

    waiter = threading.Thread(target=crew)
    waiter.start()
    _until(lambda: "indexing" in index.status)
    index.cancel()
    waiter.join(timeout=5)
    assert outcome == ["indexing was cancelled"]

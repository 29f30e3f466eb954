"""Changing the workspace stops the old folder's indexing and indexes the new one."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from gui import workspace_index
from gui.ide_state import IdeState
from gui.user_settings import UserSettings


class _Host:
    def start_loading(self) -> None:
        pass


def test_a_new_workspace_cancels_the_old_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    started: list[Path] = []

    def slow_index(self: Any) -> None:  # stands in for the embedding of a big folder
        started.append(self.workspace)
        release.wait(10)
        self._done.set()

    monkeypatch.setattr(workspace_index.WorkspaceIndex, "_open_and_update", slow_index)
    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    state = IdeState(_Host(), UserSettings(workspace=str(first)))  # type: ignore[arg-type]
    state.start_background_work()
    old = state.index
    assert old.running
    assert state.change_workspace(str(second)) == f"Workspace: {second.resolve()}"
    assert old._cancel.is_set() and state.index is not old  # noqa: SLF001 - the flag the indexer polls
    release.set()
    for index in (old, state.index):
        index._thread.join(10)  # noqa: SLF001
    assert [p.resolve() for p in started] == [first.resolve(), second.resolve()]

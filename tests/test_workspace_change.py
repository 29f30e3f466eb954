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


def test_settings_with_a_refused_workspace_save_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gui.settings_tab import save_user_settings

    monkeypatch.setenv("LOCALCREW_CONFIG_DIR", str(tmp_path / "config"))
    first = tmp_path / "a"
    first.mkdir()
    state = IdeState(_Host(), UserSettings(workspace=str(first), rounds=3))  # type: ignore[arg-type]
    message = save_user_settings(state, "/", 7, 0.5, 1, minutes=2)
    assert "Nothing saved" in message and "Saved to" not in message
    assert (state.settings.rounds, state.settings.temperature, state.settings.run_minutes) == (3, 0.0, 10.0)
    assert state.workspace == first.resolve() and not (tmp_path / "config").exists()
    message = save_user_settings(state, str(first), 7, 0.5, 1, minutes=2)
    assert message.startswith("Saved to") and state.settings.rounds == 7 and state.settings.run_minutes == 2

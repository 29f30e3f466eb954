"""Everything one served IDE shares between browser tabs: the model host, the settings, the
workspace with its index, and the crew session that runs requests one at a time."""

from __future__ import annotations

import os
from pathlib import Path

from gui.crew_session import CrewSession
from gui.user_settings import UnsafeWorkspace, UserSettings, default_workspace, save_settings
from gui.workspace_index import WorkspaceIndex
from models.model_host import ModelHost
from tools.workspace_choice import workspace_problem


class IdeState:
    def __init__(
        self,
        host: ModelHost,
        settings: UserSettings,
        notices: list[str] | None = None,
        default_model_id: str = "",
        model_reason: str = "",
    ) -> None:
        self.host = host
        self.settings = settings
        self.default_model_id = default_model_id  # shown in the panel while settings name no model
        self.model_reason = model_reason
        self.notices = notices or []
        try:
            self.workspace.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self.notices.append(f"Cannot create the workspace {self.workspace}: {exc}")
        problem = workspace_problem(self.workspace)
        if problem:  # e.g. a saved or given `/`: never index or write there; the default folder instead
            self.notices.append(f"{problem} Using {default_workspace()} instead.")
            self.settings.workspace = ""
            default_workspace().mkdir(parents=True, exist_ok=True)
        self.index = WorkspaceIndex(self.workspace)
        self.session = CrewSession(host, lambda: self.settings, lambda: self.workspace, lambda: self.index)

    @property
    def workspace(self) -> Path:
        path = Path(self.settings.workspace).expanduser() if self.settings.workspace else default_workspace()
        return path.resolve()

    def start_background_work(self) -> None:
        self.host.start_loading()
        self.index.start()

    def workspace_refusal(self, folder: str) -> str:
        """Why `folder` cannot become the workspace now ('' when it can)."""
        path = Path(str(folder or "")).expanduser()
        if not path.is_absolute():  # relative to what? The server's folder is nobody's choice
            return f"Give a full path, not {str(folder)!r}. The workspace is still {self.workspace}."
        problem = workspace_problem(Path(os.path.realpath(path)))
        if problem:
            return f"{problem} The workspace is still {self.workspace}."
        if self.session.busy:
            return "A crew run is in progress; change the workspace when it ends."
        return ""

    def change_workspace(self, folder: str) -> str:
        """Checked as if any client sent it: the page is not the only thing that can call this."""
        refusal = self.workspace_refusal(folder)
        if refusal:
            return refusal
        path = Path(os.path.realpath(Path(str(folder)).expanduser()))  # checked and kept resolved
        self.settings.workspace = str(path)
        if self.index.running:  # indexing the old folder would go on for minutes, for nothing
            self.index.cancel()
        self.index = WorkspaceIndex(self.workspace)
        self.index.start()
        return f"Workspace: {self.workspace}"

    def save(self) -> str:
        try:
            return f"Saved to {save_settings(self.settings)}."
        except (OSError, UnsafeWorkspace) as exc:
            return f"Settings not saved: {exc}"

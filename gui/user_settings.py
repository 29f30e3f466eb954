"""Settings that persist between launches (model, workspace, rounds, sampling), as JSON in the
user's config directory. Plain Python: the app reads them before Gradio is imported."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from models.context_size import AUTO_N_CTX
from models.offload_planner import KV_TYPES
from tools.atomic_files import atomic_write
from tools.staged_changes import REVIEW_MODES

if TYPE_CHECKING:
    from tools.web_docs import WebDocs

CONFIG_ENV = "LOCALCREW_CONFIG_DIR"


@dataclass
class UserSettings:
    model: str = ""  # catalog id or .gguf path; "" = the best installed model for this machine
    reviewer_model: str = ""  # catalog id or .gguf path for the reviewer role; "" = the coder's model
    n_ctx: int = AUTO_N_CTX  # 0 = the largest that fits this model and machine (models.context_size)
    kv_type: str = "f16"
    n_gpu_layers: int | None = None  # None = the planner decides
    workspace: str = ""  # "" = the default workspace folder
    rounds: int = 3
    # No new round starts after this many minutes (0: the rounds alone bound a run). On a CPU a
    # round of the 1.5B's search can take minutes; the user sees the time a run may take.
    run_minutes: float = 10.0
    temperature: float = 0.0
    seed: int = 42
    # Documentation from allow-listed hosts (tools/web_docs.SOURCES) when the offline lookup has
    # nothing; off: nothing leaves the machine.
    web_docs: bool = False
    # Review before write (tools/staged_changes.REVIEW_MODES): a run's change waits in the Review
    # tab; "auto" holds runs that reach past the request or change more than one existing file.
    review: str = "auto"
    # A saved crew profile (profiles/NAME.json, gui/crew_profile_choice.py); "" = the hand-tuned crew.
    profile: str = ""

    def validated(self) -> UserSettings:
        """Clamp values a hand-edited file could get wrong, so a bad file never stops the app."""
        n_ctx = int(self.n_ctx)
        self.n_ctx = AUTO_N_CTX if n_ctx <= AUTO_N_CTX else min(max(n_ctx, 512), 131072)
        self.kv_type = self.kv_type if self.kv_type in KV_TYPES else "f16"
        if self.n_gpu_layers is not None:
            self.n_gpu_layers = max(-1, int(self.n_gpu_layers))
        self.rounds = min(max(int(self.rounds), 1), 10)
        self.run_minutes = min(max(float(self.run_minutes), 0.0), 240.0)
        self.temperature = min(max(float(self.temperature), 0.0), 2.0)
        self.seed = int(self.seed)
        self.web_docs = self.web_docs is True
        self.review = self.review if self.review in REVIEW_MODES else "auto"
        # A name, never a path: a hand edit naming a file elsewhere falls back to the default crew.
        plain = isinstance(self.profile, str) and not any(c in self.profile for c in "/\\")
        self.profile = self.profile if plain and not self.profile.endswith(".json") else ""
        return self


def config_dir() -> Path:
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override)
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming")) / "LocalCrew"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "LocalCrew"
    return Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) / "localcrew"


def settings_path() -> Path:
    return config_dir() / "settings.json"


def default_workspace() -> Path:
    return Path.home() / "LocalCrew" / "workspace"


def load_settings(path: Path | None = None) -> tuple[UserSettings, str | None]:
    """The saved settings and, if the file was unusable, a warning saying so (defaults are used)."""
    path = path or settings_path()
    if not path.exists():
        return UserSettings(), None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        known = {f.name for f in fields(UserSettings)}
        return UserSettings(**{k: v for k, v in data.items() if k in known}).validated(), None
    except (OSError, ValueError, TypeError) as exc:
        return UserSettings(), f"Ignored unreadable settings file {path} ({exc}); using defaults."


class UnsafeWorkspace(ValueError):
    """The settings name a workspace the crew must never get (`/`, a home root, a system folder)."""


def save_settings(settings: UserSettings, path: Path | None = None) -> Path:
    """Write atomically: a crash mid-save leaves the previous file, never half a file.

    A workspace that `workspace_problem` refuses is never written, whoever asks: whatever the
    page or a request sent, the next launch must not start the crew in `/` or a home folder.
    """
    from tools.workspace_choice import workspace_problem  # standard library only

    chosen = Path(settings.workspace).expanduser() if settings.workspace else None
    # A folder not made yet is left to the next launch, which checks it again once it exists.
    problem = chosen is not None and chosen.exists() and workspace_problem(chosen)
    if problem:
        raise UnsafeWorkspace(problem)
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, json.dumps(asdict(settings), indent=2))
    return path


def merged(settings: UserSettings, **overrides: Any) -> UserSettings:
    """Settings with the values given on the command line (None = not given) taking precedence."""
    data = asdict(settings)
    data.update({k: v for k, v in overrides.items() if v is not None})
    return UserSettings(**data).validated()


def web_docs_for(settings: UserSettings) -> WebDocs | None:
    """The web documentation lookup the settings ask for, its cache beside the settings file;
    None when it is off."""
    from tools.web_docs import WebDocs

    return WebDocs(config_dir() / "web-docs-cache") if settings.web_docs else None

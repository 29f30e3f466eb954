"""Rule small_project_files: with no file named, a small project's files are shown whole."""

from __future__ import annotations

from agents.rules.rule import Stage, rule
from tools.workspace_files import WorkspaceFiles


@rule(
    "small_project_files",
    Stage.PROMPT,
    reason="with no file named, a small project's files are shown whole",
    evidence="bench/results/2026-11-25-crew-1.5b",
)
def small_project_files(files: WorkspaceFiles, shown_chars: int) -> list[str]:
    """The project's files when all of them fit in `shown_chars` (none otherwise)."""
    names = files.list_files()[:20]
    root = files.root
    sizes = [(root / rel).stat().st_size for rel in names if (root / rel).is_file()]
    return names if sum(sizes) <= shown_chars else []

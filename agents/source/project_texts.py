"""The workspace's small files as text, for the steps that read them whole: the reviewer's data
files, and the folders where a trial runs away from the workspace."""

from __future__ import annotations

from collections.abc import Sequence

from tools.workspace_files import WorkspaceFiles


class ProjectTexts:
    def __init__(self, files: WorkspaceFiles) -> None:
        self.files = files

    def small(self, names: list[str], limit: int = 200_000) -> dict[str, str]:
        """The text of each of these files that exists, is readable and holds at most `limit` bytes."""
        found = {}
        for name in names:
            try:
                if self.files.resolve(name).stat().st_size <= limit:
                    found[name] = self.files.read_text(name)
            except (ValueError, OSError):
                continue
        return found

    def python_written(self, written: list[str]) -> list[str]:
        """The Python files among those written that are still there."""
        return [f for f in dict.fromkeys(written) if f.endswith(".py") and self.files.resolve(f).is_file()]

    def python_modules(self, most: int = 50) -> dict[str, str]:
        return self.small([f for f in self.files.list_files() if f.endswith(".py")][:most])

    def data_files(self, named: Sequence[str]) -> dict[str, str]:
        """The existing non-Python files among those the request names (small ones), for a program
        to read."""
        return self.small([name for name in named if not name.endswith(".py")])

    def data_files_text(self, named: Sequence[str], lines: int = 12) -> str:
        """The first lines of each existing non-Python file the request names, for the reviewer."""
        shown = []
        for name in named:
            if name.endswith(".py"):
                continue
            try:
                head = "".join(self.files.read_text(name).splitlines(keepends=True)[:lines])
            except (ValueError, OSError):
                continue
            shown.append(f"{name}:\n{head[:800]}")
        return "\n".join(shown)

    def trial_folder(self, named: Sequence[str], written: dict[str, str]) -> dict[str, str]:
        """The files a trial away from the workspace runs beside: the request's data files and the
        project's modules, which the written ones may import."""
        return {**self.data_files(named), **self.python_modules(), **written}

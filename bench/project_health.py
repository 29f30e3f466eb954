"""Whether a run left a project worse than it was: a test of the project's own that passed before
and does not now, or a module that imported before and does not now. Measured the same way for the
crew and the one call, in the sandbox (the code is the model's), before the hidden test is copied in.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from agents.rules.static.project_imports import module_name
from agents.run.tests_before import TestResults
from tools.sandbox import RunLimits, run_command, run_pytest
from tools.workspace_files import WorkspaceFiles, python_sources

TESTS_S = 60.0
IMPORT_S = 15.0
MOST_MODULES = 12  # the sets' projects have 3-6 files


@dataclass(frozen=True)
class Health:
    passing: frozenset[str]  # the project's own tests that pass
    importing: frozenset[str]  # its modules that import

    def worse_than(self, before: Health) -> list[str]:
        """What was right before and is not now, in words."""
        lost_tests = sorted(before.passing - self.passing)
        lost_modules = sorted(before.importing - self.importing)
        return [f"test {t} passed before and does not now" for t in lost_tests] + [
            f"{m} imported before and does not now" for m in lost_modules
        ]


def _modules(workspace: Path) -> list[str]:
    names = []
    for rel in sorted(python_sources(WorkspaceFiles(workspace))):
        name = module_name(rel)
        if name and all(part.isidentifier() for part in name.split(".")):
            names.append(name)
    return names[:MOST_MODULES]


def _imports(workspace: Path, name: str) -> bool:
    program = f"import sys; sys.path.insert(0, ''); import {name}"
    limits = RunLimits(wall_s=IMPORT_S, apply_back=False)
    return run_command(workspace, [sys.executable, "-c", program], limits).exit_code == 0


def measure(workspace: Path) -> Health:
    """The project's tests that pass and its modules that import, as the workspace is now."""
    limits = RunLimits(wall_s=TESTS_S, apply_back=False)
    done = run_pytest(workspace, ".", limits, extra=("-rA",))
    results = TestResults.parse(done.stdout_tail)
    passing = results.passed if results else frozenset()
    importing = frozenset(name for name in _modules(workspace) if _imports(workspace, name))
    return Health(passing, importing)

"""Grades bench.crew's hidden tests against their references, all in one process (one pytest start
per request cost about a minute for the set on a loaded 2-core machine).

    python -m tests.crew_references FOLDER...   (prints one JSON object: name -> results)

For each request folder: its files/ with reference/ over them must pass the hidden test, and its
files/ untouched must fail it. Each pytest run imports the workspace's modules under their plain
names (mathx, main, ...), so what a run imported is forgotten before the next.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

HIDDEN_NAME = "test_hidden_acceptance.py"  # as bench.crew names it


def _run(folder: Path, workspace: Path, solved: bool) -> tuple[bool, str]:
    workspace.mkdir()
    if (folder / "files").is_dir():
        shutil.copytree(folder / "files", workspace, dirs_exist_ok=True)
    if solved:
        shutil.copytree(folder / "reference", workspace, dirs_exist_ok=True)
    shutil.copyfile(folder / "hidden_test.py", workspace / HIDDEN_NAME)
    modules, path, cwd = set(sys.modules), list(sys.path), os.getcwd()
    out = io.StringIO()
    try:
        os.chdir(workspace)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = pytest.main(["-q", "-p", "no:cacheprovider", "-c", os.devnull, "--rootdir=.", HIDDEN_NAME])
    finally:
        os.chdir(cwd)
        sys.path[:] = path
        for name in set(sys.modules) - modules:
            del sys.modules[name]
    return code == 0, out.getvalue()[-3000:]


def main(folders: list[str]) -> None:
    results = {}
    with tempfile.TemporaryDirectory(prefix="crew-references-") as tmp:
        for folder in map(Path, folders):
            solved = _run(folder, Path(tmp) / f"{folder.name}-solved", solved=True)
            untouched = _run(folder, Path(tmp) / f"{folder.name}-untouched", solved=False)
            results[folder.name] = {"solved": solved, "untouched": untouched}
    print(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1:])

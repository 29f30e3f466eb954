"""The start of the programs the checks run in the sandbox (rules modules_import, entry_commands):
the project as it was, in a temporary folder, and where a traceback points in the project."""

HELPERS = r"""
import os, re, shutil, subprocess, sys, tempfile
SKIP = {"__pycache__", "node_modules", "site-packages"}


def baseline(originals, every_file):
    # The project's files (its Python files alone, or every file under 2 MB) with the run's
    # changes undone: `originals` maps each changed file to its text before the run (None: new).
    folder = tempfile.mkdtemp()
    for top, dirs, names in os.walk("."):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in SKIP]
        for name in names:
            rel = os.path.relpath(os.path.join(top, name), ".")
            if name.endswith(".py") or (every_file and os.path.getsize(rel) < 2_000_000):
                os.makedirs(os.path.join(folder, os.path.dirname(rel)), exist_ok=True)
                shutil.copyfile(rel, os.path.join(folder, rel))
    for rel, text in originals.items():
        path = os.path.join(folder, rel)
        if text is None:
            if os.path.exists(path):
                os.remove(path)
        else:
            os.makedirs(os.path.dirname(path) or folder, exist_ok=True)
            with open(path, "w", encoding="utf-8") as out:
                out.write(text)
    return folder


def place(root, stderr):
    # " (cli.py line 27)": the last frame of a traceback inside the project.
    top = os.path.abspath(root)
    where = re.findall(r'File "([^"<]+)", line (\d+)', stderr)
    here = [(os.path.abspath(os.path.join(top, f)), n) for f, n in where]
    here = [(f, n) for f, n in here if f.startswith(top + os.sep)]
    return f" ({os.path.relpath(here[-1][0], top)} line {here[-1][1]})" if here else ""


def kind(error):
    return error.split(":")[0].strip().rsplit(".", 1)[-1]
"""

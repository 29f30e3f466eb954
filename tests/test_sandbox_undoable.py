"""Apply-back takes only what Undo can take back (issue 57): what a program leaves that the tree does
not show or the snapshot does not save is reported as "made by the program, not applied"; io_uring
and memfd_secret are refused; applied files are dated when applied; the memory cap the README
states is the cgroup's. The hostile battery (test_sandbox_hostile.py) tries the same as root and as
uid 65534."""

from __future__ import annotations

import errno
import os
import re
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests.test_sandbox_staging import staged
from tools.run_snapshot import RunSnapshots
from tools.sandbox import RunLimits, _cgroup, run_python
from tools.sandbox._launcher import seccomp_program

REPO = Path(__file__).resolve().parents[1]
IS_LINUX = sys.platform.startswith("linux")
linux_only = pytest.mark.skipif(not IS_LINUX, reason="namespaces, seccomp and cgroups are Linux-only")
NOT_APPLIED = "made by the program, not applied"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    return root


def program(ws: Path, code: str) -> str:
    (ws / "p.py").write_text(textwrap.dedent(code))
    return "p.py"


def reasons(refused: tuple[str, ...]) -> dict[str, str]:
    return dict(item.split(": ", 1) for item in refused)


@pytest.mark.parametrize(
    ("rel", "why"),
    [
        ("__pycache__/util.cpython-311.pyc", "__pycache__"),
        ("pkg/sub/__pycache__/x.pyc", "__pycache__"),
        ("util.pyc", "bytecode"),
        ("evil.pth", ".pth"),
        ("lib/site-packages/sitecustomize.py", "site-packages"),
        ("web/node_modules/left/index.js", "node_modules"),
        ("pkg/.venv/lib/x.py", ".venv"),
        (".pdbrc", "dot-name"),
        ("docs/.github/workflows/ci.yml", "dot-name"),
        (".devcontainer/devcontainer.json", "dot-name"),
    ],
)
def test_the_rule_names_why_a_path_is_not_applied(rel: str, why: str) -> None:
    from tools.sandbox._discovery import not_applied  # here: the rule is new, the other tests run without it

    assert why in (not_applied(rel) or "")


def test_the_rule_applies_visible_source_and_bounds_size() -> None:
    from tools.sandbox._discovery import not_applied

    for rel in ("main.py", "pkg/mod.py", "docs/guide.md", "env/notes.txt", "pthreads.c"):
        assert not_applied(rel) is None, rel
    assert "inside env/" in (not_applied("env/lib/x.py", owned="env") or "")
    assert "larger than the snapshot" in (not_applied("big.bin", size=30 << 20, max_bytes=20 << 20) or "")
    assert "node_modules" in (not_applied("web/node_modules", is_dir=True) or "")


@linux_only
def test_apply_back_takes_only_what_undo_can_take_back(ws: Path) -> None:
    (ws / "util.py").write_text("VALUE = 1\n")
    (ws / "env").mkdir()
    (ws / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (ws / "env" / "site.py").write_text("# the user's\n")
    rel = program(
        ws,
        """
        import os, sys
        os.makedirs('__pycache__')
        open('__pycache__/util.' + sys.implementation.cache_tag + '.pyc', 'wb').write(b'x')
        open('evil.pth', 'w').write('import os\\n')
        open('env/site.py', 'w').write('# planted\\n')
        open('env/new.pth', 'w').write('import os\\n')
        os.makedirs('.github/workflows'); open('.github/workflows/ci.yml', 'w').write('on: push\\n')
        open('.pdbrc', 'w').write('!import os\\n')
        open('result.txt', 'w').write('kept\\n')
        """,
    )
    result = run_python(ws, rel)
    assert result.exit_code == 0, result.stderr_tail
    if not staged():
        pytest.skip("the sandbox cannot stage here (no user namespaces): apply-back does not run")
    assert (ws / "result.txt").read_text() == "kept\n" and result.applied == ("result.txt",)
    assert (ws / "env" / "site.py").read_text() == "# the user's\n"
    for gone in ("__pycache__", "evil.pth", "env/new.pth", ".github", ".pdbrc"):
        assert not os.path.lexists(ws / gone), gone
    why = reasons(result.refused)
    pyc = "__pycache__/util." + sys.implementation.cache_tag + ".pyc"
    named = (pyc, "evil.pth", "env/site.py", "env/new.pth", ".github/workflows/ci.yml", ".pdbrc", ".github/")
    for path in named:
        assert why.get(path, "").startswith(NOT_APPLIED), (path, result.refused)


@linux_only
def test_deletions_undo_could_not_restore_are_not_applied(ws: Path) -> None:
    (ws / "pkg" / ".venv").mkdir(parents=True)
    (ws / "pkg" / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (ws / "tool").mkdir()
    (ws / "tool" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (ws / "tool" / "lib.py").write_text("x = 1\n")
    (ws / ".env").write_text("A=1\n")
    (ws / "old.txt").write_text("bye\n")
    rel = program(
        ws,
        """
        import os
        for rel in ('pkg/.venv/pyvenv.cfg', 'tool/lib.py', '.env', 'old.txt'):
            os.remove(rel)
        """,
    )
    result = run_python(ws, rel)
    assert result.exit_code == 0, result.stderr_tail
    if not staged():
        pytest.skip("the sandbox cannot stage here (no user namespaces): apply-back does not run")
    assert result.deleted == ("old.txt",) and not (ws / "old.txt").exists()
    for kept in ("pkg/.venv/pyvenv.cfg", "tool/lib.py", ".env"):
        assert (ws / kept).is_file(), kept
        assert reasons(result.refused)[kept].startswith("deleted by the program, not applied"), kept


@linux_only
def test_undo_after_a_run_leaves_nothing_of_the_program(ws: Path) -> None:
    """The planted-bytecode report: Undo said "0 restored, 0 deleted" and the .pyc stayed."""
    (ws / "util.py").write_text("VALUE = 1\n")
    snaps = RunSnapshots(ws)
    run_id = snaps.begin_run("run a program")
    rel = program(
        ws,
        """
        import os
        os.makedirs('__pycache__'); open('__pycache__/util.cpython-311.pyc', 'wb').write(b'x')
        open('out.txt', 'w').write('made\\n')
        """,
    )
    result = run_python(ws, rel)
    assert result.exit_code == 0, result.stderr_tail
    snaps.end_run(run_id)
    snaps.undo(run_id)
    if staged():
        assert not (ws / "__pycache__").exists()
    assert not (ws / "out.txt").exists() and (ws / "util.py").read_text() == "VALUE = 1\n"


@linux_only
def test_applied_files_are_dated_when_applied(ws: Path) -> None:
    (ws / "same.txt").write_text("abc\n")
    os.utime(ws / "same.txt", (978_307_200, 978_307_200))  # 2001
    rel = program(
        ws,
        """
        import os
        open('same.txt', 'w').write('xyz\\n'); os.utime('same.txt', (978307200, 978307200))
        open('future.txt', 'w').write('later\\n'); os.utime('future.txt', (4102444800, 4102444800))
        """,
    )
    started = time.time() - 5
    result = run_python(ws, rel)
    assert result.exit_code == 0, result.stderr_tail
    if not staged():
        pytest.skip(
            "the sandbox cannot stage here (no user namespaces): the program writes the workspace itself"
        )
    assert (ws / "same.txt").read_text() == "xyz\n"
    for name in ("same.txt", "future.txt"):
        assert started <= (ws / name).stat().st_mtime <= time.time() + 5, name


@linux_only
def test_io_uring_and_memfd_secret_are_refused(ws: Path) -> None:
    rel = program(
        ws,
        """
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        params = ctypes.create_string_buffer(120)
        for name, args in (('uring', (425, 8, params)), ('secret', (447, 0))):
            got = libc.syscall(*args)
            print(name, got, ctypes.get_errno() if got < 0 else 0)
        """,
    )
    result = run_python(ws, rel)
    assert result.exit_code == 0, result.stderr_tail
    if os.uname().machine not in ("x86_64", "aarch64") or "seccomp" not in " ".join(result.enforced):
        pytest.skip(f"no seccomp filter for this CPU or kernel: {result.enforced}")
    said = dict(line.split(" ", 1) for line in result.stdout_tail.splitlines())
    assert said["uring"] == f"-1 {errno.EPERM}" and said["secret"] == f"-1 {errno.ENOSYS}", said


def test_the_filter_lists_io_uring_and_memfd_secret() -> None:
    for machine in ("x86_64", "aarch64"):
        code = seccomp_program(machine)
        assert code is not None
        compared = {int.from_bytes(code[i + 4 : i + 8], "little") for i in range(0, len(code), 8)}
        assert {425, 426, 427, 447} <= compared, machine


def test_the_readme_states_the_memory_cap_the_cgroup_gets(ws: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    security = readme.split("## Security", 1)[1].split("\n## ", 1)[0]
    stated = re.search(r"memory cgroup caps .*? at (\d+) MB", " ".join(security.split()))
    assert stated, "the README's security section states the memory cgroup's cap"
    limits = RunLimits()
    assert int(stated.group(1)) == limits.memory_cap_mb
    asked: dict[str, int] = {}

    def record(controller: str, settings: dict[str, int]) -> None:
        asked.update({f"{controller}:{name}": value for name, value in settings.items()})

    monkeypatch.setattr(_cgroup, "make_cgroup", record)
    program(ws, "print('ran')\n")
    result = run_python(ws, "p.py", limits=limits)
    assert "ran" in result.stdout_tail, result.stderr_tail
    if IS_LINUX:
        assert asked["memory:memory.limit_in_bytes|memory.max"] == int(stated.group(1)) << 20

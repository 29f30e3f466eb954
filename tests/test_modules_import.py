"""Rule modules_import: every Python file the run changed, and every module importing one, still
imports in the sandbox, and entry points still start, whatever pytest imports (issue 58: "every
check passed" over a .py holding Markdown and a main.py raising ModuleNotFoundError)."""

from pathlib import Path

from agents.events import CheckRun, EventBus
from agents.rules.checks.module_starts import broken_now, targets
from agents.rules.registry import RuleSwitches
from agents.run.crew_tools import ToolContext
from tests.crew_script import crew, events, files
from tools.sandbox import RunLimits
from tools.workspace_files import WorkspaceFiles

LEDGER = "def total(amounts):\n    return sum(amounts)\n"
MAIN = 'from ledger import total\n\n\nif __name__ == "__main__":\n    print(total([1, 2]))\n'
TESTS = "from ledger import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n"


def _project(root: Path) -> None:
    (root / "ledger.py").write_text(LEDGER)
    (root / "main.py").write_text(MAIN)
    (root / "test_ledger.py").write_text(TESTS)


def test_a_main_that_imports_a_module_that_does_not_exist_fails_the_checks(tmp_path: Path) -> None:
    # A rename left main.py importing books, which the run never wrote; the tests import ledger.
    _project(tmp_path)
    reply = files(("main.py", MAIN.replace("from ledger", "from books")))
    request = "Make main.py take total from books instead of ledger."
    summary, bus, _ = crew(tmp_path, request, coder=[reply], without=frozenset({"plain_retry"}))
    assert not summary.checks_passed
    assert any("main.py does not import: ModuleNotFoundError" in c.problem for c in events(bus, CheckRun))
    assert (tmp_path / "main.py").read_text() == MAIN  # the round ranks below the project as it was


def test_a_python_file_holding_markdown_fails_the_checks(tmp_path: Path) -> None:
    _project(tmp_path)
    reply = files(("database.py", "# Expense tracker\n\nTrack your *expenses* by month.\n"))
    request = "Create database.py holding the connection settings."
    summary, bus, _ = crew(tmp_path, request, coder=[reply], without=frozenset({"plain_retry"}))
    assert not summary.checks_passed
    assert any("database.py does not import: SyntaxError" in c.problem for c in events(bus, CheckRun))
    assert not (tmp_path / "database.py").exists()


def test_switched_off_no_import_check_runs(tmp_path: Path) -> None:
    _project(tmp_path)
    reply = files(("main.py", MAIN.replace("from ledger", "from books")))
    without = frozenset({"plain_retry", "modules_import"})
    _, bus, _ = crew(tmp_path, "Make main.py take total from books.", coder=[reply], without=without)
    assert not any("does not import" in c.problem for c in events(bus, CheckRun))


def _context(root: Path, originals: dict[str, str | None], written: list[str]) -> ToolContext:
    context = ToolContext(WorkspaceFiles(root), EventBus(), RunLimits(wall_s=60.0), rules=RuleSwitches())
    context.originals, context.written = originals, written
    return context


def test_what_failed_before_the_run_is_not_its_doing_and_a_start_that_breaks_is(tmp_path: Path) -> None:
    (tmp_path / "old.py").write_text("import not_installed_anywhere\n\n\ndef f():\n    return 2\n")
    before = (
        "import sys\n\n\ndef main():\n    print(len(sys.argv))\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    (tmp_path / "cli.py").write_text(before.replace("import sys\n", ""))  # main() reads sys unbound
    originals = {"old.py": "import not_installed_anywhere\n\n\ndef f():\n    return 1\n", "cli.py": before}
    _, lines = broken_now(_context(tmp_path, originals, ["old.py", "cli.py"]))
    assert lines == ["cli.py does not start: NameError: name 'sys' is not defined (cli.py line 4)"]


def test_the_modules_importing_a_changed_one_are_imported_too() -> None:
    sources = {"ledger.py": LEDGER, "main.py": MAIN, "test_ledger.py": TESTS, "other.py": "x = 1\n"}
    assert targets(["ledger.py"], sources) == (["ledger.py", "main.py"], ["main.py"])

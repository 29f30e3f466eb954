"""Rule entry_commands: each command of an entry point the run touched that ran before still runs,
and each new one runs (IDE use: a `low` command added to a shop's cli.py shadowed `list`, and both
`list` and `low` raised TypeError while every check passed)."""

from pathlib import Path

from agents.events import CheckRun, EventBus
from agents.rules.checks.entry_commands import broken_commands
from agents.rules.registry import RuleSwitches
from agents.run.crew_tools import ToolContext
from tests.crew_script import crew, events, files
from tools.sandbox import RunLimits
from tools.workspace_files import WorkspaceFiles

CLI = """import argparse
import sys


def main(argv):
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list")
    args = parser.parse_args(argv)
    if args.command == "list":
        print(list(range(3)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
"""


def _with_low(cli: str, low_line: str, parser: str = 'sub.add_parser("low")') -> str:
    """`cli` with a `low` command whose body is `low_line`."""
    added = f'    sub.add_parser("list")\n    {parser}\n'
    body = f'    if args.command == "low":\n        {low_line}\n    return 0\n'
    return cli.replace('    sub.add_parser("list")\n', added).replace("    return 0\n", body)


# As the 1.5B wrote it: `list` is now the sub-parser, and `low` is called though it is one too.
BROKEN = _with_low(CLI, "print(low(range(3)))", 'low = sub.add_parser("low")').replace(
    '    sub.add_parser("list")', '    list = sub.add_parser("list")'
)
RIGHT = _with_low(CLI, "print([n for n in range(3) if n < 1])")
TESTS = "def test_nothing_of_the_cli():\n    assert True\n"


def _context(root: Path, originals: dict[str, str | None]) -> ToolContext:
    context = ToolContext(WorkspaceFiles(root), EventBus(), RunLimits(wall_s=60.0), rules=RuleSwitches())
    context.originals, context.written = originals, list(originals)
    return context


def test_a_command_that_ran_before_and_a_new_one_that_crash_are_named(tmp_path: Path) -> None:
    (tmp_path / "cli.py").write_text(BROKEN)
    _, lines = broken_commands(_context(tmp_path, {"cli.py": CLI}), ["cli.py"], {"cli.py": CLI})
    assert len(lines) == 2, lines
    listed, low = lines
    assert listed.startswith("python cli.py list fails: TypeError") and "it ran before" in listed
    assert low.startswith("python cli.py low (new) fails: TypeError") and "cli.py line" in low


def test_right_commands_and_failures_as_before_are_not_the_runs_doing(tmp_path: Path) -> None:
    (tmp_path / "cli.py").write_text(RIGHT)
    assert broken_commands(_context(tmp_path, {"cli.py": CLI}), ["cli.py"], {"cli.py": CLI}) == (None, [])
    # `list` read a missing file before the run and still does: not this run's doing; a new
    # command that needs a file the user has not made yet is excused too.
    reads = CLI.replace("print(list(range(3)))", "print(open('stock.json').read())")
    (tmp_path / "cli.py").write_text(_with_low(reads, 'open("low.json").read()'))
    context = _context(tmp_path, {"cli.py": reads})
    assert broken_commands(context, ["cli.py"], {"cli.py": reads}) == (None, [])


def test_the_round_fails_and_is_not_kept_and_the_rule_switches_off(tmp_path: Path) -> None:
    (tmp_path / "cli.py").write_text(CLI)
    (tmp_path / "test_cli.py").write_text(TESTS)
    request = "Add a low command to cli.py that prints the numbers below 1."
    reply = files(("cli.py", BROKEN))
    off = frozenset({"plain_retry"})
    summary, bus, _ = crew(tmp_path, request, coder=[reply], without=off)
    assert not summary.checks_passed
    assert any("python cli.py list fails: TypeError" in c.problem for c in events(bus, CheckRun))
    assert (tmp_path / "cli.py").read_text() == CLI  # the round ranks below the project as it was
    (tmp_path / "cli.py").write_text(CLI)
    _, bus, _ = crew(tmp_path, request, coder=[reply], without=off | {"entry_commands"})
    assert not any("fails: TypeError" in c.problem for c in events(bus, CheckRun))

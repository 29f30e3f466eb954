"""Rule named_commands: a Python command the request names is run before round 1 (its traceback
shown to the coder) and after each round (a traceback fails the round). In the IDE, "python cli.py
low crashes: TypeError ... Fix it." ran to the end of its time with every check passing."""

from pathlib import Path

from agents.events import CheckRun
from agents.request import commands_named
from tests.crew_script import crew, events, files, notices

CLI = """import argparse
import sys


def main(argv):
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    low = sub.add_parser("low")
    args = parser.parse_args(argv)
    if args.command == "low":
        print(low([3, 1, 7]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
"""
FIXED = CLI.replace("print(low([3, 1, 7]))", "print([n for n in [3, 1, 7] if n < 5])")
TESTS = "def test_unrelated():\n    assert 1 + 1 == 2\n"
REQUEST = "python cli.py low crashes: TypeError: 'ArgumentParser' object is not callable. Fix it."


def test_the_command_lines_a_request_names() -> None:
    assert commands_named(REQUEST) == ["python cli.py low"]
    two = "python cli.py low crashes. python3 cli.py list crashes the same way now."
    assert commands_named(two) == ["python cli.py low", "python cli.py list"]
    assert commands_named("Running `python cli.py add apple 10 0.5` prints nothing") == [
        "python cli.py add apple 10 0.5"
    ]
    assert commands_named("Run python -m pytest and fix what fails") == []  # the tests run anyway
    assert commands_named("I write python every day; add a docstring to cli.py") == []


def _project(root: Path) -> None:
    (root / "cli.py").write_text(CLI)
    (root / "test_misc.py").write_text(TESTS)


def test_the_crash_is_shown_first_and_a_round_that_still_crashes_fails(tmp_path: Path) -> None:
    _project(tmp_path)
    summary, bus, engine = crew(
        tmp_path, REQUEST, coder=[files(("cli.py", CLI))] + [files(("cli.py", FIXED))] * 4, rounds=2
    )
    first = engine.calls_of("coder")[0].prompt
    assert "$ python cli.py low" in first and "line 11, in main" in first  # the traceback
    crashed = [c for c in events(bus, CheckRun) if "python cli.py low fails: TypeError" in c.problem]
    assert crashed, "round 1 gave cli.py back unchanged: it still crashes"
    assert summary.checks_passed
    assert (tmp_path / "cli.py").read_text() == FIXED


def test_switched_off_the_crash_is_neither_shown_nor_checked(tmp_path: Path) -> None:
    _project(tmp_path)
    still = CLI.replace("[3, 1, 7]", "[3, 1, 8]")  # a change, and it still crashes
    off = frozenset({"named_commands", "plain_retry"})
    summary, bus, engine = crew(tmp_path, REQUEST, coder=[files(("cli.py", still))], without=off)
    assert "$ python cli.py low" not in engine.calls_of("coder")[0].prompt  # no traceback shown
    assert not any("python cli.py low fails" in c.problem for c in events(bus, CheckRun))


def test_a_command_line_the_program_refuses_fails_too(tmp_path: Path) -> None:
    # The follow-up "let low take --below N" gave a cli.py whose low takes no --below: argparse's
    # "unrecognized arguments" is no traceback, and the round passed every check.
    (tmp_path / "cli.py").write_text(FIXED)
    (tmp_path / "test_misc.py").write_text(TESTS)
    request = "python cli.py low --below 3 fails: unrecognized arguments. Let low take --below N."
    takes = FIXED.replace(
        '    low = sub.add_parser("low")\n',
        '    low = sub.add_parser("low")\n    low.add_argument("--below", type=int)\n',
    )
    summary, bus, engine = crew(
        tmp_path, request, coder=[files(("cli.py", FIXED))] + [files(("cli.py", takes))] * 4, rounds=2
    )
    assert "unrecognized arguments: --below" in engine.calls_of("coder")[0].prompt
    assert any("python cli.py low --below 3 fails" in c.problem for c in events(bus, CheckRun))
    assert summary.checks_passed and (tmp_path / "cli.py").read_text() == takes


def test_a_crashing_command_judges_a_candidate_search(tmp_path: Path) -> None:
    # Request 8 in the IDE: the greedy answer gave cli.py back unchanged twice; the search that a
    # failing test starts now starts on a crashing command too.
    _project(tmp_path)
    replies = [files(("cli.py", c)) for c in (CLI, CLI.replace("[3, 1, 7]", "[3, 1]"), FIXED, CLI, CLI)]
    summary, bus, engine = crew(tmp_path, REQUEST, coder=replies, rounds=3)
    assert summary.checks_passed and (tmp_path / "cli.py").read_text() == FIXED
    first, *batch = engine.calls_of("coder")
    assert len(batch) == 4 and all(c.messages == batch[0].messages for c in batch)  # decoded together
    said = notices(bus)
    assert any(
        "Round 2 of 3: 4 candidates decoded together, each tried on python cli.py low" in n for n in said
    )
    assert any("Candidate 2 of 4 passes" in n for n in said)
    # The probe program's own exit 0 read as the command passing ("fails (…: exit 0 in 0.4s; …")).
    failed = [n for n in said if n.startswith("Candidate 1 of 4 fails")]
    assert failed and "python cli.py low fails: TypeError" in failed[0] and "exit 0" not in failed[0]

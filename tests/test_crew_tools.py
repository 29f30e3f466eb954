"""The write tool and the sandboxed checks without a model: events, error observations, limits."""

from pathlib import Path

import pytest

import agents.llm.crewai_setup  # noqa: F401
from agents.events import CheckRun, EventBus, FileChanged, ToolCallFailed, ToolCallFinished, ToolCallStarted
from agents.run.crew_tools import (
    ToolContext,
    WriteFileTool,
    describe_run,
    run_check,
    run_written_checks,
    workspace_relative,
)
from tools.sandbox import RunLimits
from tools.workspace_files import WorkspaceFiles


@pytest.fixture
def context(tmp_path: Path) -> ToolContext:
    return ToolContext(WorkspaceFiles(tmp_path), EventBus(), RunLimits(wall_s=2.0))


def _writer(context: ToolContext) -> WriteFileTool:
    return WriteFileTool().bind(context)


def test_writes_report_events(context: ToolContext) -> None:
    assert "created a.py" in _writer(context).run(path="a.py", content="print(1)")
    assert (context.root / "a.py").read_text() == "print(1)\n"
    assert "modified a.py" in _writer(context).run(path="a.py", content="print(2)\n")
    assert context.written == ["a.py", "a.py"]
    changes = [(e.action, e.path) for e in context.bus.history if isinstance(e, FileChanged)]
    assert changes == [("created", "a.py"), ("modified", "a.py")]
    started = [e.name for e in context.bus.history if isinstance(e, ToolCallStarted)]
    finished = [e for e in context.bus.history if isinstance(e, ToolCallFinished)]
    assert started == [e.name for e in finished] == ["write_file", "write_file"]
    assert all(e.duration_s >= 0 for e in finished)


def test_a_whole_file_answer_keeps_the_files_blank_lines(context: ToolContext) -> None:
    old = "def mean(v):\n    return sum(v) / len(v) + 1\n\n\ndef square(x):\n    return x * x\n"
    (context.root / "stats.py").write_text(old)
    context.request = "Fix mean in stats.py."
    _writer(context).run(path="stats.py", content=old.replace(" + 1", "").replace("\n\n\n", "\n\n"))
    assert (context.root / "stats.py").read_text() == old.replace(" + 1", "")


ESCAPES = ["../escape.py", "/etc/passwd", "sub/../../x.py", "a\0b.py", "C:\\x.py"]


@pytest.mark.parametrize("path", ESCAPES)
def test_escaping_paths_fail_the_argument_schema(context: ToolContext, path: str) -> None:
    with pytest.raises(ValueError, match="validation failed"):  # CrewAI's executor shows it to the agent
        _writer(context).run(path=path, content="x = 1")
    assert not (context.root.parent / "escape.py").exists()


@pytest.mark.parametrize("path", ESCAPES)
def test_escaping_paths_are_refused_by_the_workspace_too(context: ToolContext, path: str) -> None:
    observation = _writer(context)._run(path=path, content="x = 1")  # past the schema
    assert observation.startswith("Error:")
    failed = [e for e in context.bus.history if isinstance(e, ToolCallFailed)]
    assert len(failed) == 1 and failed[0].name == "write_file" and failed[0].arguments["path"] == path
    assert not (context.root.parent / "escape.py").exists()


def test_symlink_out_of_the_workspace_is_refused(context: ToolContext, tmp_path_factory) -> None:
    outside = tmp_path_factory.mktemp("outside")
    (context.root / "link").symlink_to(outside)
    assert _writer(context).run(path="link/x.py", content="x = 1").startswith("Error:")
    assert isinstance(context.bus.history[-1], ToolCallFailed)
    assert not (outside / "x.py").exists()


def test_endless_program_is_stopped_and_reported(context: ToolContext) -> None:
    (context.root / "loop.py").write_text("while True:\n    pass\n")
    check = run_check(context, "python", "loop.py")
    assert check.result.limit_hit == "time" and not check.passed
    event = next(e for e in context.bus.history if isinstance(e, CheckRun))
    assert not event.passed and event.limit_hit == "time"


def test_a_silent_program_fails_a_check_that_expects_output(context: ToolContext) -> None:
    # The stub a small model wrote for "write fizzbuzz.py ... and print fizzbuzz(15)": it runs.
    (context.root / "stub.py").write_text("def fizzbuzz(n):\n    return n\n")
    assert run_check(context, "python", "stub.py").passed  # running is all that was asked
    check = run_check(context, "python", "stub.py", expects_output=True)
    assert not check.passed and check.result.exit_code == 0
    assert "printed nothing" in check.summary()
    events = [e for e in context.bus.history if isinstance(e, CheckRun)]
    assert [e.passed for e in events] == [True, False] and "printed nothing" in events[-1].problem
    (context.root / "loud.py").write_text("print(15)\n")
    assert run_check(context, "python", "loud.py", expects_output=True).passed
    (context.root / "crash.py").write_text("raise SystemExit(2)\n")
    crashed = run_check(context, "python", "crash.py", expects_output=True)
    assert not crashed.passed and crashed.problem == ""  # its exit code already says why


def test_a_failed_run_is_described_with_its_output_and_exit_code(context: ToolContext) -> None:
    (context.root / "boom.py").write_text("print('before')\nraise SystemExit(3)\n")
    description = describe_run(run_check(context, "python", "boom.py"))
    assert "exit 3" in description and "stdout:\nbefore" in description


def test_a_run_is_told_with_paths_inside_the_workspace(context: ToolContext, tmp_path: Path) -> None:
    (context.root / "pkg").mkdir()
    (context.root / "pkg" / "boom.py").write_text("def f():\n    return 1 / 0\n\n\nf()\n")
    description = describe_run(run_check(context, "python", "pkg/boom.py"))
    assert str(context.root) in description  # the traceback as Python printed it
    told = workspace_relative(description, context.root)
    assert 'File "pkg/boom.py", line 2, in f' in told and str(context.root) not in told
    assert "ZeroDivisionError" in told
    # A folder whose name starts like the workspace's is another folder: left as it is.
    assert workspace_relative(f"{context.root}-old/a.py and {context.root}", context.root) == (
        f"{context.root}-old/a.py and ."
    )


def test_a_test_run_is_named_in_words_not_by_its_command_line(tmp_path: Path) -> None:
    # pytest's whole command line (-p no:cacheprovider -c /dev/null --rootdir=. ...) told the user
    # nothing (issue 58); cut at its first colon it had shown as "-p no".
    (tmp_path / "test_one.py").write_text("def test_one():\n    assert 1 + 1 == 2\n")
    context = ToolContext(WorkspaceFiles(tmp_path), EventBus(), RunLimits(wall_s=30.0))
    checks = [run_check(context, "tests", "."), run_check(context, "tests", "test_one.py")]
    events = [e for e in context.bus.history if isinstance(e, CheckRun)]
    assert [e.command for e in events] == ["pytest (the project's tests)", "pytest test_one.py"]
    for check, event in zip(checks, events, strict=True):
        assert check.passed and check.summary().startswith(f"{event.command}: ")
        assert "cacheprovider" not in check.summary()


def test_an_interactive_program_that_runs_up_to_input_passes_its_run(tmp_path: Path) -> None:
    # The 1.5B's right guessing game failed every round: the sandbox gives a program no input.
    game = 'print("Guess a number")\nwhile True:\n    guess = int(input("> "))\n'
    (tmp_path / "guess.py").write_text(game)
    (tmp_path / "broken.py").write_text('print("Guess a number")\nguess = int(inpt("> "))\n')
    (tmp_path / "raises.py").write_text('raise EOFError("not from input")\n')
    (tmp_path / "mute.py").write_text("guess = input()\n")
    context = ToolContext(WorkspaceFiles(tmp_path), EventBus(), RunLimits(wall_s=30.0))
    check = run_check(context, "python", "guess.py", expects_output=True)
    assert check.passed and "input()" in check.summary()
    [event] = [e for e in context.bus.history if isinstance(e, CheckRun)]
    assert event.passed and event.note and event.exit_code == 1
    assert not run_check(context, "python", "broken.py").passed
    assert not run_check(context, "python", "raises.py").passed
    assert not run_check(context, "python", "mute.py", expects_output=True).passed  # asked to print


def test_the_reviewers_checks_change_nothing_in_the_workspace(tmp_path: Path) -> None:
    # A check is not the user's program: clear_log('app.log') in an assert must not empty the log.
    (tmp_path / "app.log").write_text("INFO started\nERROR disk full\n")
    (tmp_path / "logs.py").write_text(
        "def clear_log(path):\n    open(path, 'w').close()\n"
        "    open('made.txt', 'w').write('x')\n    return True\n"
    )
    context = ToolContext(WorkspaceFiles(tmp_path), EventBus(), RunLimits(wall_s=30.0))
    check, outcome = run_written_checks(context, ["logs"], "assert clear_log('app.log') == True")
    assert check.passed and outcome.ok and outcome.total == 1
    assert (tmp_path / "app.log").read_text() == "INFO started\nERROR disk full\n"
    assert not (tmp_path / "made.txt").exists() and not check.result.applied
    # The program itself still changes the workspace, as a program the user asked for would.
    (tmp_path / "main.py").write_text("from logs import clear_log\nclear_log('app.log')\n")
    assert run_check(context, "python", "main.py").passed
    assert (tmp_path / "app.log").read_text() == "" and (tmp_path / "made.txt").exists()

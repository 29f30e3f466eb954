"""Rule answer_questions: a request that only asks about the code is answered in words from the
files it is about, and nothing is written (issue 58's Ask mode: "Explain cli.py" went to the coder
as a change request, was parsed for files, written and checked)."""

from pathlib import Path

from agents.events import CheckRun
from agents.request import asks_a_question
from agents.rules.prompt.answer_questions import NOTE
from gui.run_view import RunView
from tests.crew_script import crew, events, files

REPORT = "def total(rows):\n    return sum(row[1] for row in rows)\n"
TESTS = "from report import total\n\n\ndef test_total():\n    assert total([('a', 2), ('b', 3)]) == 5\n"
ANSWER = "report.py defines total(rows), which adds the second item of each row: `row[1]`."
# A small model answering a question often writes a file back too: the answer must not write it.
DOCSTRING = REPORT.replace("    return", '    """The sum of the rows\' amounts."""\n    return')
WITH_CODE = ANSWER + "\n\n" + files(("report.py", DOCSTRING))


def test_questions_read_as_questions_and_change_requests_do_not() -> None:
    for question in (
        "What does report.py do?",
        "How does total handle an empty list?",
        "Explain cli.py",
        "Why does test_total fail?",
        "Is there a bug in Store.add? Where is the price saved?",
    ):
        assert asks_a_question(question), question
    for request in (
        "Can you add a low command?",  # asks for a change, put as a question
        "Why does test_total fail? Fix it.",
        "Explain cli.py and fix the bug in it",
        "Add a test for total?",
        "python cli.py low crashes?",
        "Rename total to grand_total",
    ):
        assert not asks_a_question(request), request


def _project(root: Path) -> None:
    (root / "report.py").write_text(REPORT)
    (root / "test_report.py").write_text(TESTS)


def test_a_question_is_answered_from_the_file_and_nothing_is_written(tmp_path: Path) -> None:
    _project(tmp_path)
    summary, bus, engine = crew(tmp_path, "What does report.py do?", coder=[WITH_CODE], rounds=3)
    assert summary.answered and summary.files_changed == []
    assert (tmp_path / "report.py").read_text() == REPORT
    assert summary.message.startswith(ANSWER) and summary.message.endswith(NOTE)
    (call,) = engine.calls_of("coder")  # one call, no round after it, no reviewer
    assert "Question: What does report.py do?" in call.prompt and REPORT.strip() in call.prompt
    assert not engine.calls_of("reviewer")
    assert not [c for c in events(bus, CheckRun) if "pytest" not in c.command]  # only the tests before


def test_a_question_about_a_failing_test_is_shown_how_it_fails(tmp_path: Path) -> None:
    _project(tmp_path)
    (tmp_path / "report.py").write_text(REPORT.replace("row[1]", "row[0]"))
    summary, _, engine = crew(tmp_path, "Why does test_total fail?", coder=[ANSWER])
    assert summary.answered and summary.files_changed == []
    prompt = engine.calls_of("coder")[0].prompt
    assert "test_total" in prompt and "TypeError" in prompt  # the test's own output, as evidence


def test_switched_off_a_question_goes_to_the_coder_as_a_change(tmp_path: Path) -> None:
    _project(tmp_path)
    off = frozenset({"answer_questions"})
    summary, _, _ = crew(tmp_path, "What does report.py do?", coder=[WITH_CODE], without=off)
    assert not summary.answered
    assert (tmp_path / "report.py").read_text() == DOCSTRING  # the reply's code block was written


def test_the_page_says_answered_and_nothing_was_written() -> None:
    from agents.events import RunFinished

    view = RunView("What does report.py do?")
    view.apply(
        RunFinished(
            run_id="r1", completed=True, approved=False, checks_passed=False, rounds_used=0,
            files_changed=[], checks=[], message=f"{ANSWER}\n\n{NOTE}", duration_s=12.0, answered=True,
        )
    )  # fmt: skip
    last = view.messages[-1]["content"]
    assert last.startswith("**Answered** in 12.0 s") and NOTE in last
    assert "Files changed" not in last and ANSWER not in last  # the answer is the reply above it

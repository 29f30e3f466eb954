"""Rule ask_missing_file: a request to change a file the project does not have is answered with a
question, and nothing is written (issue 58: "Fix the crash in database.py" made a database.py
holding the README's Markdown)."""

from pathlib import Path

from agents.events import Notice
from tests.crew_script import crew, events, files

README = "# Expenses\n\nTrack expenses.\n"


def _project(root: Path) -> None:
    (root / "ledger.py").write_text("def total(xs):\n    return sum(xs)\n")
    (root / "README.md").write_text(README)
    (root / "test_ledger.py").write_text(
        "from ledger import total\n\n\ndef test_total():\n    assert total([1]) == 1\n"
    )


def test_a_request_about_a_missing_file_gets_a_question_and_no_write(tmp_path: Path) -> None:
    _project(tmp_path)
    reply = files(("database.py", README))
    summary, bus, engine = crew(tmp_path, "Fix the crash in database.py", coder=[reply])
    assert not (tmp_path / "database.py").exists()
    assert not engine.calls_of("coder") and not summary.files_changed and not summary.approved
    [question] = [n for n in events(bus, Notice) if n.level == "question"]
    assert "database.py" in question.message and question.message == summary.message


def test_a_request_to_create_the_file_goes_ahead(tmp_path: Path) -> None:
    _project(tmp_path)
    reply = files(("database.py", "def connect():\n    return None\n"))
    _, bus, _ = crew(tmp_path, "Create database.py with connect() returning None", coder=[reply])
    assert (tmp_path / "database.py").exists()
    assert not [n for n in events(bus, Notice) if n.level == "question"]


def test_switched_off_the_run_goes_ahead(tmp_path: Path) -> None:
    _project(tmp_path)
    reply = files(("database.py", "def connect():\n    return None\n"))
    without = frozenset({"ask_missing_file"})
    crew(tmp_path, "Fix the crash in database.py", coder=[reply], without=without)
    assert (tmp_path / "database.py").exists()

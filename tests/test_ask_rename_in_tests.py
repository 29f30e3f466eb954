"""Rule ask_rename_in_tests: a rename whose old name the user's tests use, where the request does
not let the tests change, is answered with a question and nothing is written (issue 58: in
chromium, "rename ... and update every use" had every round refused)."""

from pathlib import Path

import pytest

from agents.events import Notice
from agents.request import reads_as_answer
from tests.crew_script import crew, events, files

MATHOPS = "def calc(a, b):\n    return a * b\n"
INVOICE = "from mathops import calc\n\n\ndef total(q, p):\n    return calc(q, p)\n"
TEST = "from mathops import calc\n\n\ndef test_calc():\n    assert calc(2, 3) == 6\n"
RENAMED_FILES = (
    ("mathops.py", MATHOPS.replace("calc", "multiply")),
    ("invoice.py", INVOICE.replace("calc", "multiply")),
)
RENAMED = files(*RENAMED_FILES)


def _project(root: Path, test: str = TEST) -> None:
    (root / "mathops.py").write_text(MATHOPS)
    (root / "invoice.py").write_text(INVOICE)
    (root / "tests").mkdir()
    (root / "tests" / "test_mathops.py").write_text(test)


def _questions(bus: object) -> list[str]:
    return [n.message for n in events(bus, Notice) if n.level == "question"]


def test_a_rename_the_tests_use_gets_a_question_and_no_write(tmp_path: Path) -> None:
    _project(tmp_path)
    request = "Rename calc to multiply and update every use."
    summary, bus, engine = crew(tmp_path, request, coder=[RENAMED])
    assert not engine.calls_of("coder") and not summary.files_changed
    assert (tmp_path / "mathops.py").read_text() == MATHOPS
    [question] = _questions(bus)
    assert "tests/test_mathops.py" in question and "calc to multiply" in question
    assert question == summary.message


@pytest.mark.parametrize(
    ("request_", "test"),
    [
        ("Rename calc to multiply and update the tests too.", TEST),  # the tests may change
        ("Rename calc to multiply, keeping calc as an alias.", TEST),  # the old name stays
        ("Rename calc to multiply and update every use.", "def test_nothing():\n    assert True\n"),
        # In the IDE the crew asked all the same.
        ("Rename the function calc to multiply everywhere, the tests included.", TEST),
    ],
    ids=["tests-may-change", "alias", "tests-do-not-use-it", "tests-included"],
)
def test_the_run_goes_ahead_where_the_tests_are_not_in_the_way(
    tmp_path: Path, request_: str, test: str
) -> None:
    _project(tmp_path, test)
    _, bus, engine = crew(tmp_path, request_, coder=[RENAMED])
    assert engine.calls_of("coder") and not _questions(bus)


def test_switched_off_the_run_goes_ahead(tmp_path: Path) -> None:
    _project(tmp_path)
    request = "Rename calc to multiply and update every use."
    _, bus, engine = crew(tmp_path, request, coder=[RENAMED], without=frozenset({"ask_rename_in_tests"}))
    assert engine.calls_of("coder") and not _questions(bus)


def test_the_answer_to_the_question_is_read_with_the_request_it_answers(tmp_path: Path) -> None:
    _project(tmp_path)
    crew(tmp_path, "Rename calc to multiply and update every use.", coder=[RENAMED])
    test = ("tests/test_mathops.py", TEST.replace("calc", "multiply"))
    summary, bus, engine = crew(tmp_path, "Yes, update the tests too.", coder=[files(*RENAMED_FILES, test)])
    [prompt] = engine.calls_of("coder")
    assert "Rename calc to multiply" in str(prompt)  # the coder is told what the answer is about
    assert not _questions(bus)
    assert "def multiply" in (tmp_path / "mathops.py").read_text()
    assert "multiply" in (tmp_path / "tests" / "test_mathops.py").read_text()


def test_an_answer_is_not_asked_again(tmp_path: Path) -> None:
    _project(tmp_path)
    crew(tmp_path, "Rename calc to multiply and update every use.", coder=[RENAMED])
    _, bus, engine = crew(tmp_path, "Hm, not sure.", coder=[RENAMED])
    assert engine.calls_of("coder") and not _questions(bus)


def test_a_new_request_typed_instead_of_an_answer_is_read_alone(tmp_path: Path) -> None:
    _project(tmp_path)
    crew(tmp_path, "Rename calc to multiply and update every use.", coder=[RENAMED])
    add = files(("mathops.py", MATHOPS + "\n\ndef halve(a):\n    return a / 2\n"))
    _, _, engine = crew(tmp_path, "Add a function halve(a) to mathops.py.", coder=[add])
    [prompt] = engine.calls_of("coder")
    assert "Rename calc to multiply" not in str(prompt)
    assert "def halve" in (tmp_path / "mathops.py").read_text()


@pytest.mark.parametrize(
    ("words", "answer"),
    [
        ("Yes, update the tests too.", True),
        ("create it", True),
        ("I meant store.py", True),
        ("the render one", True),
        ("Hm, not sure.", True),
        ("Add a function halve(a) to mathops.py.", False),
        ("Fix the off-by-one in store.py remove()", False),
    ],
)
def test_what_reads_as_an_answer(words: str, answer: bool) -> None:
    assert reads_as_answer(words) is answer

"""Rule code_under_test: the project code a failing test runs is named to the coder, the test is
not a file to change."""

from agents.rules.prompt.code_under_test import localisation_note, suspects

LEDGER = """class Ledger:
    def __init__(self):
        self.entries = []

    def add(self, amount):
        self.entries.append(amount)

    def total(self):
        total = 0
        for amount in self.entries:
            total = amount
        return total

    def count(self):
        return len(self.entries)
"""
TESTS = """from ledger import Ledger


def make():
    ledger = Ledger()
    ledger.add(2)
    ledger.add(3)
    return ledger


def test_total():
    assert make().total() == 5


def test_count():
    assert make().count() == 2


class TestMore:
    def test_total_again(self):
        assert make().total() == 5
"""
SOURCES = {"ledger.py": LEDGER, "tests/test_ledger.py": TESTS}


def test_the_function_only_the_failing_test_calls_comes_first() -> None:
    found = suspects(["tests/test_ledger.py::test_total"], ["tests/test_ledger.py::test_count"], SOURCES)
    assert found[0].path == "ledger.py" and found[0].name == "Ledger.total" and found[0].only_failing
    # reached through the test file's own helper make(): add is run too, but by the passing test as well
    assert any(s.name == "Ledger.add" and not s.only_failing for s in found)
    assert all(s.path != "tests/test_ledger.py" for s in found)


def test_a_method_of_a_test_class_is_followed_too() -> None:
    found = suspects(["tests/test_ledger.py::TestMore::test_total_again[1]"], [], SOURCES)
    assert "Ledger.total" in {s.name for s in found}


def test_the_note_says_the_test_is_right_and_names_the_code() -> None:
    tests = ["tests/test_ledger.py::test_total"]
    note = localisation_note(suspects(tests, ["tests/test_ledger.py::test_count"], SOURCES), tests)
    assert "do not change" in note and "ledger.py (Ledger.total)" in note
    assert "Ledger.add" not in note  # the passing test runs it too: not a suspect worth naming


def test_nothing_found_says_nothing() -> None:
    assert (
        localisation_note(suspects(["tests/test_x.py::test_y"], [], SOURCES), ["tests/test_x.py::test_y"])
        == ""
    )


def _project(root) -> None:
    (root / "ledger.py").write_text(LEDGER)
    (root / "tests").mkdir()
    (root / "tests" / "conftest.py").write_text(
        "import os, sys\n\nsys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))\n"
    )
    (root / "tests" / "test_ledger.py").write_text(TESTS)


def test_the_coder_is_told_where_the_fix_goes_in_every_round(tmp_path) -> None:
    from tests.crew_script import crew, files

    _project(tmp_path)
    echo = files(("tests/test_ledger.py", TESTS))  # what the 1.5B answered: the test, unchanged
    _, _, engine = crew(tmp_path, "The test test_total fails, fix it.", coder=[echo] * 8, rounds=2)
    prompts = [call.prompt for call in engine.calls_of("coder")]
    assert len(prompts) >= 2
    assert all("ledger.py (Ledger.total)" in p and "do not change it" in p for p in prompts)
    # named no file: the code under test is the coder's to write, the test is shown beside it
    assert "(the test; do not change it)" in prompts[0] and "def make():" in prompts[0]
    assert (tmp_path / "tests" / "test_ledger.py").read_text() == TESTS
    without = frozenset({"code_under_test"})
    _, _, engine = crew(
        tmp_path, "The test test_total fails, fix it.", coder=[echo] * 8, rounds=1, without=without
    )
    assert all("do not change it" not in call.prompt for call in engine.calls_of("coder"))

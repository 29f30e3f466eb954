"""Rule broken_new_tests: a test the run adds that fails inside itself, before it reaches the
project's code, makes the round worse than the project was, and the run does not stop to blame the
code. In the IDE the 1.5B's new test opened `tmp_path` (a folder) for writing; the crew stopped,
said the code under test might be wrong, and left the broken test on disk."""

from pathlib import Path

from tests.crew_script import crew, files

ROSTER = (
    "def load(path):\n"
    "    return [line.split(',') for line in path.read_text().splitlines() if line.strip()]\n"
)
OLD_TESTS = (
    "from roster import load\n\n\ndef test_one(tmp_path):\n"
    "    (tmp_path / 'a.csv').write_text('ana,1\\n')\n"
    "    assert load(tmp_path / 'a.csv') == [['ana', '1']]\n"
)
BROKEN = OLD_TESTS + (
    "\n\ndef test_blank_line(tmp_path):\n"
    "    with tmp_path.open('w') as handle:  # a folder: IsADirectoryError, in the test itself\n"
    "        handle.write('ana,1\\n\\n')\n"
    "    assert load(tmp_path) == [['ana', '1']]\n"
)
RIGHT = OLD_TESTS + (
    "\n\ndef test_blank_line(tmp_path):\n"
    "    (tmp_path / 'b.csv').write_text('ana,1\\n\\n')\n"
    "    assert load(tmp_path / 'b.csv') == [['ana', '1']]\n"
)
REQUEST = "Add a test to test_roster.py that load skips a blank line."


def _run(tmp_path: Path, replies: list[str], without: frozenset[str] = frozenset()):
    (tmp_path / "roster.py").write_text(ROSTER)
    (tmp_path / "test_roster.py").write_text(OLD_TESTS)
    return crew(tmp_path, REQUEST, coder=replies, rounds=2, without=without | {"plain_retry"})


def test_a_new_test_broken_in_itself_is_tried_again_not_blamed_on_the_code(tmp_path: Path) -> None:
    summary, _, engine = _run(
        tmp_path, [files(("test_roster.py", BROKEN)), files(("test_roster.py", RIGHT))] * 2
    )
    assert summary.rounds_used == 2 and "did not change" not in summary.message
    assert (tmp_path / "test_roster.py").read_text() == RIGHT
    assert "IsADirectoryError" in engine.calls_of("coder")[1].prompt  # told how round 1's test failed


def test_only_broken_ones_leave_the_tests_as_they_were(tmp_path: Path) -> None:
    summary, _, _ = _run(tmp_path, [files(("test_roster.py", BROKEN))] * 4)
    assert (tmp_path / "test_roster.py").read_text() == OLD_TESTS
    assert summary.files_changed == []


def test_switched_off_the_run_stops_on_the_code_and_keeps_the_broken_test(tmp_path: Path) -> None:
    off = frozenset({"broken_new_tests"})
    summary, _, _ = _run(tmp_path, [files(("test_roster.py", BROKEN))] * 4, without=off)
    assert summary.rounds_used == 1 and "did not change" in summary.message
    assert (tmp_path / "test_roster.py").read_text() == BROKEN


def test_the_end_message_names_the_test_and_its_error_whole(tmp_path: Path) -> None:
    summary, _, _ = _run(tmp_path, [files(("test_roster.py", BROKEN))] * 4)
    assert "test_blank_line, added by this run, fails inside the test itself (IsADirectoryError)" in (
        summary.message
    )


def test_a_new_test_handing_the_code_a_file_it_never_wrote_is_the_tests_fault(tmp_path: Path) -> None:
    # The 1.5B's next try: load("tests/test_roster.csv"), a file nobody wrote; FileNotFoundError
    # came from the project's own open(), and the crew stopped to blame the code.
    missing = OLD_TESTS + (
        "\n\ndef test_blank_line():\n"
        "    assert load(__import__('pathlib').Path('missing.csv')) == [['ana', '1']]\n"
    )
    summary, _, _ = _run(tmp_path, [files(("test_roster.py", missing))] * 4)
    assert "did not change" not in summary.message and "(FileNotFoundError)" in summary.message
    assert (tmp_path / "test_roster.py").read_text() == OLD_TESTS

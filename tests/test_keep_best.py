"""Rule keep_best: no round passed: the round that got furthest stays on disk, with every file the
other rounds touched as it was, and the message says which."""

from pathlib import Path

from tests.crew_script import crew, files, notices

EXAMPLE = '"""Sums."""\n\n\ndef add(a, b):\n    """Add.\n\n    >>> add(2, 3)\n    5\n    """\n    return 0\n'
CLOSE = EXAMPLE.replace("return 0", "return a + b + 0.5")  # runs, one example off
CRASH = EXAMPLE.replace("return 0", "return a + b + undefined_name")
REQUEST = "Fix add(a, b) so that its docstring example passes."  # names no file: any may be written


def _run(tmp_path: Path, without: frozenset[str]):
    (tmp_path / "calc.py").write_text(EXAMPLE)
    replies = [files(("calc.py", CLOSE)), files(("calc.py", CRASH), ("extra.py", "x = 1\n"))]
    return crew(tmp_path, REQUEST, coder=replies, rounds=2, without=without | {"plain_retry"})


def test_the_best_round_stays_and_the_others_files_go(tmp_path: Path) -> None:
    summary, bus, _ = _run(tmp_path, frozenset())
    assert (tmp_path / "calc.py").read_text() == CLOSE
    assert not (tmp_path / "extra.py").exists()  # written by round 2 only, which was not kept
    assert "Kept round 1's version: it passed more checks than the last try." in notices(bus)
    assert "The files are as round 1 left them." in summary.message


def test_switched_off_the_last_round_stays(tmp_path: Path) -> None:
    summary, _, _ = _run(tmp_path, frozenset({"keep_best"}))
    assert "undefined_name" in (tmp_path / "calc.py").read_text() and (tmp_path / "extra.py").exists()
    assert "round 1 left" not in summary.message


def test_when_the_best_round_changed_nothing_the_message_says_nothing_changed(tmp_path: Path) -> None:
    # Round 2 writes the file back as it was (its example passes, but it is not the change asked),
    # rounds 1 and 3 crash: round 2 is kept, which is the project as it was; "the files are as
    # round 2 left them" hid that.
    right = EXAMPLE.replace("return 0", "return a + b")
    (tmp_path / "calc.py").write_text(right)
    replies = [files(("calc.py", CRASH)), files(("calc.py", right)), files(("calc.py", CRASH))]
    request = "Add a docstring line to add(a, b) saying it adds."
    summary, _, _ = crew(tmp_path, request, coder=replies, rounds=3, without=frozenset({"plain_retry"}))
    assert (tmp_path / "calc.py").read_text() == right
    assert "Nothing was changed: round 2, the best try, left the files as they were." in summary.message
    assert "left them" not in summary.message

"""Rule put_back_unasked: a function the run changed unasked is put back where every check still
passes without the change (asked to fix one function, the 1.5B rewrote another too)."""

from pathlib import Path

from tests.crew_script import checks, crew, files, notices

COUNTING = (
    "def count_words(text):\n    return len(text.split(' '))\n\n\n"
    "def shout(text):\n    return text.upper()  # kept as it is\n"
)
FIXED = COUNTING.replace("text.split(' ')", "text.split()").replace(
    "text.upper()  # kept as it is", "text.upper()"
)
CHECKS = checks("assert count_words('a  b') == 2", "assert count_words('') == 0", "assert shout('a') == 'A'")
REQUEST = "count_words in words.py miscounts several spaces. Fix it."


def _run(tmp_path: Path, without: frozenset[str]):
    (tmp_path / "words.py").write_text(COUNTING)
    return crew(tmp_path, REQUEST, coder=[files(("words.py", FIXED))], reviewer=[CHECKS], without=without)


def test_the_unasked_change_is_put_back(tmp_path: Path) -> None:
    summary, bus, _ = _run(tmp_path, frozenset())
    assert summary.approved and any("Put back shout" in n for n in notices(bus))
    assert "# kept as it is" in (tmp_path / "words.py").read_text()


def test_switched_off_it_stays(tmp_path: Path) -> None:
    summary, bus, _ = _run(tmp_path, frozenset({"put_back_unasked"}))
    assert summary.approved and "# kept as it is" not in (tmp_path / "words.py").read_text()

"""Rule path_lines_dropped: `# calc.py` lines the coder adds are not written into the file."""

from pathlib import Path

from tests.crew_script import crew, files

CODE = "def add(a, b):\n    return a + b\n"


def test_a_line_naming_the_file_is_left_out(tmp_path: Path) -> None:
    crew(
        tmp_path,
        "Write calc.py with add(a, b).",
        coder=[files(("calc.py", "# calc.py\n" + CODE))],
        without=frozenset({"reviewer_checks"}),
    )
    assert (tmp_path / "calc.py").read_text() == CODE


def test_switched_off_it_is_written(tmp_path: Path) -> None:
    crew(
        tmp_path, "Write calc.py with add(a, b).", coder=[files(("calc.py", "# calc.py\n" + CODE))],
        without=frozenset({"reviewer_checks", "path_lines_dropped"}),
    )  # fmt: skip
    assert (tmp_path / "calc.py").read_text() == "# calc.py\n" + CODE

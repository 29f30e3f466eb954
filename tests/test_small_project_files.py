"""Rule small_project_files: with no file named, a small project's files are shown whole."""

from pathlib import Path

from tests.crew_script import crew, files

GOOD = "def total(xs):\n    return sum(xs)\n\n\nprint(total([1, 2]))\n"


def _coder_prompt(tmp_path: Path, without: frozenset[str]) -> str:
    (tmp_path / "util.py").write_text("def double(x):\n    return 2 * x\n")
    _, _, engine = crew(
        tmp_path,
        "Write a program that sums a list and prints it.",
        coder=[files(("total.py", GOOD))],
        without=without,
    )
    return engine.calls_of("coder")[0].prompt


def test_the_small_projects_files_are_shown(tmp_path: Path) -> None:
    assert "def double(x):" in _coder_prompt(tmp_path, frozenset())


def test_switched_off_they_are_not(tmp_path: Path) -> None:
    prompt = _coder_prompt(tmp_path, frozenset({"small_project_files", "retrieved_context"}))
    assert "def double(x):" not in prompt

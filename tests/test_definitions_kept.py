"""Rule definitions_kept: a write that drops definitions is merged in place, or refused."""

from pathlib import Path

from tests.rule_helpers import write_with

MODULE = "def mean(xs):\n    return sum(xs) / (len(xs) + 1)\n\n\ndef square(x):\n    return x * x\n"
MEAN_ONLY = "def mean(xs):\n    return sum(xs) / len(xs)\n"


def test_an_answer_with_one_function_replaces_only_it(tmp_path: Path) -> None:
    (tmp_path / "mathx.py").write_text(MODULE)
    answer, after = write_with(tmp_path, "mathx.py", MEAN_ONLY, "Fix mean() in mathx.py.")
    assert "edited in place" in answer
    assert after is not None and "def square" in after and "/ len(xs)\n" in after


def test_switched_off_the_answer_replaces_the_whole_file(tmp_path: Path) -> None:
    (tmp_path / "mathx.py").write_text(MODULE)
    answer, after = write_with(
        tmp_path, "mathx.py", MEAN_ONLY, "Fix mean() in mathx.py.", frozenset({"definitions_kept"})
    )
    assert "edited in place" not in answer and after == MEAN_ONLY

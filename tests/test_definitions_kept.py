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


REPORT = 'def summary(n):\n    return f"{n} book(s)"\n\n\nif __name__ == "__main__":\n    print(summary(2))\n'
REPORT_NEW = 'def summary(n):\n    return f"{n} book(s)" if n else "no books"\n'


def test_an_answer_without_the_main_block_keeps_it(tmp_path: Path) -> None:
    # Seen with the 0.5B in the IDE: asked to change one message, it rewrote report.py without
    # its `if __name__ == "__main__":` block, and the script no longer printed anything.
    (tmp_path / "report.py").write_text(REPORT)
    answer, after = write_with(tmp_path, "report.py", REPORT_NEW, "Make summary say 'no books' for 0.")
    assert "edited in place" in answer
    assert after is not None and 'if __name__ == "__main__":\n    print(summary(2))' in after
    assert '"no books"' in after


def test_asked_to_remove_the_main_block_it_goes(tmp_path: Path) -> None:
    (tmp_path / "report.py").write_text(REPORT)
    request = "Make summary say 'no books' for 0 and remove the __main__ block."
    answer, after = write_with(tmp_path, "report.py", REPORT_NEW, request)
    assert "edited in place" not in answer and after == REPORT_NEW

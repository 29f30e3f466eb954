"""Rule fresh_after_repeat: asked to fix, a try that repeats an earlier one is asked again at once
from the files as they were (the 0.5B wrote its failing files back unchanged in 25 of 35)."""

from pathlib import Path

from tests.crew_script import crew, files, notices

WRONG = "def add(a, b):\n    return a - b\n"
REQUEST = "Write calc.py with add(a, b) and print add(2, 3)."


def _run(tmp_path: Path, without: frozenset[str]):
    off = without | {"reviewer_checks", "plain_retry"}
    return crew(tmp_path, REQUEST, coder=[files(("calc.py", WRONG))] * 4, rounds=2, retry="fix", without=off)


def test_a_repeated_try_is_asked_again_afresh(tmp_path: Path) -> None:
    _, bus, engine = _run(tmp_path, frozenset())
    assert "The same code again; asking for a fresh try." in notices(bus)
    assert len(engine.calls_of("coder")) == 3


def test_switched_off_it_is_not(tmp_path: Path) -> None:
    _, bus, engine = _run(tmp_path, frozenset({"fresh_after_repeat"}))
    assert "The same code again; asking for a fresh try." not in notices(bus)
    assert len(engine.calls_of("coder")) == 2

"""Rule echoed_answer: an answer that leaves the files exactly as they were is sent back."""

from tests.rule_helpers import scan_with

CODE = "def mean(xs):\n    return sum(xs) / len(xs)\n"


def test_an_answer_that_changed_nothing_is_told_so() -> None:
    problems = scan_with("Make mean() in stats.py handle []", {"stats.py": CODE}, echoed=["stats.py"])
    assert problems == ["Your answer left stats.py exactly as it was; make the change the request asks."]


def test_switched_off_nothing_is_told() -> None:
    request = "Make mean() in stats.py handle []"
    assert (
        scan_with(request, {"stats.py": CODE}, echoed=["stats.py"], without=frozenset({"echoed_answer"}))
        == []
    )


def test_exactly_as_it_was_is_said_of_the_same_bytes_only() -> None:
    same = scan_with("x", {"stats.py": CODE}, originals={"stats.py": CODE}, echoed=["stats.py"])
    assert any("exactly as it was" in p for p in same)
    commented = CODE.replace("    return", "    # why\n    return")
    told = scan_with("x", {"stats.py": commented}, originals={"stats.py": CODE}, echoed=["stats.py"])
    assert told and not any("exactly as it was" in p for p in told)

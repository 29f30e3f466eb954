"""agents.past_the_request: where a run's change goes beyond what the request asked, so the IDE
holds it for review (issue 58: one-file runs that skipped review left four projects worse)."""

from __future__ import annotations

from agents.past_the_request import reaches_past
from agents.request import RequestFacts

REPORT = '''"""Monthly report."""


def total(rows):
    # the user's note: rows may be empty
    return sum(r["amount"] for r in rows)


def average(rows):
    """The mean amount."""
    return total(rows) / len(rows)
'''


def _reasons(request: str, after: str, rel: str = "report.py", before: str = REPORT) -> list[str]:
    return reaches_past(RequestFacts.read(request), [(rel, before, after)])


def test_a_lost_comment_the_request_does_not_mention_reaches_past() -> None:
    faster = REPORT.replace("    # the user's note: rows may be empty\n", "")
    reasons = _reasons("Make report.py faster.", faster)
    assert any("comments" in r and "report.py" in r for r in reasons), reasons
    assert _reasons("Remove the comments from total() in report.py.", faster) == []


def test_a_docstring_rewritten_unasked_reaches_past() -> None:
    rewritten = REPORT.replace('"""The mean amount."""', '"""Average of the amounts, or an error."""')
    reasons = _reasons("Add a function median(rows) to report.py.", rewritten)
    assert any("docstrings" in r for r in reasons), reasons


def test_lines_changed_outside_the_named_function_reach_past_and_inside_do_not() -> None:
    inside = REPORT.replace(
        'return sum(r["amount"] for r in rows)', 'return sum(r.get("amount", 0) for r in rows)'
    )
    assert _reasons("Make total() in report.py skip rows without an amount.", inside) == []
    both = inside.replace("return total(rows) / len(rows)", "return total(rows) / max(len(rows), 1)")
    [reason] = _reasons("Make total() in report.py skip rows without an amount.", both)
    assert "outside total" in reason


def test_a_file_the_request_neither_names_nor_refers_to_reaches_past() -> None:
    models = "class Ledger:\n    pass\n"
    changed = "class Ledger:\n    def __repr__(self):\n        return 'Ledger()'\n"
    request = "Add a test test_count to tests/test_ledger.py."
    [reason] = _reasons(request, changed, rel="models.py", before=models)
    assert "models.py" in reason and "neither names" in reason
    # Named by what it defines, the file is referred to.
    assert _reasons("Give Ledger a __repr__ in the project.", changed, rel="models.py", before=models) == []


def test_a_follow_up_naming_nothing_is_not_held_for_its_change_and_a_new_file_never_is() -> None:
    # "Now make it add absolute values": a change of what is there, though "make" also asks for
    # new things (the addition reason held such follow-ups: removed).
    changed = REPORT.replace('sum(r["amount"] for r in rows)', 'sum(abs(r["amount"]) for r in rows)')
    assert _reasons("Now make it add absolute values.", changed) == []
    assert (
        reaches_past(RequestFacts.read("Write a new module stats.py."), [("stats.py", None, "x = 1\n")]) == []
    )

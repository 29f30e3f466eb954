"""Rule ask_vague_request: a request that names nothing to change and nothing to check ("make it
faster") is answered with a question, and nothing is written (issue 58: asked to make it faster,
the 0.5B deleted the user's comment and nothing else)."""

from pathlib import Path

from agents.events import Notice
from agents.request import RequestFacts
from tests.crew_script import crew, events, files

LEDGER = "def total(xs):\n    # summed by hand on purpose\n    return sum(xs)\n"


def test_make_it_faster_gets_a_question_and_no_write(tmp_path: Path) -> None:
    (tmp_path / "ledger.py").write_text(LEDGER)
    reply = files(("ledger.py", "def total(xs):\n    return sum(xs)\n"))
    summary, bus, engine = crew(tmp_path, "make it faster", coder=[reply])
    assert (tmp_path / "ledger.py").read_text() == LEDGER
    assert not engine.calls_of("coder") and not summary.files_changed
    assert [n.message for n in events(bus, Notice) if n.level == "question"] == [summary.message]


def test_a_request_that_says_what_and_where_goes_ahead() -> None:
    assert (
        RequestFacts.read("Make it faster.").vague
        and RequestFacts.read("optimize the code").vague
        and RequestFacts.read("improve it please").vague
    )
    assert not RequestFacts.read("Make report.py faster").vague
    assert not RequestFacts.read("make it faster: total() in ledger.py loops twice over the rows").vague


def test_switched_off_the_run_goes_ahead(tmp_path: Path) -> None:
    (tmp_path / "ledger.py").write_text(LEDGER)
    (tmp_path / "test_ledger.py").write_text(
        "from ledger import total\n\n\ndef test_total():\n    assert total([1]) == 1\n"
    )
    reply = files(("ledger.py", LEDGER.replace("sum(xs)", "sum(xs) + 0")))
    _, _, engine = crew(tmp_path, "make it faster", coder=[reply], without=frozenset({"ask_vague_request"}))
    assert engine.calls_of("coder")

"""Rule api_docs_named: the standard-library APIs a request names come with their signature and the
first paragraph of their docstring in the coder's prompt from the first round, and the sidebar shows
the lookup."""

from pathlib import Path

from agents.events import ToolCallFinished
from tests.crew_script import crew, events, files

NAMED = (
    "Write totals.py with write_totals(totals, path) that writes the dict with csv.DictWriter,"
    " header category,total."
)
TOTALS = (
    "import csv\n\n\ndef write_totals(totals, path):\n"
    "    with open(path, 'w', newline='') as fh:\n"
    "        writer = csv.DictWriter(fh, fieldnames=['category', 'total'])\n"
    "        writer.writeheader()\n"
    "        for category in sorted(totals):\n"
    "            writer.writerow({'category': category, 'total': totals[category]})\n"
)


def _named(tmp_path: Path, with_: frozenset[str]):
    off = frozenset({"reviewer_checks", "plain_retry"})
    return crew(tmp_path, NAMED, coder=[files(("totals.py", TOTALS))], without=off, with_=with_)


def test_an_api_the_request_names_is_shown_to_the_coder_from_the_first_prompt(tmp_path: Path) -> None:
    _, bus, engine = _named(tmp_path, frozenset({"api_docs_named"}))
    first = engine.calls_of("coder")[0].prompt
    # The signature as the checks' Python has it, before the request.
    assert "Documentation read from the Python" in first and "DictWriter(f, fieldnames" in first
    assert first.index("DictWriter(f, fieldnames") < first.index("Request:")
    (lookup,) = [e for e in events(bus, ToolCallFinished) if e.name == "api_docs"]
    assert lookup.arguments == {"names": ["csv.DictWriter"]}


def test_the_named_api_lookup_is_off_unless_switched_on(tmp_path: Path) -> None:
    _, bus, engine = _named(tmp_path, frozenset())
    assert "Documentation read from the Python" not in engine.calls_of("coder")[0].prompt
    assert not [e for e in events(bus, ToolCallFinished) if e.name == "api_docs"]

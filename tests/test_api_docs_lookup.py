"""Rule api_docs_lookup: a check that failed on a library call brings that API's signature and the
first paragraph of its docstring into the coder's next prompt, and the sidebar shows the lookup.
Rule api_docs_named (tests/test_api_docs_named.py): the APIs the request names, from the first."""

from pathlib import Path

from agents.events import ToolCallFinished
from tests.crew_script import crew, events, files

MISUSED = (
    "import json\n\n\ndef parse(text):\n    return json.loads(text, strict_mode=True)\n\n\n"
    "print(parse('[1]'))\n"
)
RIGHT = "import json\n\n\ndef parse(text):\n    return json.loads(text)\n\n\nprint(parse('[1]'))\n"
REQUEST = "Write parse.py with parse(text) that reads JSON text, and print parse('[1]')."


def _run(tmp_path: Path, without: frozenset[str]):
    off = without | {"reviewer_checks", "plain_retry"}
    return crew(
        tmp_path,
        REQUEST,
        coder=[files(("parse.py", MISUSED)), files(("parse.py", RIGHT))],
        rounds=2,
        without=off,
    )


def test_the_misused_api_is_looked_up_and_shown_to_the_coder(tmp_path: Path) -> None:
    summary, bus, engine = _run(tmp_path, frozenset())
    retry = engine.calls_of("coder")[1].prompt
    assert "Documentation read from the Python" in retry and "close names: strict" in retry
    assert [e.name for e in events(bus, ToolCallFinished) if e.name == "api_docs"] == ["api_docs"]
    assert summary.approved


def test_switched_off_no_lookup(tmp_path: Path) -> None:
    _, bus, engine = _run(tmp_path, frozenset({"api_docs_lookup"}))
    assert "Documentation read from the Python" not in engine.calls_of("coder")[1].prompt
    assert not [e for e in events(bus, ToolCallFinished) if e.name == "api_docs"]

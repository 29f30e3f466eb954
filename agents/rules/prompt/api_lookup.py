"""Rule api_docs_lookup: when a check fails with an error from a library call (an attribute that does not
exist, a keyword the function does not take, a name that cannot be imported), the coder's next
prompt carries that API's signature and the first paragraph of its docstring, read in the sandbox
from the Python the checks run with (tools/api_docs.py). Small coders misremember library APIs;
this is the lookup with hard limits the design asks for. Shown in the sidebar as a tool call."""

from __future__ import annotations

import time
import uuid
from typing import Any

from agents.events import ToolCallFailed, ToolCallFinished, ToolCallStarted
from agents.request import RequestFacts
from agents.rules.rule import Stage, rule
from agents.run.crew_tools import Check, ToolContext
from tools.api_docs import imported_modules, library_names, lookup_error, lookup_names

MAX_CHARS = 1200  # about 300 tokens of the coder's prompt


class _Call:
    """One lookup as the sidebar shows it: the checks' call, timed from here, that finished with
    the text found or failed."""

    def __init__(self, context: ToolContext, name: str, arguments: dict[str, Any]) -> None:
        self.bus, self.began = context.bus, time.perf_counter()
        self.fields = {
            "call_id": uuid.uuid4().hex[:12],
            "agent": "checks",
            "name": name,
            "arguments": arguments,
        }

    def started(self) -> None:
        self.bus.emit(ToolCallStarted(**self.fields))

    def finished(self, text: str) -> str:
        self.bus.emit(
            ToolCallFinished(**self.fields, result=text, duration_s=time.perf_counter() - self.began)
        )
        return text

    def failed(self, error: str) -> str:
        self.bus.emit(ToolCallFailed(**self.fields, error=error, duration_s=time.perf_counter() - self.began))
        return ""


@rule(
    "api_docs_lookup",
    Stage.PROMPT,
    reason="a check failing on a library call brings the API's signature and docstring",
    evidence="tests/test_api_docs.py",
)
def docs_for(context: ToolContext, results: list[Check], written: dict[str, str]) -> str:
    """The documentation of what the failed runs misused ('' when they misused no API)."""
    errors = "\n".join(r.result.stderr_tail for r in results if not r.passed and r.result.stderr_tail)
    if not errors.strip():
        return ""
    hints = list(dict.fromkeys(m for text in written.values() for m in imported_modules(text)))
    call = _Call(context, "api_docs", {"error": errors[-300:]})
    lookup = lookup_error(errors, context.root, hints=hints)
    # What the checks' Python does not have (a module not installed there) may be on the web.
    absent = [r.query.name for r in lookup.results if not r.found]
    web = _from_the_web(context, absent or ([q.name for q in lookup.queries] if not lookup.results else []))
    if not lookup.found:
        return web
    call.started()
    text = call.finished(lookup.text(max_chars=MAX_CHARS))
    return f"{text}\n{web}" if web else text


@rule(
    "api_docs_named",
    Stage.PROMPT,
    reason="the APIs the request names come with their signature and docstring",
    evidence="tests/test_api_docs_named.py",
    default=False,
)
def docs_named(context: ToolContext, facts: RequestFacts) -> str:
    """Rule api_docs_named: the documentation of the standard-library APIs the request names
    (`csv.DictWriter`, "the statistics module"), for the coder's first prompt ('' when it names
    none, or none is found)."""
    names = library_names(facts.text)
    if not names:
        return ""
    call = _Call(context, "api_docs", {"names": names})
    call.started()
    lookup = lookup_names(names, context.root)
    if not lookup.found:
        return call.failed(lookup.error or "nothing found")
    return call.finished(lookup.text(max_chars=MAX_CHARS))


def _from_the_web(context: ToolContext, names: list[str]) -> str:
    """Where the checks' Python has nothing to read (a module not installed there): the page of an
    allow-listed documentation host, when the user switched the web lookup on; else nothing, and
    nothing leaves the machine."""
    if context.web_docs is None:
        return ""
    for name in list(dict.fromkeys(names))[:2]:
        call = _Call(context, "web_docs", {"name": name, "hosts": context.web_docs.hosts})
        call.started()
        doc = context.web_docs.lookup(name, max_chars=MAX_CHARS)
        if doc is None:
            call.failed(f"no page for {name} on the allowed hosts")
            continue
        where = f"{doc.url} (cached)" if doc.cached else doc.url
        return call.finished(f"Documentation of {name} from {where}:\n{doc.text}")
    return ""

"""Rule api_docs_lookup: when a check fails with an error from a library call (an attribute that does not
exist, a keyword the function does not take, a name that cannot be imported), the coder's next
prompt carries that API's signature and the first paragraph of its docstring, read in the sandbox
from the Python the checks run with (tools/api_docs.py). Small coders misremember library APIs;
this is the lookup with hard limits the design asks for. Shown in the sidebar as a tool call."""

from __future__ import annotations

import time
import uuid

from agents.crew_tools import Check, ToolContext
from agents.events import ToolCallFailed, ToolCallFinished, ToolCallStarted
from tools.api_docs import imported_modules, library_names, lookup_error, lookup_names

MAX_CHARS = 1200  # about 300 tokens of the coder's prompt


def docs_for(context: ToolContext, results: list[Check], written: dict[str, str]) -> str:
    """The documentation of what the failed runs misused ('' when they misused no API)."""
    errors = "\n".join(r.result.stderr_tail for r in results if not r.passed and r.result.stderr_tail)
    if not errors.strip():
        return ""
    hints = list(dict.fromkeys(m for text in written.values() for m in imported_modules(text)))
    call = {
        "call_id": uuid.uuid4().hex[:12],
        "agent": "checks",
        "name": "api_docs",
        "arguments": {"error": errors[-300:]},
    }
    began = time.perf_counter()
    lookup = lookup_error(errors, context.root, hints=hints)
    # What the checks' Python does not have (a module not installed there) may be on the web.
    absent = [r.query.name for r in lookup.results if not r.found]
    web = _from_the_web(context, absent or ([q.name for q in lookup.queries] if not lookup.results else []))
    if not lookup.found:
        return web
    text = lookup.text(max_chars=MAX_CHARS)
    context.bus.emit(ToolCallStarted(**call))
    context.bus.emit(ToolCallFinished(**call, result=text, duration_s=time.perf_counter() - began))
    return f"{text}\n{web}" if web else text


def docs_named(context: ToolContext, request: str) -> str:
    """Rule api_docs_named: the documentation of the standard-library APIs the request names
    (`csv.DictWriter`, "the statistics module"), for the coder's first prompt ('' when it names
    none, or none is found)."""
    names = library_names(request)
    if not names:
        return ""
    call = {
        "call_id": uuid.uuid4().hex[:12],
        "agent": "checks",
        "name": "api_docs",
        "arguments": {"names": names},
    }
    began = time.perf_counter()
    context.bus.emit(ToolCallStarted(**call))
    lookup = lookup_names(names, context.root)
    took = time.perf_counter() - began
    if not lookup.found:
        context.bus.emit(ToolCallFailed(**call, error=lookup.error or "nothing found", duration_s=took))
        return ""
    text = lookup.text(max_chars=MAX_CHARS)
    context.bus.emit(ToolCallFinished(**call, result=text, duration_s=took))
    return text


def _from_the_web(context: ToolContext, names: list[str]) -> str:
    """Where the checks' Python has nothing to read (a module not installed there): the page of an
    allow-listed documentation host, when the user switched the web lookup on; else nothing, and
    nothing leaves the machine."""
    if context.web_docs is None:
        return ""
    for name in list(dict.fromkeys(names))[:2]:
        asked = {"name": name, "hosts": context.web_docs.hosts}
        call = {"call_id": uuid.uuid4().hex[:12], "agent": "checks", "name": "web_docs", "arguments": asked}
        began = time.perf_counter()
        context.bus.emit(ToolCallStarted(**call))
        doc = context.web_docs.lookup(name, max_chars=MAX_CHARS)
        took = time.perf_counter() - began
        if doc is None:
            error = f"no page for {name} on the allowed hosts"
            context.bus.emit(ToolCallFailed(**call, error=error, duration_s=took))
            continue
        where = f"{doc.url} (cached)" if doc.cached else doc.url
        text = f"Documentation of {name} from {where}:\n{doc.text}"
        context.bus.emit(ToolCallFinished(**call, result=text, duration_s=took))
        return text
    return ""

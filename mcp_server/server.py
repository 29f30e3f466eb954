"""The MCP tools over stdio (the `mcp` package's FastMCP): ask, undo, search, models.

The crew runs in a worker thread; each of its events becomes a log notification, and a progress
notification where the client asked for progress. A client that cancels its `ask` stops the crew
as the IDE's Stop does (the run ends, its snapshot is kept, undo works).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import threading
from typing import Any, BinaryIO

import anyio
from mcp.server.fastmcp import Context, FastMCP
from mcp.server.stdio import stdio_server
from mcp.types import CallToolResult, TextContent

from mcp_server.crew_service import CrewBusyError, CrewService, ToolInputError

INSTRUCTIONS = (
    "LocalCrew runs a local crew of coding agents (coder, checks in a sandbox, reviewer) on one "
    "project folder. `ask` writes and tests code there and returns the diff; `undo` puts the last "
    "run's files back; `search` finds code in the project; `models` lists the local models."
)


def _result(text: str, data: dict[str, Any] | None = None, *, error: bool = False) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structuredContent=data, isError=error
    )


def build_server(service: CrewService) -> FastMCP:
    server = FastMCP("localcrew", instructions=INSTRUCTIONS, log_level="WARNING")

    @server.tool(name="ask")
    async def ask(request: str, ctx: Context, rounds: int | None = None) -> CallToolResult:
        """Run LocalCrew's coding crew on a request in the project folder: it writes the files,
        runs them in a sandbox, reviews and retries. Returns the summary, the files changed and
        their diff. Every run is snapshotted first; `undo` reverts it."""
        return await _ask(service, ctx, request, rounds)

    @server.tool(name="undo")
    async def undo() -> CallToolResult:
        """Undo the last crew run: its files go back as they were; later edits of yours stay."""
        try:
            line = await anyio.to_thread.run_sync(service.undo)
        except (CrewBusyError, ToolInputError) as exc:
            return _result(f"error: {exc}", error=True)
        return _result(line, {"summary": line})

    @server.tool(name="search")
    async def search(query: str, k: int = 8, glob: str | None = None, mode: str = "hybrid") -> CallToolResult:
        """Search the project's code (hybrid: meaning and words). `glob` keeps only matching paths,
        e.g. '*.py'; `mode` is hybrid, vector or fts."""
        try:
            found = await anyio.to_thread.run_sync(lambda: service.search(query, k, glob, mode))
        except ToolInputError as exc:
            return _result(f"error: {exc}", error=True)
        return _result(_hits_text(found), found)

    @server.tool(name="models")
    async def models() -> CallToolResult:
        """The local model catalog: which models are installed and which one `ask` runs on."""
        listing = await anyio.to_thread.run_sync(service.models)
        return _result(_models_text(listing), listing)

    return server


async def _ask(service: CrewService, ctx: Context, request: str, rounds: int | None) -> CallToolResult:
    cancel = threading.Event()
    sent = {"count": 0}

    async def notify(line: str) -> None:
        sent["count"] += 1
        await ctx.log("info", line, logger_name="localcrew")
        await ctx.report_progress(sent["count"], None, line)  # sent only where the client asked

    def on_line(line: str) -> None:
        # The client may have left or cancelled: the run still goes on to its end (or its stop).
        with contextlib.suppress(Exception):
            anyio.from_thread.run(notify, line)

    try:
        outcome = await anyio.to_thread.run_sync(
            lambda: service.ask(request, rounds, on_line, cancel), abandon_on_cancel=True
        )
    except ToolInputError as exc:
        return _result(f"error: {exc}", error=True)
    except anyio.get_cancelled_exc_class():
        cancel.set()  # the crew stops at its next step, as the IDE's Stop button does
        raise
    return _result(outcome.text(), outcome.to_dict(), error=not outcome.completed)


def _hits_text(found: dict[str, Any]) -> str:
    from tools.code_index.cli import format_hit_line
    from tools.search_hit import Hit

    hits = [Hit(**hit) for hit in found["hits"]]
    lines = [f"note: {found['note']}"] if found["note"] else []
    lines += [format_hit_line(i, hit) for i, hit in enumerate(hits, start=1)] or ["no results"]
    return "\n".join(lines)


def _models_text(listing: dict[str, Any]) -> str:
    lines = [f"ask runs on: {listing['in_use']}"]
    for row in listing["models"]:
        state = "loaded" if row["loaded"] else "installed" if row["installed"] else "not installed"
        lines.append(f"{row['id']:26} {row['size_gb']:5.2f} GB  {state:13}  {row['note']}")
    return "\n".join(lines)


def _protocol_streams() -> tuple[BinaryIO, BinaryIO]:
    """The process's stdin and stdout for the protocol alone: file descriptors 0 and 1 then point
    to /dev/null and stderr, so a print (Python's or a C library's) or a child process reading its
    input cannot corrupt the JSON-RPC stream."""
    protocol_in = os.fdopen(os.dup(0), "rb", buffering=0)
    protocol_out = os.fdopen(os.dup(1), "wb", buffering=0)
    with open(os.devnull, "rb") as null:
        os.dup2(null.fileno(), 0)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return protocol_in, protocol_out


async def _serve_stdio(server: FastMCP, protocol_in: BinaryIO, protocol_out: BinaryIO) -> None:
    stdin = anyio.wrap_file(io.TextIOWrapper(protocol_in, encoding="utf-8", errors="replace"))
    stdout = anyio.wrap_file(io.TextIOWrapper(protocol_out, encoding="utf-8", write_through=True))
    async with stdio_server(stdin, stdout) as (read_stream, write_stream):
        low_level = server._mcp_server  # FastMCP's own run_stdio_async would write to sys.stdout
        await low_level.run(read_stream, write_stream, low_level.create_initialization_options())


def serve_stdio(service: CrewService) -> int:
    protocol_in, protocol_out = _protocol_streams()
    try:
        anyio.run(_serve_stdio, build_server(service), protocol_in, protocol_out)
    except KeyboardInterrupt:
        return 130
    return 0

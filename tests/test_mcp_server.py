"""`python app.py mcp` as a client runs it: a real server process driven over stdio by the `mcp`
package's client. The model is an OpenAI-compatible stub whose replies are scripted (the only fake);
the crew, the sandbox, the snapshots and the code index are the real ones."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import McpError
from mcp.types import (
    CallToolResult,
    CancelledNotification,
    CancelledNotificationParams,
    ClientNotification,
    LoggingMessageNotificationParams,
)

from bench.child_process import free_port
from tests.app_process import ROOT, run_app
from tests.scripted_engine import agent_of
from tests.stub_openai_server import StubServer

REQUEST = "Write add.py with a function add(a, b) that returns a + b, and print add(2, 3)."
CODE = "def add(a, b):\n    return a + b\n\n\nprint(add(2, 3))\n"


def _reply(body: dict[str, Any]) -> str:
    """The model's side of a run, by agent: the coder writes add.py, the reviewer two asserts."""
    if agent_of(body["messages"]) == "reviewer":
        return "```python\nassert add(2, 3) == 5\nassert add(-1, 1) == 0\n```\n"
    return f"```python\n# add.py\n{CODE}```\n"


def _backend(url: str) -> list[str]:
    return ["--backend", "openai", "--base-url", url, "--model", "stub-coder-0.5b"]


def _workspace(root: Path) -> Path:
    root.mkdir()
    (root / "notes.txt").write_text("mine\n")
    (root / "util.py").write_text("def double(x):\n    return 2 * x\n")
    return root


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".localcrew" not in p.relative_to(root).parts
    }


class Client:
    """A client session with what the server sent besides answers: log lines and progress."""

    def __init__(self, session: ClientSession, logs: list[str]) -> None:
        self.session, self.logs, self.progress = session, logs, []

    async def call(self, tool: str, **arguments: Any) -> CallToolResult:
        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            self.progress.append((progress, message or ""))

        return await self.session.call_tool(tool, arguments, progress_callback=on_progress)


@asynccontextmanager
async def mcp_server(workspace: Path, *flags: str, log: Path) -> AsyncIterator[Client]:
    env = dict(os.environ, LOCALCREW_CONFIG_DIR=str(log.parent / "config"))
    params = StdioServerParameters(
        command=sys.executable,
        args=["app.py", "mcp", "--workspace", str(workspace), *flags],
        cwd=ROOT,
        env=env,
    )
    logs: list[str] = []

    async def on_log(params: LoggingMessageNotificationParams) -> None:
        logs.append(str(params.data))

    with log.open("w") as errlog, anyio.fail_after(300):  # a hung server fails the test, not the suite
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, logging_callback=on_log) as session,
        ):
            await session.initialize()
            yield Client(session, logs)


def _text(result: CallToolResult) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


def test_an_ask_through_mcp_changes_files_as_app_ask_does_and_undo_reverts_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Queries embedded by PyTorch in both processes: the ONNX encoder's warm-up thread, still
    # running when a short `app.py ask` exits, aborts the interpreter at exit (exit -6).
    monkeypatch.setenv("LOCALCREW_QUERY_ONNX", "0")
    through_mcp, through_cli = _workspace(tmp_path / "mcp"), _workspace(tmp_path / "cli")
    before = _tree(through_mcp)

    async def drive(url: str) -> tuple[CallToolResult, dict[str, bytes], CallToolResult, Client, list]:
        async with mcp_server(
            through_mcp, *_backend(url), "--rounds", "1", log=tmp_path / "mcp.log"
        ) as client:
            asked = await client.call("ask", request=REQUEST)
            after = _tree(through_mcp)
            found = await client.call("search", query="add two numbers", k=3)
            undone = [await client.call("undo"), await client.call("undo")]
            return asked, after, found, client, undone

    with StubServer("ok", reply=_reply) as stub:
        asked, after_mcp, found, client, (undone, nothing) = anyio.run(drive, stub.url)
        cli = run_app(
            "ask", REQUEST, "--workspace", str(through_cli), "--rounds", "1", *_backend(stub.url), timeout=900
        )
    outcome = asked.structuredContent or {}
    assert not asked.isError, _text(asked) + (tmp_path / "mcp.log").read_text()
    assert cli.returncode == 0, cli.stderr
    # The same files, byte for byte, as `app.py ask` left with the same replies, and the same verdict.
    assert after_mcp == _tree(through_cli) and after_mcp["add.py"] == CODE.encode()
    assert outcome["files_changed"] == ["add.py"] and outcome["completed"]
    assert f"■ {outcome['message']}\n  files changed: add.py\n" in cli.stdout
    assert outcome["approved"] and outcome["checks_passed"], outcome["checks"]
    assert "approved: True, checks passed: True" in cli.stdout
    assert "+++ b/add.py" in outcome["diff"] and "+def add(a, b):" in outcome["diff"]
    assert outcome["diff"] in _text(asked)
    # Progress came as the run went: the lines `app.py ask` prints, as log and progress notices.
    assert any(line.startswith("● coder") for line in client.logs), client.logs
    assert any(line.startswith("■ ") for line in client.logs)
    assert [message for _, message in client.progress] == client.logs  # asked for, so sent too
    assert [n for n, _ in client.progress] == list(range(1, len(client.logs) + 1))
    # The code index found the new file; undo put the workspace back, and then had nothing to undo.
    assert not found.isError and found.structuredContent["hits"][0]["path"] == "add.py", _text(found)
    assert "1 deleted (add.py)" in _text(undone) and _tree(through_mcp) == before
    assert _text(nothing).startswith("Nothing to undo")


def test_a_cancelled_ask_stops_the_crew_and_its_run_can_be_undone(tmp_path: Path) -> None:
    """A client's cancel stops the crew at its next step, as the IDE's Stop does; the run lock is
    released and undo answers. Each reply takes 2 s and its code fails its run, so a crew that was
    not stopped would go on asking for three rounds."""
    workspace = _workspace(tmp_path / "ws")
    before = _tree(workspace)

    def failing(body: dict[str, Any]) -> str:
        return "```python\n# add.py\ndef add(a, b):\n    return a - b\n\nraise SystemExit(3)\n```\n"

    async def drive(url: str) -> CallToolResult:
        async with mcp_server(workspace, *_backend(url), "--rounds", "3", log=tmp_path / "mcp.log") as client:
            started = anyio.Event()

            async def on_progress(progress: float, total: float | None, message: str | None) -> None:
                if (message or "").startswith("● coder"):
                    started.set()

            async def ask() -> None:
                with contextlib.suppress(McpError):  # the answer to a cancelled call is an error
                    await client.session.call_tool("ask", {"request": REQUEST}, progress_callback=on_progress)

            request_id = client.session._request_id  # the id the ask's request will carry
            async with anyio.create_task_group() as group:
                group.start_soon(ask)
                await started.wait()
                cancel = CancelledNotification(params=CancelledNotificationParams(requestId=request_id))
                await client.session.send_notification(ClientNotification(cancel))
            for _ in range(120):  # the crew ends its current model call, then stops
                undone = await client.call("undo")
                if "a crew run is going on" not in _text(undone):
                    return undone
                await anyio.sleep(0.5)
            raise AssertionError("the crew did not stop")

    with StubServer("slow", reply=failing) as stub:
        stub.slow_s = 2.0
        undone = anyio.run(drive, stub.url)
        asked = len(stub.requests)
    assert not undone.isError and asked <= 2, (asked, _text(undone))
    assert _tree(workspace) == before


def test_tools_are_listed_and_bad_input_is_an_error_that_leaves_the_server_up(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path / "ws")
    down = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens: the model cannot be reached

    async def drive() -> None:
        async with mcp_server(workspace, *_backend(down), log=tmp_path / "mcp.log") as client:
            tools = await client.session.list_tools()
            assert {tool.name for tool in tools.tools} == {"ask", "undo", "search", "models"}
            empty = await client.call("ask", request="  ")
            assert empty.isError and "the request is empty" in _text(empty)
            unreachable = await client.call("ask", request=REQUEST)
            assert unreachable.isError and "could not be reached" in _text(unreachable)
            assert unreachable.structuredContent["completed"] is False
            listing = await client.call("models")
            ids = [row["id"] for row in listing.structuredContent["models"]]
            assert "qwen2.5-coder-0.5b-q4_k_m" in ids and down in listing.structuredContent["in_use"]
            nothing = await client.call("undo")
            assert _text(nothing).startswith("Nothing to undo")

    anyio.run(drive)
    assert _tree(workspace) == {"notes.txt": b"mine\n", "util.py": b"def double(x):\n    return 2 * x\n"}


def test_a_refused_workspace_ends_the_server_before_it_serves(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "app.py", "mcp", "--workspace", "/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        stdin=subprocess.DEVNULL,
    )
    assert result.returncode == 2 and "system folder" in result.stderr
    assert result.stdout == ""  # stdout carries the protocol only


@pytest.mark.parametrize("tool", ["ask", "undo", "search", "models"])
def test_every_tool_says_what_it_does(tool: str) -> None:
    from mcp_server.crew_service import CrewService
    from mcp_server.server import build_server

    server = build_server(CrewService.__new__(CrewService))
    described = {t.name: t for t in anyio.run(server.list_tools)}
    assert described[tool].description and len(described[tool].description) > 40
    if tool == "ask":
        assert described[tool].inputSchema["required"] == ["request"]

"""LocalCrew as an MCP server: `python app.py mcp --workspace DIR` serves the crew over stdio to any
MCP client (an editor, a chat app). A front end like gui/: it uses agents/, tools/ and models/,
never gui/.

Tools: `ask` (the crew, as `app.py ask` runs it), `undo`, `search` (the code index), `models`.
Importing this package is cheap; the `mcp` package and the crew load when the server starts.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from models.chat_engine import EngineSettings
    from models.openai_engine import RemoteSettings

EXIT_OK, EXIT_INFRA, EXIT_USAGE = 0, 1, 2


def engine_choice(
    model: str | None, remote: RemoteSettings | None, settings: EngineSettings
) -> tuple[Callable[[], Any], str]:
    """How `ask` gets its engine (as `app.py ask` makes it) and the words for it. A model that is
    not installed is reported by the first `ask`, so undo, search and models still serve."""
    if remote:
        from models.openai_engine import OpenAIEngine

        return (lambda: OpenAIEngine(remote)), f"{remote.model or 'the first model'} served by {remote.url}"
    from models.catalog import ModelNotFoundError
    from models.engine import Engine
    from models.model_path import resolve_model

    try:
        path = resolve_model(model)
    except ModelNotFoundError as exc:
        problem = exc

        def refuse() -> Any:
            raise problem

        return refuse, f"no model ({problem})"
    return (lambda: Engine(path, settings)), str(path)


def serve(args: argparse.Namespace, remote: RemoteSettings | None, settings: EngineSettings) -> int:
    """`app.py mcp`: serve until the client closes stdin. Exits 2 when the workspace is refused."""
    from mcp_server.crew_service import CrewService, ToolInputError

    factory, label = engine_choice(getattr(args, "model", None), remote, settings)
    try:
        service = CrewService(
            getattr(args, "workspace", None) or Path.cwd(),
            factory,
            rounds=getattr(args, "rounds", 3),
            model_label=label,
        )
    except ToolInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    from mcp_server.server import serve_stdio

    print(f"LocalCrew MCP server on stdio — workspace {service.workspace}, model {label}", file=sys.stderr)
    return serve_stdio(service)

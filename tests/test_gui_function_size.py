"""The page is built by one builder per part and wired by one module per part (issue #22): no
function in gui/ grows past 80 lines again, so "where is the model tab?" has a small answer."""

from __future__ import annotations

import ast
from pathlib import Path

GUI = Path(__file__).resolve().parent.parent / "gui"
MAX_LINES = 80


def test_no_function_in_gui_is_over_80_lines() -> None:
    long = []
    for path in sorted(GUI.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_LINES:
                    long.append(f"{path.name}:{node.lineno} {node.name} ({lines} lines)")
    assert not long, long

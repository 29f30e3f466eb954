"""Rule path_lines_dropped: `# calc.py` lines the coder adds are not written into the file."""

from __future__ import annotations

import re
from collections.abc import Callable

from agents.rules.parse.file_blocks import FileBlock
from agents.rules.rule import Stage, rule


@rule(
    "path_lines_dropped",
    Stage.PARSE,
    reason="`# calc.py` lines the coder adds are not written into the file",
    evidence="tests/test_path_lines_dropped.py",
)
def path_lines_dropped(block: FileBlock, read_text: Callable[[str], str]) -> str:
    """The content without lines that only name the file itself: `# calc.py` (the 0.5B adds one
    to every file it writes) or `# calc.py:1-3` (the 1.5B copied the way retrieved code was
    shown, at the top and inside), unless the file already had that line. A bare `calc.py`
    first line is never code meant: it went to the file and broke its import. The blank lines
    under a first such line go too: a new file does not start with one."""
    first, _, rest = block.content.partition("\n")
    if first.strip() == block.path and rest.strip():
        return rest.lstrip("\n")
    naming = re.compile(rf"#\s*{re.escape(block.path)}(?::\d+(?:-\d+)?|\s+lines\s+\d+-\d+)?")
    lines = block.content.splitlines(keepends=True)
    if not any(naming.fullmatch(line.strip()) for line in lines):
        return block.content
    try:
        had = set(read_text(block.path).splitlines())
    except (ValueError, OSError):  # a new file
        had = set()
    kept = [line for line in lines if line.rstrip("\n") in had or not naming.fullmatch(line.strip())]
    if not "".join(kept).strip():
        return block.content
    dropped_first = bool(lines) and kept[:1] != lines[:1]
    text = "".join(kept)
    return text.lstrip("\n") if dropped_first else text

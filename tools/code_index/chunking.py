"""Split a file's text into chunks for embedding and full-text search.

Python follows ``ast`` boundaries: each top-level function whole; each class as a header chunk
(``class`` line, docstring, attributes) plus one chunk per method (nested classes recurse); the
lines between definitions (module docstring, imports, constants, ``if __name__`` blocks) as module
chunks. Decorators and the comment lines right above a definition belong to it. A file that does
not parse falls back to line windows.

Other text is cut into windows of lines that overlap. Any chunk above the token limit (the
embedding model's input length, measured with its tokenizer when one is given) is cut into
overlapping line windows too, and a single over-long line into pieces, so nothing is truncated
silently by the model.
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: Bump when chunk boundaries or embedded text change: the table name includes it.
CHUNKER_VERSION = 2

TokenCounter = Callable[[Sequence[str]], list[int]]

DEFAULT_MAX_TOKENS = 256  # all-MiniLM-L6-v2's max_seq_length, special tokens included
SPECIAL_TOKENS = 2  # [CLS] and [SEP]
WINDOW_LINES = 40
WINDOW_OVERLAP = 8

LANGUAGES = {
    ".py": "python",
    ".pyi": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".tsx": "typescript",
    ".java": "java",
    ".kt": "kotlin",
    ".go": "go",
    ".rs": "rust",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".hpp": "cpp",
    ".cs": "csharp",
    ".rb": "ruby",
    ".php": "php",
    ".swift": "swift",
    ".scala": "scala",
    ".sh": "shell",
    ".bash": "shell",
    ".zsh": "shell",
    ".ps1": "powershell",
    ".sql": "sql",
    ".html": "html",
    ".htm": "html",
    ".css": "css",
    ".scss": "css",
    ".vue": "vue",
    ".svelte": "svelte",
    ".md": "markdown",
    ".rst": "rst",
    ".txt": "text",
    ".json": "json",
    ".toml": "toml",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".ini": "ini",
    ".cfg": "ini",
    ".xml": "xml",
    ".lua": "lua",
    ".r": "r",
    ".jl": "julia",
    ".ipynb": "json",
}
SPECIAL_NAMES = {"Dockerfile": "dockerfile", "Makefile": "make", "CMakeLists.txt": "cmake"}


def detect_language(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    if name in SPECIAL_NAMES:
        return SPECIAL_NAMES[name]
    dot = name.rfind(".")
    return LANGUAGES.get(name[dot:].lower(), "text") if dot > 0 else "text"


def line_tokens(lines: Sequence[str]) -> list[int]:
    """Cheap upper-bound-ish estimate of WordPiece tokens per line (code averages ~3 chars/token)."""
    return [(len(line) + 2) // 3 + line.count(" ") // 4 for line in lines]


def content_hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


@dataclass(frozen=True, slots=True)
class Chunk:
    path: str
    start_line: int  # 1-based, inclusive
    end_line: int  # 1-based, inclusive
    symbol: str  # qualified name ("Class.method"), "" for module and text chunks
    language: str
    kind: str  # "function" | "class" | "method" | "module" | "text"
    text: str

    @property
    def content_hash(self) -> str:
        return content_hash(self.text)

    @property
    def embed_text(self) -> str:
        """What the embedding model sees: the code, preceded by the qualified symbol when the
        code does not show it (methods: their class; later windows of a long function).

        The path is left out on purpose, so a renamed or copied file reuses its vectors; the
        full-text side indexes the path.
        """
        if self.symbol and ("." in self.symbol or self.symbol not in self.text):
            return f"{self.symbol}\n{self.text}"
        return self.text


@dataclass(frozen=True, slots=True)
class _Segment:
    start: int  # 0-based line index, inclusive
    end: int  # 0-based, inclusive
    symbol: str
    kind: str


class Chunker:
    """Turns (path, text) into chunks that fit ``max_tokens`` of the embedding model."""

    def __init__(
        self,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        count_tokens: TokenCounter | None = None,
        window_lines: int = WINDOW_LINES,
        overlap_lines: int = WINDOW_OVERLAP,
    ) -> None:
        if window_lines <= overlap_lines:
            raise ValueError("window_lines must exceed overlap_lines")
        self.max_tokens = max_tokens
        self.count_tokens = count_tokens or line_tokens
        self.window_lines = window_lines
        self.overlap_lines = overlap_lines

    # -- public -----------------------------------------------------------------------------
    def chunk(self, path: str, text: str) -> list[Chunk]:
        language = detect_language(path)
        lines = text.splitlines()
        if not any(line.strip() for line in lines):
            return []
        segments = None
        if language == "python":
            segments = python_segments(text, lines)
        if segments is None:
            segments = [_Segment(0, len(lines) - 1, "", "text")]
            window = True
        else:
            window = False
        # One tokenizer call per file: every line, then every symbol (the embedded header).
        symbols = sorted({seg.symbol for seg in segments if seg.symbol})
        counts = self.count_tokens(lines + symbols)
        tokens = counts[: len(lines)]
        budgets = {
            sym: max(4, self.max_tokens - SPECIAL_TOKENS - n)
            for sym, n in zip(symbols, counts[len(lines) :], strict=True)
        }
        budgets[""] = self.max_tokens - SPECIAL_TOKENS
        chunks: list[Chunk] = []
        for seg in segments:
            chunks.extend(self._emit(path, language, lines, tokens, seg, budgets[seg.symbol], window))
        return chunks

    # -- internals --------------------------------------------------------------------------

    def _emit(
        self,
        path: str,
        language: str,
        lines: list[str],
        tokens: list[int],
        seg: _Segment,
        budget: int,
        force_windows: bool,
    ) -> list[Chunk]:
        start, end = _trim(lines, seg.start, seg.end)
        if start > end:
            return []
        if not force_windows and sum(tokens[start : end + 1]) <= budget:
            text = "\n".join(lines[start : end + 1])
            return [Chunk(path, start + 1, end + 1, seg.symbol, language, seg.kind, text)]
        return self._windows(path, language, lines, tokens, start, end, seg, budget)

    def _windows(
        self,
        path: str,
        language: str,
        lines: list[str],
        tokens: list[int],
        start: int,
        end: int,
        seg: _Segment,
        budget: int,
    ) -> list[Chunk]:
        # Units are whole lines, except that a line over budget is cut into pieces.
        units: list[tuple[int, str, int]] = []  # (line index, text, tokens)
        for i in range(start, end + 1):
            t = tokens[i]
            if t <= budget:
                units.append((i, lines[i], t))
                continue
            line = lines[i]
            step = max(1, int(len(line) * budget / t * 0.9))
            pieces = [line[p : p + step] for p in range(0, len(line), step)]
            for piece, count in zip(pieces, self.count_tokens(pieces), strict=True):
                units.append((i, piece, count))
        chunks: list[Chunk] = []
        pos = 0
        n = len(units)
        while pos < n:
            used = 0
            stop = pos
            distinct_lines = 0
            last_line = -1
            while stop < n:
                line_idx, _, t = units[stop]
                new_line = line_idx != last_line
                if stop > pos and (used + t > budget or (new_line and distinct_lines >= self.window_lines)):
                    break
                used += t
                if new_line:
                    distinct_lines += 1
                    last_line = line_idx
                stop += 1
            window = units[pos:stop]
            parts: list[str] = []
            prev = -1
            for line_idx, piece, _ in window:
                if parts and line_idx != prev:
                    parts.append("\n")
                parts.append(piece)
                prev = line_idx
            text = "".join(parts)
            if text.strip():
                chunks.append(
                    Chunk(
                        path,
                        window[0][0] + 1,
                        window[-1][0] + 1,
                        seg.symbol,
                        language,
                        seg.kind,
                        text,
                    )
                )
            if stop >= n:
                break
            # Step back by the overlap (in units), always moving forward.
            back = min(self.overlap_lines, (stop - pos) // 2)
            pos = max(pos + 1, stop - back)
        return chunks


def _trim(lines: list[str], start: int, end: int) -> tuple[int, int]:
    while start <= end and not lines[start].strip():
        start += 1
    while end >= start and not lines[end].strip():
        end -= 1
    return start, end


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _def_start(node: ast.AST, lines: list[str], floor: int) -> int:
    """0-based first line of a definition: decorators and the comments right above it."""
    start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]) - 1
    while start - 1 >= floor and lines[start - 1].lstrip().startswith("#"):
        start -= 1
    return start


def python_segments(text: str, lines: list[str]) -> list[_Segment] | None:
    """Segments along ``ast`` boundaries, or None if the source does not parse."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    segments: list[_Segment] = []
    _body_segments(tree.body, lines, 0, len(lines) - 1, "", "module", segments)
    segments.sort(key=lambda s: (s.start, s.end))
    return segments


def _body_segments(
    body: list[ast.stmt],
    lines: list[str],
    start: int,
    end: int,
    prefix: str,
    gap_kind: str,
    out: list[_Segment],
) -> None:
    """Definitions in ``body`` get their own segments; the lines between them form gap segments
    named ``prefix`` (the class) or unnamed module segments."""
    cursor = start
    gap_symbol = prefix
    for node in body:
        if not isinstance(node, _DEFS):
            continue
        node_start = max(_def_start(node, lines, cursor), cursor)
        node_end = min(node.end_lineno - 1, end) if node.end_lineno else node_start
        if node_start > cursor:
            out.append(_Segment(cursor, node_start - 1, gap_symbol, gap_kind))
        name = f"{prefix}.{node.name}" if prefix else node.name
        if isinstance(node, ast.ClassDef):
            _class_segments(node, lines, node_start, node_end, name, out)
        else:
            out.append(_Segment(node_start, node_end, name, "method" if prefix else "function"))
        cursor = node_end + 1
    if cursor <= end:
        out.append(_Segment(cursor, end, gap_symbol, gap_kind))


def _class_segments(
    node: ast.ClassDef, lines: list[str], start: int, end: int, name: str, out: list[_Segment]
) -> None:
    if not any(isinstance(child, _DEFS) for child in node.body):
        out.append(_Segment(start, end, name, "class"))
        return
    _body_segments(node.body, lines, start, end, name, "class", out)
